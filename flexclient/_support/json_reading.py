"""Reading JSON that came from elsewhere (a server, a token file, a cookie), and the pause of
the garbage collector that reading it needs.

`json.loads` recurses once per nesting level. If the collector runs in the middle of a deeply
nested document, the finalizers it calls (of any object of the program) run near the
recursion limit, fail, and are reported as "Exception ignored in ..." instead of running.
So the collector is paused while such text is parsed, and a document too deep to parse is a
`ValueError` like any other unreadable text.
"""

from __future__ import annotations

import gc
import json
import threading
from collections.abc import Generator
from contextlib import contextmanager
from typing import Any


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
"""`with gc_paused(): ...` runs the block with the cyclic collector paused."""


class NestingError(ValueError):
    """JSON nested too deeply for `json.loads` to read."""


def read_json(text: str | bytes) -> Any:
    """`json.loads` of untrusted text with the collector paused; a document nested past the
    recursion limit raises `NestingError` (a `ValueError`), as other unreadable text does.

    >>> read_json('{"a": [1]}')
    {'a': [1]}
    >>> read_json("[" * 100_000)
    Traceback (most recent call last):
    ...
    flexclient._support.json_reading.NestingError: the JSON is nested too deeply
    """
    with gc_paused():
        try:
            return json.loads(text)
        except RecursionError:
            raise NestingError("the JSON is nested too deeply") from None
