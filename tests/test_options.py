"""Client options: one frozen object, every option kept by derived clients, closing."""

from __future__ import annotations

import dataclasses
import re
from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest
import requests
import requests_mock

from flexclient import (
    AuthError,
    Bucket,
    ClientOptions,
    IntegrationClient,
    MarketplaceClient,
    MemoryTokenStore,
    NotFoundError,
    Options,
    ParameterError,
    RateLimits,
    RetryPolicy,
    Token,
)
from flexclient._http.transport import UPLOAD_TIMEOUT, check_origin, default_deadline
from flexclient._options import SHARED, SHORTHANDS
from tests.helpers import MP, token_json

# A value for every setting, none of them the default.
EVERY_SETTING: dict[str, Any] = {
    "base_url": MP,
    "timeout": (2.0, 7.0),
    "deadline": 40.0,
    "retry_policy": RetryPolicy(max_retries=4, backoff_cap=3.0, sleep=lambda _: None),
    "wire_format": "json",
    "version": "v2",
    "max_response_bytes": 12345,
    "rate_limits": RateLimits(queries=Bucket(5, 1, 1.0, 5), commands=Bucket(2, 1, 1.0, 2)),
    "max_connections": 3,
    "asset_cdn_base_url": "https://cdn.test",
    "credit_budget": Decimal("1500.5"),
}


def test_the_keywords_and_the_settings_are_the_same_list() -> None:
    fields = {f.name for f in dataclasses.fields(Options)}
    assert set(ClientOptions.__annotations__) == fields | SHARED | SHORTHANDS
    assert set(EVERY_SETTING) == fields
    defaults = Options(base_url=MP)
    assert all(getattr(defaults, k) != v for k, v in EVERY_SETTING.items() if k != "base_url")


def test_the_option_table_of_the_docs_names_exactly_the_keywords() -> None:
    usage = (Path(__file__).parent.parent / "docs" / "usage.md").read_text(encoding="utf-8")
    table = usage.split("Both take these keyword options:", 1)[1].split("\n\n", 2)[1]
    names = re.findall(r"^\| `(\w+)` \|", table, flags=re.MULTILINE)
    assert len(names) == len(set(names))
    assert set(names) == set(ClientOptions.__annotations__) | {"client_secret"}


def test_options_are_frozen_and_checked_once() -> None:
    sdk = MarketplaceClient("client-id", **EVERY_SETTING)
    assert sdk.options == Options(**EVERY_SETTING)
    with pytest.raises(dataclasses.FrozenInstanceError):
        sdk.options.timeout = 3  # type: ignore[misc]
    assert MarketplaceClient("client-id", max_retries=0).options.retry_policy.max_retries == 0
    assert MarketplaceClient("client-id", rate_limits="dev").options.rate_limits == (
        RateLimits.preset("dev")
    )


def test_trusted_client_keeps_every_option_and_the_connection_pool() -> None:
    sdk = MarketplaceClient("client-id", client_secret="secret", **EVERY_SETTING)
    sdk.token_store.set(Token(access_token="user-token", scope="user", refresh_token="r"))
    with requests_mock.Mocker() as m:
        m.post(f"{MP}/v2/auth/token", json=token_json("trusted:user", "trusted-token"))
        trusted = sdk.trusted_client()
    assert trusted.options == sdk.options
    assert trusted._transport.session is sdk._transport.session
    assert trusted._transport.limiter is sdk._transport.limiter
    assert trusted.token_store is not sdk.token_store
    stored = trusted.token_store.get()
    assert stored is not None and stored.access_token == "trusted-token"
    assert trusted._client_secret == "secret"


@pytest.mark.parametrize("name", sorted(EVERY_SETTING))
def test_with_options_changes_one_setting_and_shares_the_rest(name: str) -> None:
    sdk = MarketplaceClient("client-id")
    changes: Any = {name: EVERY_SETTING[name]}
    if name == "base_url":
        changes[name] = "https://other.test"
    derived = sdk.with_options(**changes)
    assert getattr(derived.options, name) == changes[name]
    others = {f.name for f in dataclasses.fields(Options)} - {name}
    assert all(getattr(derived.options, k) == getattr(sdk.options, k) for k in others)
    assert derived._transport.session is sdk._transport.session
    # Another marketplace never sees this one's token.
    assert (derived.token_store is sdk.token_store) == (name != "base_url")


def test_with_options_keeps_limits_and_the_connection_bound_it_does_not_change() -> None:
    sdk = MarketplaceClient("client-id", rate_limits="dev", max_connections=2)
    same = sdk.with_options(timeout=9)
    assert same._transport.limiter is sdk._transport.limiter
    assert same._transport._slots is sdk._transport._slots
    other = sdk.with_options(rate_limits="prod", max_connections=5)
    assert other._transport.limiter is not sdk._transport.limiter
    assert other._transport._slots is not sdk._transport._slots


