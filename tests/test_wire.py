"""Request and response bodies in Transit and JSON: official vectors and round trips."""

from __future__ import annotations

import datetime as dt
import decimal
import json
import uuid
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st
from transit.transit_types import Keyword

from flexclient import LatLng, LatLngBounds, Money, ParameterError
from flexclient._wire.formats import JSON, TRANSIT, WireDecodeError, format_for_content_type
from flexclient._wire.values import money_from
from tests.sample import jsonable

VECTORS_FILE = Path(__file__).parent / "data" / "wire-vectors.json"  # see tests/data/README.md
U1 = uuid.UUID("0e0b60fe-d9a2-11e6-bf26-cec0c932ce01")
U2 = uuid.UUID("5e1f2086-522c-46f3-87b4-451c6770c833")

# The values behind each case of wire-vectors.json's "body" section.
CASES: dict[str, dict[str, object]] = {
    "uuid": {"id": U1},
    "money": {"price": Money(5000, "USD")},
    "latlng": {"geolocation": LatLng(60.16, 24.93)},
    "bigdecimal": {"quantity": decimal.Decimal("2.5")},
    "date": {"start": dt.datetime(2018, 3, 23, 8, 40, 24, 443000, tzinfo=dt.UTC)},
    "nested": {"publicData": {"a": [1, 2], "b": None, "c": {"d": "x"}}, "title": "T"},
    "list_of_uuids": {"images": [U1, U2]},
}


def vectors() -> dict[str, dict[str, str]]:
    body: dict[str, dict[str, str]] = json.loads(VECTORS_FILE.read_text())["body"]
    return body


@pytest.mark.parametrize("case", sorted(CASES))
def test_transit_encoding_is_the_official_sdks_to_the_byte(case: str) -> None:
    assert TRANSIT.encode(CASES[case]) == vectors()[case]["compact"].encode()


@pytest.mark.parametrize("case", sorted(CASES))
@pytest.mark.parametrize("form", ["compact", "verbose"])
def test_both_transit_forms_decode_to_the_values(case: str, form: str) -> None:
    assert TRANSIT.decode(vectors()[case][form].encode()) == CASES[case]


def test_json_encoding_of_the_api_types() -> None:
    body = {
        **CASES["uuid"],
        **CASES["money"],
        **CASES["latlng"],
        **CASES["bigdecimal"],
        **CASES["date"],
    }
    assert json.loads(JSON.encode(body)) == {
        "id": str(U1),
        "price": {"amount": 5000, "currency": "USD"},
        "geolocation": {"lat": 60.16, "lng": 24.93},
        "quantity": "2.5",
        "start": "2018-03-23T08:40:24.443Z",
    }


def test_transit_decoding_gives_plain_python_values() -> None:
    raw = (
        b'["^ ","~:ok",true,"~:no",false,"~:tags",["~#set",["a"]],'
        b'"~:kw","~:listing","~:big","~n12345678901234567890"]'
    )
    assert TRANSIT.decode(raw) == {
        "ok": True,
        "no": False,
        "tags": ["a"],
        "kw": "listing",
        "big": 12345678901234567890,
    }
    decoded = TRANSIT.decode(raw)
    assert isinstance(decoded, dict) and decoded["ok"] is True


def test_a_keyword_value_is_a_keyword_in_transit_and_its_name_in_json() -> None:
    body = {"type": Keyword("listing")}
    assert TRANSIT.encode(body) == b'["^ ","~:type","~:listing"]'
    assert JSON.encode(body) == b'{"type":"listing"}'
    assert TRANSIT.decode(TRANSIT.encode(body)) == JSON.decode(JSON.encode(body))


def test_strings_that_look_like_transit_are_escaped_and_come_back() -> None:
    body = {"a": "~u-not-a-uuid", "b": "^ cache", "c": "`reserved", "d": "~"}
    assert TRANSIT.decode(TRANSIT.encode(body)) == body


@pytest.mark.parametrize(
    "body,param,words",
    [
        ({"start": dt.datetime(2018, 1, 1)}, "start", "naive"),
        ({"publicData": {"x": object()}}, "publicData.x", "object"),
        ({"a": [1, {"b": float("inf")}]}, "a[1].b", "finite"),
        ({"bounds": LatLngBounds(ne=LatLng(1, 2), sw=LatLng(0, 1))}, "bounds", "query"),
        ({"d": dt.date(2020, 1, 1)}, "d", "date"),
        ({"m": {1: "x"}}, "m", "key"),
        ({"q": decimal.Decimal("NaN")}, "q", "finite"),
    ],
)
@pytest.mark.parametrize("fmt", [TRANSIT, JSON], ids=["transit", "json"])
def test_unwritable_values_name_the_parameter(
    fmt: Any, body: dict[str, object], param: str, words: str
) -> None:
    with pytest.raises(ParameterError, match=words) as info:
        fmt.encode(body)
    assert info.value.param == param


