"""What the tests share besides fixtures: the test origins, body builders, canned answers,
an Integration API client of a fake marketplace, and an adapter for races between threads
(tests/conftest.py holds the fixtures)."""

from __future__ import annotations

import io
import json
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

import requests
import requests_mock
from requests.adapters import BaseAdapter

from flexclient import IntegrationClient, RetryPolicy
from flexclient._wire.formats import TRANSIT

if TYPE_CHECKING:
    from flexclient.testing import FakeMarketplace

MP = "https://mp.test"
IG = "https://ig.test"
TRANSIT_CT = "application/transit+json;charset=UTF-8"
NO_WAIT = RetryPolicy(sleep=lambda _: None)

# Answers the token tests share.
QUERY = f"{MP}/v1/api/listings/query"
OK: dict[str, Any] = {"content": b'["^ ","~:data",[]]', "headers": {"Content-Type": TRANSIT_CT}}
CREATE = f"{MP}/v1/api/own_listings/create"
CREATED: dict[str, Any] = {
    "content": b'["^ ","~:data",null]',
    "headers": {"Content-Type": TRANSIT_CT},
}
UNAUTHORIZED: dict[str, Any] = {
    "status_code": 401,
    "json": {"errors": [{"status": 401, "code": "auth-invalid-access-token", "title": "Invalid"}]},
}
REFUSED: dict[str, Any] = {
    "status_code": 401,
    "json": {"error": "invalid_grant", "error_description": "Invalid refresh token"},
}


def token_json(
    scope: str = "public-read", access: str = "anon-token", refresh: str | None = None
) -> dict[str, Any]:
    data: dict[str, Any] = {
        "access_token": access,
        "token_type": "bearer",
        "expires_in": 86400,
        "scope": scope,
    }
    if refresh is not None:
        data["refresh_token"] = refresh
    return data


def integration(fake: FakeMarketplace) -> IntegrationClient:
    """An Integration API client of `fake`, with its credentials, that does not wait
    between retries."""
    return IntegrationClient(
        fake.client_id, fake.client_secret, base_url=fake.url, retry_policy=NO_WAIT
    )


def transit_body(value: Mapping[str, object]) -> bytes:
    """Encode a response body as the API would (Transit, keyword keys)."""
    return TRANSIT.encode(value)


def answer(
    m: requests_mock.Mocker,
    method: str,
    url: str,
    body: Mapping[str, object] | None = None,
    *,
    status: int = 200,
    wire: str = "transit",
) -> None:
    """Register an API answer in the given wire format."""
    payload = body if body is not None else {"data": None}
    if wire == "transit":
        m.register_uri(
            method,
            url,
            status_code=status,
            content=transit_body(payload),
            headers={"Content-Type": TRANSIT_CT},
        )
    else:
        m.register_uri(
            method,
            url,
            status_code=status,
            text=json.dumps(payload, default=str),
            headers={"Content-Type": "application/json"},
        )


Handler = Callable[[requests.PreparedRequest], tuple[int, bytes]]


class Scripted(BaseAdapter):
    """A `requests` adapter answering each request with `handler(request)`: a status and a
    JSON body. Unlike requests-mock, which sends one request at a time, it lets a handler
    block one request while others go on (races between threads)."""

    def __init__(self, handler: Handler) -> None:
        super().__init__()
        self.handler = handler
        self.sent: list[requests.PreparedRequest] = []

    def send(self, request: requests.PreparedRequest, **kwargs: Any) -> requests.Response:  # type: ignore[override]
        self.sent.append(request)
        status, body = self.handler(request)
        response = requests.Response()
        response.status_code = status
        response.headers["Content-Type"] = "application/json"
        response.raw = io.BytesIO(body)
        response.request = request
        response.url = request.url or ""
        return response

    def close(self) -> None:
        pass

    def session(self) -> requests.Session:
        """A session that sends everything through this adapter."""
        session = requests.Session()
        session.mount("https://", self)
        return session
