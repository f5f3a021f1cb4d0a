"""Where the time of a whole call goes, part by part, for each page shape and format.

    python benchmarks/call_parts.py [rounds, default 200] [--shape NAME] [--format NAME]

The call end_to_end.py times (its server in a process of its own, its parameters, what a
program reads of the answer), with its parts timed inside each call: the request (sending,
and reading the answer's bytes), the body into models with their relationships resolved
(the collector paused, as in a program of one thread), the collector's passes during the
call (by `gc.callbacks`: almost always one, the young generations over the new page once the
pause ends), what the program reads, and freeing the page when the program drops it; "rest"
is the call's own work besides (parameters, headers, the response object). Each figure is
the median over the rounds, in ms, with the best beside it.

Interleaved with those calls, round by round, the same call with the collector's young pass
left out: the objects made while the collector was paused handed to its oldest generation
by `gc.freeze()` and `gc.unfreeze()` (two list splices) instead of examined. flexclient
does not do this (it moves the program's own young objects too, and resets the collector's
counts, which postpones its older passes: docs/performance.md); the benchmark does it to
measure what that pass costs a whole call, as the median of per-round ratios.
"""

from __future__ import annotations

import argparse
import gc
import statistics
import subprocess
import sys
import time
from collections.abc import Callable, Generator, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).parent))

from _machine import described
from _pages import READS, SHAPES
from end_to_end import CALLS, client

from flexclient import _base_client
from flexclient.models import _decoding

HERE = Path(__file__).parent
WARM_UP = 20
PARTS = ("request", "models", "collector", "read", "free", "rest")
FORMATS = {"JSON": "json", "Transit": "transit"}


class _Clock:
    """The time spent in each part of the call under way, in seconds."""

    def __init__(self) -> None:
        self.spent: dict[str, float] = {}
        self._collecting = 0.0

    def add(self, part: str, seconds: float) -> None:
        self.spent[part] = self.spent.get(part, 0.0) + seconds

    def timed(self, part: str, fn: Callable[..., Any]) -> Callable[..., Any]:
        def wrapper(*args: Any, **kwargs: Any) -> Any:
            started = time.perf_counter()
            try:
                return fn(*args, **kwargs)
            finally:
                self.add(part, time.perf_counter() - started)

        return wrapper

    def on_collection(self, phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            self._collecting = time.perf_counter()
        else:
            self.add("collector", time.perf_counter() - self._collecting)


@contextmanager
def _timed_parts(clock: _Clock) -> Iterator[None]:
    """flexclient's request and decode timed into `clock`, the collector's passes too."""
    authorized = _base_client.BaseClient._authorized
    read = _decoding._read
    _base_client.BaseClient._authorized = clock.timed("request", authorized)
    _decoding._read = clock.timed("models", read)
    gc.callbacks.append(clock.on_collection)
    try:
        yield
    finally:
        gc.callbacks.remove(clock.on_collection)
        _base_client.BaseClient._authorized = authorized
        _decoding._read = read


@contextmanager
def _handed_to_the_oldest() -> Generator[None]:
    """A pause that ends with what it made moved to the oldest generation, unexamined."""
    gc.disable()
    try:
        yield
    finally:
        gc.freeze()
        gc.unfreeze()
        gc.enable()


def measure(shape: str, wire_format: str, rounds: int) -> tuple[list[dict[str, float]], float]:
    """Each round's parts (ms), and the median of per-round ratios of the call without the
    young pass over the call as it is."""
    server = subprocess.Popen(
        [sys.executable, str(HERE / "_page_server.py"), shape],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert server.stdout is not None
        sdk = client(shape, f"http://127.0.0.1:{int(server.stdout.readline())}", wire_format)
        group, params = CALLS[shape]
        query, read = getattr(sdk, group).query, READS[shape]
        clock = _Clock()
        paused = _decoding.gc_paused

        def call() -> float:
            clock.spent.clear()
            started = time.perf_counter()
            response = query(params)
            reading = time.perf_counter()
            read(response.data.data)
            freeing = time.perf_counter()
            del response
            ended = time.perf_counter()
            clock.add("read", freeing - reading)
            clock.add("free", ended - freeing)
            return ended - started

        def unexamined() -> float:
            _decoding.gc_paused = _handed_to_the_oldest
            try:
                return call()
            finally:
                _decoding.gc_paused = paused

        rows: list[dict[str, float]] = []
        ratios: list[float] = []
        with _timed_parts(clock):
            for n in range(WARM_UP + rounds):
                if n % 2:
                    without = unexamined()
                    total = call()
                else:
                    total = call()
                parts = {k: v * 1e3 for k, v in clock.spent.items()}
                if n % 2 == 0:
                    without = unexamined()
                if n < WARM_UP:
                    continue
                parts["total"] = total * 1e3
                parts["rest"] = parts["total"] - sum(parts.get(p, 0.0) for p in PARTS[:-1])
                rows.append(parts)
                ratios.append(without / total)
        return rows, statistics.median(ratios)
    finally:
        if server.stdin is not None:
            server.stdin.close()
        server.wait(10)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("rounds", nargs="?", type=int, default=200)
    parser.add_argument("--shape", choices=list(SHAPES), help="one shape (default: all)")
    parser.add_argument("--format", choices=list(FORMATS), help="one format (default: both)")
    args = parser.parse_args()
    shapes = [args.shape] if args.shape else list(SHAPES)
    formats = [args.format] if args.format else list(FORMATS)
    print(described())
    print(f"{args.rounds} rounds a shape and format; ms a call, median (best)")
    heads = [*PARTS, "total"]
    print(
        "\n| shape | format | "
        + " | ".join(heads)
        + " | without the young pass |\n|---|---|"
        + "---|" * (len(heads) + 1)
    )
    for shape in shapes:
        for name in formats:
            rows, ratio = measure(shape, FORMATS[name], args.rounds)
            cells = [
                f"{statistics.median(r.get(h, 0.0) for r in rows):.2f} "
                f"({min(r.get(h, 0.0) for r in rows):.2f})"
                for h in heads
            ]
            print(f"| {shape} | {name} | " + " | ".join(cells) + f" | {ratio:.2f}x |")


if __name__ == "__main__":
    main()
