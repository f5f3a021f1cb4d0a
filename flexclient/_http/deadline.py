"""Total deadlines: every call ends by a time fixed when it starts.

`requests` has only per-operation timeouts: a server that sends a byte every few seconds, in
the headers or in the body, keeps a read going for ever. So the sockets of flexclient's
connections check the calling thread's deadline before every blocking operation and wait at
most until it (`_DeadlineSocket`); a call sets its deadline with `deadline_scope`, which the
token requests made within the call share.

The sockets are installed by `DeadlineAdapter`, a `requests` adapter whose only difference is
the connection class of its pools. A session of the user's own gets it mounted for the API's
origin in place of its plain `HTTPAdapter`, with the same pool settings.

Three things here reach into urllib3, requests and the socket module further than they
promise (the pool classes, an adapter's pool settings, a socket's count of open files); each
goes through `flexclient._support.compat`, which checks it when first used and falls back to
the plain behaviour (the call's deadline then holds between operations, not within a read).
"""

from __future__ import annotations

import contextlib
import io
import socket
import threading
import time
from collections.abc import Generator
from typing import Any

import requests.adapters
from urllib3.connection import HTTPConnection, HTTPSConnection
from urllib3.connectionpool import HTTPConnectionPool, HTTPSConnectionPool

from flexclient._errors import RequestTimeoutError
from flexclient._support import compat

_local = threading.local()


def current_deadline() -> float | None:
    """The calling thread's deadline, in `time.monotonic()` seconds, or None."""
    at: float | None = getattr(_local, "at", None)
    return at


def remaining() -> float | None:
    """Seconds left before the calling thread's deadline (may be negative), or None."""
    at = current_deadline()
    return None if at is None else at - time.monotonic()


@contextlib.contextmanager
def deadline_scope(seconds: float) -> Generator[float, None, None]:
    """Run the block under a deadline `seconds` from now, or under the enclosing one if that
    comes first (a call's token requests share the call's deadline). Yields the deadline."""
    outer = current_deadline()
    at = time.monotonic() + seconds
    if outer is not None:
        at = min(at, outer)
    _local.at = at
    try:
        yield at
    finally:
        _local.at = outer


def passed(waiting_for: str) -> RequestTimeoutError:
    """The error of a call whose deadline passed while it waited for `waiting_for`, before
    the request it waited to send was sent (`never_connected`)."""
    return RequestTimeoutError(
        f"the call's total deadline passed while waiting for {waiting_for}",
        kind="deadline",
        never_connected=True,
    )


@contextlib.contextmanager
def held(
    lock: threading.Lock | threading.RLock | threading.Semaphore, waiting_for: str
) -> Generator[None, None, None]:
    """Hold `lock`, waiting for it no longer than the calling thread's deadline (for ever
    without one); `RequestTimeoutError` when the deadline comes first."""
    left = remaining()
    # No timeout argument at all without a deadline: a Semaphore reads -1 as "do not wait".
    if not (lock.acquire() if left is None else lock.acquire(timeout=max(left, 0.0))):
        raise passed(waiting_for)
    try:
        yield
    finally:
        lock.release()


class DeadlinePassed(TimeoutError):
    """Raised by a socket operation started after the deadline; `requests` reports it as a
    read timeout, which the transport turns into `RequestTimeoutError`."""


