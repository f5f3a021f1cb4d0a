"""The fake marketplace bills as Sharetribe bills (`fake.usage`), over real HTTP: each figure
here is worked out by hand from the published prices (docs/credits.md), never by `cost()`;
and the pytest plugin's `credit_budget` marker fails a test that spends more."""

from __future__ import annotations

import contextlib
import uuid
from decimal import Decimal
from pathlib import Path

import pytest
import requests

from flexclient import (
    ApiError,
    BadRequestError,
    IntegrationClient,
    MarketplaceClient,
    NotFoundError,
    ParameterError,
    ServerError,
)
from flexclient.credits import UsageMeter
from flexclient.testing import FakeAssetCDN, FakeMarketplace
from flexclient.testing._seed import png
from tests.helpers import NO_WAIT, integration
from tests.integration.conftest import login

pytest_plugins = ["pytester"]

TOKEN = "/v1/auth/token"
QUERY = "/v1/api/listings/query"
SHOW = "/v1/api/listings/show"
JSON = {"Accept": "application/json"}
GB = Decimal(10**9)  # Sharetribe's pages do not say; flexclient takes a GB to be 10**9 bytes
CONTENT = b"%PDF-1.4 a small contract\n" * 40  # 1,040 bytes


# Credits are Decimals; the whole numbers among them are compared with ints.
Figures = tuple[int, int | Decimal]


def figures(fake: FakeMarketplace | FakeAssetCDN) -> dict[str, Figures]:
    """What the fake's meter holds: (requests, credits) by endpoint path."""
    return {path: (u.requests, u.credits) for path, u in fake.usage.by_endpoint.items()}


def totals(usage: UsageMeter) -> Figures:
    return usage.requests, usage.credits


def anonymous(fake: FakeMarketplace) -> MarketplaceClient:
    return MarketplaceClient(fake.client_id, base_url=fake.url, retry_policy=NO_WAIT)


def test_a_query_a_show_a_command_and_token_requests(fake_marketplace: FakeMarketplace) -> None:
    fake = fake_marketplace
    anon = anonymous(fake)
    anon.listings.query()  # a token (Authentication: 1) and a Heavy read (5)
    assert figures(fake) == {TOKEN: (1, 1), QUERY: (1, 5)}

    seller = login(fake, "seller@example.com")  # a password grant: 1
    listing = seller.own_listings.create({"title": "Tandem"}).data.data  # Standard write: 10
    anon.listings.show({"id": listing.id})  # Simple read: 1
    assert figures(fake) == {
        TOKEN: (2, 2),
        QUERY: (1, 5),
        "/v1/api/own_listings/create": (1, 10),
        SHOW: (1, 1),
    }
    assert totals(fake.usage) == (5, 1 + 5 + 1 + 10 + 1)
    assert fake.usage.by_endpoint[QUERY].billed_requests == 1


def test_a_missing_resource_is_billed_a_missing_endpoint_is_not(
    fake_marketplace: FakeMarketplace,
) -> None:
    fake = fake_marketplace
    with pytest.raises(NotFoundError):
        anonymous(fake).listings.show({"id": uuid.uuid4()})  # a 404 of an endpoint: billed
    for path in ("/v1/api/listings/find_everything", "/v1/auth/nowhere", "/nothing"):
        assert requests.get(fake.url + path, headers=JSON, timeout=5).status_code == 404
    assert figures(fake) == {
        TOKEN: (1, 1),
        SHOW: (1, 1),
        "/v1/api/listings/find_everything": (1, 0),
        "/v1/auth/nowhere": (1, 0),
        "/nothing": (1, 0),
    }
    assert fake.usage.by_endpoint[SHOW].billed_requests == 1
    assert fake.usage.by_endpoint["/v1/api/listings/find_everything"].billed_requests == 0


def test_401_429_and_5xx_are_counted_but_not_billed(fake_marketplace: FakeMarketplace) -> None:
    fake = fake_marketplace
    for status in (401, 429, 500, 503):
        fake.inject(QUERY, status=status)
        assert requests.get(fake.url + QUERY, headers=JSON, timeout=5).status_code == status
    # The fake's own 401 (no access token), and an injected 4xx, which is billed.
    assert requests.get(fake.url + QUERY, headers=JSON, timeout=5).status_code == 401
    fake.inject(QUERY, status=400)
    assert requests.get(fake.url + QUERY, headers=JSON, timeout=5).status_code == 400
    assert figures(fake) == {QUERY: (6, 5)}
    assert fake.usage.by_endpoint[QUERY].billed_requests == 1