@pytest.mark.parametrize(
    ("changes", "param"),
    [
        ({"session": requests.Session()}, "session"),
        ({"client_secret": "other"}, "client_secret"),
        ({"client_id": "other"}, "client_id"),
        ({"base_url": "https://user:pw@mp.test"}, "base_url"),
        ({"timeout": None}, "timeout"),
        ({"base_url": "http://example.com"}, "base_url"),
        ({"wire_format": "xml"}, "wire_format"),
        ({"max_retries": -1}, "max_retries"),
        ({"max_response_bytes": 0}, "max_response_bytes"),
        ({"retry_policy": 3, "max_retries": 1}, "retry_policy"),
        ({"colour": "blue"}, "colour"),
    ],
)
def test_with_options_checks_what_it_is_given(changes: dict[str, Any], param: str) -> None:
    with pytest.raises(ParameterError) as info:
        MarketplaceClient("client-id").with_options(**changes)
    assert info.value.param == param


class Closing(requests.Session):
    def __init__(self) -> None:
        super().__init__()
        self.closed = 0

    def close(self) -> None:
        self.closed += 1
        super().close()


def test_a_client_closes_the_session_it_made_and_never_the_users() -> None:
    with MarketplaceClient("client-id") as sdk:
        own = sdk._transport.session
        derived = sdk.with_options(timeout=3)
        derived.close()  # shares the pool: leaves it open
        assert own.adapters  # still usable
    theirs = Closing()
    with MarketplaceClient("client-id", session=theirs):
        pass
    assert theirs.closed == 0


def test_closing_closes_the_pool(monkeypatch: pytest.MonkeyPatch) -> None:
    closed: list[bool] = []

    def close(self: requests.Session) -> None:
        closed.append(True)

    monkeypatch.setattr(requests.Session, "close", close)
    with MarketplaceClient("client-id") as sdk:
        sdk.with_options(timeout=3).close()
        assert closed == []
    assert closed == [True]


def test_a_derived_client_shares_the_token_and_its_refreshes() -> None:
    store = MemoryTokenStore()
    sdk = MarketplaceClient("client-id", base_url=MP, token_store=store)
    derived = sdk.with_options(wire_format="json")
    with requests_mock.Mocker() as m:
        m.post(f"{MP}/v1/auth/token", json=token_json())
        m.get(
            f"{MP}/v1/api/listings/query",
            json={"data": []},
            headers={"Content-Type": "application/json"},
        )
        derived.listings.query()
    assert sdk.token_store.get() == derived.token_store.get() is not None
    assert m.request_history[-1].headers["Accept"] == "application/json"


def test_per_call_options_as_keywords_on_every_kind_of_method() -> None:
    sdk = MarketplaceClient("client-id", base_url=MP)
    sdk.token_store.set(Token(access_token="t", scope="user"))
    seen: list[float | tuple[float, float] | None] = []
    real = sdk._transport.send

    def spy(*args: Any, **kwargs: Any) -> Any:
        seen.append(kwargs.get("timeout"))
        return real(*args, **kwargs)

    sdk._transport.send = spy  # type: ignore[method-assign]
    progress: list[int] = []
    with requests_mock.Mocker() as m:
        ok = {"json": {"data": None}, "headers": {"Content-Type": "application/json"}}
        m.post(f"{MP}/v1/api/own_listings/create", **ok)
        m.post(f"{MP}/v1/api/images/upload", **ok)
        m.get(f"{MP}/v1/api/listings/query", json={"data": []}, headers=ok["headers"])
        sdk.listings.query({}, timeout=4)
        sdk.own_listings.create({"title": "a"}, timeout=5, deadline=20)
        sdk.own_listings.create({"title": "a"}, {}, {"timeout": 6})
        sdk.images.upload({"image": b"png"}, on_upload_progress=lambda e: progress.append(e.loaded))
    assert seen == [4.0, 5.0, 6.0, (5.0, 300.0)]
    sent = m.request_history[-1].body.read()  # reading the upload reports its progress
    assert b"png" in sent and progress[-1] == len(sent)
    with pytest.raises(ParameterError, match="timeout"):
        sdk.own_listings.create({"title": "a"}, {}, {"timeout": 6}, timeout=7)


def test_an_options_object_is_checked_as_it_is_made() -> None:
    with pytest.raises(ParameterError) as info:
        Options(base_url=MP, timeout=0)
    assert info.value.param == "timeout"
    made = Options(base_url=MP + "/", rate_limits="dev", deadline=5)  # type: ignore[arg-type]
    assert made.base_url == MP
    assert made.rate_limits == RateLimits.preset("dev")
    assert made.deadline == 5.0 and isinstance(made.deadline, float)


