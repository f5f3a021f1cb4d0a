"""Reading ahead: an iterator run on a thread of flexclient's own, a few items ahead of the
thread that consumes them, so that the mirror's requests and its writes overlap."""

from __future__ import annotations

import queue
import threading
from collections.abc import Generator, Iterator
from typing import Generic, TypeVar

from flexclient._support.json_reading import helper_thread

_T = TypeVar("_T")

# How often a reader held up by a full queue looks whether the consumer has stopped.
_LOOK = 0.05


class ReadAhead(Generic[_T]):
    """`source`'s items, produced on a thread of their own at most `depth` items ahead of
    the consumer, in order; an error of `source` is raised where the consumer reaches it.

    Leaving the block (the consumer done, failed or interrupted) stops the reader after the
    item it is producing, and waits for it: a request on its way ends by its deadline, and
    no thread outlives the block. The thread is one of flexclient's helpers, whose caller
    waits for it inside flexclient: decoding on it pauses the collector as in a program of
    one thread (`flexclient.models.pause_collector_while_decoding`).

    >>> with ReadAhead(iter(range(3)), depth=2, name="numbers") as items:
    ...     list(items)
    [0, 1, 2]
    """

    def __init__(self, source: Iterator[_T], depth: int, name: str) -> None:
        self._source = source
        # An item, an error, or None for the end.
        self._queue: queue.Queue[tuple[_T] | BaseException | None] = queue.Queue(depth)
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._read, name=name)

    def __enter__(self) -> Generator[_T]:
        self._thread.start()
        return self._items()

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        self._thread.join()

    def _items(self) -> Generator[_T]:
        while True:
            entry = self._queue.get()
            if entry is None:
                return
            if isinstance(entry, BaseException):
                raise entry
            yield entry[0]

    def _read(self) -> None:
        helper_thread()
        try:
            for item in self._source:
                self._put((item,))
                if self._stop.is_set():
                    return
        except BaseException as exc:  # the consumer's to raise, in its thread
            self._put(exc)
            return
        self._put(None)

    def _put(self, entry: tuple[_T] | BaseException | None) -> None:
        """Queue `entry` once there is room, unless the consumer stops first."""
        while not self._stop.is_set():
            try:
                self._queue.put(entry, timeout=_LOOK)
                return
            except queue.Full:
                continue
