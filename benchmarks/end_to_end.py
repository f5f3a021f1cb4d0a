"""Whole calls through flexclient, in Transit and in JSON, and through the official JS SDK,
against one loopback server, for each shape of page users read (`_pages.SHAPES`).

    python benchmarks/end_to_end.py [rounds, default 200] [--shape NAME]

Shapes: `listings` (100 listings with authors and three images each), `search` (the Web
Template's search page), `transactions` (an inbox's `transactions.query`), `events` (the
Integration API's `events.query`), `sparse` (`fields.listing`: title and price); all of them
by default, one after the other, or the one `--shape` names.

For each shape a server runs in a process of its own (`_page_server.py`), answering the page
in the format each request asks for. Each side sends the request, reads the answer, decodes
it and reaches what a program reads: every included resource each listed resource names (a
listing's author and images, a transaction's listing, parties, booking, reviews and
messages), an event's resource, a sparse listing's two attributes. The three are
interleaved call by call: a round is one call of each, in an order that turns from round to
round, so a slow moment of the machine hits all three; after 20 warm-up rounds, the
benchmark prints each side's median time and the median of the per-round ratios, flexclient
over the JS SDK (as `decode.py` does), then a table of them, shape by format, under the date,
the machine and the build of the Transit reader (run it with `.cache/compiled/bin/python`
for the compiled one, `scripts/test_compiled.sh`). Needs node and the SDKs in
.cache/js-sdks (as .ci/run installs them); without them it times flexclient alone.
Targets (docs/performance.md): JSON at most 1.25x the JS SDK; Transit at most 2.0x with the
compiled reader, 2.5x with the pure one.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).parent))

from _machine import described, js_modules
from _pages import READS, SHAPES

from flexclient import IntegrationClient, MarketplaceClient
from flexclient._wire import transit_reader

HERE = Path(__file__).parent
WARM_UP = 20
COMPILED = not transit_reader.__file__.endswith(".py")
TARGETS = {"Transit": 2.0 if COMPILED else 2.5, "JSON": 1.25}

CARD_VARIANTS = ("scaled-small", "scaled-medium", "listing-card", "listing-card-2x")
# Each shape's call: the client's endpoint group and the parameters (js_query.js: the same).
CALLS: dict[str, tuple[str, dict[str, Any]]] = {
    "listings": ("listings", {"perPage": 100, "include": ["author", "images"]}),
    # The Web Template's search page's parameters (SearchPage.duck.js), with the author's
    # profile image.
    "search": (
        "listings",
        {
            "perPage": 24,
            "include": ["author", "author.profileImage", "images"],
            "fields.listing": ["title", "geolocation", "price", "deleted", "state", "publicData"],
            "fields.image": [f"variants.{name}" for name in CARD_VARIANTS],
            "imageVariant.listing-card": "w:400;h:400;fit:crop",
            "imageVariant.listing-card-2x": "w:800;h:800;fit:crop",
            "limit.images": 1,
        },
    ),
    "transactions": (
        "transactions",
        {
            "perPage": 50,
            "include": ["listing", "provider", "customer", "booking", "reviews", "messages"],
        },
    ),
    "events": ("events", {"startAfterSequenceId": 999}),
    "sparse": ("listings", {"perPage": 100, "fields.listing": ["title", "price"]}),
}
assert CALLS.keys() == SHAPES.keys()


def client(shape: str, base_url: str, wire_format: str) -> Any:
    """The client whose call `shape` times: the Integration API's for events."""
    if shape == "events":
        return IntegrationClient(
            "bench-client", "bench-secret", base_url=base_url, wire_format=wire_format
        )
    return MarketplaceClient("bench-client", base_url=base_url, wire_format=wire_format)


def flexclient_call(shape: str, sdk: Any) -> Callable[[], float]:
    """One timed call, in ms: the query, and what a program reads of its answer."""
    group, params = CALLS[shape]
    query, read = getattr(sdk, group).query, READS[shape]

    def call() -> float:
        started = time.perf_counter()
        read(query(params).data.data)
        return (time.perf_counter() - started) * 1e3

    return call


