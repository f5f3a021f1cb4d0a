"""`MultitenantClient` against the fake over HTTP, and the official SDK's multitenant instance
against the same fake: both get the client ID and tokens, and the Marketplace API takes them."""

from __future__ import annotations

import time

import pytest

from flexclient import AuthError, MultitenantClient, UnauthorizedError
from flexclient._auth import jwt
from flexclient.testing import DEMO_USERS, FakeMarketplace
from tests.js_sdks import ROOT, run_js

EMAIL, PASSWORD = DEMO_USERS[0][0], DEMO_USERS[0][1]


def test_a_multitenant_client_logs_in_and_its_marketplace_client_calls() -> None:
    with FakeMarketplace(seed="demo") as fake:
        mt = MultitenantClient(fake.hostname, fake.multitenant_client_secret, base_url=fake.url)
        assert mt.client_data().client_id == fake.client_id
        assert mt.auth_info().is_anonymous
        sdk = mt.marketplace_client()
        assert sdk.client_id == fake.client_id and sdk.token_store is mt.token_store
        assert sdk.listings.query({"perPage": 1}).data.meta.total_items == 250

        user = sdk.login(username=EMAIL, password=PASSWORD)
        assert mt.client_data().client_id == fake.client_id  # a stored token: left alone
        assert mt.token_store.get() == user
        assert mt.token_exchange().client_id == fake.client_id
        assert mt.auth_info().scopes == ["trusted:user"]
        assert sdk.current_user.show().data.data.attributes.email == EMAIL

        me = sdk.current_user.show().data.data
        fake.add_idp_token("google", "g-token", me.id)
        mt.login_with_idp(idp_id="google", idp_client_id="g-app", idp_token="g-token")
        assert mt.auth_info().scopes == ["user"]
        assert sdk.current_user.show().data.data.id == me.id
        # Six requests to the Authentication API, five to the Marketplace API, on one meter.
        assert mt.usage is sdk.usage and mt.usage.requests == fake.usage.requests


@pytest.mark.parametrize(
    "hostname,secret,status", [("elsewhere.example.com", None, 404), (None, "not-the-secret", 401)]
)
def test_unknown_hostnames_and_wrong_secrets_are_refused(
    hostname: str | None, secret: str | None, status: int
) -> None:
    with FakeMarketplace() as fake:
        mt = MultitenantClient(
            hostname or fake.hostname, secret or fake.multitenant_client_secret, base_url=fake.url
        )
        with pytest.raises(AuthError) as info:
            mt.client_data()
        assert info.value.status == status
        assert mt.token_store.get() is None


def test_the_official_multitenant_sdk_works_with_the_fake() -> None:
    with FakeMarketplace(seed="demo") as fake:
        js = run_js(
            ROOT / "tests" / "parity" / "multitenant_fake.js",
            fake.url, fake.hostname, fake.multitenant_client_secret, EMAIL, PASSWORD,
        )  # fmt: skip
    assert js == {
        "clientId": fake.client_id,
        "firstScope": "public-read",
        "againClientId": fake.client_id,
        "totalItems": 250,
        "exchanged": fake.client_id,
        "exchangedScope": "trusted:user",
        "email": EMAIL,
        "otherHostname": 404,
        "wrongSecret": 401,
    }


def test_a_trusted_client_is_made_again_from_the_kept_session_after_it_expires() -> None:
    with FakeMarketplace(seed="demo") as fake:
        mt = MultitenantClient(fake.hostname, fake.multitenant_client_secret, base_url=fake.url)
        mt.marketplace_client().login(username=EMAIL, password=PASSWORD)
        trusted = mt.trusted_client()
        assert trusted.auth_info().scopes == ["trusted:user"]
        assert mt.auth_info().scopes == ["user"]  # the session stays where it was
        assert trusted.current_user.show().data.data.attributes.email == EMAIL

        fake.expire_tokens()
        with pytest.raises(UnauthorizedError, match="cannot be refreshed: make a new one"):
            trusted.current_user.show()
        again = mt.trusted_client()  # the expired user token is refreshed, then exchanged
        assert again.current_user.show().data.data.attributes.email == EMAIL


def test_a_clock_ten_minutes_behind_is_named(monkeypatch: pytest.MonkeyPatch) -> None:
    behind = int(time.time()) - 600
    monkeypatch.setattr(jwt, "now", lambda: behind)
    with FakeMarketplace() as fake:
        mt = MultitenantClient(fake.hostname, fake.multitenant_client_secret, base_url=fake.url)
        with pytest.raises(AuthError, match=r"this machine's clock is 6\d\d s behind the API's"):
            mt.client_data()