def test_a_retried_fault_bills_only_the_answer(fake_marketplace: FakeMarketplace) -> None:
    fake = fake_marketplace
    fake.inject(QUERY, status=503)
    anonymous(fake).listings.query()  # the 503, retried: 5 for the answer, 0 for the fault
    assert figures(fake) == {TOKEN: (1, 1), QUERY: (2, 5)}
    fake.inject(QUERY, status=500, times=10)
    with pytest.raises(ServerError):
        anonymous(fake).with_options(max_retries=0).listings.query()
    assert figures(fake) == {TOKEN: (2, 2), QUERY: (3, 5)}


def test_an_image_upload_bills_the_image_bytes(fake_marketplace: FakeMarketplace) -> None:
    fake = fake_marketplace
    seller = login(fake, "seller@example.com")
    image = png(8, 8, (1, 2, 3))
    seller.images.upload({"image": image})
    # Image upload: 30 credits, and 230,000 a GB of the image.
    upload = Decimal(30) + Decimal(len(image)) * 230_000 / GB
    # A file that is no image is refused (400), and billed all the same, its bytes too.
    not_image = b"%PDF-1.4 not an image"
    with pytest.raises(BadRequestError):
        seller.images.upload({"image": not_image})
    refused = Decimal(30) + Decimal(len(not_image)) * 230_000 / GB
    billed = fake.usage.by_endpoint["/v1/api/images/upload"]
    assert (billed.requests, billed.credits) == (2, upload + refused)
    assert billed.transfer_bytes == len(image) + len(not_image)
    assert billed.transfer_credits == Decimal(len(image) + len(not_image)) * 230_000 / GB
    assert fake.usage.credits == 1 + upload + refused


def test_an_upload_and_downloads_through_storage(
    fake_marketplace: FakeMarketplace, tmp_path: Path
) -> None:
    fake = fake_marketplace
    user = login(fake, "user@example.com")
    uploaded = user.upload_file(CONTENT, name="contract.pdf")
    user.download_file(uploaded.id, tmp_path / "own.pdf", own=True)
    user.download_file(uploaded.id, tmp_path / "copy.pdf")
    size = Decimal(len(CONTENT))
    assert figures(fake) == {
        TOKEN: (1, 1),
        "/v1/api/own_files/create": (1, 5),  # Simple write
        # File upload: 70 credits, and 255,000 a GB stored; File download: 5, and 25,000 a GB.
        "/v1/api/file_uploads/create": (1, 70 + size * 255_000 / GB),
        "/v1/api/own_file_downloads/create": (1, 5 + size * 25_000 / GB),
        "/v1/api/file_downloads/create": (1, 5 + size * 25_000 / GB),
    }
    assert fake.usage.by_endpoint["/v1/api/file_uploads/create"].transfer_bytes == len(CONTENT)
    # The requests to storage are not counted, though the fake received them.
    assert sum(path.startswith("/storage/") for _, path in fake.requests) == 3


def test_storage_bills_by_the_api_that_gave_the_url(
    fake_marketplace: FakeMarketplace, integration_client: IntegrationClient, tmp_path: Path
) -> None:
    integ = integration_client
    registered = integ.files.create(
        {"name": "report.pdf", "mimeType": "application/pdf", "size": len(CONTENT)}
    ).data.data
    target = integ.file_uploads.create({"fileId": registered.id}).data.data
    # Storage refusing bytes (not the size registered) moves none: nothing is billed.
    refused = requests.put(
        str(target.attributes.url), data=b"short", headers=target.attributes.headers, timeout=5
    )
    assert refused.status_code == 400
    integ.send_file(target, CONTENT)
    url = integ.file_downloads.create({"fileId": registered.id}).data.data.attributes.url
    integ.save_file(str(url), tmp_path / "report.pdf")
    size = Decimal(len(CONTENT))
    assert figures(fake_marketplace) == {
        TOKEN: (1, 1),
        "/v1/integration_api/files/create": (1, 5),
        "/v1/integration_api/file_uploads/create": (1, 70 + size * 255_000 / GB),
        "/v1/integration_api/file_downloads/create": (1, 5 + size * 25_000 / GB),
    }


