"""The mirror's reading ahead: items in order, at most `depth` ahead of the consumer, the
reader's error raised to the consumer, and no thread left once the block is left."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator

import pytest

from flexclient._support.json_reading import program_threads
from flexclient.mirror._ahead import ReadAhead

NAME = "flexclient-test-read"


def readers() -> list[threading.Thread]:
    return [t for t in threading.enumerate() if t.name == NAME]


def test_items_come_in_order_from_a_thread_of_their_own() -> None:
    made_on: list[str] = []

    def source() -> Iterator[int]:
        for n in range(50):
            made_on.append(threading.current_thread().name)
            yield n

    with ReadAhead(source(), 3, NAME) as items:
        assert list(items) == list(range(50))
    assert set(made_on) == {NAME} and not readers()


def test_the_reader_keeps_at_most_depth_items_ahead() -> None:
    made: list[int] = []

    def source() -> Iterator[int]:
        for n in range(100):
            made.append(n)
            yield n

    with ReadAhead(source(), 4, NAME) as items:
        assert next(items) == 0
        # Four queued, and the one it holds, waiting for room ...
        waited = time.monotonic() + 10
        while len(made) < 1 + 4 + 1 and time.monotonic() < waited:
            time.sleep(0.01)
        time.sleep(0.2)  # ... and no more, however long it is given
        assert len(made) == 1 + 4 + 1
        assert list(items) == list(range(1, 100))
    assert not readers()


def test_the_readers_error_is_raised_to_the_consumer_after_the_items_before_it() -> None:
    def source() -> Iterator[int]:
        yield 1
        yield 2
        raise LookupError("the third page")

    got: list[int] = []
    with pytest.raises(LookupError, match="the third page"), ReadAhead(source(), 2, NAME) as items:
        got.extend(items)
    assert got == [1, 2] and not readers()


def test_a_consumer_that_stops_stops_the_reader() -> None:
    made: list[int] = []

    def source() -> Iterator[int]:
        for n in range(10_000):
            made.append(n)
            yield n

    with pytest.raises(RuntimeError), ReadAhead(source(), 2, NAME) as items:
        for n in items:
            if n == 3:
                raise RuntimeError("the write failed")
    assert not readers()
    stopped_at = len(made)
    time.sleep(0.2)
    assert len(made) == stopped_at < 10  # nothing more read after the block


def test_the_reader_is_one_of_flexclients_helpers_not_a_thread_of_the_programs() -> None:
    # So that a page decoded on it pauses the collector as in a program of one thread
    # (tests/test_side_effects.py): the consumer waits for it inside flexclient.
    def source() -> Iterator[tuple[int, int]]:
        yield threading.active_count(), program_threads()

    with ReadAhead(source(), 1, NAME) as items:
        [(running, counted)] = list(items)
    assert counted == running - 1
