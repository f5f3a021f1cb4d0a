"""A value kept in memory, safe to read and replace from several threads: what the memory
token store and the memory position store of the events feed have in common."""

from __future__ import annotations

import threading
from typing import Generic, TypeVar

T = TypeVar("T")


class MemoryValue(Generic[T]):
    """One value or None, behind a lock.

    >>> cell: MemoryValue[int] = MemoryValue(3)
    >>> cell.get(), cell.set(4), cell.get()
    (3, None, 4)
    """

    def __init__(self, value: T | None = None) -> None:
        self._value = value
        self._lock = threading.Lock()

    def get(self) -> T | None:
        with self._lock:
            return self._value

    def set(self, value: T, /) -> None:
        # Positional-only: each store names the parameter as its protocol does.
        with self._lock:
            self._value = value

    def _clear(self) -> None:
        with self._lock:
            self._value = None
