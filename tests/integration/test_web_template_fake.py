"""What Sharetribe's Web Template needs of `flexclient fake serve`, over real HTTP: the Asset
Delivery API on the fake's port with the fake's own asset tree (every asset call of the
template's source, `tests/data/web_template_asset_calls.json`, replayed), CORS for the
browser, the current user's state and permissions, `bearer` in lower case, and demo data that
matches the assets."""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

import pytest
import requests

from flexclient import MarketplaceClient
from flexclient._assets import asset_request
from flexclient.models import Listing
from flexclient.testing import FakeMarketplace, default_assets
from flexclient.testing._asset_trees import IMAGE_TYPES
from flexclient.testing._serve import read_banner

DATA = Path(__file__).parent.parent / "data"
CALLS: list[dict[str, Any]] = json.loads(
    (DATA / "web_template_asset_calls.json").read_text(encoding="utf-8")
)["calls"]
ORIGIN = "http://localhost:3000"  # where the template serves its pages
# The keys the template keeps in a listing's public data for itself: a listing field of the
# same key would make it refuse the configuration (src/util/configHelpers.js).
BUILT_IN_KEYS = {
    "listingType",
    "transactionProcessAlias",
    "unitType",
    "location",
    "pickupEnabled",
    "shippingEnabled",
    "priceVariationsEnabled",
    "priceVariants",
    "startTimeInterval",
}


class Served:
    """`flexclient fake serve` in a process of its own, as the docs start it."""

    def __init__(self, proc: subprocess.Popen[str], printed: dict[str, str]) -> None:
        self.proc = proc
        self.printed = printed
        self.url = printed["SHARETRIBE_SDK_BASE_URL"]
        self.client_id = printed["SHARETRIBE_SDK_CLIENT_ID"]
        self.assets = f"{self.url}/v1/assets/pub/{self.client_id}"

    def client(self) -> MarketplaceClient:
        return MarketplaceClient(self.client_id, base_url=self.url, asset_cdn_base_url=self.url)