@pytest.mark.parametrize(
    "raw",
    [
        b"",
        b"[",
        b'["^ ","~:a"',
        b"\xff\xfe",
        b'["^ ","~:a",["^ ","^1",2]]',
        b'["~#mn",["x","USD"]]',
    ],
)
def test_unreadable_transit_raises_one_error_type(raw: bytes) -> None:
    with pytest.raises(WireDecodeError):
        TRANSIT.decode(raw)


def test_content_types() -> None:
    assert format_for_content_type("application/transit+json;charset=UTF-8") is TRANSIT
    assert format_for_content_type("application/json; charset=utf-8") is JSON
    assert format_for_content_type("text/html") is None


# --- properties ---------------------------------------------------------------------------

names = st.text(min_size=1, max_size=10)
leaves = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-(2**63), 2**63 - 1),
    st.floats(allow_nan=False, allow_infinity=False),
    st.text(max_size=20),
    st.uuids(),
    st.builds(Money, st.integers(-(10**12), 10**12), st.sampled_from(["USD", "EUR", "JPY"])),
    st.builds(LatLng, st.floats(-90, 90), st.floats(-180, 180)),
    st.decimals(allow_nan=False, allow_infinity=False, places=4),
    st.datetimes(
        min_value=dt.datetime(1970, 1, 1),
        max_value=dt.datetime(2100, 1, 1),
        timezones=st.just(dt.UTC),
    ).map(lambda d: d.replace(microsecond=d.microsecond // 1000 * 1000)),
)
trees = st.recursive(
    leaves,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(names, inner, max_size=4),
    max_leaves=12,
)
bodies = st.dictionaries(names, trees, max_size=5)


@given(bodies)
def test_transit_round_trip(body: dict[str, object]) -> None:
    assert TRANSIT.decode(TRANSIT.encode(body)) == body


@given(bodies)
def test_json_round_trip(body: dict[str, object]) -> None:
    assert JSON.decode(JSON.encode(body)) == jsonable(body)


def test_short_non_ascii_keys_are_not_cached() -> None:
    # The Transit spec counts UTF-16 code units: "~:é" (3) is too short to cache, as
    # transit-js and the API's own reader see it. (transit-python's native writer counts
    # bytes and would send "^0" for the second one.)
    assert TRANSIT.encode({"é": 1, "x": {"é": 2}}) == '["^ ","~:é",1,"~:x",["^ ","~:é",2]]'.encode()


# --- hostile parameters -------------------------------------------------------------------


def nested(depth: int) -> dict[str, object]:
    body: dict[str, object] = {}
    inner = body
    for _ in range(depth):
        deeper: dict[str, object] = {}
        inner["a"] = deeper
        inner = deeper
    return body


def looped_map() -> dict[str, object]:
    body: dict[str, object] = {"x": 1}
    body["self"] = body
    return {"publicData": body}


def looped_list() -> dict[str, object]:
    items: list[object] = [1]
    items.append(items)
    return {"l": items}


UTC_PLUS_3 = dt.timezone(dt.timedelta(hours=3))


@pytest.mark.parametrize(
    "body,param,words",
    [
        ({"n": 10**5000}, "n", "64-bit"),
        ({"a": [1, 2**63]}, "a[1]", "64-bit"),
        ({"a": [-(2**63) - 1]}, "a[0]", "64-bit"),
        ({"price": Money(2**64, "USD")}, "price", "64-bit"),
        ({"t": "x\ud800y"}, "t", "UTF-8"),
        ({"p": {"ok": 1, "\udc00": 1}}, "p.\udc00", "UTF-8"),
        ({"k": Keyword("\ud800")}, "k", "UTF-8"),
        ({"price": money_from(1, "\ud800")}, "price", "UTF-8"),
        ({"g": LatLng(float("inf"), 0)}, "g", "finite"),
        ({"t": dt.datetime(1, 1, 1, tzinfo=UTC_PLUS_3)}, "t", "range"),
        ({"p": nested(5000)}, "p" + ".a" * 99, "nested"),
        ({"p": [nested(5000)]}, "p[0]" + ".a" * 98, "nested"),
        (looped_map(), "publicData.self", "contains itself"),
        (looped_list(), "l[1]", "contains itself"),
        ({10**5000: 1}, "", "int is not a string"),
    ],
)
@pytest.mark.parametrize("fmt", [TRANSIT, JSON], ids=["transit", "json"])
def test_hostile_values_name_the_parameter(
    fmt: Any, body: dict[str, object], param: str, words: str
) -> None:
    with pytest.raises(ParameterError, match=words) as info:
        fmt.encode(body)
    assert info.value.param == param
    str(info.value).encode()  # printable: the message shows the path escaped


@pytest.mark.parametrize("fmt", [TRANSIT, JSON], ids=["transit", "json"])
def test_limits_are_inclusive(fmt: Any) -> None:
    shared = {"a": [1, 2]}  # the same value twice is no cycle
    body = {
        "ints": [2**63 - 1, -(2**63)],
        "deep": nested(98),
        "x": shared,
        "y": [shared, shared],
        "t": dt.datetime(1, 1, 1, 3, tzinfo=UTC_PLUS_3),
    }
    assert fmt.decode(fmt.encode(body))["ints"] == [2**63 - 1, -(2**63)]
