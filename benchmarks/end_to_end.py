"""A whole `listings.query` (100 listings with their authors and images) through flexclient,
in Transit and in JSON, and through the official JS SDK, against one loopback server.

    python benchmarks/end_to_end.py [rounds, default 200]

The server runs in a process of its own (`_page_server.py`), answering the same page in the
format each request asks for. Each side sends the request, reads the answer, decodes it and
reaches each listing's author and images. The three are interleaved call by call: a round is
one call of each, in an order that turns from round to round, so a slow moment of the machine
hits all three; after 20 warm-up rounds, the benchmark prints each side's median time and the
median of the per-round ratios, flexclient over the JS SDK (as `decode.py` does), with the
date and the machine. Needs node and the SDK in .cache/js-sdks (as .ci/run installs it);
without them it times flexclient alone. Targets (docs/performance.md): JSON at most 1.25x
the JS SDK, Transit at most 2.0x.
"""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

from _machine import described, js_modules

from flexclient import MarketplaceClient
from flexclient.params import ListingsQueryParams

ROOT = Path(__file__).parents[1]
HERE = Path(__file__).parent
WARM_UP = 20
PARAMS: ListingsQueryParams = {"perPage": 100, "include": ["author", "images"]}


def flexclient_call(sdk: MarketplaceClient) -> Callable[[], float]:
    """One timed call, in ms."""

    def call() -> float:
        started = time.perf_counter()
        for listing in sdk.listings.query(PARAMS).data.data:
            _ = listing.author, listing.images
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


def main() -> None:
    rounds = int(sys.argv[1]) if len(sys.argv) > 1 else 200
    server = subprocess.Popen(
        [sys.executable, str(HERE / "_page_server.py"), "100"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    node: subprocess.Popen[str] | None = None
    modules = js_modules()
    try:
        assert server.stdout is not None
        base_url = f"http://127.0.0.1:{int(server.stdout.readline())}"
        sides: dict[str, Callable[[], float]] = {
            "Transit": flexclient_call(MarketplaceClient("bench-client", base_url=base_url)),
            "JSON": flexclient_call(
                MarketplaceClient("bench-client", base_url=base_url, wire_format="json")
            ),
        }
        if modules is not None:
            node = subprocess.Popen(
                ["node", str(HERE / "js_query.js"), base_url],
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
    finally:
        for process in (node, server):
            if process is not None and process.stdin is not None:
                process.stdin.close()
                process.wait(10)
    print(described(modules))
    print(
        "listings.query, 100 listings with authors and images, server in its own process;"
        f" {rounds} rounds, the sides interleaved"
    )
    for name in names:
        print(f"  {name:10} median {statistics.median(times[name]):7.2f} ms a call", end="")
        base = "JS SDK" if "JS SDK" in times and name != "JS SDK" else None
        if base is not None:
            ratio = statistics.median(
                mine / theirs for mine, theirs in zip(times[name], times[base], strict=True)
            )
            target = {"Transit": 2.0, "JSON": 1.25}[name]
            print(f"   median of per-round ratios {ratio:5.2f}x the JS SDK (target <= {target}x)")
        else:
            print()
    if "JS SDK" not in times:
        print("  official JS SDK  (node or the SDK not installed; skipped)")
    ratio = statistics.median(j / t for j, t in zip(times["JSON"], times["Transit"], strict=True))
    print(f"  JSON over Transit, median of per-round ratios {ratio:5.2f}x")


if __name__ == "__main__":
    main()
