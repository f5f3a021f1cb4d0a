"""The Asset Delivery API over real HTTP against `FakeAssetCDN`, and the official SDK driven
against the same fake: both send the same requests (path, `assets=` list, Accept header),
follow the same redirects and read the same assets."""

from __future__ import annotations

import json
from typing import Any
from urllib.parse import unquote

import pytest

from flexclient import (
    ApiError,
    AssetReferenceError,
    ImageAsset,
    MarketplaceClient,
    NotFoundError,
    ServerError,
)
from flexclient.testing._asset_cdn import FakeAssetCDN
from tests.helpers import NO_WAIT
from tests.js_sdks import ROOT, run_js

SCRIPT = ROOT / "tests" / "js_sdk_features" / "assets.js"

LOGO = {
    "id": "c8b4b5e2-0000-4000-8000-000000000001",
    "type": "imageAsset",
    "attributes": {
        "assetPath": "/design/logo.png",
        "variants": {
            "scaled": {"url": "https://img.test/logo.png", "width": 240, "height": 60},
            "scaled2x": {"url": "https://img.test/logo@2x.png", "width": 480, "height": 120},
        },
    },
}
ASSETS: dict[str, Any] = {
    "content/translations.json": {"TopbarDesktop.login": "Log in", "n": 1.5},
    "design/branding.json": {
        "marketplaceColor": "#7c3aed",
        "logo": {"_ref": {"type": "imageAsset", "id": LOGO["id"]}},
    },
    "listings/listing-types.json": {"listingTypes": [{"id": "rent", "transactionType": {}}]},
    "listings/listing-categories.json": {"categories": [{"id": "bikes", "subcategories": []}]},
    "content/pages/about.json": {
        "sections": [{"blocks": [{"media": {"_ref": {"type": "imageAsset", "id": "gone"}}}]}]
    },
    "content/a.json": [1, 2],
    "a.json": "top",
    "folder with space/ü.json": {"ü": "ä"},
    "folder with space/b.json": None,
    "odd/[x]^|.json": {"odd": True},
}

# (flexclient method, official SDK method, arguments); `VERSION` is the first version.
CALLS: list[tuple[str, str, dict[str, Any]]] = [
    ("asset_by_alias", "assetByAlias", {"path": "content/translations.json", "alias": "latest"}),
    ("asset_by_alias", "assetByAlias", {"path": "/design/branding.json", "alias": "latest"}),
    (
        "asset_by_version",
        "assetByVersion",
        {"path": "content/translations.json", "version": "VERSION"},
    ),
    (
        "assets_by_alias",
        "assetsByAlias",
        {
            "paths": ["listings/listing-types.json", "/listings/listing-categories.json"],
            "alias": "latest",
        },
    ),
    (
        "assets_by_version",
        "assetsByVersion",
        {
            "paths": ["content/translations.json", "design/branding.json", "a.json"],
            "version": "VERSION",
        },
    ),
    ("assets_by_alias", "assetsByAlias", {"paths": ["content/a.json"], "alias": "latest"}),
    ("asset_by_alias", "assetByAlias", {"path": "folder with space/ü.json", "alias": "latest"}),
    (
        "assets_by_alias",
        "assetsByAlias",
        {"paths": ["folder with space/ü.json", "folder with space/b.json"], "alias": "latest"},
    ),
    ("asset_by_alias", "assetByAlias", {"path": "missing.json", "alias": "latest"}),
    ("asset_by_version", "assetByVersion", {"path": "a.json", "version": "no-such-version"}),
    ("asset_by_alias", "assetByAlias", {"path": "odd/[x]^|.json", "alias": "latest"}),
]


def with_version(args: dict[str, Any], version: str) -> dict[str, Any]:
    return {k: version if v == "VERSION" else v for k, v in args.items()}


def sdk_calls(cdn: FakeAssetCDN, calls: list[dict[str, Any]]) -> list[dict[str, Any]]:
    result: list[dict[str, Any]] = run_js(SCRIPT, cdn.url, cdn.client_id, given=calls)
    return result


def ours(sdk: MarketplaceClient, method: str, args: dict[str, Any]) -> dict[str, Any]:
    """A call's outcome in the official SDK's shape (status, data as sent)."""
    try:
        res = getattr(sdk, method)(**args)
    except ApiError as e:
        return {"error": {"status": e.status, "data": json.loads(e.body)}}
    found = res.data
    included = [r.model_dump(by_alias=True) for r in found.included]
    if method.startswith("assets_"):
        data: Any = [
            {"id": a.id, "type": a.type, "attributes": {"assetPath": a.path, "data": a.data}}
            for a in found.assets
        ]
    else:
        data = found.data
    return {
        "status": res.status,
        "data": {"data": data, "meta": {"version": found.version}, "included": included},
    }


