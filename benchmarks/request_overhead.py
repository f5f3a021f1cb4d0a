"""The client's cost per call against bare `requests`, over loopback with keep-alive.

    python benchmarks/request_overhead.py [calls, default 1000]

Both sides call `marketplace/show` on the fake marketplace (in another process) with the same
token and keep-alive: flexclient through `sdk.marketplace.show()` (encoding, auth, retries,
decoding, models), the baseline through `requests.Session.get` plus `json.loads`. Target: at
most 1.3x.
"""

from __future__ import annotations

import json
import sys
import time

import requests

from flexclient import MarketplaceClient
from flexclient._wire.formats import WireFormatName
from flexclient.testing import Served, fake_process


def measure(fake: Served, wire: WireFormatName, calls: int) -> None:
    sdk = MarketplaceClient(fake.client_id, base_url=fake.url, wire_format=wire)
    sdk.marketplace.show()  # the token, and a warm connection
    token = sdk.token_store.get()
    assert token is not None
    session = requests.Session()
    url = f"{fake.url}/v1/api/marketplace/show"
    headers = {"Authorization": f"Bearer {token.access_token}", "Accept": "application/json"}
    assert json.loads(session.get(url, headers=headers).content)["data"]["type"] == "marketplace"

    def bare() -> None:
        for _ in range(calls):
            json.loads(session.get(url, headers=headers, timeout=30).content)

    def ours() -> None:
        for _ in range(calls):
            sdk.marketplace.show()

    timings: dict[str, float] = {}
    for name, fn in (("bare", bare), ("ours", ours), ("bare", bare), ("ours", ours)):
        started = time.perf_counter()
        fn()
        elapsed = time.perf_counter() - started
        timings[name] = min(timings.get(name, elapsed), elapsed)
    ratio = timings["ours"] / timings["bare"]
    print(f"{calls} calls, flexclient ({wire}): {timings['ours']:.2f} s;")
    print(f"  requests + json.loads: {timings['bare']:.2f} s; ratio {ratio:.2f}x (target <= 1.3x)")


def main() -> None:
    calls = int(sys.argv[1]) if len(sys.argv) > 1 else 1000
    with fake_process() as fake:
        measure(fake, "json", calls)
        measure(fake, "transit", calls)


if __name__ == "__main__":
    main()