def test_reset_starts_again_from_nothing(fake_marketplace: FakeMarketplace) -> None:
    fake = fake_marketplace
    anon = anonymous(fake)
    anon.listings.query()
    fake.usage.reset()
    assert (totals(fake.usage), figures(fake)) == ((0, 0), {})
    anon.listings.query()  # the token is still good
    assert figures(fake) == {QUERY: (1, 5)}


def test_a_meter_of_its_own_follows_a_block(fake_marketplace: FakeMarketplace) -> None:
    fake = fake_marketplace
    anon = anonymous(fake)
    anon.listings.query()
    with fake.metering() as spent:
        anon.listings.query()
        fake.usage.reset()  # the block's meter keeps its own count
        anon.listings.query()
    anon.listings.query()
    assert totals(spent) == totals(fake.usage) == (2, 10)


def test_the_asset_cdn_bills_asset_reads_into_its_own_meter(
    fake_marketplace: FakeMarketplace,
) -> None:
    with FakeAssetCDN({"content/footer.json": {"links": []}}) as cdn:
        sdk = MarketplaceClient(cdn.client_id, asset_cdn_base_url=cdn.url, retry_policy=NO_WAIT)
        sdk.asset_by_alias("content/footer.json")  # a redirect (3xx, not billed), the asset
        with pytest.raises(NotFoundError):
            sdk.asset_by_version("content/nothing.json", cdn.latest)  # billed: 0.5
        assert figures(cdn) == {
            "/v1/assets/pub/{clientId}/a/...": (1, 0),
            "/v1/assets/pub/{clientId}/v/...": (2, Decimal("0.5") * 2),  # Simple asset read
        }
        cdn.usage.reset()
        assert cdn.usage.requests == 0
    assert fake_marketplace.usage.requests == 0  # a fake of its own


def test_the_client_and_the_fake_count_the_same(
    fake_marketplace: FakeMarketplace, tmp_path: Path
) -> None:
    fake = fake_marketplace
    sdk = login(fake, "user@example.com")
    fake.inject(QUERY, status=429)
    fake.inject(SHOW, status=401)
    sdk.listings.query()
    with pytest.raises(NotFoundError):
        sdk.listings.show({"id": uuid.uuid4()})
    sdk.images.upload({"image": png(4, 4, (9, 9, 9))})
    uploaded = sdk.upload_file(CONTENT, name="contract.pdf")
    sdk.download_file(uploaded.id, tmp_path / "copy.pdf", own=True)
    assert sdk.usage.snapshot() == fake.usage.snapshot()


# --- the credit_budget marker -------------------------------------------------------------------

SPENDING = """
import pytest
from flexclient import MarketplaceClient


def query(fake):
    MarketplaceClient(fake.client_id, base_url=fake.url).listings.query()  # 1 + 5 credits
"""


def run_tests(pytester: pytest.Pytester, tests: str) -> pytest.RunResult:
    """Run `tests` (which may call `query(fake)`) in a pytest of their own."""
    pytester.makepyfile(SPENDING + tests)
    return pytester.runpytest("--strict-markers", "-p", "no:cacheprovider")


def test_a_test_over_its_budget_fails_with_what_it_spent(pytester: pytest.Pytester) -> None:
    result = run_tests(
        pytester,
        """
@pytest.mark.credit_budget(10)
def test_twice(fake_marketplace):
    query(fake_marketplace)
    query(fake_marketplace)


@pytest.mark.credit_budget(6)
def test_once(fake_marketplace):
    query(fake_marketplace)
""",
    )
    result.assert_outcomes(failed=1, passed=1)
    result.stdout.fnmatch_lines(
        [
            "*test_twice*",
            "credit_budget(10) exceeded: * would cost 12 credits on Sharetribe, 2 over its budget",
            "  endpoint * requests * credits",
            "  /v1/api/listings/query * 2 * 10",
            "  /v1/auth/token * 2 * 2",
        ]
    )


