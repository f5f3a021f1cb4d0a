"""The fake's protocol: tokens and their expiry, content negotiation, faults, limits, 501."""

from __future__ import annotations

import copy
import dataclasses
import datetime as dt
from collections.abc import Callable

import pytest
import requests

from flexclient import (
    ApiError,
    AuthError,
    IntegrationClient,
    MarketplaceClient,
    ParameterError,
    RateLimitError,
    RateLimits,
    RequestTimeoutError,
    ServerError,
    Token,
)
from flexclient._http.transport import parse_http_date
from flexclient._wire.formats import TRANSIT, WireFormatName
from flexclient.testing import FakeMarketplace
from flexclient.testing._app import keyword_types
from tests import sample
from tests.helpers import NO_WAIT
from tests.test_limits import FakeClock


def test_expired_token_is_refreshed_and_the_call_retried(wire: WireFormatName) -> None:
    with FakeMarketplace() as fake:
        fake.add_user("a@example.com", "a-password")
        sdk = MarketplaceClient(
            fake.client_id, base_url=fake.url, wire_format=wire, retry_policy=NO_WAIT
        )
        sdk.login(username="a@example.com", password="a-password")
        first = sdk.token_store.get()
        fake.expire_tokens()  # as its lifetime passing would
        assert sdk.current_user.show().data.data.attributes.email == "a@example.com"
        second = sdk.token_store.get()
        assert (
            first is not None and second is not None and second.access_token != first.access_token
        )
        paths = [p for _, p in fake.requests]
        assert paths[-3:] == [
            "/v1/api/current_user/show",
            "/v1/auth/token",
            "/v1/api/current_user/show",
        ]


def test_revoked_refresh_token_falls_back_to_anonymous(
    fake_marketplace: FakeMarketplace, marketplace_client: MarketplaceClient
) -> None:
    marketplace_client.token_store.set(
        Token(access_token="stale", scope="user", refresh_token="revoked")
    )
    res = marketplace_client.listings.query()
    assert res.status == 200 and marketplace_client.auth_info().is_anonymous


def test_grants(fake_marketplace: FakeMarketplace, marketplace_client: MarketplaceClient) -> None:
    user = fake_marketplace.add_user("op@example.com", "op-password")
    marketplace_client.login_as(
        code=fake_marketplace.login_as_code(user), redirect_uri="https://x/cb", code_verifier="v"
    )
    assert marketplace_client.auth_info().is_logged_in_as
    trusted = marketplace_client.exchange_token()
    assert trusted.scopes == ["trusted:user"] and trusted.refresh_token is None
    fake_marketplace.add_idp_token("google", "g-token", user)
    marketplace_client.login_with_idp(idp_id="google", idp_client_id="g-app", idp_token="g-token")
    assert marketplace_client.current_user.show().data.data.id == user
    with pytest.raises(AuthError) as wrong:
        marketplace_client.login(username="op@example.com", password="nope")
    assert wrong.value.status == 401 and "invalid_grant" in wrong.value.body
    bad_client = MarketplaceClient("not-the-client", base_url=fake_marketplace.url)
    with pytest.raises(AuthError) as unknown:
        bad_client.listings.query()
    assert unknown.value.status == 401 and "invalid_client" in unknown.value.body
    marketplace_client.logout()
    assert marketplace_client.token_store.get() is None


def test_integration_token_and_wrong_api(
    fake_marketplace: FakeMarketplace, integration_client: IntegrationClient
) -> None:
    assert integration_client.marketplace.show().status == 200
    assert integration_client.auth_info().scopes == ["integ"]
    token = integration_client.token_store.get()
    assert token is not None
    raw = requests.get(
        f"{fake_marketplace.url}/v1/api/marketplace/show",
        headers={"Authorization": f"Bearer {token.access_token}"},
        timeout=5,
    )
    assert raw.status_code == 403
    bad = IntegrationClient(
        fake_marketplace.client_id, "wrong-secret", base_url=fake_marketplace.url
    )
    with pytest.raises(AuthError):
        bad.marketplace.show()


def test_content_negotiation(
    fake_marketplace: FakeMarketplace, marketplace_client: MarketplaceClient
) -> None:
    marketplace_client.marketplace.show()
    token = marketplace_client.token_store.get()
    assert token is not None
    auth = {"Authorization": f"Bearer {token.access_token}"}
    url = f"{fake_marketplace.url}/v1/api/marketplace/show"
    transit = requests.get(url, headers={**auth, "Accept": "application/transit+json"}, timeout=5)
    assert transit.headers["Content-Type"].startswith(
        "application/transit+json"
    ) and transit.text.startswith('["^ "')
    assert '"~:type","~:marketplace"' in transit.text  # types are keywords, as the API writes
    plain = requests.get(url, headers={**auth, "Accept": "application/json"}, timeout=5)
    assert plain.json()["data"]["type"] == "marketplace"
    xml = requests.get(url, headers={**auth, "Accept": "application/xml"}, timeout=5)
    assert xml.status_code == 400 and xml.json()["errors"][0]["code"] == "unsupported-content-type"
    post = requests.post(
        f"{fake_marketplace.url}/v1/api/own_listings/create",
        data="title=x",
        headers={**auth, "Content-Type": "application/x-www-form-urlencoded"},
        timeout=5,
    )
    assert (
        post.status_code == 400 and post.json()["errors"][0]["code"] == "unsupported-content-type"
    )