@pytest.fixture
def cdn() -> Any:
    with FakeAssetCDN(ASSETS, included=[LOGO]) as fake:
        yield fake


def test_both_send_the_same_requests_and_read_the_same_assets(cdn: FakeAssetCDN) -> None:
    first = cdn.latest
    cdn.publish({**ASSETS, "content/translations.json": {"TopbarDesktop.login": "Sign in"}}, [LOGO])
    calls = [(m, js, with_version(args, first)) for m, js, args in CALLS]

    js_results = sdk_calls(cdn, [{"fn": js, "args": args} for _, js, args in calls])
    js_requests = cdn.requests
    sdk = MarketplaceClient(cdn.client_id, asset_cdn_base_url=cdn.url, retry_policy=NO_WAIT)
    our_results = [ours(sdk, m, {**args}) for m, _, args in calls]
    our_requests = cdn.requests[len(js_requests) :]

    # The same requests, redirects included: the JS side sends ^ | [ ] as they are, we send
    # them percent-encoded (as urllib3 does); the server reads both the same.
    assert [(r.method, unquote(r.target)) for r in our_requests] == [
        (r.method, unquote(r.target)) for r in js_requests
    ]

    def plain(requests: list[Any]) -> list[str]:
        return [r.target for r in requests if not any(c in unquote(r.target) for c in "^|[]")]

    assert plain(our_requests) == plain(js_requests)
    assert all(r.headers.get("Accept") == "application/json" for r in our_requests)
    assert all("Authorization" not in r.headers for r in our_requests)
    # The alias calls were redirected to the latest version and followed, by both.
    assert any(f"/v/{cdn.latest}/" in r.target for r in our_requests)

    for (method, _, args), js, mine in zip(calls, js_results, our_results, strict=True):
        assert mine == js, (method, args)
    assert our_results[0]["data"]["data"] == {"TopbarDesktop.login": "Sign in"}
    assert our_results[2]["data"]["data"]["TopbarDesktop.login"] == "Log in"


def test_listing_types_categories_and_translations_for_a_backend(cdn: FakeAssetCDN) -> None:
    sdk = MarketplaceClient(cdn.client_id, asset_cdn_base_url=cdn.url)
    config = sdk.assets_by_alias(
        ["listings/listing-types.json", "listings/listing-categories.json", "design/branding.json"]
    ).data
    assert config.version == cdn.latest
    types = config["listings/listing-types.json"].data["listingTypes"]
    assert [t["id"] for t in types] == ["rent"]
    branding = config["design/branding.json"].resolved()
    logo = branding["logo"]
    assert isinstance(logo, ImageAsset)
    assert logo.attributes.variants["scaled2x"].width == 480
    # Pinned to the version the first answer gave: the same tree, whatever is published since.
    cdn.publish({"content/translations.json": {"x": "y"}})
    assert config.version is not None
    pinned = sdk.asset_by_version("listings/listing-types.json", config.version).data
    assert pinned.data["listingTypes"] == types and pinned.version == config.version
    with pytest.raises(NotFoundError):
        sdk.asset_by_alias("listings/listing-types.json")


def test_a_dangling_reference_names_where_it_is(cdn: FakeAssetCDN) -> None:
    sdk = MarketplaceClient(cdn.client_id, asset_cdn_base_url=cdn.url)
    page = sdk.asset_by_alias("content/pages/about.json").data
    with pytest.raises(AssetReferenceError) as err:
        page.resolved()
    assert err.value.where == "sections[0].blocks[0].media"
    assert page.resolved(dangling="drop") == {"sections": [{"blocks": [{}]}]}


def test_failures_of_the_cdn(cdn: FakeAssetCDN) -> None:
    sdk = MarketplaceClient(cdn.client_id, asset_cdn_base_url=cdn.url, retry_policy=NO_WAIT)
    cdn.inject(503, "busy", times=1)
    assert sdk.asset_by_alias("a.json").data.data == "top"  # a GET is retried
    cdn.inject(503, "still busy", times=5)
    with pytest.raises(ServerError) as err:
        sdk.asset_by_alias("a.json")
    assert err.value.body == "still busy"
    other = MarketplaceClient("another-client", asset_cdn_base_url=cdn.url)
    with pytest.raises(NotFoundError):
        other.asset_by_alias("a.json")
