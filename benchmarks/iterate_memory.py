"""Peak memory of iterating 10,000 listings (100 pages of 100) against handling one page.

    python benchmarks/iterate_memory.py

Pages come from an in-process adapter that answers the same pre-encoded page bytes, so only
the client's allocations are measured (tracemalloc). `iter()` keeps one page at a time: the
peak should stay within 2x that of one page.
"""

from __future__ import annotations

import io
import sys
import tracemalloc
from pathlib import Path
from typing import Any

import requests
from requests.adapters import BaseAdapter

sys.path.insert(0, str(Path(__file__).parent))

from _machine import described
from _pages import encoded

from flexclient import MarketplaceClient, Token

PAGES = 100


class Pages(BaseAdapter):
    def __init__(self, body: bytes) -> None:
        super().__init__()
        self.body = body

    def send(self, request: requests.PreparedRequest, **kwargs: Any) -> requests.Response:
        page = (
            int((request.url or "").split("page=")[1].split("&")[0])
            if "page=" in (request.url or "")
            else 1
        )
        body = self.body.replace(b'"page":1,', f'"page":{page},'.encode())
        response = requests.Response()
        response.status_code = 200
        response.headers["Content-Type"] = "application/json"
        response.raw = io.BytesIO(body)
        response.request = request
        return response

    def close(self) -> None:
        pass


def main() -> None:
    print(described())
    raw, _ = encoded(100, 100)
    raw = raw.replace(b'"totalPages":1', f'"totalPages":{PAGES}'.encode())
    session = requests.Session()
    session.mount("https://", Pages(raw))
    sdk = MarketplaceClient("id", base_url="https://mp.test", session=session)
    sdk.token_store.set(Token(access_token="t", scope="public-read"))

    tracemalloc.start()
    base = tracemalloc.get_traced_memory()[0]
    page = sdk.listings.query({"perPage": 100}).data
    assert len(page.data) == 100
    one_page = tracemalloc.get_traced_memory()[1] - base
    del page
    tracemalloc.reset_peak()
    base = tracemalloc.get_traced_memory()[0]
    count = sum(1 for _ in sdk.listings.query.iter({"perPage": 100}))
    all_pages = tracemalloc.get_traced_memory()[1] - base
    tracemalloc.stop()
    assert count == PAGES * 100
    print(f"one page of 100 listings:      peak {one_page / 2**20:6.2f} MB")
    print(f"10,000 listings in 100 pages:  peak {all_pages / 2**20:6.2f} MB")
    print(f"ratio {all_pages / one_page:.2f}x (target <= 2x)")


if __name__ == "__main__":
    main()