def _serve(*options: str) -> Iterator[Served]:
    proc = subprocess.Popen(
        [sys.executable, "-m", "flexclient", "fake", "serve", "--port", "0", *options],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        assert proc.stdout is not None
        lines: list[str] = []
        while line := proc.stdout.readline().strip():  # the banner ends with a blank line
            lines.append(line)
        assert lines, proc.stderr.read() if proc.stderr else ""
        yield Served(proc, read_banner(lines) | {"banner": "\n".join(lines)})
    finally:
        proc.terminate()
        proc.wait(timeout=10)


@pytest.fixture(scope="module")
def served() -> Iterator[Served]:
    yield from _serve()


def _login(url: str, client_id: str, email: str, password: str) -> str:
    form = {
        "client_id": client_id,
        "grant_type": "password",
        "username": email,
        "password": password,
        "scope": "user",
    }
    answer = requests.post(f"{url}/v1/auth/token", data=form, timeout=10)
    assert answer.status_code == 200, answer.text
    token = answer.json()["access_token"]
    assert isinstance(token, str)
    return token


# --- the Asset Delivery API: the template's calls ---------------------------------------------


def test_the_banner_names_the_asset_api_and_the_templates_variables(served: Served) -> None:
    assert served.printed["REACT_APP_SHARETRIBE_SDK_ASSET_CDN_BASE_URL"] == served.url
    assert served.printed["REACT_APP_SHARETRIBE_SDK_BASE_URL"] == served.url
    assert served.printed["REACT_APP_SHARETRIBE_SDK_CLIENT_ID"] == served.client_id
    assert f"Asset Delivery API: {served.url}" in served.printed["banner"]


def _check_json_asset(asset: dict[str, Any], path: str) -> None:
    assert asset["type"] == "jsonAsset"
    assert asset["attributes"]["assetPath"] == "/" + path.lstrip("/")
    assert isinstance(asset["id"], str)
    assert asset["attributes"]["data"] == default_assets()[path.lstrip("/")]


@pytest.mark.parametrize("call", CALLS, ids=lambda c: f"{c['method']}:{c['target']}")
def test_each_asset_call_of_the_template_is_answered_as_the_api_would(
    served: Served, call: dict[str, Any]
) -> None:
    version = requests.get(
        f"{served.assets}/a/latest/content/?assets=translations.json", timeout=10
    ).json()["meta"]["version"]
    target = call["target"].replace("VERSION", version)
    answer = requests.get(served.assets + target, headers={"Origin": ORIGIN}, timeout=10)
    assert answer.status_code == 200, answer.text
    assert answer.headers["Access-Control-Allow-Origin"] == ORIGIN
    assert answer.headers["Content-Type"].startswith("application/json")
    if call.get("alias"):  # an alias is a redirect to the version it names
        assert [r.status_code for r in answer.history] == [307]
        assert f"/v/{version}/" in answer.url
    body = answer.json()
    assert body["meta"]["version"] == version
    assert isinstance(body["included"], list)
    if "paths" in call:
        # the template finds each asset by its path (`findJSONAsset`), in any order
        by_path = {a["attributes"]["assetPath"]: a for a in body["data"]}
        assert len(by_path) == len(body["data"]) == len(call["paths"])
        for path in call["paths"]:
            _check_json_asset(by_path["/" + path.lstrip("/")], path)
    else:
        assert body["data"] == default_assets()[call["path"]]
    # flexclient writes the template's request as the official SDK does (tests/test_assets*):
    # the corpus's URL forms are the SDK's
    where = {"alias": call["alias"]} if "alias" in call else {"version": version}
    what = {"paths": call["paths"]} if "paths" in call else {"path": call["path"]}
    url = asset_request(served.url, "v1", served.client_id, **where, **what).url
    prefix = f"/v1/assets/pub/{served.client_id}"
    assert prefix + target == url.path + (f"?{url.query}" if url.query else "")
    sdk = served.client()
    alias: str = call.get("alias", "latest")
    if call["method"] == "assetsByAlias":
        assert sdk.assets_by_alias(call["paths"], alias).status == 200
    elif call["method"] == "assetsByVersion":
        assert sdk.assets_by_version(call["paths"], version).status == 200
    elif call["method"] == "assetByAlias":
        assert sdk.asset_by_alias(call["path"], alias).status == 200
    else:
        assert sdk.asset_by_version(call["path"], version).status == 200


def test_the_logo_the_branding_refers_to_is_included_and_served(served: Served) -> None:
    branding = served.client().assets_by_alias(["design/branding.json"]).data
    logo = branding["/design/branding.json"].resolved()["logo"]
    assert logo.type == "imageAsset"
    scaled = logo.attributes.variants["scaled"]
    assert scaled.height == 24  # the height logoSettings asks for
    image = requests.get(scaled.url, headers={"Origin": ORIGIN}, timeout=10)
    assert image.status_code == 200
    assert image.headers["Content-Type"] == "image/svg+xml"
    assert image.content.startswith(b"<svg")


def test_unknown_assets_and_versions_are_404s_as_on_the_api(served: Served) -> None:
    for target in ("/a/latest/content/pages/nope.json", "/v/nope/content/footer.json"):
        answer = requests.get(served.assets + target, timeout=10)
        assert answer.status_code == 404
        assert answer.json()["errors"][0]["status"] == 404


def test_a_teams_own_assets_are_served_instead(tmp_path: Path) -> None:
    (tmp_path / "content").mkdir()
    (tmp_path / "content" / "translations.json").write_text('{"LandingPage.title": "Ours"}')
    (tmp_path / "design" / "branding").mkdir(parents=True)
    logo_id = "0b7e2a55-4c1d-4e8a-9f00-0000000000aa"
    png = b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x00\x30\x00\x00\x00\x18" + b"\x00" * 20
    (tmp_path / "design" / "branding" / f"logo-{logo_id}.png").write_bytes(png)
    branding = {"logo": {"_ref": {"type": "imageAsset", "id": logo_id}}}
    (tmp_path / "design" / "branding.json").write_text(json.dumps(branding))
    for served in _serve("--assets", str(tmp_path)):
        sdk = served.client()
        assert sdk.asset_by_alias("content/translations.json").data.data == {
            "LandingPage.title": "Ours"
        }
        logo = sdk.asset_by_alias("design/branding.json").data.resolved()["logo"]
        assert (logo.attributes.variants["scaled"].width, logo.id) == (48, logo_id)
        assert requests.get(logo.attributes.variants["scaled"].url, timeout=10).content == png
        missing = requests.get(f"{served.assets}/a/latest/content/footer.json", timeout=10)
        assert missing.status_code == 404  # only the team's assets: none of the fake's own


def test_a_folder_that_is_not_there_is_an_error_before_serving(tmp_path: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "flexclient", "fake", "serve", "--assets", str(tmp_path / "x")],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 2
    assert "is not a folder" in done.stderr


# --- the default asset tree: a configuration the template accepts ----------------------------


def test_the_default_tree_has_every_asset_the_template_asks_for() -> None:
    wanted = {c.get("path") or p for c in CALLS for p in c.get("paths", [c.get("path")])}
    assert {p.lstrip("/") for p in wanted if p} <= set(default_assets())


def test_the_default_configuration_is_one_the_template_accepts() -> None:
    assets = default_assets()
    branding = assets["design/branding.json"]
    assert branding["logo"]["_ref"]["type"] == "imageAsset"
    logo_ids = {
        Path(p).stem.split("-", 1)[1] for p in assets if Path(p).suffix.lower() in IMAGE_TYPES
    }
    assert branding["logo"]["_ref"]["id"] in logo_ids
    assert branding["logoSettings"] == {"format": "image", "height": 24}
    minimum = assets["transactions/minimum-transaction-size.json"]["listingMinimumPrice"]
    assert minimum["type"] == "subunit" and minimum["amount"] > 0
    fields = assets["listings/listing-fields.json"]["listingFields"]
    assert not {f["key"] for f in fields} & BUILT_IN_KEYS
    for field in fields:
        assert field["scope"] in ("public", "private", "metadata")
        if field["schemaType"] in ("enum", "multi-enum"):
            assert all({"option", "label"} <= set(o) for o in field["enumOptions"])
    types = assets["listings/listing-types.json"]["listingTypes"]
    assert types and all({"id", "label", "transactionProcess", "unitType"} <= set(t) for t in types)
    user_types = assets["users/user-types.json"]["userTypes"]
    assert all(t["id"] and t["label"] for t in user_types)
    commission = assets["transactions/commission.json"]
    assert commission["providerCommission"]["percentage"] == 10
    for page in ("landing-page", "terms-of-service", "privacy-policy"):
        sections = assets[f"content/pages/{page}.json"]["sections"]
        assert all(s["sectionId"] and s["sectionType"] for s in sections)
    for link in assets["content/top-bar.json"]["customLinks"]:
        assert link["group"] in ("primary", "secondary") and link["href"].startswith("/")
        assert link["text"]  # the template names each link by it
    search = assets["listings/listing-search.json"]
    assert search["mainSearch"]["searchType"] == "keywords"  # no map offline
    for name, schema in (
        ("listingTypeFilter", "listingType"),
        ("categoryFilter", "category"),
        ("dateRangeFilter", "dates"),
        ("seatsFilter", "seats"),
        ("priceFilter", "price"),
    ):  # the template tells its built-in filters apart by their schemaType
        assert search[name]["schemaType"] == schema
        assert isinstance(search[name]["enabled"], bool)


def test_each_listing_type_runs_on_a_process_the_fake_runs() -> None:
    types = default_assets()["listings/listing-types.json"]["listingTypes"]
    with FakeMarketplace() as fake:
        for listing_type in types:
            process = listing_type["transactionProcess"]
            assert process["alias"] in fake.processes
            assert process["alias"].startswith(process["name"] + "/")


# --- the demo data matches the assets ---------------------------------------------------------


def test_every_demo_listing_matches_the_default_assets(demo_marketplace: FakeMarketplace) -> None:
    assets = default_assets()
    types = {t["id"]: t for t in assets["listings/listing-types.json"]["listingTypes"]}
    categories = {c["id"] for c in assets["listings/listing-categories.json"]["categories"]}
    fields = {f["key"]: f for f in assets["listings/listing-fields.json"]["listingFields"]}
    sdk = MarketplaceClient(demo_marketplace.client_id, base_url=demo_marketplace.url)
    listings = list(sdk.listings.query.iter({"perPage": 100}))
    assert len(listings) == 250
    seen: set[str] = set()
    for listing in listings:
        public = listing.attributes.public_data or {}
        listing_type = types[public["listingType"]]
        seen.add(public["listingType"])
        assert public["transactionProcessAlias"] == listing_type["transactionProcess"]["alias"]
        assert public["unitType"] == listing_type["unitType"]
        assert public["transactionProcessAlias"] in demo_marketplace.processes
        assert public["categoryLevel1"] in categories
        options = {o["option"] for o in fields["tags"]["enumOptions"]}
        assert set(public["tags"]) <= options
        number = fields["gears"]["numberConfig"]
        assert number["minimum"] <= public["gears"] <= number["maximum"]
        assert public["location"]["address"]  # the address the template shows
        if public["unitType"] == "item":  # a way to get it: pickup or shipping
            assert public["pickupEnabled"] or public["shippingEnabled"]
    assert seen == set(types)


def test_demo_listings_of_each_kind_can_be_booked_or_bought(
    demo_marketplace: FakeMarketplace,
) -> None:
    sdk = MarketplaceClient(demo_marketplace.client_id, base_url=demo_marketplace.url)
    for listing_type, unit in (("rent-a-bike", "day"), ("sell-a-bike", "item")):
        page = sdk.listings.query({"perPage": 5}, custom={"pub_listingType": listing_type}).data
        assert page.data, listing_type
        for listing in page.data:
            assert (listing.attributes.public_data or {})["unitType"] == unit
            if unit == "day":  # a calendar: the time zone and the hours it is open
                plan = listing.attributes.availability_plan or {}
                assert plan["type"] == "availability-plan/time" and plan["timezone"]
    stocked = sdk.listings.query(
        {"include": ["currentStock"], "perPage": 100}, custom={"pub_listingType": "sell-a-bike"}
    ).data.data
    assert any(lst.related("currentStock") is not None for lst in stocked)


def test_demo_users_have_the_default_user_type(demo_marketplace: FakeMarketplace) -> None:
    user_types = {t["id"] for t in default_assets()["users/user-types.json"]["userTypes"]}
    sdk = MarketplaceClient(demo_marketplace.client_id, base_url=demo_marketplace.url)
    sdk.login(username="ben@example.com", password="ben-demo-pass")
    me = sdk.current_user.show().data.data
    assert (me.attributes.profile.public_data or {})["userType"] in user_types


# --- the current user: state and permissions ---------------------------------------------------


def test_the_current_user_sees_their_state_and_permissions(served: Served) -> None:
    token = _login(served.url, served.client_id, "aino@example.com", "aino-demo-pass")
    answer = requests.get(
        f"{served.url}/v1/api/current_user/show",
        params={"include": "effectivePermissionSet"},
        headers={"Authorization": f"Bearer {token}", "Accept": "application/json"},
        timeout=10,
    )
    assert answer.status_code == 200
    body = answer.json()
    assert body["data"]["attributes"]["state"] == "active"
    ref = body["data"]["relationships"]["effectivePermissionSet"]["data"]
    included = [r for r in body["included"] if (r["type"], r["id"]) == (ref["type"], ref["id"])]
    assert included[0]["attributes"] == {
        "postListings": "permission/allow",
        "initiateTransactions": "permission/allow",
        "read": "permission/allow",
    }


def test_a_new_user_may_start_transactions_and_others_do_not_see_a_users_state(
    fake_marketplace: FakeMarketplace,
) -> None:
    sdk = MarketplaceClient(fake_marketplace.client_id, base_url=fake_marketplace.url)
    sdk.current_user.create(
        {
            "email": "new@example.com",
            "password": "a-good-password",
            "firstName": "N",
            "lastName": "U",
        }
    )
    sdk.login(username="new@example.com", password="a-good-password")
    me = sdk.current_user.show({"include": ["effectivePermissionSet"]}).data.data
    assert me.attributes.state == "active"
    permissions = me.effective_permission_set
    assert permissions is not None
    assert permissions.attributes.initiate_transactions == "permission/allow"
    other = MarketplaceClient(fake_marketplace.client_id, base_url=fake_marketplace.url)
    seen = other.users.show({"id": me.id}).data.data
    assert seen.attributes.state is None  # the public view of a user has no state


def test_a_user_banned_while_logged_in_sees_the_state_banned(
    fake_marketplace: FakeMarketplace,
) -> None:
    user = fake_marketplace.add_user("gone@example.com", "a-good-password")
    token = _login(
        fake_marketplace.url, fake_marketplace.client_id, "gone@example.com", "a-good-password"
    )
    fake_marketplace.ban_user(user)
    answer = requests.get(
        f"{fake_marketplace.url}/v1/api/current_user/show",
        headers={"Authorization": f"Bearer {token}", "Accept": "application/json"},
        timeout=10,
    )
    assert answer.status_code == 200
    assert answer.json()["data"]["attributes"]["state"] == "banned"


# --- Authorization: bearer, in any case ---------------------------------------------------------


@pytest.mark.parametrize("scheme", ["bearer", "Bearer", "BEARER"])
def test_the_bearer_scheme_is_read_in_any_case(served: Served, scheme: str) -> None:
    token = _login(served.url, served.client_id, "ben@example.com", "ben-demo-pass")
    answer = requests.get(
        f"{served.url}/v1/api/current_user/show",
        headers={"Authorization": f"{scheme} {token}", "Accept": "application/json"},
        timeout=10,
    )
    assert answer.status_code == 200
    assert answer.json()["data"]["attributes"]["email"] == "ben@example.com"


@pytest.mark.parametrize("header", ["Basic abc", "bearer", "Token abc", ""])
def test_other_authorizations_are_refused(served: Served, header: str) -> None:
    answer = requests.get(
        f"{served.url}/v1/api/current_user/show",
        headers={"Authorization": header, "Accept": "application/json"},
        timeout=10,
    )
    assert answer.status_code == 401
    assert answer.json()["errors"][0]["code"] == "auth-missing-access-token"


# --- CORS: the browser's SDK calls the APIs from the template's origin -------------------------

PREFLIGHTS = [
    ("GET", "/v1/api/listings/query", "authorization,x-transit-verbose"),
    ("POST", "/v1/api/transactions/initiate", "authorization,content-type"),
    ("POST", "/v1/auth/token", "content-type"),
    ("GET", "/v1/assets/pub/{client}/a/latest/content/?assets=translations.json", ""),
]


@pytest.mark.parametrize(("method", "path", "headers"), PREFLIGHTS)
def test_a_preflight_is_allowed_with_credentials(
    served: Served, method: str, path: str, headers: str
) -> None:
    asked = {"Origin": ORIGIN, "Access-Control-Request-Method": method}
    if headers:
        asked["Access-Control-Request-Headers"] = headers
    answer = requests.options(
        served.url + path.format(client=served.client_id), headers=asked, timeout=10
    )
    assert answer.status_code == 204
    assert answer.headers["Access-Control-Allow-Origin"] == ORIGIN
    assert answer.headers["Access-Control-Allow-Credentials"] == "true"
    assert method in answer.headers["Access-Control-Allow-Methods"]
    if headers:
        assert answer.headers["Access-Control-Allow-Headers"] == headers
    assert "Origin" in answer.headers["Vary"]


def test_answers_allow_the_origin_errors_too(served: Served) -> None:
    listings = requests.get(
        f"{served.url}/v1/api/listings/query",
        headers={"Origin": ORIGIN, "Accept": "application/json"},
        timeout=10,
    )
    assert listings.status_code == 401  # no token: the error is readable by the page too
    token = requests.post(
        f"{served.url}/v1/auth/token",
        data={
            "client_id": served.client_id,
            "grant_type": "client_credentials",
            "scope": "public-read",
        },
        headers={"Origin": ORIGIN},
        timeout=10,
    )
    for answer in (listings, token):
        assert answer.headers["Access-Control-Allow-Origin"] == ORIGIN
        assert answer.headers["Access-Control-Allow-Credentials"] == "true"
    assert token.status_code == 200


def test_without_an_origin_nothing_is_added(served: Served) -> None:
    answer = requests.get(f"{served.assets}/a/latest/content/footer.json", timeout=10)
    assert answer.status_code == 200
    assert "Access-Control-Allow-Origin" not in answer.headers


# --- the Stripe.js stand-in ---------------------------------------------------------------------


def test_the_stripe_js_stand_in_confirms_with_this_fake(served: Served) -> None:
    answer = requests.get(f"{served.url}/stripe/js/v3/", headers={"Origin": ORIGIN}, timeout=10)
    assert answer.status_code == 200
    assert answer.headers["Content-Type"].startswith("text/javascript")
    script = answer.text
    assert "window.Stripe = function" in script
    assert f'var FAKE = "{served.url}";' in script  # its payments go to the fake that served it
    assert "/stripe/v1/payment_intents/" in script and "confirmCardPayment" in script


def test_listings_without_stock_match_a_loose_stock_filter(
    demo_marketplace: FakeMarketplace,
) -> None:
    # the web template's search: minStock=1 with stockMode=match-undefined
    sdk = MarketplaceClient(demo_marketplace.client_id, base_url=demo_marketplace.url)

    def kinds(listings: Iterable[Listing]) -> set[str]:
        return {(lst.attributes.public_data or {})["listingType"] for lst in listings}

    strict = list(sdk.listings.query.iter({"perPage": 100, "minStock": 1}))
    assert kinds(strict) == {"sell-a-bike"}
    loose = list(
        sdk.listings.query.iter({"perPage": 100, "minStock": 1, "stockMode": "match-undefined"})
    )
    assert kinds(loose) == {"sell-a-bike", "rent-a-bike", "ask-about-a-bike"}
    sold_out = 250 - len(loose)
    assert sold_out == sum(
        1 for stock in demo_marketplace.state.stocks.values() if stock.attributes.quantity == 0
    )
    assert {lst.id for lst in strict} < {lst.id for lst in loose}


def test_the_sitemap_lists_the_content_pages_of_the_assets(
    fake_marketplace: FakeMarketplace,
) -> None:
    # as the web template's sitemap of pages asks for them
    sdk = MarketplaceClient(fake_marketplace.client_id, base_url=fake_marketplace.url)
    pages = sdk.sitemap_data.query_assets({"pathPrefix": "/content/pages/"}).data.data
    assert [p.attributes.asset_path for p in pages] == [
        "/content/pages/how-it-works.json",
        "/content/pages/landing-page.json",
        "/content/pages/privacy-policy.json",
        "/content/pages/terms-of-service.json",
    ]
    fake_marketplace.assets.publish({"content/pages/about.json": {"sections": []}})
    pages = sdk.sitemap_data.query_assets({"pathPrefix": "/content/pages/"}).data.data
    assert [p.attributes.asset_path for p in pages] == ["/content/pages/about.json"]


def test_assets_given_as_a_mapping_replace_the_default_tree() -> None:
    logo = b'<svg xmlns="http://www.w3.org/2000/svg" width="10" height="5"></svg>'
    logo_id = "5e1f0000-0000-4000-8000-000000000001"
    assets = {
        "design/branding.json": {"logo": {"_ref": {"type": "imageAsset", "id": logo_id}}},
        f"design/branding/logo-{logo_id}.svg": logo,
    }
    with FakeMarketplace(assets=assets) as fake:
        sdk = MarketplaceClient(fake.client_id, base_url=fake.url, asset_cdn_base_url=fake.url)
        branding = sdk.asset_by_alias("design/branding.json").data.resolved()
        assert branding["logo"].attributes.variants["scaled2x"].height == 10
        assert sorted(fake.assets.tree().assets) == ["design/branding.json"]
        assert fake.assets.tree().images[logo_id].content == logo


def test_an_asset_folder_with_bad_json_names_the_file(tmp_path: Path) -> None:
    (tmp_path / "content").mkdir()
    (tmp_path / "content" / "footer.json").write_text("{not json")
    with pytest.raises(ValueError, match=r"footer\.json is not valid JSON"):
        FakeMarketplace(assets=tmp_path)
    with pytest.raises(ValueError, match="only images may be given as bytes"):
        FakeMarketplace(assets={"content/footer.json": b"{}"})
