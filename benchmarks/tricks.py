"""What each reach-in of `flexclient._support.compat` does to a promised figure: with it and
without it (its fallback forced), in the same run, interleaved.

    python benchmarks/tricks.py [series, default 8]

- `uuid_slot_setters` (ids built through `uuid.UUID`'s slots): `decode.py`'s Transit figure,
  the whole decode of a 100-listing page over transit-python's `Reader.read` (target: at most
  1x), and the decode with over without the setters. Series of 40 rounds, alternating which
  of the two goes first; each figure the median of per-round ratios, then of the series.
  With valgrind, the decode is also counted in instructions (as `instructions.py` counts it).
- `socket_files_counted` (the call's deadline within each read of a response):
  `request_overhead.py`'s figure, a `marketplace.show` over bare `requests` + `json.loads`
  (target: at most 1.3x), with over without the reach-in, in rounds of 50 calls.

The other reach-ins (urllib3's pool classes, requests' pool settings, the stack's depth)
carry behaviour, not speed: without them the deadline sockets are not installed, a session of
yours loses its pool settings, or the depth of nesting refused is a guess (docs/performance.md).
"""

from __future__ import annotations

import io
import json
import shutil
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import requests
from transit.reader import Reader

sys.path.insert(0, str(Path(__file__).parent))

import decode
from _machine import described
from _pages import encoded

from flexclient import MarketplaceClient
from flexclient._support import compat
from flexclient._wire import transit_reader, values
from flexclient._wire.formats import TRANSIT, WireFormatName

ROUND = 50


def uuid_setters(series: int) -> None:
    fast = values._uuid_reader(compat.uuid_slot_setters())
    plain = values._uuid_reader(None)
    _, transit = encoded(100, 100)
    text = transit.decode()

    def baseline() -> Any:
        return Reader("json").read(io.StringIO(text))

    def ours() -> Any:
        return decode.full_decode(TRANSIT, transit)

    def using(reader: Callable[[str], Any]) -> Callable[[], Any]:
        def run() -> Any:
            transit_reader._SCALARS["u"] = reader
            return ours()

        return run

    decode.verify(using(plain)(), 100)
    decode.verify(using(fast)(), 100)
    over_reader: dict[str, list[float]] = {"with": [], "without": []}
    with_over_without: list[float] = []
    try:
        for n in range(series):
            order = [("with", fast), ("without", plain)]
            for name, reader in order if n % 2 == 0 else order[::-1]:
                transit_reader._SCALARS["u"] = reader
                over_reader[name].append(decode.paired(baseline, ours)[2])
            with_over_without.append(decode.paired(using(plain), using(fast))[2])
    finally:
        transit_reader._SCALARS["u"] = values.fast_uuid
    print("uuid_slot_setters: Transit decode of a 100-listing page")
    for name, ratios in over_reader.items():
        print(f"  {name:8} the setters: {statistics.median(ratios):.3f}x Reader.read (target 1x)")
    print(f"  the decode with over without: {statistics.median(with_over_without):.3f}x")


# The Transit decode of `instructions.py`, the reader of `~u` set first (either way alike).
_SET_UUID_READER = (
    "__import__('flexclient._wire.transit_reader', fromlist=['_'])._SCALARS.__setitem__("
    "'u', __import__('flexclient._wire.values', fromlist=['_'])._uuid_reader({setters})) "
    "or full_decode(TRANSIT, transit_raw)"
)


def uuid_setters_in_instructions() -> None:
    """The same decode counted in instructions (callgrind), which no neighbour moves."""
    from instructions import RUNS, decode_instructions

    print("uuid_slot_setters: instructions a Transit decode (callgrind, hash seed 0)")
    counts: dict[str, float] = {}
    for name, setters in (
        ("with", "__import__('flexclient._support.compat', fromlist=['_']).uuid_slot_setters()"),
        ("without", "None"),
    ):
        statement = _SET_UUID_READER.format(setters=setters)
        runs = decode_instructions(statement, RUNS) - decode_instructions(statement, 0)
        counts[name] = runs / RUNS
        print(f"  {name:8} the setters: {counts[name] / 1e6:.2f} M")
    print(f"  with over without: {counts['with'] / counts['without']:.3f}x")


def socket_files(calls: int) -> None:
    server = subprocess.Popen(
        [sys.executable, str(Path(__file__).parent / "_page_server.py"), "1"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    assert server.stdin is not None and server.stdout is not None
    counted = compat.socket_files_counted
    try:
        base_url = f"http://127.0.0.1:{int(server.stdout.readline())}"
        for wire in ("json", "transit"):
            _socket_files(base_url, wire, calls, counted)
    finally:
        compat.socket_files_counted = counted
        server.stdin.close()
        server.wait(10)


def _socket_files(
    base_url: str, wire: WireFormatName, calls: int, counted: Callable[[], bool]
) -> None:
    sdk = MarketplaceClient("bench-client", base_url=base_url, wire_format=wire)
    sdk.marketplace.show()  # the token, and a warm connection
    token = sdk.token_store.get()
    assert token is not None
    session = requests.Session()
    url = f"{base_url}/v1/api/marketplace/show"
    headers = {"Authorization": f"Bearer {token.access_token}", "Accept": "application/json"}

    def bare() -> None:
        json.loads(session.get(url, headers=headers, timeout=30).content)

    def with_it() -> None:
        compat.socket_files_counted = counted
        sdk.marketplace.show()

    def without() -> None:
        compat.socket_files_counted = lambda: False
        sdk.marketplace.show()

    sides: dict[str, Callable[[], None]] = {"bare": bare, "with": with_it, "without": without}
    names = list(sides)
    wall: dict[str, list[float]] = {name: [] for name in names}
    for n in range(max(1, calls // ROUND) + 1):
        turn = n % len(names)
        for name in names[turn:] + names[:turn]:
            started = time.perf_counter()
            for _ in range(ROUND):
                sides[name]()
            if n:  # the first round warms up
                wall[name].append((time.perf_counter() - started) / ROUND * 1e3)
    sdk.close()
    print(f"socket_files_counted: marketplace.show, {wire}, {len(wall['bare']) * ROUND} calls")
    for name in ("with", "without"):
        ratio = statistics.median(m / b for m, b in zip(wall[name], wall["bare"], strict=True))
        print(f"  {name:8} the reach-in: {ratio:.3f}x bare requests (target 1.3x)")
    ratio = statistics.median(w / o for w, o in zip(wall["with"], wall["without"], strict=True))
    print(f"  a call with over without: {ratio:.3f}x")


def main() -> None:
    series = int(sys.argv[1]) if len(sys.argv) > 1 else 8
    print(described())
    uuid_setters(series)
    if shutil.which("valgrind") is not None:
        uuid_setters_in_instructions()
    socket_files(series * 250)


if __name__ == "__main__":
    main()
