"""Fuzzing: whatever a server sends and whatever a caller passes, only our errors escape."""

from __future__ import annotations

import datetime as dt
import decimal
import json
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from requests.structures import CaseInsensitiveDict

from flexclient import ApiError, LatLng, LatLngBounds, MarketplaceClient, Money, ParameterError
from flexclient._query import write_query
from flexclient._transport import RawResponse
from flexclient._wire import JSON, TRANSIT

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
# Strings that look like Transit: tags, cache codes, map markers, keywords.
transit_text = st.text(alphabet="~#^: `muf0123abcglistdeo", max_size=8)
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


anything = st.recursive(
    st.none()
    | st.booleans()
    | st.integers()
    | st.floats()
    | st.text(max_size=8)
    | st.binary(max_size=4)
    | st.uuids()
    | st.datetimes()
    | st.datetimes(timezones=st.just(dt.UTC))
    | st.dates()
    | st.decimals()
    | st.complex_numbers()
    | st.builds(object)
    | st.builds(Money, st.integers(), st.text(max_size=3))
    | st.builds(LatLng, st.floats(-90, 90), st.floats(-180, 180))
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


def test_decimal_nan_in_a_query_is_named() -> None:
    try:
        write_query({"q": decimal.Decimal("sNaN")})
    except ParameterError as e:
        assert e.param == "q"


def test_absurdly_nested_bodies_are_an_unexpected_response() -> None:
    for depth in (3000, 100_000):
        nested = "[" * depth + "]" * depth
        read(
            200,
            "application/json",
            f'{{"data": {{"id": "x", "type": "t", "a": {nested}}}}}'.encode(),
        )
        read(200, "application/transit+json", f'["^ ","~:data",{nested}]'.encode())