@pytest.mark.parametrize("param", ["base_url", "asset_cdn_base_url"])
@pytest.mark.parametrize(
    "url",
    [
        "http://example.com",
        "http://10.0.0.5:8080",
        "ftp://example.com",
        "example.com",
        "https://user:pw@example.com",
        "https://[::1",
        "https://",
        5,
    ],
)
def test_one_rule_for_both_addresses(param: str, url: object) -> None:
    with pytest.raises(ParameterError) as info:
        check_origin(url, param)
    assert info.value.param == param
    given: Any = {param: url}
    with pytest.raises(ParameterError) as info:
        MarketplaceClient("client-id", **given)
    assert info.value.param == param


@pytest.mark.parametrize(
    "url", ["https://a.test/", "http://127.0.0.1:9", "http://[::1]:9/", "https://a.test/prefiX/"]
)
def test_the_rule_lets_https_and_loopback_through(url: str) -> None:
    assert check_origin(url, "base_url") == url.rstrip("/")


class Counted(MarketplaceClient):
    made = 0

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        Counted.made += 1
        super().__init__(*args, **kwargs)


def test_with_options_makes_the_client_as_the_constructor_does() -> None:
    sdk = Counted("client-id", client_secret="secret", max_connections=2)
    derived = sdk.with_options(timeout=3)
    assert type(derived) is Counted and Counted.made == 2
    assert derived._client_secret == "secret"
    assert derived.options == dataclasses.replace(sdk.options, timeout=3.0)
    # The Integration client's default bound is a new client's, not a derived one's.
    assert IntegrationClient("id", "s").options.max_connections == 10
    unbounded = IntegrationClient("id", "s", max_connections=None)
    assert unbounded.with_options(timeout=3).options.max_connections is None


def test_derived_clients_share_the_meter_and_the_store_lock() -> None:
    sdk = MarketplaceClient("client-id", base_url=MP)
    same = sdk.with_options(timeout=3)
    assert same.usage is sdk.usage
    assert same._token_lock is sdk._token_lock
    elsewhere = sdk.with_options(base_url="https://other.test")
    assert elsewhere.usage is sdk.usage
    assert elsewhere.token_store is not sdk.token_store
    assert elsewhere._token_lock is not sdk._token_lock
    told = sdk.with_options(base_url="https://other.test", token_store=sdk.token_store)
    assert told._token_lock is sdk._token_lock


def test_the_transports_take_the_options_as_they_are() -> None:
    sdk = MarketplaceClient("client-id", **EVERY_SETTING)
    for client in (sdk, sdk.with_options(max_connections=5)):
        transport, options = client._transport, client.options
        assert transport.base_url == options.base_url
        assert transport.timeout == options.timeout
        assert transport.retry is options.retry_policy
        assert transport.max_response_bytes == options.max_response_bytes
        assert transport.deadline == options.deadline
        assert transport.max_connections == options.max_connections
        assert transport.limiter is not None and transport.limiter.limits is options.rate_limits
        # Other hosts get the same settings, and none of the API's bounds.
        offsite = client._offsite()
        assert offsite.settings is options
        other = offsite.transport("https://storage.test")
        assert other.timeout == options.timeout and other.retry is options.retry_policy
        assert other.deadline is None and other.limiter is None and other._slots is None
        client.close()


def test_base_url_none_is_the_default(monkeypatch: pytest.MonkeyPatch) -> None:
    assert MarketplaceClient("id", base_url=None).base_url == "https://flex-api.sharetribe.com"
    integ = IntegrationClient("id", "secret", base_url=None)
    assert integ.base_url == "https://flex-integ-api.sharetribe.com"
    # As if not given: a derived client goes back to the real host ...
    local = MarketplaceClient("id", base_url=MP)
    assert local.with_options(base_url=None).base_url == "https://flex-api.sharetribe.com"
    # ... and a client made from the environment takes the environment's.
    monkeypatch.setenv("SHARETRIBE_SDK_CLIENT_ID", "env-id")
    monkeypatch.setenv("SHARETRIBE_SDK_BASE_URL", MP)
    assert MarketplaceClient(base_url=None).base_url == MP


