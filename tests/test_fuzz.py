"""Fuzzing: whatever a server sends and whatever a caller passes, only our errors escape.

A body the server sends that its format does not allow ends as `UnexpectedResponseError`
(with the status and the raw body); a parameter that cannot be written, as `ParameterError`
naming it, before anything is sent.
"""

from __future__ import annotations

import datetime as dt
import decimal
import json
from typing import Any

import pytest
import requests_mock
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from requests.structures import CaseInsensitiveDict

from flexclient import (
    ApiError,
    LatLng,
    LatLngBounds,
    MarketplaceClient,
    ParameterError,
    UnexpectedResponseError,
)
from flexclient._http.transport import RawResponse
from flexclient._wire.formats import JSON, TRANSIT
from flexclient._wire.query import write_query
from flexclient._wire.values import money_from
from tests.helpers import MP, NO_WAIT, token_json
from tests.test_transit_js import HOSTILE

SDK = MarketplaceClient("client-id")
CONTENT_TYPES = st.sampled_from(
    ["application/transit+json", "application/json", "text/html", "text/plain", ""]
)

json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=10),
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4)
    ),
    max_leaves=20,
)
# Strings that look like Transit: tags, cache codes, map markers, keywords, scalar codes.
transit_text = st.text(alphabet="~#^: `muf0123abcglistdeoQbnz?_'😀é", max_size=8)
transit_values = st.recursive(
    st.none() | st.booleans() | st.integers() | transit_text,
    lambda inner: st.lists(inner, max_size=5) | st.dictionaries(transit_text, inner, max_size=3),
    max_leaves=25,
)
envelope_like = st.fixed_dictionaries(
    {"data": json_values},
    optional={"included": json_values, "meta": json_values, "errors": json_values},
)


def read(status: int, content_type: str, content: bytes) -> None:
    headers: CaseInsensitiveDict[str] = CaseInsensitiveDict()
    if content_type:
        headers["Content-Type"] = content_type
    raw = RawResponse(status=status, reason="", headers=headers, content=content, request="GET /x")
    try:
        res = SDK._read(raw)
    except ApiError as e:
        assert e.status == status and e.body == raw.text
    else:
        assert 200 <= status < 300 and res.data is not None


@given(st.integers(100, 599), CONTENT_TYPES, st.binary(max_size=300))
def test_random_bytes(status: int, content_type: str, content: bytes) -> None:
    read(status, content_type, content)


@given(st.integers(200, 599), st.one_of(json_values, envelope_like))
@settings(suppress_health_check=[HealthCheck.too_slow])
def test_random_json(status: int, value: Any) -> None:
    read(status, "application/json", json.dumps(value).encode())


@given(st.integers(200, 599), transit_values)
def test_random_transit(status: int, value: Any) -> None:
    read(status, "application/transit+json", json.dumps(value).encode())


def _looped(value: dict[str, Any]) -> dict[str, Any]:
    value["self"] = value
    return value


offsets = st.timedeltas(min_value=-dt.timedelta(hours=23), max_value=dt.timedelta(hours=23))
anything = st.recursive(
    st.none()
    | st.booleans()
    | st.integers()
    | st.sampled_from([2**63, -(2**63) - 1])
    | st.builds(pow, st.just(10), st.integers(4301, 5000))  # too long for str()
    | st.floats()
    | st.text(max_size=8)
    | st.text(st.characters(min_codepoint=0xD800, max_codepoint=0xDFFF), min_size=1, max_size=2)
    | st.binary(max_size=4)
    | st.uuids()
    | st.datetimes()
    | st.datetimes(timezones=st.just(dt.UTC))
    | st.datetimes(timezones=st.builds(dt.timezone, offsets))
    | st.dates()
    | st.decimals()
    | st.complex_numbers()
    | st.builds(object)
    | st.builds(money_from, st.integers(), st.text(max_size=3))  # unchecked: the encoders check
    | st.builds(LatLng, st.floats(), st.floats())
    | st.builds(
        LatLngBounds,
        ne=st.builds(LatLng, st.just(1.0), st.just(1.0)),
        sw=st.builds(LatLng, st.just(0.0), st.just(0.0)),
    ),
    lambda inner: (
        st.lists(inner, max_size=3)
        | st.tuples(inner, inner)
        | st.frozensets(st.integers(), max_size=2)
        | st.dictionaries(st.one_of(st.text(max_size=5), st.integers()), inner, max_size=3)
        | st.dictionaries(st.text(max_size=3), inner, max_size=3).map(_looped)
    ),
    max_leaves=10,
)


