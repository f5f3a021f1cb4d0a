"""Every reach-in to CPython, requests and urllib3 internals, in one place.

flexclient relies on a few things its dependencies do not promise. Each is here, checked the
first time it is needed (the answer is kept for the process), with a plain way to do without:

- `uuid.UUID`'s slot setters (`int`, `is_safe`), for `_wire.values.fast_uuid`: ids built in
  a third of the time. Without: the same check, the id built by `uuid.UUID(bytes=...)`.
- A socket's count of open files (`_io_refs`, `_decref_socketios`, `socket.SocketIO`), for
  `_http.deadline`: every read of a response bounded by the call's deadline. Without: the
  socket's own file, each read bounded by the read timeout only.
- urllib3's pool classes (`PoolManager.pool_classes_by_scheme`, `ConnectionCls`), for
  `_http.deadline.DeadlineAdapter`: the deadline sockets in its pools. Without: the pools of a
  plain `HTTPAdapter`.
- requests' `HTTPAdapter._pool_connections`, `_pool_maxsize` and `_pool_block`, for
  `DeadlineAdapter.replacing`: a user's session keeps its pool settings. Without: requests'
  defaults.
- `sys._getframe`, for `_support.json_reading`: the stack's depth, to refuse JSON nested
  deeper than the stack has room for. Without: a guess.

Each earns its place (docs/performance.md, "Decided: the reach-ins that stay"): the UUID
setters by a promised figure (the Transit decode against transit-python, measured with and
without by `benchmarks/tricks.py`); the others by behaviour a fallback loses (the deadline
within a read, a session's pool settings, the nesting refused), none of them by speed.

`tests/test_compat.py` checks each check, forces each fallback and compares the results;
`scripts/test_oldest.sh` runs the tests that use them against the oldest requests, urllib3
and pydantic that flexclient supports (docs/development.md).

Nothing here imports requests or urllib3 before a function that needs them runs: the lower
layers import this module, and what a cold start loads is counted (tests/test_cold_start.py).
"""

from __future__ import annotations

import functools
import socket
import sys
import uuid
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import requests.adapters
    import urllib3
    from urllib3.connectionpool import HTTPConnectionPool

# --- CPython: uuid.UUID ----------------------------------------------------------------------

UuidSetters = tuple[Callable[[uuid.UUID, int], None], Callable[[uuid.UUID, uuid.SafeUUID], None]]

_SAMPLE_ID = "c6ff7190-bdf7-47a0-8a2b-e3136e74334f"


@functools.cache
def uuid_slot_setters() -> UuidSetters | None:
    """The setters of `uuid.UUID`'s two slots, `int` and `is_safe`, with which a UUID is
    built without `uuid.UUID.__init__`'s keyword handling; None unless a UUID built so from a
    known id is, in every way checked, the one `uuid.UUID` builds (the slots are the class's
    only state; it compares, hashes, prints and pickles the same)."""
    try:
        if set(getattr(uuid.UUID, "__slots__", ())) - {"__weakref__"} != {"int", "is_safe"}:
            return None
        set_int = uuid.UUID.__dict__["int"].__set__
        set_safety = uuid.UUID.__dict__["is_safe"].__set__
        made = object.__new__(uuid.UUID)
        set_int(made, int(_SAMPLE_ID.replace("-", ""), 16))
        set_safety(made, uuid.SafeUUID.unknown)
        plain = uuid.UUID(_SAMPLE_ID)
        same = (
            made == plain
            and hash(made) == hash(plain)
            and str(made) == _SAMPLE_ID
            and made.is_safe is plain.is_safe
            and made.version == plain.version
            and made.__getstate__() == plain.__getstate__()  # what pickle and copy take
        )
    except Exception:  # any surprise at all means: not this way
        return None
    return (set_int, set_safety) if same else None


# --- CPython: the files of a socket ------------------------------------------------------------


class _PassedOn:
    """What `_http.deadline`'s socket is to `socket.SocketIO`: reads and the release of the
    file passed on to the socket it wraps."""

    def __init__(self, sock: socket.socket) -> None:
        self._sock = sock

    def recv_into(self, *args: Any) -> int:
        return self._sock.recv_into(*args)

    def fileno(self) -> int:
        return self._sock.fileno()

    def _decref_socketios(self) -> None:
        release_socket_file(self._sock)


@functools.cache
def socket_files_counted() -> bool:
    """Whether a file can be opened on a socket through a wrapper of it, as `socket.makefile`
    opens one on the socket itself: `socket.SocketIO` over the wrapper, the socket's count of
    open files (`_io_refs`) raised by one, and lowered through `_decref_socketios` when the
    file is closed. The socket must then stay open while its file does (http.client closes
    the socket before the body is read) and close with the file. Tried once on a socket pair."""
    try:
        a, b = socket.socketpair()
    except OSError:
        return False
    try:
        if not hold_socket_file(a):
            return False
        reader = socket.SocketIO(_PassedOn(a), "rb")  # type: ignore[arg-type]
        b.sendall(b"ok")
        a.close()
        open_after_close = a.fileno() != -1
        got = reader.read(2)
        reader.close()
        return got == b"ok" and open_after_close and a.fileno() == -1
    except Exception:
        return False
    finally:
        a.close()
        b.close()