def test_the_defaults_are_those_the_docs_give() -> None:
    # docs/usage.md's option table, docs/reliability.md, docs/uploads.md.
    defaults = Options(base_url=MP)
    assert defaults.timeout == (5.0, 30.0) and defaults.deadline is None
    assert defaults.max_response_bytes == 64 * 1024 * 1024
    assert (defaults.wire_format, defaults.version) == ("transit", "v1")
    policy = defaults.retry_policy
    assert (policy.max_retries, policy.backoff_base, policy.backoff_cap) == (2, 0.5, 8.0)
    assert (policy.retry_after_cap, policy.max_elapsed) == (60.0, 90.0)
    assert UPLOAD_TIMEOUT == (5.0, 300.0)
    # A call may take a connect timeout and three read timeouts: 95 s, 905 s for an upload.
    assert default_deadline(defaults.timeout) == 95 and default_deadline(UPLOAD_TIMEOUT) == 905


@pytest.mark.parametrize(
    ("url", "said"),
    [
        ("ftp://example.com", "not an http(s) URL"),
        ("example.com", "not an http(s) URL"),
        ("https://", "not an http(s) URL"),
        ("https://[::1", "not an http(s) URL"),
        ("http://example.com", "must be HTTPS"),
        ("http://10.0.0.5:8080", "must be HTTPS"),
        ("https://user:pw@example.com", "user name or password"),
        ("https://user@example.com", "user name or password"),
    ],
)
def test_a_refused_address_says_why(url: str, said: str) -> None:
    with pytest.raises(ParameterError, match=re.escape(said)):
        check_origin(url, "base_url")


@pytest.mark.parametrize(
    "url", ["http://localhost:8000", "http://127.0.0.2", "http://[::1]", "https://localhost"]
)
def test_plain_http_to_any_loopback_address_is_allowed(url: str) -> None:
    assert check_origin(url + "/", "base_url") == url


@pytest.mark.parametrize(
    "base_url,origin,path",
    [
        ("https://flex-api.sharetribe.com/v1/api", "https://flex-api.sharetribe.com", "/v1/api"),
        ("https://flex-api.sharetribe.com/v1/", "https://flex-api.sharetribe.com", "/v1"),
        (
            "https://proxy.test/st/v1/integration_api",
            "https://proxy.test/st",
            "/v1/integration_api",
        ),
        ("http://127.0.0.1:8000/v1/auth/token", "http://127.0.0.1:8000", "/v1/auth/token"),
    ],
)
def test_a_base_url_holding_the_apis_path_is_refused_with_the_origin_to_give(
    base_url: str, origin: str, path: str
) -> None:
    with requests_mock.Mocker() as m:
        with pytest.raises(ParameterError) as info:
            MarketplaceClient("id", base_url=base_url).listings.query()
        assert m.request_history == []
    assert info.value.param == "base_url"
    assert f"give {origin!r}, without {path!r}" in str(info.value)


def test_a_404_that_is_not_the_apis_names_the_path_of_base_url() -> None:
    sdk = MarketplaceClient("id", base_url="https://proxy.test/sharetribe/")
    assert sdk.base_url == "https://proxy.test/sharetribe"  # a proxy's prefix is kept
    hint = "base_url has the path '/sharetribe', which comes before every request's path"
    with requests_mock.Mocker() as m:
        m.post("https://proxy.test/sharetribe/v1/auth/token", status_code=404, text="Not Found")
        with pytest.raises(AuthError) as auth:
            sdk.listings.query()
        m.post("https://proxy.test/sharetribe/v1/auth/token", json=token_json())
        m.get("https://proxy.test/sharetribe/v1/api/listings/query", status_code=404)
        with pytest.raises(NotFoundError) as call:
            sdk.listings.query()
        # The API's own 404, in Transit as it answers by default.
        m.get(
            "https://proxy.test/sharetribe/v1/api/listings/show",
            status_code=404,
            content=b'["^ ","~:errors",[["^ ","~:status",404,"~:code","not-found"]]]',
            headers={"Content-Type": "application/transit+json"},
        )
        with pytest.raises(NotFoundError) as api_said:
            sdk.listings.show({"id": "0e0b60fe-d9a2-11e6-bf26-cec0c932ce01"})
    sent_to = "sent to https://proxy.test/sharetribe/v1/auth/token"
    assert sent_to in str(auth.value) and hint in str(auth.value)
    assert "sent to https://proxy.test/sharetribe/v1/api/listings/query" in str(call.value)
    assert api_said.value.codes == ["not-found"]
    assert hint not in str(api_said.value)  # the API's own 404 says what was not found


def test_without_a_path_a_404_says_nothing_of_base_url() -> None:
    sdk = MarketplaceClient("id", base_url="https://api.test")
    with requests_mock.Mocker() as m:
        m.post("https://api.test/v1/auth/token", json=token_json())
        m.get("https://api.test/v1/api/listings/query", status_code=404)
        with pytest.raises(NotFoundError) as info:
            sdk.listings.query()
    assert "base_url" not in str(info.value)