@given(st.dictionaries(st.text(max_size=6), anything, max_size=4))
def test_parameter_encoders_accept_or_name_the_parameter(params: dict[str, Any]) -> None:
    for encode in (TRANSIT.encode, JSON.encode, write_query):
        try:
            encode(params)
        except ParameterError as e:
            assert e.param is not None
        except Exception as e:  # pragma: no cover - a finding
            raise AssertionError(f"{encode}: {type(e).__name__}: {e}") from e


@pytest.mark.parametrize("nan", ["sNaN", "NaN", "-NaN", "Infinity"])
def test_decimal_nan_in_a_query_is_named(nan: str) -> None:
    with pytest.raises(ParameterError) as info:
        write_query({"q": decimal.Decimal(nan)})
    assert info.value.param == "q"


def test_absurdly_nested_bodies_are_an_unexpected_response() -> None:
    for depth in (3000, 100_000):
        nested = "[" * depth + "]" * depth
        read(
            200,
            "application/json",
            f'{{"data": {{"id": "x", "type": "t", "a": {nested}}}}}'.encode(),
        )
        read(200, "application/transit+json", f'["^ ","~:data",{nested}]'.encode())


def deep(depth: int) -> dict[str, Any]:
    body: dict[str, Any] = {}
    for _ in range(depth):
        body = {"a": [body]}
    return body


@pytest.mark.parametrize(
    "body",
    [
        {"title": 10**5000},
        {"title": "\ud800"},
        {"\udfff": "x"},
        {"publicData": deep(5000)},
        {"publicData": _looped({})},
    ],
    ids=["huge int", "lone surrogate", "lone surrogate key", "deep", "cycle"],
)
@pytest.mark.parametrize("wire", ["transit", "json"])
def test_hostile_parameters_are_refused_before_sending(body: Any, wire: Any) -> None:
    client = MarketplaceClient("client-id", base_url=MP, wire_format=wire, retry_policy=NO_WAIT)
    with requests_mock.Mocker() as m:
        m.post(f"{MP}/v1/auth/token", json=token_json())
        for call in (
            lambda: client.own_listings.create(body),
            lambda: client.own_listings.create({"title": "x"}, body),
            lambda: client.listings.query(body),
        ):
            with pytest.raises(ParameterError):
                call()
        assert not [r for r in m.request_history if "/api/" in r.url]


def refused(content: bytes) -> UnexpectedResponseError:
    headers: CaseInsensitiveDict[str] = CaseInsensitiveDict()
    headers["Content-Type"] = "application/transit+json"
    raw = RawResponse(status=200, reason="OK", headers=headers, content=content, request="GET /x")
    with pytest.raises(UnexpectedResponseError) as info:
        SDK._read(raw)
    assert info.value.status == 200 and info.value.body == raw.text
    return info.value


@pytest.mark.parametrize("text", [text for text, _ in HOSTILE])
def test_malformed_transit_is_an_unexpected_response(text: str) -> None:
    refused(f'["^ ","~:data",{text}]'.encode())


def test_an_unknown_tag_as_a_resource_is_an_unexpected_response() -> None:
    resource = '["^ ","~:id","~u0e0b60fe-d9a2-11e6-bf26-cec0c932ce01","~:type","~:listing"]'
    error = refused(f'["^ ","~:data",[{resource},["~#foo",{resource}]]]'.encode())
    assert "~#foo" in str(error) and "data[1]" in str(error)
