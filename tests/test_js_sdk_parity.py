"""Our requests match what the official JS SDKs send for the same calls.

`parity/js_requests.json` was recorded by running `parity/capture.js` against the official
SDKs (sharetribe-flex-sdk 1.24.2, sharetribe-flex-integration-sdk 1.14.1) over the calls in
`parity/cases.json`; see docs/development.md to record it again.
"""

from __future__ import annotations

import datetime as dt
import decimal
import json
import uuid
from pathlib import Path
from typing import Any, cast
from urllib.parse import parse_qsl

import pytest
import requests_mock

from flexclient import IntegrationClient, LatLng, LatLngBounds, MarketplaceClient, Money
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
