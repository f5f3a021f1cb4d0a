"""Our requests match what the official JS SDKs send for the same calls.

`parity/js_requests.json` was recorded by running `parity/capture.js` against the official
SDKs (sharetribe-flex-sdk 1.24.2, sharetribe-flex-integration-sdk 1.14.1) over the calls in
`parity/cases.json`; see docs/development.md to record it again. `parity/auth_forms.json`,
the forms they send to the Authentication API, was recorded the same way by
`parity/auth_forms.js`.
"""

from __future__ import annotations

import datetime as dt
import decimal
import json
import uuid
from collections.abc import Callable
from pathlib import Path
from typing import Any, cast
from urllib.parse import parse_qsl

import pytest
import requests_mock

from flexclient import (
    IntegrationClient,
    LatLng,
    LatLngBounds,
    MarketplaceClient,
    MemoryTokenStore,
    Money,
    Token,
)
from flexclient._endpoints.kinds import ListQuery
from flexclient._wire.formats import TRANSIT
from tests.helpers import NO_WAIT
from tests.shapes import as_list, as_str, is_dict, is_json_object, is_list

HERE = Path(__file__).parent / "parity"
CASES = json.loads((HERE / "cases.json").read_text())["cases"]
RECORDED = json.loads((HERE / "js_requests.json").read_text())
BASE = "https://api.test"


def revive(value: object) -> object:
    """A case's arguments with their markers (in the shapes cases.json writes) as values."""
    if is_list(value):
        return [revive(v) for v in value]
    if not is_json_object(value):
        return value
    if "$uuid" in value:
        return uuid.UUID(as_str(value["$uuid"]))
    if "$money" in value:
        amount, currency = as_list(value["$money"])
        return Money(cast(int, amount), as_str(currency))
    if "$latlng" in value:
        return LatLng(*cast("list[float]", value["$latlng"]))
    if "$bounds" in value:
        a, b, c, d = cast("list[float]", value["$bounds"])
        return LatLngBounds(ne=LatLng(a, b), sw=LatLng(c, d))
    if "$date" in value:
        return dt.datetime.fromisoformat(as_str(value["$date"]))
    if "$decimal" in value:
        return decimal.Decimal(as_str(value["$decimal"]))
    return {k: revive(v) for k, v in value.items()}


def normalize(value: object) -> object:
    """Decoded Transit, with numbers compared by value (JS writes 2.0 as 2)."""
    if is_dict(value):
        return {k: normalize(v) for k, v in value.items()}
    if is_list(value):
        return [normalize(v) for v in value]
    if isinstance(value, float) and value.is_integer():
        return int(value)
    return value


def test_every_case_was_recorded() -> None:
    assert [(c["api"], c["method"]) for c in CASES] == [(r["api"], r["method"]) for r in RECORDED]


@pytest.mark.parametrize(
    "case,js", list(zip(CASES, RECORDED, strict=True)), ids=[c["method"] for c in CASES]
)
def test_request_matches_the_official_sdk(case: dict[str, Any], js: dict[str, Any]) -> None:
    client: Any
    if case["api"] == "marketplace":
        client = MarketplaceClient("client-id", base_url=BASE, retry_policy=NO_WAIT)
    else:
        client = IntegrationClient("client-id", "secret", base_url=BASE, retry_policy=NO_WAIT)
    group, action = case["method"].split(".")
    method = getattr(getattr(client, group), action)
    listed = isinstance(method, ListQuery)  # (not narrowing `method`, which takes any args)
    with requests_mock.Mocker() as m:
        m.post(f"{BASE}/v1/auth/token", json={"access_token": "token", "scope": "public-read"})
        m.register_uri(
            js["httpMethod"],
            BASE + js["path"],
            content=b'["^ ","~:data",[]]' if listed else b'["^ ","~:data",null]',
            headers={"Content-Type": "application/transit+json"},
        )
        method(*as_list(revive(case["args"])))
        sent = m.request_history[-1]
    path, _, query = sent.url[len(BASE) :].partition("?")
    assert sent.method == js["httpMethod"]
    assert path == js["path"]
    # The query string is the same text: same order, same escapes, literal commas.
    assert query == js["query"], parse_qsl(js["query"])
    assert sent.headers["Accept"] == js["accept"]
    assert sent.headers.get("Content-Type") == js["contentType"]
    if js["body"] is None:
        assert sent.body is None
    else:
        ours = TRANSIT.decode(sent.body)
        theirs = TRANSIT.decode(js["body"].encode())
        assert normalize(ours) == normalize(theirs)
        if "$latlng" not in json.dumps(case["args"]):
            assert sent.body == js["body"].encode()  # byte for byte where no float is involved


def test_the_recording_matches_the_installed_sdks() -> None:
    """Run the capture again with the SDKs .ci/run installed: the recording is current."""
    from tests.js_sdks import run_js

    assert run_js(HERE / "capture.js") == RECORDED


AUTH_FORMS: dict[str, list[dict[str, str]]] = json.loads((HERE / "auth_forms.json").read_text())
USER_TOKEN = {
    "access_token": "access-1",
    "token_type": "bearer",
    "expires_in": 86400,
    "scope": "user",
    "refresh_token": "refresh-1",
}


def _auth_call(name: str) -> None:
    """The call `parity/auth_forms.js` makes as `name`, made with flexclient."""
    secret = "client secret"
    stored = {"exchangeToken": "access-1", "logout": "access-1", "refresh": "expired"}.get(name)
    store = MemoryTokenStore()
    if stored is not None:
        store.set(Token.from_wire({**USER_TOKEN, "access_token": stored}))
    if name == "integration":
        IntegrationClient("client-id", secret, base_url=BASE, retry_policy=NO_WAIT).listings.query()
        return
    sdk = MarketplaceClient(
        "client-id", client_secret=secret, base_url=BASE, retry_policy=NO_WAIT, token_store=store
    )
    calls: dict[str, Callable[[], object]] = {
        "anonymous": sdk.listings.query,
        "refresh": sdk.listings.query,
        "login": lambda: sdk.login(username="joe@example.com", password="pass word&="),
        "loginAs": lambda: sdk.login_as(
            code="code-1", redirect_uri="https://app.test/cb", code_verifier="verifier-1"
        ),
        "loginWithIdp": lambda: sdk.login_with_idp(
            idp_id="google", idp_client_id="idp-client", idp_token="idp-token/+="
        ),
        "exchangeToken": sdk.exchange_token,
        "logout": sdk.logout,
    }
    calls[name]()


def _api_answer(request: requests_mock.Request, context: Any) -> bytes:
    # The stale token of the "refresh" call is refused, as the recording's adapter refuses it.
    if request.headers["Authorization"] == "Bearer expired":
        context.status_code = 401
        return b""
    context.headers["Content-Type"] = "application/transit+json"
    return b'["^ ","~:data",[]]'


@pytest.mark.parametrize("name", list(AUTH_FORMS))
def test_auth_forms_are_written_as_the_official_sdks_write_them(name: str) -> None:
    """Every form to the Authentication API, to the byte: the SDKs' key order and escapes."""
    with requests_mock.Mocker() as m:
        m.post(requests_mock.ANY, json=USER_TOKEN)
        m.get(requests_mock.ANY, content=_api_answer)
        _auth_call(name)
        sent = [{"path": r.path, "body": r.text} for r in m.request_history if "/auth/" in r.path]
    assert sent == AUTH_FORMS[name]


def test_the_auth_forms_recording_matches_the_installed_sdks() -> None:
    from tests.js_sdks import run_js

    assert run_js(HERE / "auth_forms.js") == AUTH_FORMS