def js_call(node: subprocess.Popen[str]) -> Callable[[], float]:
    """One call of the SDK's, timed by node itself (the pipe is not timed), in ms."""

    def call() -> float:
        assert node.stdin is not None and node.stdout is not None
        node.stdin.write("go\n")
        node.stdin.flush()
        return float(node.stdout.readline())

    return call


def measure(shape: str, rounds: int, modules: Path | None) -> dict[str, list[float]]:
    """Each side's times of `shape`'s call, in ms, over `rounds` interleaved rounds."""
    server = subprocess.Popen(
        [sys.executable, str(HERE / "_page_server.py"), shape],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    node: subprocess.Popen[str] | None = None
    try:
        assert server.stdout is not None
        base_url = f"http://127.0.0.1:{int(server.stdout.readline())}"
        sides = {
            name: flexclient_call(shape, client(shape, base_url, wire_format))
            for name, wire_format in (("Transit", "transit"), ("JSON", "json"))
        }
        if modules is not None:
            node = subprocess.Popen(
                ["node", str(HERE / "js_query.js"), base_url, shape],
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                text=True,
                env={**os.environ, "NODE_PATH": str(modules)},
            )
            sides["JS SDK"] = js_call(node)
        names = list(sides)
        times: dict[str, list[float]] = {name: [] for name in names}
        for n in range(WARM_UP + rounds):
            turn = n % len(names)
            measured = {name: sides[name]() for name in names[turn:] + names[:turn]}
            if n >= WARM_UP:
                for name, ms in measured.items():
                    times[name].append(ms)
        return times
    finally:
        for process in (node, server):
            if process is not None and process.stdin is not None:
                process.stdin.close()
                process.wait(10)


def ratio(times: dict[str, list[float]], name: str, base: str) -> float:
    """The median of the per-round ratios, `name` over `base`."""
    pairs = zip(times[name], times[base], strict=True)
    return statistics.median(mine / theirs for mine, theirs in pairs)


def report(shape: str, times: dict[str, list[float]]) -> list[str]:
    """Print `shape`'s figures; return its cells for the table: each format's median time
    and ratio (against the JS SDK, and its target met or not), and the JS SDK's time."""
    print(f"{shape}:")
    cells = []
    for name in ("Transit", "JSON", "JS SDK"):
        if name not in times:
            cells.append("(node or the SDKs not installed)")
            continue
        ms = statistics.median(times[name])
        line = f"  {name:8} median {ms:7.2f} ms a call"
        cell = f"{ms:.2f} ms"
        if name != "JS SDK" and "JS SDK" in times:
            r, target = ratio(times, name, "JS SDK"), TARGETS[name]
            line += f"   median of per-round ratios {r:5.2f}x the JS SDK (target <= {target}x)"
            line += "" if r <= target else ": MISSED"
            cell += f", **{r:.2f}x**" + ("" if r <= target else " (missed)")
        print(line)
        cells.append(cell)
    json_over_transit = ratio(times, "JSON", "Transit")
    print(f"  JSON over Transit, median of per-round ratios {json_over_transit:5.2f}x")
    return cells


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("rounds", nargs="?", type=int, default=200)
    parser.add_argument("--shape", choices=list(SHAPES), help="one shape (default: all)")
    args = parser.parse_args()
    modules = js_modules()
    shapes = [args.shape] if args.shape else list(SHAPES)
    print(described(modules))
    print(f"server in its own process; {args.rounds} rounds a shape, the sides interleaved")
    rows = {shape: report(shape, measure(shape, args.rounds, modules)) for shape in shapes}
    build = "compiled" if COMPILED else "pure"
    print(f"\n| shape | Transit ({build}) | JSON | the JS SDK |\n|---|---|---|---|")
    for shape, cells in rows.items():
        print(f"| {shape} | " + " | ".join(cells) + " |")
    print(f"targets: Transit <= {TARGETS['Transit']}x ({build} reader), JSON <= 1.25x")


if __name__ == "__main__":
    main()