def test_resource_and_reference_types_are_transit_keywords() -> None:
    body = sample.page()
    kept = copy.deepcopy(body)
    text = TRANSIT.encode(keyword_types(body)).decode()
    assert body == kept  # the handler's body is not changed
    # The first of each is written in full; later ones are cache codes, as for any keyword.
    for rtype in ("listing", "user", "image"):
        assert f'"~:{rtype}"' in text and f'"{rtype}"' not in text
    assert TRANSIT.decode(text.encode()) == TRANSIT.decode(TRANSIT.encode(body))
    assert keyword_types({"errors": []}) == {"errors": []}  # no data added where there was none


def test_injected_faults(
    fake_marketplace: FakeMarketplace, marketplace_client: MarketplaceClient
) -> None:
    path = "/v1/api/marketplace/show"
    fake_marketplace.inject(
        path, status=503, body="<html>maintenance</html>", content_type="text/html", times=1
    )
    assert marketplace_client.marketplace.show().retries == 1  # a query is retried after a 503
    fake_marketplace.inject(
        path,
        status=500,
        body={"errors": [{"status": 500, "code": "boom", "title": "Boom"}]},
        times=3,
    )
    with pytest.raises(ServerError) as info:
        marketplace_client.marketplace.show()
    assert info.value.codes == ["boom"] and info.value.retries == 2
    # Delayed answers: a client that waits less gives up, each try (the fake really waited).
    fake_marketplace.inject(path, delay=1.0, times=10)
    impatient = marketplace_client.with_options(timeout=0.2, retry_policy=NO_WAIT)
    with pytest.raises(RequestTimeoutError):
        impatient.marketplace.show()


def test_answers_are_dated_by_the_marketplaces_clock(
    fake_marketplace: FakeMarketplace, marketplace_client: MarketplaceClient
) -> None:
    # A mirror tells the time by the API's `Date`: the fake's follows its own clock, which
    # tests move, as Sharetribe's follows Sharetribe's.
    fake_marketplace.advance(dt.timedelta(days=3))
    answered = marketplace_client.marketplace.show().headers["Date"]
    failed = requests.get(f"{fake_marketplace.url}/v1/api/no_such/path", timeout=5)
    assert failed.status_code == 404
    for date in (answered, failed.headers["Date"]):
        dated = parse_http_date(date)  # one date, not the machine's and the fake's both
        assert dated is not None and abs(dated - fake_marketplace.now) < dt.timedelta(seconds=5)


def test_dev_rate_limits_are_the_buckets_of_the_clients_dev_preset() -> None:
    dev = RateLimits.preset("dev")

    def allowed(call: Callable[[], object]) -> int:
        """How many calls get through before the first 429 (the buckets refill with time:
        a slow machine may see a few more)."""
        for n in range(300):
            try:
                call()
            except RateLimitError as refused:
                assert refused.codes == ["too-many-requests"]
                return n
        raise AssertionError("never limited")

    with FakeMarketplace(rate_limits="dev") as fake:
        author = fake.add_user("nightly@example.com", "nightly-pass")
        integ = IntegrationClient(
            fake.client_id, fake.client_secret, base_url=fake.url, max_retries=0
        )
        listing = integ.listings.create({"title": "Synced", "authorId": author}).data.data
        # A nightly job's burst of updates: as many as the preset's bucket holds get through.
        updates = allowed(lambda: integ.listings.update({"id": listing.id, "title": "Synced"}))
        assert dev.commands.initial - 1 <= updates <= dev.commands.initial + 2
        reads = allowed(lambda: integ.listings.show({"id": listing.id}))
        assert dev.queries.initial <= reads <= dev.queries.initial + 5


def test_a_client_with_the_same_preset_never_meets_the_fakes_limits() -> None:
    clock = FakeClock()  # one clock for both sides: time passes only when the client waits
    limits = dataclasses.replace(RateLimits.preset("dev"), clock=clock, sleep=clock.sleep)
    with FakeMarketplace(rate_limits=limits) as fake:
        author = fake.add_user("nightly@example.com", "nightly-pass")
        integ = IntegrationClient(
            fake.client_id, fake.client_secret, base_url=fake.url, rate_limits=limits
        )
        listing = integ.listings.create({"title": "Synced", "authorId": author}).data.data
        for n in range(int(limits.commands.initial) + 10):
            integ.listings.update({"id": listing.id, "title": f"Synced {n}"})
        # Past the burst the client waited for each refill, and the fake refused none.
        assert len(clock.sleeps) >= 10 and set(clock.sleeps) == {limits.commands.interval}
        assert fake.usage.by_endpoint["/v1/integration_api/listings/update"].requests == 60


def test_the_fake_refuses_before_it_is_started() -> None:
    fake = FakeMarketplace()
    with pytest.raises(RuntimeError, match="not started"):
        _ = fake.url
    assert "not started" in repr(fake)


def test_client_side_errors_still_come_first(
    marketplace_client: MarketplaceClient, fake_marketplace: FakeMarketplace
) -> None:
    with pytest.raises(ParameterError):
        marketplace_client.listings.query({"start": object()})  # type: ignore[typeddict-item]
    assert fake_marketplace.requests == []
    with pytest.raises(ParameterError, match="id"):  # checked before sending, as of #14
        marketplace_client.listings.show({"id": "not-a-uuid"})
    assert fake_marketplace.requests == []
    with pytest.raises(ApiError):  # what only the server can refuse still reaches it
        marketplace_client.listings.show({"id": "00000000-0000-0000-0000-000000000000"})
