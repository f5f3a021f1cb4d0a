"""The client's credits meter and budgets: what each call costs, counted from the answers the
client received; a budget stops a request before it is sent. The figures expected are typed
from the published usage table (Heavy read 5, Standard write 10, Authentication 1, Image
upload 30 plus 230,000 a GB), not read from flexclient."""

from __future__ import annotations

import csv
from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest
import requests
import requests_mock
from urllib3.exceptions import MaxRetryError, NewConnectionError

from flexclient import (
    CreditBudgetExceededError,
    IntegrationClient,
    MarketplaceClient,
    RateLimitError,
    ServerError,
    Token,
    TransportError,
)
from flexclient._endpoints.kinds import Bound
from flexclient._endpoints.walk import api_of, iter_endpoints
from tests.helpers import IG, MP, NO_WAIT, OK, QUERY, UNAUTHORIZED, token_json

DATA = Path(__file__).parent / "data" / "credits.tsv"
CREATE = f"{MP}/v1/api/own_listings/create"
UPLOAD = f"{MP}/v1/api/images/upload"
CREATED: dict[str, Any] = {"json": {"data": None}, "headers": {"Content-Type": "application/json"}}


def bound_endpoints(client: MarketplaceClient | IntegrationClient) -> list[Bound]:
    return [entry.bound(client) for entry in iter_endpoints(api_of(client))]


def test_every_endpoint_knows_its_usage_type_and_credits() -> None:
    with DATA.open(newline="") as f:
        table = {row["path"]: row["usage_type"] for row in csv.DictReader(f, delimiter="\t")}
    per_type = {"Simple read": 1, "Standard read": 2, "Heavy read": 5, "Simple write": 5}
    per_type |= {"Standard write": 10, "Heavy write": 15, "File upload": 70}
    per_type |= {"File download": 5, "Image upload": 30}
    endpoints = [
        *bound_endpoints(MarketplaceClient("id")),
        *bound_endpoints(IntegrationClient("id", "secret")),
    ]
    assert len(endpoints) == len(list(iter_endpoints())) > 0
    for bound in endpoints:
        listed = table.get(bound.url_path)
        assert bound.usage_type == listed, bound.url_path
        assert bound.credits == (per_type[listed] if listed else 0), bound.url_path
    sdk = MarketplaceClient("id")
    assert sdk.listings.query.credits == 5 and sdk.listings.query.usage_type == "Heavy read"
    assert repr(sdk.listings.query) == "<query /v1/api/listings/query (Heavy read, 5 credits)>"


def test_the_meter_counts_what_the_answers_cost(mock: requests_mock.Mocker) -> None:
    sdk = MarketplaceClient("id", base_url=MP, retry_policy=NO_WAIT)
    mock.get(QUERY, **OK)
    sdk.listings.query()  # a token request (1) and a Heavy read (5)
    assert sdk.usage.credits == 6 and sdk.usage.requests == 2
    assert sdk.usage.by_endpoint["/v1/auth/token"].credits == 1
    assert sdk.usage.by_endpoint["/v1/api/listings/query"].credits == 5
    # 429 and 5xx answers are not billed, but every request is counted, retries included.
    mock.get(
        QUERY, [{"status_code": 429, "headers": {"Retry-After": "0"}}, {"status_code": 503}, OK]
    )
    sdk.listings.query()
    assert (sdk.usage.credits, sdk.usage.requests) == (Decimal(11), 5)
    mock.get(QUERY, status_code=500)
    with pytest.raises(ServerError):
        sdk.with_options(max_retries=0).listings.query()
    assert (sdk.usage.credits, sdk.usage.requests) == (Decimal(11), 6)
    # Other 4xx answers are billed: a 404 from an endpoint that exists, a 400.
    mock.post(CREATE, status_code=404, json={"errors": []})
    with pytest.raises(Exception, match="404"):
        sdk.own_listings.create({"title": "x"})
    assert sdk.usage.credits == 21
    sdk.usage.reset()
    assert (sdk.usage.credits, sdk.usage.requests) == (Decimal(0), 0)


def test_a_401_is_not_billed_and_the_refresh_is(mock: requests_mock.Mocker) -> None:
    sdk = MarketplaceClient("id", base_url=MP, retry_policy=NO_WAIT)
    sdk.token_store.set(Token(access_token="old", scope="user", refresh_token="r1"))
    mock.post(f"{MP}/v1/auth/token", json=token_json("user", "new", "r2"))
    mock.get(QUERY, [UNAUTHORIZED, OK])
    sdk.listings.query()
    assert sdk.usage.requests == 3  # the query, the refresh, the query again
    assert sdk.usage.credits == 1 + 5
    assert sdk.usage.by_endpoint["/v1/api/listings/query"].billed_requests == 1


def test_an_image_upload_bills_its_bytes(mock: requests_mock.Mocker, tmp_path: Path) -> None:
    image = tmp_path / "photo.png"
    image.write_bytes(b"\x89PNG" + b"\x00" * 1_000_000)  # 1,000,004 bytes
    sdk = MarketplaceClient("id", base_url=MP, retry_policy=NO_WAIT)
    sdk.token_store.set(Token(access_token="t", scope="user", refresh_token="r"))
    mock.post(UPLOAD, **CREATED)
    sdk.images.upload({"image": image})
    upload = sdk.usage.by_endpoint["/v1/api/images/upload"]
    # 30 credits, and 230,000 a GB (10**9 bytes) for the image's own bytes.
    assert upload.credits == 30 + Decimal("230.00092")
    assert upload.transfer_bytes == 1_000_004


