"""Access tokens and the stores that keep them between calls (and between runs).

A store holds one token as the Authentication API returned it. Tokens never show in
`repr()`: `Token` redacts its secrets, and the stores show only whether they hold one.

A store may also offer `lock()`, held by a client while it fetches, refreshes or replaces the
token, so that clients sharing the store, in threads or (for `FileTokenStore`) in other
processes, refresh one at a time and each sees the token the other stored.
"""

from __future__ import annotations

import contextlib
import json
import logging
import os
import threading
from collections.abc import Generator, Mapping
from contextlib import AbstractContextManager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol, runtime_checkable

from flexclient._errors import TokenStoreError
from flexclient._files import write_atomic
from flexclient._frozen import Frozen
from flexclient._json import read_json
from flexclient._memory import MemoryValue
from flexclient._narrow import is_json_object

log = logging.getLogger("flexclient")


# What a token may hold to be sent in an Authorization header: visible ASCII, no space. A
# CR or LF would end the header early (and be refused by the HTTP library on every call).
def _header_safe(value: object) -> bool:
    # `object`: a Token may come from untyped code (a store of one's own) with anything in it.
    return (
        isinstance(value, str)
        and value.isascii()
        and value.isprintable()  # in ASCII: space to "~"
        and value != ""
        and " " not in value
    )