def test_a_budget_counts_each_test_and_setup_and_no_reset(pytester: pytest.Pytester) -> None:
    result = run_tests(
        pytester,
        """
pytestmark = pytest.mark.credit_budget(7)


@pytest.fixture
def queried(fake_marketplace):
    query(fake_marketplace)  # in the test's setup: counted
    return fake_marketplace


def test_demo_first(demo_marketplace):
    query(demo_marketplace)


def test_demo_again(demo_marketplace):  # the shared fake: this test's spending only
    query(demo_marketplace)


def test_setup_counts(queried):
    queried.usage.reset()  # the budget keeps its own count
    query(queried)


@pytest.mark.credit_budget(12)
def test_closest_marker_wins(queried):
    query(queried)
""",
    )
    result.assert_outcomes(failed=1, passed=3)
    result.stdout.fnmatch_lines(["*test_setup_counts*", "credit_budget(7) exceeded: *12 credits*"])


def test_a_budget_must_be_a_number_of_credits(pytester: pytest.Pytester) -> None:
    result = run_tests(
        pytester,
        """
@pytest.mark.credit_budget("lots")
def test_it(fake_marketplace):
    query(fake_marketplace)
""",
    )
    result.assert_outcomes(errors=1)
    result.stdout.fnmatch_lines(["*credit_budget*must be a number of credits, not 'lots'*"])


# Answers the client may get, billed and not: each endpoint is called once with each.
STATUSES = (None, 400, 401, 403, 404, 409, 429, 500, 503)


def every_call(client: MarketplaceClient | IntegrationClient) -> list[tuple[str, object]]:
    """(URL path, bound method) of every endpoint of `client` but the uploads."""
    from flexclient._endpoints.kinds import Upload
    from flexclient._endpoints.walk import api_of, iter_endpoints

    # By name, as the statuses below are dealt out in this order.
    entries = sorted(iter_endpoints(api_of(client)), key=lambda e: (e.group, e.endpoint.name))
    bound = [e.bound(client) for e in entries]
    return [(b.url_path, b) for b in bound if not isinstance(b, Upload)]


def some_params(bound: object) -> dict[str, object]:
    """Parameters with every required key of the endpoint, of a plausible kind: enough to be
    sent; whatever the fake answers, both meters must agree on it."""
    from flexclient._endpoints.kinds import Bound

    assert isinstance(bound, Bound)
    params: dict[str, object] = {}
    for key in getattr(bound.endpoint.params_type, "__required_keys__", ()):
        if key.endswith("Id") or key == "id":
            params[key] = uuid.uuid4()
        elif key in ("start", "end", "bookingStart", "bookingEnd"):
            params[key] = "2030-01-01T00:00:00.000Z"
        else:
            params[key] = "x"
    return params


@pytest.mark.filterwarnings("ignore:.* is deprecated:DeprecationWarning")  # the legacy two
def test_the_client_and_the_fake_agree_over_every_endpoint_and_status(
    fake_marketplace: FakeMarketplace,
) -> None:
    fake = fake_marketplace
    sdk = login(fake, "every@example.com").with_options(max_retries=1)
    integ = integration(fake)
    sent = 0
    for client in (sdk, integ):
        for n, (path, bound) in enumerate(every_call(client)):
            status = STATUSES[n % len(STATUSES)]
            if status is not None:
                fake.inject(path, status=status, body={"errors": []})
            before = client.usage.requests
            # Any answer will do, and a ParameterError sends nothing.
            with contextlib.suppress(ParameterError, ApiError):
                bound(some_params(bound))  # type: ignore[operator]
            sent += client.usage.requests > before
    assert sent > 90  # nearly all endpoints were reached
    both = sdk.usage.snapshot().endpoints + integ.usage.snapshot().endpoints
    merged: dict[str, tuple[int, Decimal]] = {}
    for path, used in both:
        requests_, credits = merged.get(path, (0, Decimal(0)))
        merged[path] = (requests_ + used.requests, credits + used.credits)
    assert merged == {p: (u.requests, u.credits) for p, u in fake.usage.by_endpoint.items()}
    assert sdk.usage.credits + integ.usage.credits == fake.usage.credits