class _DeadlineSocket:
    """A connected socket (plain or TLS) whose blocking operations end by the deadline.

    Each operation waits at most the smaller of the socket's own timeout (the read or connect
    timeout `requests` set) and the time left; everything else is the socket's own.
    """

    def __init__(self, sock: socket.socket) -> None:
        self._sock = sock
        self._timeout = sock.gettimeout()

    def __getattr__(self, name: str) -> Any:
        return getattr(self._sock, name)

    def settimeout(self, value: float | None) -> None:
        self._timeout = value
        self._sock.settimeout(value)

    def gettimeout(self) -> float | None:
        return self._timeout

    def _bound(self) -> None:
        left = remaining()
        if left is None:
            self._sock.settimeout(self._timeout)
            return
        if left <= 0:
            raise DeadlinePassed("the call's total deadline passed")
        self._sock.settimeout(left if self._timeout is None else min(self._timeout, left))

    def recv_into(self, *args: Any) -> int:
        self._bound()
        return self._sock.recv_into(*args)

    def recv(self, *args: Any) -> bytes:
        self._bound()
        return self._sock.recv(*args)

    def sendall(self, *args: Any) -> None:
        self._bound()
        self._sock.sendall(*args)

    def send(self, *args: Any) -> int:
        self._bound()
        return self._sock.send(*args)

    def makefile(self, mode: str = "r", buffering: int | None = None, **kwargs: Any) -> Any:
        # http.client reads responses through "rb" only. As socket.makefile does, but reading
        # through this object, so that each read of the response is bounded; that needs the
        # socket's own count of open files (compat), without which it is the socket's file.
        if (
            mode != "rb"
            or not compat.socket_files_counted()
            or not compat.hold_socket_file(self._sock)
        ):
            return self._sock.makefile(mode, buffering, **kwargs)  # type: ignore[call-overload]
        raw = socket.SocketIO(self, "rb")  # type: ignore[arg-type]
        size = buffering if buffering and buffering > 0 else io.DEFAULT_BUFFER_SIZE
        return io.BufferedReader(raw, size)

    def _decref_socketios(self) -> None:
        # Called by the file's socket.SocketIO when it is closed.
        compat.release_socket_file(self._sock)


class _HTTPConnection(HTTPConnection):
    def connect(self) -> None:
        super().connect()
        self.sock = _DeadlineSocket(self.sock)


class _HTTPSConnection(HTTPSConnection):
    def connect(self) -> None:
        super().connect()
        self.sock = _DeadlineSocket(self.sock)


# The ignores: pyright finds urllib3's own connection classes unlike urllib3's protocols for
# them (BaseHTTPConnection: a ClassVar and mutable attributes typed differently), so a
# subclass of them is too; urllib3's own defaults are these same classes.
class _HTTPPool(HTTPConnectionPool):
    ConnectionCls = _HTTPConnection  # pyright: ignore[reportAssignmentType]


class _HTTPSPool(HTTPSConnectionPool):
    ConnectionCls = _HTTPSConnection  # pyright: ignore[reportAssignmentType]


class DeadlineAdapter(requests.adapters.HTTPAdapter):
    """`requests`' HTTP adapter with connections that honour the calling thread's deadline.

    >>> session.mount("https://", DeadlineAdapter(pool_maxsize=10))  # doctest: +SKIP
    """

    def init_poolmanager(self, *args: Any, **kwargs: Any) -> None:
        super().init_poolmanager(*args, **kwargs)
        # Where urllib3 no longer takes pool classes this way, a plain adapter (compat).
        compat.use_pool_classes(self.poolmanager, _HTTPPool, _HTTPSPool)

    @classmethod
    def replacing(cls, adapter: requests.adapters.HTTPAdapter) -> DeadlineAdapter:
        """An adapter with the pool settings of `adapter` (a user's session keeps them)."""
        connections, maxsize, block = compat.pool_settings(adapter)
        return cls(
            pool_connections=connections,
            pool_maxsize=maxsize,
            max_retries=adapter.max_retries,
            pool_block=block,
        )


def install(session: requests.Session, base_url: str) -> None:
    """Make a user's `session` send requests to `base_url` through a `DeadlineAdapter`, in
    place of a plain `HTTPAdapter` and with its pool settings. A subclass or another library's
    adapter is the user's choice, and left alone."""
    adapter = session.get_adapter(base_url)
    if type(adapter) is requests.adapters.HTTPAdapter:
        session.mount(base_url.rstrip("/") + "/", DeadlineAdapter.replacing(adapter))
