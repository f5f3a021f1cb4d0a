"""The Integration API's events feed at scale: events per second and peak memory.

    python benchmarks/feed.py [rounds] [--events 10000,100000]

Reads N events (10,000 and 100,000 by default; mixed types with realistic payloads, 100 a
page, the `events` page shape of `_pages.py`) from a loopback server in a process of its own
(`_feed_server.py`, HTTP/1.1, keep-alive), in Transit and in JSON, two ways:

- **feed**: `integ.events_feed(stop_when_caught_up=True)`, every event handed out (its
  checks of the sequence, its buffer and position), until it has caught up;
- **query**: the baseline, the same pages through `integ.events.query` alone, each asked with
  `startAfterSequenceId` from the last page, every event of it looked at.

Each round times every side once, in an order that turns from round to round; the figures are
the best time's events per second (in wall time, and in this process's CPU time, which a busy
machine moves less) and the medians of per-round ratios feed / query. Then one
pass of each side under tracemalloc gives its peak memory over the start (what the client
holds at most while reading); a feed keeps one page at a time, so its peak should not grow
with N. The process's peak RSS comes last.
"""

from __future__ import annotations

import argparse
import gc
import itertools
import resource
import statistics
import subprocess
import sys
import time
import tracemalloc
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

from _feed_server import FIRST_SEQUENCE_ID, PER_PAGE
from _machine import described

from flexclient import IntegrationClient

FORMATS = ("transit", "json")


def feed(integ: IntegrationClient) -> int:
    """Every event of the feed, until it has caught up; how many."""
    count = 0
    last = FIRST_SEQUENCE_ID
    for event in integ.events_feed(stop_when_caught_up=True):
        last = event.attributes.sequence_id or last
        count += 1
    assert last == FIRST_SEQUENCE_ID + count
    return count


def query(integ: IntegrationClient) -> int:
    """The same pages through events.query alone; how many events."""
    count = 0
    after: int | None = None
    while True:
        params = {"perPage": PER_PAGE} if after is None else {"startAfterSequenceId": after}
        events = integ.events.query(params).data.data  # type: ignore[arg-type]
        got = len(events)
        for event in events:
            after = event.attributes.sequence_id
            count += 1
        del events  # one page at a time, as the feed holds them
        if got < PER_PAGE:
            return count


SIDES: dict[str, Callable[[IntegrationClient], int]] = {"feed": feed, "query": query}


def warm_up(integ: IntegrationClient) -> None:
    """A few pages each way first: the first calls pay for imports, validators and the
    connection, which no round should."""
    for _ in itertools.islice(integ.events_feed(stop_when_caught_up=True), 3 * PER_PAGE):
        pass
    integ.events.query({"perPage": PER_PAGE})


def timed(
    read: Callable[[IntegrationClient], int], integ: IntegrationClient, n: int
) -> tuple[float, float]:
    """The side's wall time and this process's CPU time (which leaves out the server's work,
    and the time other processes of a busy machine take the CPU), in seconds."""
    started, cpu = time.perf_counter(), time.process_time()
    count = read(integ)
    elapsed, used = time.perf_counter() - started, time.process_time() - cpu
    assert count == n, (count, n)
    return elapsed, used


def peak(read: Callable[[IntegrationClient], int], integ: IntegrationClient) -> float:
    """The most memory (MB) the side held at once, over what was allocated before it."""
    gc.collect()
    tracemalloc.start()
    base = tracemalloc.get_traced_memory()[0]
    read(integ)
    top = tracemalloc.get_traced_memory()[1] - base
    tracemalloc.stop()
    return top / 2**20


def measure(base_url: str, n: int, rounds: int) -> None:
    for form in FORMATS:
        integ = IntegrationClient("bench-id", "bench-secret", base_url=base_url, wire_format=form)
        warm_up(integ)
        times: dict[str, list[float]] = {side: [] for side in SIDES}
        cpu: dict[str, list[float]] = {side: [] for side in SIDES}
        ratios, cpu_ratios = [], []
        for r in range(rounds):
            order = list(SIDES) if r % 2 == 0 else list(reversed(SIDES))
            took = {side: timed(SIDES[side], integ, n) for side in order}
            for side, (seconds, used) in took.items():
                times[side].append(seconds)
                cpu[side].append(used)
            ratios.append(took["feed"][0] / took["query"][0])
            cpu_ratios.append(took["feed"][1] / took["query"][1])
        peaks = {side: peak(read, integ) for side, read in SIDES.items()}
        for side in SIDES:
            best = min(times[side])
            print(
                f"{n:>7,} events  {form:<7}  {side:<5}  {n / best:>7,.0f} events/s"
                f" (best {best:6.2f} s, median {statistics.median(times[side]):6.2f} s)"
                f"  {n / min(cpu[side]):>7,.0f} events/CPU s  peak {peaks[side]:5.2f} MB"
            )
        print(
            f"{n:>7,} events  {form:<7}  feed / query: {statistics.median(ratios):.3f}x,"
            f" in CPU time {statistics.median(cpu_ratios):.3f}x (medians of {rounds} rounds)"
        )
        integ.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("rounds", nargs="?", type=int, default=3)
    parser.add_argument(
        "--events",
        default="10000,100000",
        type=lambda text: [int(n) for n in text.split(",")],
        help=f"how many events, comma-separated (multiples of {PER_PAGE})",
    )
    args = parser.parse_args()
    print(described())
    print(f"pages of {PER_PAGE} mixed events; {args.rounds} rounds; the server in its own process")
    for n in args.events:
        server = subprocess.Popen(
            [sys.executable, str(Path(__file__).parent / "_feed_server.py"), str(n)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
        )
        assert server.stdin is not None and server.stdout is not None
        try:
            measure(f"http://127.0.0.1:{int(server.stdout.readline())}", n, args.rounds)
        finally:
            server.stdin.close()
            server.wait(10)
    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    print(f"this process's peak RSS: {rss / 1024:.0f} MB (Linux counts KB)")


if __name__ == "__main__":
    main()
