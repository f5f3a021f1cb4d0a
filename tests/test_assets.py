"""The Asset Delivery API calls over requests-mock: the URLs as the official SDK builds them,
redirects, the answers read and checked, references resolved, and no credential sent."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest
import requests
import requests_mock

from flexclient import (
    AssetReferenceError,
    AssetResource,
    AssetSet,
    ImageAsset,
    JsonAsset,
    MarketplaceClient,
    NotFoundError,
    ParameterError,
    RedirectError,
    ServerError,
    SessionAuthWarning,
    Token,
    UnexpectedResponseError,
)
from flexclient._assets import canonical_asset_paths
from flexclient._environment import ASSET_CDN_BASE_URL
from tests.helpers import MP, NO_WAIT

CDN = "https://cdn.test"
PUB = f"{CDN}/v1/assets/pub/client-id"
TRANSLATIONS: dict[str, object] = {
    "data": {"hello": "Hei"},
    "meta": {"version": "V3"},
    "included": [],
}


@pytest.fixture
def sdk() -> MarketplaceClient:
    return MarketplaceClient("client-id", base_url=MP, asset_cdn_base_url=CDN, retry_policy=NO_WAIT)


def multi(*paths: str, version: str = "V3", included: list[Any] | None = None) -> dict[str, Any]:
    return {
        "data": [
            {"id": f"id-{p}", "type": "jsonAsset", "attributes": {"assetPath": p, "data": {"p": p}}}
            for p in paths
        ],
        "meta": {"version": version},
        "included": included or [],
    }


# --- requests --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("paths", "prefix", "relative"),
    [
        (["content/b.json", "content/a.json"], "content/", ["a.json", "b.json"]),
        (["/content/b.json", "content/sub/c.json"], "content/", ["b.json", "sub/c.json"]),
        (["any/foo.json", "any/bar.json"], "any/", ["bar.json", "foo.json"]),
        (["a.json", "content/b.json"], "", ["a.json", "content/b.json"]),
        (["content/x/a.json"], "content/x/", ["a.json"]),
        (["a.json"], "", ["a.json"]),
        (["a/b/c.json", "a/b/d.json", "a/e.json"], "a/", ["b/c.json", "b/d.json", "e.json"]),
        (["a/a.json", "a/a.json"], "a/", ["a.json"]),
        # Duplicates are dropped before the slash is stripped, as in the SDK.
        (["/a/x.json", "a/x.json"], "a/", ["x.json", "x.json"]),
        # JavaScript sorts by UTF-16 code units: an astral character before U+FF01.
        (["d/\uff01.json", "d/\U0001f600.json"], "d/", ["\U0001f600.json", "\uff01.json"]),
        (["ab/x.json", "a/x.json"], "", ["a/x.json", "ab/x.json"]),
    ],
)
def test_common_folder_and_relative_paths_as_the_sdk(
    paths: list[str], prefix: str, relative: list[str]
) -> None:
    assert canonical_asset_paths(paths) == (prefix, relative)


def test_the_default_cdn_is_the_official_sdks() -> None:
    assert MarketplaceClient("client-id").options.asset_cdn_base_url == ASSET_CDN_BASE_URL
    assert ASSET_CDN_BASE_URL == "https://cdn.st-api.com"


def test_one_asset_by_alias_and_by_version(sdk: MarketplaceClient) -> None:
    with requests_mock.Mocker() as m:
        m.get(f"{PUB}/a/latest/content/translations.json", json=TRANSLATIONS)
        m.get(f"{PUB}/v/V3/content/translations.json", json=TRANSLATIONS)
        res = sdk.asset_by_alias("/content/translations.json")
        again = sdk.asset_by_version("content/translations.json", "V3")
        assert [r.headers["Accept"] for r in m.request_history] == ["application/json"] * 2
    assert res.status == 200 and res.status_text == "OK"
    asset = res.data
    assert isinstance(asset, JsonAsset)
    assert (asset.path, asset.data, asset.version) == (
        "/content/translations.json",
        {"hello": "Hei"},
        "V3",
    )
    assert again.data.data == asset.data
    assert repr(asset) == "JsonAsset('/content/translations.json', version='V3', included=0)"


def test_several_assets_by_alias_and_version(sdk: MarketplaceClient) -> None:
    with requests_mock.Mocker() as m:
        m.get(f"{PUB}/a/latest/content/", json=multi("/content/b.json", "/content/sub/c.json"))
        m.get(f"{PUB}/v/V2/", json=multi("/a.json", "/content/b.json", version="V2"))
        res = sdk.assets_by_alias(["content/sub/c.json", "/content/b.json"])
        assert m.last_request is not None and m.last_request.query == "assets=b.json,sub%2fc.json"
        other = sdk.assets_by_version(["content/b.json", "a.json"], "V2")
        assert m.last_request.url == f"{PUB}/v/V2/?assets=a.json,content%2Fb.json"
    found = res.data
    assert isinstance(found, AssetSet) and found.version == "V3" and len(found) == 2
    assert list(found) == ["/content/b.json", "/content/sub/c.json"]
    assert found["content/b.json"] is found["/content/b.json"]
    assert found["content/b.json"].data == {"p": "/content/b.json"}
    assert found["content/b.json"].id == "id-/content/b.json"
    assert other.data.version == "V2"
    with pytest.raises(KeyError, match=r"missing\.json"):
        found["missing.json"]
    assert "content/b.json" in found and found.get("x.json") is None
    assert 5 not in found  # type: ignore[comparison-overlap]


def test_paths_are_encoded_as_node_encodes_them(sdk: MarketplaceClient) -> None:
    with requests_mock.Mocker() as m:
        m.get(requests_mock.ANY, json=TRANSLATIONS)
        m.get(f"{PUB}/a/latest/x%20y/", json=multi("/x y/b.json"))
        sdk.asset_by_alias('a b/ü{}"<>`.json')
        sdk.asset_by_alias("q'!()*~$&+,;=:@[].json")
        sdk.asset_by_alias("a%20b.json")
        sdk.assets_by_alias(["x y/ü.json", "x y/b.json"])
        urls = [r.url for r in m.request_history]
    assert urls == [
        f"{PUB}/a/latest/a%20b/%C3%BC%7B%7D%22%3C%3E%60.json",
        f"{PUB}/a/latest/q'!()*~$&+,;=:@%5B%5D.json",
        f"{PUB}/a/latest/a%20b.json",
        f"{PUB}/a/latest/x%20y/?assets=b.json,%C3%BC.json",
    ]


BAD_INPUT: list[tuple[Callable[[MarketplaceClient], object], str]] = [
    (lambda s: s.asset_by_alias(""), "path"),
    (lambda s: s.asset_by_alias("/"), "path"),
    (lambda s: s.asset_by_alias("content/"), "path"),
    (lambda s: s.asset_by_alias("a?b.json"), "path"),
    (lambda s: s.asset_by_alias("a#b.json"), "path"),
    (lambda s: s.asset_by_alias("a\\b.json"), "path"),
    (lambda s: s.asset_by_alias("a\nb.json"), "path"),
    (lambda s: s.asset_by_alias("a//b.json"), "path"),
    (lambda s: s.asset_by_alias("a/../b.json"), "path"),
    (lambda s: s.asset_by_alias("./b.json"), "path"),
    (lambda s: s.asset_by_alias("\udc80.json"), "path"),
    (lambda s: s.asset_by_alias(5), "path"),  # type: ignore[arg-type]
    (lambda s: s.asset_by_alias("a.json", ""), "alias"),
    (lambda s: s.asset_by_alias("a.json", "la/test"), "alias"),
    (lambda s: s.asset_by_version("a.json", ""), "version"),
    (lambda s: s.asset_by_version("a.json", ".."), "version"),
    (lambda s: s.asset_by_version("a.json", "v?1"), "version"),
    (lambda s: s.assets_by_alias([]), "paths"),
    (lambda s: s.assets_by_alias("a.json"), "paths"),
    (lambda s: s.assets_by_alias(["a.json", "b,c.json"]), "paths[1]"),
    (lambda s: s.assets_by_alias(["a.json", "c/"]), "paths[1]"),
    (lambda s: s.assets_by_version(["a.json"], None), "version"),  # type: ignore[arg-type]
    (lambda s: s.asset_by_alias("a.json", timeout=-1), "timeout"),
    (lambda s: s.asset_by_alias("a.json", deadline=0), "deadline"),
]


@pytest.mark.parametrize(("call", "param"), BAD_INPUT)
def test_bad_input_fails_before_sending_naming_the_parameter(
    sdk: MarketplaceClient, call: Callable[[MarketplaceClient], object], param: str
) -> None:
    with requests_mock.Mocker() as m:
        with pytest.raises(ParameterError) as err:
            call(sdk)
        assert m.request_history == []
    assert err.value.param == param


def test_no_credential_goes_to_the_cdn() -> None:
    session = requests.Session()
    session.headers["Authorization"] = "Bearer session-secret"
    session.auth = ("user", "session-password")
    session.cookies["st-client-id-token"] = "cookie-secret"
    with pytest.warns(SessionAuthWarning, match="session's `auth` is not applied"):
        sdk = MarketplaceClient(
            "client-id", base_url=MP, asset_cdn_base_url=CDN, session=session, retry_policy=NO_WAIT
        )
    sdk.token_store.set(Token(access_token="user-token", scope="user", refresh_token="r"))
    with requests_mock.Mocker() as m:
        m.get(
            f"{PUB}/a/latest/a.json", status_code=307, headers={"Location": "https://cdn2.test/x"}
        )
        m.get("https://cdn2.test/x", json=TRANSLATIONS)
        sdk.asset_by_alias("a.json")
        for sent in m.request_history:
            assert "Authorization" not in sent.headers
            assert "Cookie" not in sent.headers
            assert "secret" not in json.dumps(dict(sent.headers))


def test_redirects_are_followed_a_bounded_number_of_times_over_https(
    sdk: MarketplaceClient,
) -> None:
    with requests_mock.Mocker() as m:
        m.get(
            f"{PUB}/a/latest/a.json",
            status_code=307,
            headers={"Location": "/v1/assets/pub/client-id/v/V9/a.json"},
        )
        m.get(f"{PUB}/v/V9/a.json", json={"data": 1})
        res = sdk.asset_by_alias("a.json")
        # The version the redirect named, as the answer did not say it.
        assert (res.data.data, res.data.version) == (1, "V9")

        m.get(
            f"{PUB}/a/latest/plain.json",
            status_code=302,
            headers={"Location": "http://evil.test/a"},
        )
        with pytest.raises(RedirectError) as err:
            sdk.asset_by_alias("plain.json")
        assert err.value.location == "http://evil.test/a"
        assert m.last_request is not None and m.last_request.hostname == "cdn.test"

        m.get(
            f"{PUB}/a/latest/loop.json",
            status_code=301,
            headers={"Location": f"{PUB}/a/latest/loop.json"},
        )
        with pytest.raises(RedirectError):
            sdk.asset_by_alias("loop.json")
        assert len([r for r in m.request_history if r.path.endswith("loop.json")]) == 6

        m.get(f"{PUB}/a/latest/nowhere.json", status_code=307)
        with pytest.raises(RedirectError):
            sdk.asset_by_alias("nowhere.json")


def test_the_cdn_option_is_checked() -> None:
    with pytest.raises(ParameterError) as err:
        MarketplaceClient("client-id", asset_cdn_base_url="http://cdn.example.com")
    assert err.value.param == "asset_cdn_base_url"
    for bad in ("cdn.test", "ftp://cdn.test", "https://user:pw@cdn.test", 5):
        with pytest.raises(ParameterError):
            MarketplaceClient("client-id", asset_cdn_base_url=bad)  # type: ignore[arg-type]
    sdk = MarketplaceClient("client-id", asset_cdn_base_url="http://127.0.0.1:9/")
    assert sdk.options.asset_cdn_base_url == "http://127.0.0.1:9"
    assert sdk.with_options(timeout=3).options.asset_cdn_base_url == "http://127.0.0.1:9"


# --- answers ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("answer", "reason"),
    [
        ({"text": "<html>oops</html>", "headers": {"Content-Type": "text/html"}}, "not JSON"),
        ({"json": [1, 2]}, "expected a JSON object"),
        ({"json": {"data": 1, "meta": {"version": 5}}}, "meta.version"),
        ({"json": {"data": 1, "meta": []}}, "meta"),
        ({"json": {"data": 1, "included": {}}}, "included"),
        ({"json": {"data": 1, "included": [5]}}, "included[0]"),
        ({"json": {"data": 1, "included": [{"type": "imageAsset"}]}}, "included[0].id"),
        ({"text": "[" * 100_000 + "]" * 100_000}, "nested too deeply"),
        ({"text": '{"data":' + "[" * 600 + "]" * 600 + "}"}, "nested more than 500"),
    ],
)
def test_unreadable_answers_raise_with_status_and_body(
    sdk: MarketplaceClient, answer: dict[str, Any], reason: str
) -> None:
    with requests_mock.Mocker() as m:
        m.get(f"{PUB}/a/latest/a.json", **answer)
        with pytest.raises(UnexpectedResponseError) as err:
            sdk.asset_by_alias("a.json")
    assert err.value.status == 200 and reason in str(err.value)
    assert err.value.body


@pytest.mark.parametrize(
    ("data", "reason"),
    [({"data": {}}, "expected a list"), ({"data": [{"type": "jsonAsset"}]}, r"data\[0\]")],
)
def test_unreadable_answers_of_several(sdk: MarketplaceClient, data: Any, reason: str) -> None:
    with requests_mock.Mocker() as m:
        m.get(f"{PUB}/a/latest/?assets=a.json", json=data)
        with pytest.raises(UnexpectedResponseError, match=reason):
            sdk.assets_by_alias(["a.json"])


def test_errors_carry_the_status_and_the_apis_error(sdk: MarketplaceClient) -> None:
    body = {"errors": [{"status": 404, "code": "asset-not-found", "title": "Not Found"}]}
    with requests_mock.Mocker() as m:
        m.get(f"{PUB}/a/latest/a.json", status_code=404, json=body)
        m.get(f"{PUB}/a/latest/b.json", status_code=503, text="busy")
        with pytest.raises(NotFoundError) as err:
            sdk.asset_by_alias("a.json")
        assert err.value.codes == ["asset-not-found"]
        with pytest.raises(ServerError) as server:
            sdk.asset_by_alias("b.json")
        assert server.value.body == "busy" and server.value.retries == 2


# --- references --------------------------------------------------------------------------------

LOGO = {
    "id": "logo-1",
    "type": "imageAsset",
    "attributes": {
        "assetPath": "/design/logo.png",
        "variants": {"scaled": {"url": "https://img.test/l.png", "width": 240, "height": 60}},
    },
}
OTHER = {"id": "x-1", "type": "videoAsset", "attributes": {"length": 3}}


def test_references_resolve_to_typed_included_assets(sdk: MarketplaceClient) -> None:
    data = {
        "logo": {"_ref": {"type": "imageAsset", "id": "logo-1"}},
        "sections": [
            {"media": {"image": {"_ref": {"type": "imageAsset", "id": "logo-1"}, "alt": "x"}}},
            {"_ref": {"type": "videoAsset", "id": "x-1"}},
            "text",
        ],
        "count": 3,
        "ref-like": {"_ref": "not a reference"},
    }
    with requests_mock.Mocker() as m:
        m.get(
            f"{PUB}/a/latest/design/branding.json",
            json={"data": data, "meta": {"version": "V1"}, "included": [LOGO, OTHER]},
        )
        asset = sdk.asset_by_alias("design/branding.json").data
    assert asset.data == data  # as sent
    resolved = asset.resolved()
    logo = resolved["logo"]
    assert isinstance(logo, ImageAsset)
    assert logo.id == "logo-1" and logo.attributes.asset_path == "/design/logo.png"
    assert logo.attributes.variants["scaled"].url == "https://img.test/l.png"
    assert logo.attributes.variants["scaled"].width == 240
    assert resolved["sections"][0]["media"]["image"] is logo
    video = resolved["sections"][1]
    assert isinstance(video, AssetResource) and video.attributes == {"length": 3}
    assert resolved["sections"][2] == "text" and resolved["count"] == 3
    assert resolved["ref-like"] == {"_ref": "not a reference"}
    assert asset.data == data  # unchanged


def test_a_dangling_reference_is_a_clear_error(sdk: MarketplaceClient) -> None:
    data = {"blocks": [{"media": {"_ref": {"type": "imageAsset", "id": "gone"}}}], "keep": 1}
    with requests_mock.Mocker() as m:
        m.get(
            f"{PUB}/a/latest/?assets=p.json",
            json={
                "data": [
                    {
                        "id": "1",
                        "type": "jsonAsset",
                        "attributes": {"assetPath": "/p.json", "data": data},
                    }
                ],
                "meta": {"version": "V1"},
                # Same id, another type: not what the reference names.
                "included": [{"id": "gone", "type": "videoAsset"}],
            },
        )
        asset = sdk.assets_by_alias(["p.json"]).data["p.json"]
    with pytest.raises(AssetReferenceError) as err:
        asset.resolved()
    e = err.value
    assert (e.asset_path, e.where, e.ref_type, e.ref_id) == (
        "/p.json",
        "blocks[0].media",
        "imageAsset",
        "gone",
    )
    assert "blocks[0].media" in str(e) and "gone" in str(e)
    assert isinstance(e, LookupError)
    assert asset.resolved(dangling="drop") == {"blocks": [{}], "keep": 1}
    with pytest.raises(ParameterError):
        asset.resolved(dangling="ignore")  # type: ignore[arg-type]


def test_a_dangling_reference_in_a_list_is_dropped_as_none() -> None:
    asset = JsonAsset("/x.json", [{"_ref": {"type": "imageAsset", "id": "a"}}, 1], "V1")
    assert asset.resolved(dangling="drop") == [None, 1]
    assert (
        JsonAsset("/x.json", {"_ref": {"type": "imageAsset", "id": "a"}}).resolved(dangling="drop")
        is None
    )
