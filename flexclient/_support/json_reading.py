"""Reading JSON that came from elsewhere (a server, a token file, a cookie), never deeper than
the stack has room for; and the pause of the garbage collector while a body is decoded.

`json.loads` recurses once per nesting level. If the collector runs in the middle of a deeply
nested document, the finalizers it calls (of any object of the program) run near the
recursion limit, fail, and are reported as "Exception ignored in ..." instead of running.
So a document nested deeper than the calling thread's stack has room for, with
`SPARE_FRAMES` frames left over for such finalizers, is refused before it is parsed: a
`NestingError`, a `ValueError` like any other unreadable text. The collector is left alone.

`gc_paused` pauses the collector for the whole process: decoding uses it when the decoding
thread is the program's only one (`program_threads`), or always if the program asks
(`flexclient.models.pause_collector_while_decoding`, docs/performance.md).
"""

from __future__ import annotations

import gc
import json
import re
import sys
import threading
import weakref
from collections.abc import Generator
from contextlib import contextmanager
from itertools import accumulate
from typing import Any

from flexclient._support.compat import stack_depth


class _GcPause:
    """Pause the cyclic garbage collector; turned back on, if it was on, when the last of the
    pauses overlapping in time (threads decoding at once) ends."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._users = 0
        self._restore = False

    @contextmanager
    def __call__(self) -> Generator[None]:
        with self._lock:
            if self._users == 0:
                self._restore = gc.isenabled()
                gc.disable()
            self._users += 1
        try:
            yield
        finally:
            with self._lock:
                self._users -= 1
                if self._users == 0 and self._restore:
                    gc.enable()


gc_paused = _GcPause()
"""`with gc_paused(): ...` runs the block with the cyclic collector paused, in every thread."""

# Threads flexclient starts for a call of its own, which waits for them before it returns (the
# mirror asking for its next page while it writes one): while they run, the thread that made
# the call is inside flexclient, and no code of the program's runs in it.
_helpers: weakref.WeakSet[threading.Thread] = weakref.WeakSet()


def helper_thread() -> None:
    """Count the calling thread as one of flexclient's own (a thread pool's initializer)."""
    _helpers.add(threading.current_thread())


def program_threads() -> int:
    """The threads running, of those `threading` knows, less flexclient's own helpers."""
    return threading.active_count() - sum(1 for t in list(_helpers) if t.is_alive())


class NestingError(ValueError):
    """JSON nested too deeply for the stack to read it."""


SPARE_FRAMES = 100
"""Frames kept free below the recursion limit while JSON is read, for what runs meanwhile."""

# Below this many brackets a document cannot nest deeply enough to need the stack measured.
_SHALLOW = 64
_STEP = {"[": 1, "{": 1, "]": -1, "}": -1}
_STEP_BYTES = {ord(k): v for k, v in _STEP.items()}
# A JSON string, escapes included; then a run of anything but brackets.
_STRING = r'"[^"\\]*(?:\\.[^"\\]*)*"'
_NOT_BRACKETS = r"[^\[\]{}]+"


def deepest(text: str | bytes) -> int:
    """How deep JSON text nests: its most brackets open at once, outside strings.

    >>> deepest('{"a": [[1], "]]]"]}'), deepest("[]"), deepest("1")
    (3, 1, 0)
    """
    # Patterns compiled here, not at import: only text with many brackets comes here.
    if isinstance(text, str):
        brackets = re.sub(_NOT_BRACKETS, "", re.sub(_STRING, "", text, flags=re.DOTALL))
        steps = map(_STEP.__getitem__, brackets)
    else:
        stripped = re.sub(_STRING.encode(), b"", text, flags=re.DOTALL)
        steps = map(_STEP_BYTES.__getitem__, re.sub(_NOT_BRACKETS.encode(), b"", stripped))
    return max(accumulate(steps), default=0)


def check_nesting(text: str | bytes) -> None:
    """Raise `NestingError` if JSON `text` nests deeper than the calling thread's stack has
    room for, `SPARE_FRAMES` kept free. Cheap for most text: the brackets are counted first,
    and only text with more of them than the room is looked at closely."""
    if isinstance(text, str):
        opening = text.count("[") + text.count("{")
    else:
        opening = text.count(b"[") + text.count(b"{")
    if opening <= _SHALLOW:
        return
    room = sys.getrecursionlimit() - stack_depth() - SPARE_FRAMES
    if opening > room and deepest(text) > room:
        raise NestingError("the JSON is nested too deeply")


def read_json(text: str | bytes) -> Any:
    """`json.loads` of untrusted text; a document nested deeper than the stack has room for
    raises `NestingError` (a `ValueError`) before it is parsed, as other unreadable text does.

    >>> read_json('{"a": [1]}')
    {'a': [1]}
    >>> read_json("[" * 100_000)
    Traceback (most recent call last):
    ...
    flexclient._support.json_reading.NestingError: the JSON is nested too deeply
    """
    check_nesting(text)
    try:
        return json.loads(text)
    except RecursionError:
        raise NestingError("the JSON is nested too deeply") from None
