"""Walking every page of a query, lazily, against the fake marketplace."""

from __future__ import annotations

import gc
import io
import sys
import warnings
import weakref
from typing import Any

import pytest
import requests_mock

from flexclient import MarketplaceClient, MissingExtraError, PaginationLimitWarning, ParameterError
from flexclient.models import Listing, User
from flexclient.testing import FakeMarketplace
from tests.helpers import MP, NO_WAIT

QUERY_PATH = "/v1/api/listings/query"


def query_requests(fake: FakeMarketplace) -> int:
    return sum(1 for _, path in fake.requests if path == QUERY_PATH)


def test_every_listing_in_three_requests(
    demo_marketplace: FakeMarketplace, demo_sdk: MarketplaceClient
) -> None:
    before = query_requests(demo_marketplace)
    listings = list(demo_sdk.listings.query.iter({"perPage": 100, "include": ["author"]}))
    assert query_requests(demo_marketplace) - before == 3
    assert len(listings) == 250 and len({lst.id for lst in listings}) == 250
    assert all(isinstance(lst, Listing) and isinstance(lst.author, User) for lst in listings)


def test_it_is_lazy_and_keeps_the_filters(
    demo_marketplace: FakeMarketplace, demo_sdk: MarketplaceClient
) -> None:
    before = query_requests(demo_marketplace)
    # A custom key in the dict, as the official SDKs write it: the type checkers refuse it
    # (docs/typing.md), the client sends it.
    walk = demo_sdk.listings.query.iter({"pub_category": "road", "perPage": 20, "sort": "price"})  # type: ignore[typeddict-unknown-key]
    assert query_requests(demo_marketplace) == before  # nothing sent yet
    first = next(walk)
    assert query_requests(demo_marketplace) == before + 1
    rest = list(walk)
    road = [first, *rest]
    assert len(road) == 50
    assert all((lst.attributes.public_data or {}).get("category") == "road" for lst in road)
    prices = [lst.attributes.price.amount for lst in road if lst.attributes.price]
    assert prices == sorted(prices, reverse=True)  # "price": the highest first
    assert query_requests(demo_marketplace) == before + 3


def test_max_items_and_whole_pages(
    demo_marketplace: FakeMarketplace, demo_sdk: MarketplaceClient
) -> None:
    before = query_requests(demo_marketplace)
    assert len(list(demo_sdk.listings.query.iter({"perPage": 100}, max_items=120))) == 120
    assert query_requests(demo_marketplace) - before == 2
    pages = list(demo_sdk.listings.query.pages({"perPage": 100, "page": 2}))
    assert [p.data.meta.page for p in pages] == [2, 3] and [len(p.data.data) for p in pages] == [
        100,
        50,
    ]
    assert len(list(demo_sdk.listings.query.pages({"perPage": 10}, max_pages=4))) == 4
    assert list(demo_sdk.listings.query.iter({"pub_category": "unicycle"})) == []  # type: ignore[typeddict-unknown-key]


def test_bad_walk_parameters(demo_sdk: MarketplaceClient) -> None:
    with pytest.raises(ParameterError, match="page"):
        next(demo_sdk.listings.query.pages({"page": 0}))
    with pytest.raises(ParameterError, match="max_items"):
        next(demo_sdk.listings.query.iter({}, max_items=-1))


class Terminal(io.StringIO):
    """Standard error as a terminal shows it: a bar is drawn there as it moves."""

    def isatty(self) -> bool:
        return True


def test_progress_bar(
    demo_sdk: MarketplaceClient, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delitem(sys.modules, "ipykernel", raising=False)  # not a notebook
    # Not a terminal (a cron job's log, a pipe): one line when done, no redrawn bar.
    assert len(list(demo_sdk.listings.query.iter({"perPage": 100}, progress=True))) == 250
    err = capsys.readouterr().err
    assert "250/250" in err and "\r" not in err and err.count("\n") == 1
    # A terminal: the bar is drawn, and redrawn as the pages come (how often, tqdm decides).
    terminal = Terminal()
    monkeypatch.setattr(sys, "stderr", terminal)
    assert len(list(demo_sdk.listings.query.iter({"perPage": 100}, progress=True))) == 250
    drawn = terminal.getvalue()
    assert drawn.count("\r") >= 2 and "250/250" in drawn  # drawn at the start, redrawn
    monkeypatch.setitem(sys.modules, "tqdm.auto", None)
    with pytest.raises(MissingExtraError, match="tqdm"):
        next(demo_sdk.listings.query.iter({}, progress=True))


def page_body(
    page: int, pages: int, per_page: int, total: int | None, limit: int | None = None
) -> dict[str, object]:
    items: list[dict[str, object]] = [
        {"id": f"00000000-0000-4000-8000-{page:06d}{i:06d}", "type": "listing", "attributes": {}}
        for i in range(per_page)
    ]
    meta: dict[str, object] = {"page": page, "perPage": per_page, "totalItems": total}
    if total is not None:
        meta["totalPages"] = pages
    if limit is not None:
        meta["paginationLimit"] = limit
    return {"data": items, "meta": meta}


def test_the_pagination_limit_stops_with_a_warning(mock: requests_mock.Mocker) -> None:
    sdk = MarketplaceClient("client-id", base_url=MP, retry_policy=NO_WAIT)
    mock.get(
        f"{MP}{QUERY_PATH}",
        [
            {
                "json": page_body(n, 5, 2, 10, limit=2),
                "headers": {"Content-Type": "application/json"},
            }
            for n in (1, 2, 3)
        ],
    )
    with pytest.warns(PaginationLimitWarning, match="page 2, .* 10 results in all"):
        assert len(list(sdk.listings.query.iter({"perPage": 2}))) == 4
    assert mock.call_count == 3  # token + 2 pages


def test_one_page_at_a_time_is_kept_while_iterating(mock: requests_mock.Mocker) -> None:
    sdk = MarketplaceClient("client-id", base_url=MP, retry_policy=NO_WAIT)
    seen: list[weakref.ref[Listing]] = []
    alive_at_fetch: list[int] = []

    def answer(request: Any, context: Any) -> dict[str, object]:
        gc.collect()  # only what is still referenced survives: no cycle hides a page
        alive_at_fetch.append(sum(ref() is not None for ref in seen))
        context.headers["Content-Type"] = "application/json"
        return page_body(int(request.qs["page"][0]), 3, 4, 12)

    mock.get(f"{MP}{QUERY_PATH}", json=answer)
    listing: Listing | None = None  # bound for the `del` below even if nothing is listed
    for listing in sdk.listings.query.iter({"perPage": 4}):
        seen.append(weakref.ref(listing))
    del listing
    # Fetching a page, at most the last listing handed out is still held (by the loop).
    assert alive_at_fetch == [0, 1, 1]


def test_without_a_total_a_short_page_is_the_last(mock: requests_mock.Mocker) -> None:
    sdk = MarketplaceClient("client-id", base_url=MP, retry_policy=NO_WAIT)
    short = page_body(3, 0, 1, None)
    answers = [
        page_body(1, 0, 3, None),
        page_body(2, 0, 3, None),
        {**short, "meta": {"page": 3, "perPage": 3}},
    ]
    mock.get(
        f"{MP}{QUERY_PATH}",
        [{"json": a, "headers": {"Content-Type": "application/json"}} for a in answers],
    )
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert len(list(sdk.listings.query.iter({"perPage": 3}))) == 7
