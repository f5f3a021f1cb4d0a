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
import stat
import threading
import time
from collections.abc import Generator, Mapping
from contextlib import AbstractContextManager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol, runtime_checkable

from flexclient._errors import TokenStoreError
from flexclient._http.deadline import deadline_scope, held, passed, remaining
from flexclient._support.files import NotRegularFile, make_folder, read_regular, write_atomic
from flexclient._support.frozen import Frozen
from flexclient._support.json_reading import read_json
from flexclient._support.memory import MemoryValue
from flexclient._support.narrow import is_json_object

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


# What a store's `lock()` may return that is waited for with a time limit (the memory store's
# and the client's own lock are these); any other context manager is entered as it is.
_TIMED_LOCKS = (type(threading.Lock()), type(threading.RLock()))


@contextlib.contextmanager
def store_lock(
    store: TokenStore, fallback: threading.Lock, wait: float
) -> Generator[None, None, None]:
    """Hold the store's own lock, or `fallback` (the client's) for a store without one,
    waiting at most `wait` seconds or until the calling thread's deadline, whichever comes
    first (`RequestTimeoutError`). Only the wait is bounded, not what is done holding it."""
    lock: AbstractContextManager[object] = (
        store.lock() if isinstance(store, LockingTokenStore) else fallback
    )
    with contextlib.ExitStack() as stack:
        with deadline_scope(wait):
            if isinstance(lock, _TIMED_LOCKS):
                stack.enter_context(held(lock, "the token store's lock"))
            else:
                stack.enter_context(lock)
        yield


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
    of either; temporary files a killed process left behind are removed by the next write.
    A missing, empty or unreadable file counts as no token (an unreadable one is logged).
    `lock()` takes an OS lock on `<path>.lock`, so that processes sharing the file refresh its
    token one at a time.

    A file someone else could have planted is refused with `TokenStoreError`, as ssh refuses
    such keys: one owned by another user, or writable by its group or others. So is a path
    that is not a regular file (a FIFO would block the call for ever). Give `shared=True` for
    a file that accounts of one group share on purpose: then a file of another user or
    writable by the group is used (never one anyone may write), and it is written with mode
    0660.

    >>> store = FileTokenStore("~/.config/my-sync/token.json")  # doctest: +SKIP
    """

    def __init__(self, path: str | os.PathLike[str], *, shared: bool = False) -> None:
        self.path: Path = Path(path).expanduser()
        self.shared: bool = shared
        self._mode = 0o660 if shared else 0o600
        try:
            folder = self.path.is_dir()
        except OSError:  # a folder that cannot be looked into: get() will say
            folder = False
        if folder:
            raise TokenStoreError(
                f"the token file {str(self.path)!r} is a folder; give a file path"
            )
        self._lock = threading.Lock()
        self._refresh_lock = threading.Lock()
        self._lock_holder: int | None = None

    def __repr__(self) -> str:
        return f"FileTokenStore({str(self.path)!r})"

    def _error(self, exc: OSError, doing: str) -> TokenStoreError:
        if isinstance(exc, NotRegularFile):
            return TokenStoreError(f"the token file {str(self.path)!r} {exc}")
        why = exc.strerror or str(exc)
        return TokenStoreError(f"cannot {doing} the token file {str(self.path)!r}: {why}")

    def get(self) -> Token | None:
        with self._lock:
            try:
                found = read_regular(self.path, _MAX_TOKEN_FILE)
            except OSError as exc:
                raise self._error(exc, "read") from exc
            if found is None:
                return None
            raw, status = found
            self._check_owner(status)
            if not raw.strip():
                log.warning("ignoring empty token file %s", self.path)
                return None
            try:
                if len(raw) > _MAX_TOKEN_FILE:
                    raise ValueError(f"larger than {_MAX_TOKEN_FILE} bytes")
                data: object = read_json(raw.decode("utf-8"))
                if not is_json_object(data):
                    raise ValueError("not a JSON object")
                return Token.from_wire(data)
            except ValueError as exc:  # UnicodeDecodeError and NestingError are ValueErrors
                log.warning("ignoring unreadable token file %s: %s", self.path, _kind(exc))
                return None

    def _check_owner(self, status: os.stat_result) -> None:
        """Refuse a file another account could have written its own session into."""
        uid = getattr(os, "geteuid", None)
        if uid is None:  # pragma: no cover - Windows: no owners and modes to compare
            return
        others = status.st_mode & stat.S_IWOTH
        if not self.shared and status.st_uid != uid():
            problem = f"is owned by another user (uid {status.st_uid})"
        elif (not self.shared and status.st_mode & stat.S_IWGRP) or others:
            problem = f"is writable by {'others' if others else 'its group'}"
        else:
            return
        raise TokenStoreError(
            f"the token file {str(self.path)!r} {problem}: another account could have put its"
            " own session there. Make it yours with mode 0600 (chmod 600), or give"
            " FileTokenStore(..., shared=True) if your group shares it on purpose"
        )

    def set(self, token: Token) -> None:
        with self._lock:
            try:
                write_atomic(
                    self.path,
                    json.dumps(token.to_wire()),
                    mode=self._mode,
                    # Under the lock every client takes to write, no other client write is
                    # under way: a temporary file more than a few seconds old is a killed
                    # process's, holding live tokens. (A direct `set()` outside the lock may be
                    # writing one right now: those of the last seconds are left alone.)
                    sweep_all=self._lock_holder == threading.get_ident(),
                )
            except OSError as exc:
                raise self._error(exc, "write") from exc

    def remove(self) -> None:
        with self._lock:
            try:
                self.path.unlink(missing_ok=True)
            except OSError as exc:
                raise self._error(exc, "remove") from exc

    @contextlib.contextmanager
    def lock(self) -> Generator[None, None, None]:
        """Held while a client fetches, refreshes or replaces the token: by one thread of this
        process (a thread lock) and one process (an OS lock on `<path>.lock`) at a time.
        Waiting for either ends by the calling thread's deadline (`RequestTimeoutError`)."""
        lock_path = self.path.with_name(self.path.name + ".lock")
        with held(self._refresh_lock, "the token file's lock"):
            try:
                make_folder(self.path.parent)
                # Read-only is enough for flock, so that an account of a shared file's group
                # can lock a lock file another made.
                flags = os.O_RDONLY | os.O_CREAT | getattr(os, "O_NONBLOCK", 0)
                fd = os.open(lock_path, flags, self._mode)
                if self.shared and hasattr(os, "fchmod"):
                    with contextlib.suppress(PermissionError):  # made by another account
                        os.fchmod(fd, self._mode)  # the umask took the group's bits
            except OSError as exc:
                raise TokenStoreError(
                    f"cannot open the token file's lock {str(lock_path)!r}: {exc.strerror or exc}"
                ) from exc
            try:
                if not stat.S_ISREG(os.fstat(fd).st_mode):
                    raise TokenStoreError(
                        f"the token file's lock {str(lock_path)!r} is not a regular file"
                    )
                _flock(fd)
                self._lock_holder = threading.get_ident()
                try:
                    yield
                finally:
                    self._lock_holder = None
            finally:
                os.close(fd)  # closing releases the lock


# A token response is a few hundred bytes; a larger file is not one.
_MAX_TOKEN_FILE = 64 * 1024


def _flock(fd: int) -> None:
    """An OS lock on an open file, held until it is closed; none on Windows (threads only).
    Tried again and again rather than waited for, so that the wait ends by the calling
    thread's deadline. `fcntl` is imported here: few programs keep their token in a file."""
    try:
        import fcntl
    except ImportError:  # pragma: no cover - Windows
        return
    while True:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            return
        except BlockingIOError:
            left = remaining()
            if left is not None and left <= 0:
                raise passed("the token file's lock (held by another process)") from None
            time.sleep(0.02 if left is None else min(0.02, left))


def _kind(exc: BaseException) -> str:
    """What is wrong with a token file, without quoting it (it may hold half a token)."""
    if isinstance(exc, UnicodeDecodeError):
        return "not UTF-8 text"
    if isinstance(exc, json.JSONDecodeError):
        return f"not JSON ({exc.msg} at line {exc.lineno} column {exc.colno})"
    return str(exc)