def test_derived_clients_share_the_meter(mock: requests_mock.Mocker) -> None:
    sdk = MarketplaceClient("id", base_url=MP, retry_policy=NO_WAIT)
    patient = sdk.with_options(timeout=60)
    mock.get(QUERY, **OK)
    patient.listings.query()
    assert sdk.usage is patient.usage and sdk.usage.credits == 6
    other = MarketplaceClient("id", base_url=MP)
    assert other.usage is not sdk.usage and other.usage.credits == 0


def test_the_integration_clients_calls_are_metered(mock: requests_mock.Mocker) -> None:
    integ = IntegrationClient("id", "secret", base_url=IG, retry_policy=NO_WAIT)
    mock.get(f"{IG}/v1/integration_api/events/query", **OK)
    integ.events.query()
    assert integ.usage.credits == 1 + 5


def test_a_client_budget_stops_a_call_before_it_is_sent(mock: requests_mock.Mocker) -> None:
    sdk = MarketplaceClient("id", base_url=MP, retry_policy=NO_WAIT, credit_budget=12)
    mock.get(QUERY, **OK)
    sdk.listings.query()  # 6
    sdk.listings.query()  # 11
    sent = mock.call_count
    with pytest.raises(CreditBudgetExceededError) as info:
        sdk.listings.query()  # 16 would pass 12
    assert mock.call_count == sent  # nothing was sent
    err = info.value
    assert (err.budget, err.spent, err.cost) == (Decimal(12), Decimal(11), Decimal(5))
    assert err.endpoint == "/v1/api/listings/query"
    assert sdk.usage.credits == 11
    # A call that bills nothing still goes (no token request is needed: one is stored).
    mock.post(f"{MP}/v1/api/current_user/delete_stripe_account", **CREATED)
    sdk.token_store.set(Token(access_token="t", scope="user", refresh_token="r"))
    with pytest.deprecated_call():
        sdk.current_user.delete_stripe_account()


def test_a_call_budget_counts_the_calls_own_requests(mock: requests_mock.Mocker) -> None:
    sdk = MarketplaceClient("id", base_url=MP, retry_policy=NO_WAIT)
    mock.get(QUERY, **OK)
    with pytest.raises(CreditBudgetExceededError) as info:
        sdk.listings.query(credit_budget=5)  # its token request (1) leaves 4: not enough
    assert info.value.spent == 1 and sdk.usage.credits == 1
    sdk.listings.query(credit_budget=5)  # now the token is there
    mock.post(CREATE, **CREATED)
    with pytest.raises(CreditBudgetExceededError):
        sdk.own_listings.create({"title": "x"}, {}, {"credit_budget": 9})
    sdk.own_listings.create({"title": "x"}, credit_budget=10)
    # Retries count against the call's budget too: 5 each, billed or not as answered.
    mock.get(QUERY, [{"status_code": 400}, OK])
    with pytest.raises(Exception, match="400"):
        sdk.listings.query(credit_budget=5)


def test_a_call_budget_ends_with_its_call(mock: requests_mock.Mocker) -> None:
    sdk = MarketplaceClient("id", base_url=MP, retry_policy=NO_WAIT)
    sdk.token_store.set(Token(access_token="t", scope="public-read"))
    mock.get(QUERY, **OK)
    sdk.listings.query(credit_budget=5)  # spends all of its budget
    # The calls after it have no budget of their own: the spent one does not hold them.
    sdk.listings.query()
    sdk.listings.query()
    assert sdk.usage.credits == 15


@pytest.mark.parametrize("bad", [-1, "10", float("nan"), True, None])
def test_a_bad_budget_names_itself(bad: object) -> None:
    if bad is None:
        assert MarketplaceClient("id", credit_budget=None).options.credit_budget is None
        return
    with pytest.raises(ValueError, match="credit_budget"):
        MarketplaceClient("id", credit_budget=bad)  # type: ignore[arg-type]


def test_a_rate_limited_call_costs_nothing(mock: requests_mock.Mocker) -> None:
    sdk = MarketplaceClient("id", base_url=MP, max_retries=0)
    sdk.token_store.set(Token(access_token="t", scope="public-read"))
    mock.get(QUERY, status_code=429)
    with pytest.raises(RateLimitError):
        sdk.listings.query()
    assert (sdk.usage.credits, sdk.usage.requests) == (Decimal(0), 1)


def test_a_request_with_no_answer_counts_unless_it_never_left(mock: requests_mock.Mocker) -> None:
    sdk = MarketplaceClient("id", base_url=MP, retry_policy=NO_WAIT, max_retries=1)
    mock.get(QUERY, exc=requests.exceptions.ConnectionError("connection reset by peer"))
    with pytest.raises(TransportError):
        sdk.listings.query()
    # Sent twice (a retry), perhaps received: counted, not billed.
    listed = sdk.usage.by_endpoint["/v1/api/listings/query"]
    assert (listed.requests, listed.billed_requests, listed.credits) == (2, 0, Decimal(0))
    refused = requests.exceptions.ConnectionError(
        MaxRetryError(None, QUERY, NewConnectionError(None, "refused"))  # type: ignore[arg-type]
    )
    mock.get(QUERY, exc=refused)
    with pytest.raises(TransportError):
        sdk.listings.query()
    assert sdk.usage.by_endpoint["/v1/api/listings/query"].requests == 2