@dataclass(frozen=True, eq=False, repr=False)
class Token(Frozen):
    """A token response of the Authentication API.

    `scope` is space separated (`"public-read"`, `"user"`, `"trusted:user"`, `"integ"`),
    `scopes` the same as a list;
    `is_logged_in_as` marks a token an operator got by logging in as a user. The access and
    refresh tokens are left out of `repr()`.
    """

    access_token: str = field(repr=False)
    token_type: str = "bearer"
    expires_in: int | None = None
    scope: str = ""
    refresh_token: str | None = field(default=None, repr=False)
    is_logged_in_as: bool = False
    extra: dict[str, Any] = field(default_factory=dict[str, Any], repr=False)

    def __post_init__(self) -> None:
        # The message names the field, never the value: it may be half a secret.
        if not _header_safe(self.access_token):
            raise ValueError("the access_token is not a valid header value")
        if self.refresh_token is not None and not _header_safe(self.refresh_token):
            raise ValueError("the refresh_token is not a valid header value")

    @property
    def scopes(self) -> list[str]:
        return self.scope.split()

    @property
    def is_anonymous(self) -> bool:
        """Whether the token allows only public reads. As the official SDKs decide: by its
        scope (`public-read`), or, with no scope, by whether it cannot be refreshed."""
        return self.scope == "public-read" if self.scope else self.refresh_token is None

    @classmethod
    def from_wire(cls, data: Mapping[str, object]) -> Token:
        """Build from the JSON an `auth/token` call returned; raises ValueError if unusable
        (no access token, or a token that cannot be sent in a header)."""
        access = data.get("access_token")
        if not isinstance(access, str) or not access:
            raise ValueError("the token response has no access_token")
        refresh = data.get("refresh_token")
        if refresh is not None and not isinstance(refresh, str):
            raise ValueError("the token response's refresh_token is not a string")
        known = {"access_token", "token_type", "expires_in", "scope", "refresh_token"}
        known.add("is_logged_in_as")
        expires = data.get("expires_in")
        return cls(
            access_token=access,
            token_type=str(data.get("token_type") or "bearer"),
            expires_in=expires if isinstance(expires, int) else None,
            scope=str(data.get("scope") or ""),
            refresh_token=refresh,
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
    safe to call from several threads. A store shared between processes should also offer
    `lock()` (see `LockingTokenStore`)."""

    def get(self) -> Token | None: ...

    def set(self, token: Token) -> None: ...

    def remove(self) -> None: ...


@runtime_checkable
class LockingTokenStore(TokenStore, Protocol):
    """A token store with `lock()`: a context manager that the clients sharing the store
    hold while they fetch, refresh or replace its token, one at a time. It need not be
    reentrant, but it must cover every thread and process that shares the store (a Redis
    store would take a Redis lock)."""

    def lock(self) -> AbstractContextManager[object]: ...


def store_lock(store: TokenStore, fallback: threading.Lock) -> AbstractContextManager[object]:
    """The store's own lock, or `fallback` (the client's) for a store without one."""
    if isinstance(store, LockingTokenStore):
        return store.lock()
    return fallback


class MemoryTokenStore(MemoryValue[Token]):
    """Keeps the token in memory, for the life of the process (the default).

    >>> store = MemoryTokenStore()
    >>> store.get() is None
    True
    """

    def __init__(self, token: Token | None = None) -> None:
        super().__init__(token)
        self._refresh_lock = threading.Lock()

    def __repr__(self) -> str:
        return f"MemoryTokenStore(has_token={self.get() is not None})"

    def set(self, token: Token) -> None:
        super().set(token)

    def remove(self) -> None:
        self._clear()

    def lock(self) -> AbstractContextManager[object]:
        """Held by clients sharing this store while one fetches or refreshes its token."""
        return self._refresh_lock


class FileTokenStore:
    """Keeps the token in a JSON file readable only by its owner (mode 0600).

    Writes go to a temporary file in the same folder that is then renamed over the old one,
    so a reader, in this process or another, sees the old token or the new one, never half
    of either. A missing, empty or unreadable file counts as no token (an unreadable one is
    logged). `lock()` takes an OS lock on `<path>.lock`, so that processes sharing the file
    refresh its token one at a time.

    >>> store = FileTokenStore("~/.config/my-sync/token.json")  # doctest: +SKIP
    """

    def __init__(self, path: str | os.PathLike[str]) -> None:
        self.path: Path = Path(path).expanduser()
        if self.path.is_dir():
            raise TokenStoreError(
                f"the token file {str(self.path)!r} is a folder; give a file path"
            )
        self._lock = threading.Lock()
        self._refresh_lock = threading.Lock()

    def __repr__(self) -> str:
        return f"FileTokenStore({str(self.path)!r})"

    def get(self) -> Token | None:
        with self._lock:
            try:
                raw = self.path.read_bytes()
            except FileNotFoundError:
                return None
            except IsADirectoryError as exc:
                raise TokenStoreError(f"the token file {str(self.path)!r} is a folder") from exc
            if not raw.strip():
                log.warning("ignoring empty token file %s", self.path)
                return None
            try:
                data: object = read_json(raw.decode("utf-8"))
                if not is_json_object(data):
                    raise ValueError("not a JSON object")
                return Token.from_wire(data)
            except ValueError as exc:  # UnicodeDecodeError and NestingError are ValueErrors
                log.warning("ignoring unreadable token file %s: %s", self.path, _kind(exc))
                return None

    def set(self, token: Token) -> None:
        with self._lock:
            write_atomic(self.path, json.dumps(token.to_wire()))

    def remove(self) -> None:
        with self._lock:
            self.path.unlink(missing_ok=True)

    @contextlib.contextmanager
    def lock(self) -> Generator[None, None, None]:
        """Held while a client fetches, refreshes or replaces the token: by one thread of this
        process (a thread lock) and one process (an OS lock on `<path>.lock`) at a time."""
        with self._refresh_lock:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            fd = os.open(
                self.path.with_name(self.path.name + ".lock"), os.O_RDWR | os.O_CREAT, 0o600
            )
            try:
                _flock(fd)
                yield
            finally:
                os.close(fd)  # closing releases the lock


def _flock(fd: int) -> None:
    """An OS lock on an open file, held until it is closed; none on Windows (threads only).
    `fcntl` is imported here: few programs keep their token in a file."""
    try:
        import fcntl
    except ImportError:  # pragma: no cover - Windows
        return
    fcntl.flock(fd, fcntl.LOCK_EX)


def _kind(exc: BaseException) -> str:
    """What is wrong with a token file, without quoting it (it may hold half a token)."""
    if isinstance(exc, UnicodeDecodeError):
        return "not UTF-8 text"
    if isinstance(exc, json.JSONDecodeError):
        return f"not JSON ({exc.msg} at line {exc.lineno} column {exc.colno})"
    return str(exc)
