"""The client's cost per call against bare `requests`, over loopback with keep-alive.

    python benchmarks/request_overhead.py [calls, default 1000]

Each side calls `marketplace/show` on a loopback server in another process (`_page_server.py`,
HTTP/1.1) with the same token and keep-alive: the baseline through `requests.Session.get` plus
`json.loads`; flexclient through `sdk.marketplace.show()` (encoding, auth, retries, decoding,
models), over the session it made (the direct request path) and over a `session=` of the
user's (requests' whole path, as `Session.request` takes it). The sides take turns in rounds
of 50 calls, in an order that turns from round to round; the benchmark prints each side's
median time a call and the median of the per-round ratios, in wall time and in this process's
CPU time (the server's work left out, which on a shared machine moves less). Target:
flexclient at most 1.3x the baseline, in wall time.
"""

from __future__ import annotations

import json
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import requests

sys.path.insert(0, str(Path(__file__).parent))

from _machine import described

from flexclient import MarketplaceClient
from flexclient._wire.formats import WireFormatName

ROUND = 50


def measure(base_url: str, wire: WireFormatName, calls: int) -> None:
    own = MarketplaceClient("bench-client", base_url=base_url, wire_format=wire)
    own.marketplace.show()  # the token, and a warm connection
    token = own.token_store.get()
    assert token is not None
    yours = MarketplaceClient(
        "bench-client",
        base_url=base_url,
        wire_format=wire,
        session=requests.Session(),
        token_store=own.token_store,
    )
    yours.marketplace.show()
    session = requests.Session()
    url = f"{base_url}/v1/api/marketplace/show"
    headers = {"Authorization": f"Bearer {token.access_token}", "Accept": "application/json"}
    assert json.loads(session.get(url, headers=headers).content)["data"]["type"] == "marketplace"

    def bare() -> None:
        json.loads(session.get(url, headers=headers, timeout=30).content)

    sides: dict[str, Callable[[], object]] = {
        "requests + json.loads": bare,
        "flexclient, its own session": own.marketplace.show,
        "flexclient, session= of yours": yours.marketplace.show,
    }
    names = list(sides)
    wall: dict[str, list[float]] = {name: [] for name in names}
    cpu: dict[str, list[float]] = {name: [] for name in names}
    for n in range(max(1, calls // ROUND) + 1):
        turn = n % len(names)
        for name in names[turn:] + names[:turn]:
            call = sides[name]
            started, started_cpu = time.perf_counter(), time.process_time()
            for _ in range(ROUND):
                call()
            if n:  # the first round warms up
                wall[name].append((time.perf_counter() - started) / ROUND * 1e3)
                cpu[name].append((time.process_time() - started_cpu) / ROUND * 1e3)
    print(f"{wire}, {len(wall[names[0]]) * ROUND} calls a side, in rounds of {ROUND}:")
    print(f"  {'':32}{'wall, ms a call':>22}{'CPU here, ms a call':>26}")
    for name in names:
        cells = ""
        for times in (wall, cpu):
            base = times[names[0]]
            ratio = statistics.median(m / b for m, b in zip(times[name], base, strict=True))
            cells += f"{statistics.median(times[name]):13.3f} ({ratio:4.2f}x)"
        print(f"  {name:32}{cells}")
    for label, times in (("wall", wall), ("CPU", cpu)):
        saved = statistics.median(
            y - o for y, o in zip(times[names[2]], times[names[1]], strict=True)
        )
        print(f"  the direct path saves {saved:.3f} ms a call in {label} (median of rounds)")


def main() -> None:
    calls = int(sys.argv[1]) if len(sys.argv) > 1 else 1000
    print(described())
    server = subprocess.Popen(
        [sys.executable, str(Path(__file__).parent / "_page_server.py"), "1"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    assert server.stdin is not None and server.stdout is not None
    try:
        base_url = f"http://127.0.0.1:{int(server.stdout.readline())}"
        measure(base_url, "json", calls)
        measure(base_url, "transit", calls)
    finally:
        server.stdin.close()
        server.wait(10)


if __name__ == "__main__":
    main()