def hold_socket_file(sock: object) -> bool:
    """Count one more file open on `sock`, as `socket.makefile` does, so that closing the
    socket waits for the file; False, counting nothing, when `sock` keeps no such count."""
    refs = getattr(sock, "_io_refs", None)
    if type(refs) is not int or not callable(getattr(sock, "_decref_socketios", None)):
        return False
    sock._io_refs = refs + 1  # type: ignore[attr-defined]
    return True


def release_socket_file(sock: object) -> None:
    """The file counted by `hold_socket_file` is closed: the socket closes if it was closed
    meanwhile."""
    sock._decref_socketios()  # type: ignore[attr-defined]


# --- urllib3: the classes of a pool manager's pools ------------------------------------------


_POOL_CHECKS: dict[tuple[type[Any], type[Any]], bool] = {}


def _pool_classes_honoured(http: type[HTTPConnectionPool], https: type[HTTPConnectionPool]) -> bool:
    """`_pool_classes_checked`, once for each pair of classes."""
    found = _POOL_CHECKS.get((http, https))
    if found is None:
        found = _POOL_CHECKS[http, https] = _pool_classes_checked(http, https)
    return found


def _pool_classes_checked(http: type[HTTPConnectionPool], https: type[HTTPConnectionPool]) -> bool:
    """Whether a urllib3 `PoolManager` makes its pools from `pool_classes_by_scheme`, and
    urllib3's pools still make their connections from `ConnectionCls` (its own defaults
    are there)."""
    try:
        import urllib3
        from urllib3.connection import HTTPConnection, HTTPSConnection
        from urllib3.connectionpool import HTTPConnectionPool, HTTPSConnectionPool

        # Read as urllib3 reads them, whatever the type stubs say they are.
        if (
            getattr(HTTPConnectionPool, "ConnectionCls", None) is not HTTPConnection
            or getattr(HTTPSConnectionPool, "ConnectionCls", None) is not HTTPSConnection
        ):
            return False
        manager = urllib3.PoolManager()
        if type(getattr(manager, "pool_classes_by_scheme", None)) is not dict:
            return False
        manager.pool_classes_by_scheme = {"http": http, "https": https}
        try:
            plain = manager.connection_from_host("flexclient.invalid", 80, "http")
            secure = manager.connection_from_host("flexclient.invalid", 443, "https")
        finally:
            manager.clear()
        return type(plain) is http and type(secure) is https
    except Exception:
        return False


def use_pool_classes(
    manager: urllib3.PoolManager,
    http: type[HTTPConnectionPool],
    https: type[HTTPConnectionPool],
) -> bool:
    """Make `manager`'s new pools of these classes; False, changing nothing, when urllib3 no
    longer chooses them that way."""
    if not _pool_classes_honoured(http, https):
        return False
    manager.pool_classes_by_scheme = {"http": http, "https": https}
    return True


# --- requests: an adapter's pool settings ----------------------------------------------------


@functools.cache
def _adapter_keeps_pool_settings() -> bool:
    try:
        from requests.adapters import HTTPAdapter

        probe = HTTPAdapter(pool_connections=3, pool_maxsize=5, pool_block=True)
        kept = (
            getattr(probe, "_pool_connections", None),
            getattr(probe, "_pool_maxsize", None),
            getattr(probe, "_pool_block", None),
        )
        probe.close()
    except Exception:
        return False
    return kept == (3, 5, True)


def pool_settings(adapter: requests.adapters.HTTPAdapter) -> tuple[int, int, bool]:
    """`pool_connections`, `pool_maxsize` and `pool_block` of a requests adapter, as given to
    its constructor (requests keeps them only as private attributes); requests' defaults when
    it keeps them no longer, or this adapter lacks them."""
    from requests.adapters import DEFAULT_POOLBLOCK, DEFAULT_POOLSIZE

    defaults = (DEFAULT_POOLSIZE, DEFAULT_POOLSIZE, DEFAULT_POOLBLOCK)
    if not _adapter_keeps_pool_settings():
        return defaults
    connections = getattr(adapter, "_pool_connections", None)
    maxsize = getattr(adapter, "_pool_maxsize", None)
    block = getattr(adapter, "_pool_block", None)
    if type(connections) is not int or type(maxsize) is not int or type(block) is not bool:
        return defaults
    return connections, maxsize, block


# --- CPython: the depth of the stack ---------------------------------------------------------

STACK_DEPTH_GUESS = 200
"""The depth assumed where the stack cannot be measured: deeper than most programs call."""


# The frame of the caller `depth` frames up (CPython and PyPy have it; it is not promised).
_getframe: Callable[[int], Any] | None = getattr(sys, "_getframe", None)


@functools.cache
def _frames_walkable() -> bool:
    getframe = _getframe
    if getframe is None:
        return False

    def inner() -> int:
        return _walk(getframe(0))

    try:
        return inner() == _walk(getframe(0)) + 1
    except Exception:
        return False


def _walk(frame: Any, outside: str | None = None) -> int:
    depth = 0
    while frame is not None:
        if outside is None or frame.f_globals.get("__name__") != outside:
            depth += 1
        frame = frame.f_back
    return depth


def stack_depth(outside: str | None = None) -> int:
    """The frames on the calling thread's stack, its own caller's included: what counts
    against `sys.getrecursionlimit()`; `STACK_DEPTH_GUESS` where frames cannot be walked.

    With `outside`, a module's name, the frames of that module's code are left out: the
    depth is then the same whether the module runs as Python or compiled (whose functions
    have no frames)."""
    if _getframe is None or not _frames_walkable():
        return STACK_DEPTH_GUESS
    return _walk(_getframe(1), outside)
