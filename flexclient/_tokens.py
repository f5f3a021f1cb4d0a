"""Access tokens and the stores that keep them between calls (and between runs).

A store holds one token as the Authentication API returned it. Tokens never show in
`repr()`: `Token` redacts its secrets, and the stores show only whether they hold one.
"""

from __future__ import annotations

import json
import logging
import os
import threading
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol, runtime_checkable

from flexclient._files import write_atomic

log = logging.getLogger("flexclient")


@dataclass(frozen=True)
class Token:
    """A token response of the Authentication API.

    `scope` is space separated (`"public-read"`, `"user"`, `"trusted:user"`, `"integ"`);
    `is_logged_in_as` marks a token an operator got by logging in as a user. The access and
    refresh tokens are left out of `repr()`.
    """

    access_token: str = field(repr=False)
    token_type: str = "bearer"
    expires_in: int | None = None
    scope: str = ""
    refresh_token: str | None = field(default=None, repr=False)
    is_logged_in_as: bool = False
    extra: dict[str, Any] = field(default_factory=dict, repr=False)

    @property
    def scopes(self) -> list[str]:
        return self.scope.split()

    @classmethod
    def from_wire(cls, data: dict[str, Any]) -> Token:
        """Build from the JSON an `auth/token` call returned; raises ValueError if unusable."""
        access = data.get("access_token")
        if not isinstance(access, str) or not access:
            raise ValueError("the token response has no access_token")
        known = {"access_token", "token_type", "expires_in", "scope", "refresh_token"}
        known.add("is_logged_in_as")
        expires = data.get("expires_in")
        refresh = data.get("refresh_token")
        return cls(
            access_token=access,
            token_type=str(data.get("token_type") or "bearer"),
            expires_in=expires if isinstance(expires, int) else None,
            scope=str(data.get("scope") or ""),
            refresh_token=refresh if isinstance(refresh, str) else None,
            is_logged_in_as=data.get("is_logged_in_as") is True,
            extra={k: v for k, v in data.items() if k not in known},
        )

    def to_wire(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            **self.extra,
            "access_token": self.access_token,
            "token_type": self.token_type,
            "scope": self.scope,
        }
        if self.expires_in is not None:
            data["expires_in"] = self.expires_in
        if self.refresh_token is not None:
            data["refresh_token"] = self.refresh_token
        if self.is_logged_in_as:
            data["is_logged_in_as"] = True
        return data


@runtime_checkable
class TokenStore(Protocol):
    """Where a client keeps its token: `get`, `set`, `remove`. Implementations must be
    safe to call from several threads."""

    def get(self) -> Token | None: ...

    def set(self, token: Token) -> None: ...

    def remove(self) -> None: ...


class MemoryTokenStore:
    """Keeps the token in memory, for the life of the process (the default).

    >>> store = MemoryTokenStore()
    >>> store.get() is None
    True
    """

    def __init__(self, token: Token | None = None) -> None:
        self._token = token
        self._lock = threading.Lock()

    def __repr__(self) -> str:
        return f"MemoryTokenStore(has_token={self._token is not None})"

    def get(self) -> Token | None:
        with self._lock:
            return self._token

    def set(self, token: Token) -> None:
        with self._lock:
            self._token = token

    def remove(self) -> None:
        with self._lock:
            self._token = None


class FileTokenStore:
    """Keeps the token in a JSON file readable only by its owner (mode 0600).

    Writes go to a temporary file in the same folder that is then renamed over the old one,
    so a reader, in this process or another, sees the old token or the new one, never half
    of either. A missing, empty or corrupt file counts as no token (a corrupt one is logged).

    >>> store = FileTokenStore("~/.config/my-sync/token.json")  # doctest: +SKIP
    """

    def __init__(self, path: str | os.PathLike[str]) -> None:
        self.path = Path(path).expanduser()
        self._lock = threading.Lock()

    def __repr__(self) -> str:
        return f"FileTokenStore({str(self.path)!r})"

    def get(self) -> Token | None:
        with self._lock:
            try:
                text = self.path.read_text(encoding="utf-8")
            except FileNotFoundError:
                return None
            if not text.strip():
                log.warning("ignoring empty token file %s", self.path)
                return None
            try:
                data = json.loads(text)
                if not isinstance(data, dict):
                    raise ValueError("not a JSON object")
                return Token.from_wire(data)
            except ValueError as exc:
                log.warning("ignoring unreadable token file %s: %s", self.path, exc)
                return None

    def set(self, token: Token) -> None:
        with self._lock:
            write_atomic(self.path, json.dumps(token.to_wire()))

    def remove(self) -> None:
        with self._lock:
            self.path.unlink(missing_ok=True)


@dataclass(frozen=True)
class AuthInfo:
    """What the stored token allows: its scopes, whether it is anonymous (only
    `public-read`), and whether an operator got it by logging in as a user.

    With no token stored (before the first call, after logout) the info is empty: no scopes,
    and neither anonymous nor logged in as; `has_token` is False.
    """

    scopes: list[str] = field(default_factory=list)
    is_anonymous: bool = False
    is_logged_in_as: bool = False
    has_token: bool = False

    @classmethod
    def of(cls, token: Token | None) -> AuthInfo:
        if token is None:
            return cls()
        # As the official SDKs: a token without a scope is anonymous if it cannot be refreshed.
        anonymous = token.scope == "public-read" if token.scope else token.refresh_token is None
        return cls(
            scopes=token.scopes,
            is_anonymous=anonymous,
            is_logged_in_as=token.is_logged_in_as,
            has_token=True,
        )
