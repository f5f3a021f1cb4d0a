"""The query-string writer: the official SDK's vectors, JS number formatting, properties."""

from __future__ import annotations

import datetime as dt
import json
import math
import uuid
from pathlib import Path
from typing import Any
from urllib.parse import unquote

import pytest
from hypothesis import given
from hypothesis import strategies as st

from flexclient import LatLng, LatLngBounds, Money, ParameterError
from flexclient._wire.formats import MAX_DEPTH
from flexclient._wire.query import write_query
from flexclient._wire.values import js_number
from flexclient.params import object_query
from tests.shapes import is_list

VECTORS_FILE = Path(__file__).parent / "data" / "wire-vectors.json"  # see tests/data/README.md
U1 = uuid.UUID("0e0b60fe-d9a2-11e6-bf26-cec0c932ce01")
U2 = uuid.UUID("5e1f2086-522c-46f3-87b4-451c6770c833")

# The values behind each case of wire-vectors.json's "query" section.
CASES: dict[str, dict[str, object]] = {
    "perPage": {"perPage": 5},
    "include_list": {"include": ["author", "images", "author.profileImage"]},
    "uuid": {"id": U1},
    "uuid_list": {"ids": [U1, U2]},
    "latlng": {"origin": LatLng(60.16, 24.93)},
    "bounds": {"bounds": LatLngBounds(ne=LatLng(40.5, -73.9), sw=LatLng(40.4, -74.1))},
    "date": {"start": dt.datetime(2018, 7, 1, tzinfo=dt.UTC)},
    "bool": {"expand": True},
    "null_dropped": {"a": None, "b": "x"},
    "text": {"keywords": "bike, red & blue / ü"},
    "has_any": {"pub_tags": "has_any:road,steel"},
    "price_range": {"price": "1000,5000"},
    "fields": {"fields.image": ["variants.square-small", "variants.my-variant"]},
    "image_variant": {"imageVariant.my-variant": "w:640;h:1280;fit:scale"},
    "zero_and_empty": {"page": 0, "q": ""},
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_official_sdk_vectors(case: str) -> None:
    vectors = json.loads(VECTORS_FILE.read_text())["query"]
    assert write_query(CASES[case]) == vectors[case]


def test_vectors_cover_every_case() -> None:
    assert set(json.loads(VECTORS_FILE.read_text())["query"]) == set(CASES)


@pytest.mark.parametrize(
    "value,text",
    [
        (5.0, "5"),
        (0.1, "0.1"),
        (1e21, "1e+21"),
        (1e20, "100000000000000000000"),
        (1.5e300, "1.5e+300"),
        (1e-7, "1e-7"),
        (0.5, "0.5"),
        (123.0, "123"),
        (1e-6, "0.000001"),
        (1.5e16, "15000000000000000"),
        (-1.5e-10, "-1.5e-10"),
        (123.456, "123.456"),
        (-0.0, "0"),
    ],
)
def test_floats_are_written_as_javascript_writes_them(value: float, text: str) -> None:
    assert js_number(value) == text


def test_timezones_are_converted_to_utc_with_milliseconds() -> None:
    helsinki = dt.timezone(dt.timedelta(hours=3))
    when = dt.datetime(2018, 7, 1, 3, 0, 0, 123456, tzinfo=helsinki)
    assert write_query({"start": when}) == "start=2018-07-01T00%3A00%3A00.123Z"


@pytest.mark.parametrize(
    "params,param,words",
    [
        ({"start": dt.datetime(2018, 7, 1)}, "start", "naive datetime"),
        ({"price": Money(5, "USD")}, "price", "Money"),
        ({"x": {"a": 1}}, "x", "mapping"),
        ({"x": object()}, "x", "object"),
        ({"x": math.nan}, "x", "finite"),
        ({"x": "\ud800"}, "x", "UTF-8"),
        ({"x": dt.date(2020, 1, 1)}, "x", "date"),
    ],
)
def test_unwritable_values_name_the_parameter(
    params: dict[str, object], param: str, words: str
) -> None:
    with pytest.raises(ParameterError, match=words) as info:
        write_query(params)
    assert info.value.param == param


@pytest.mark.parametrize(
    "key,advice",
    [
        ("include", "give the relationship paths as a list, e.g. ['author'"),
        ("fields.listing", "give the attribute names as a list"),
        ("limit.images", "give the number of resources to include"),
        ("imageVariant.card", "write the variant as 'w:640;h:480;fit:scale' (object_query)"),
        ("pub_color", "give a string, a number, a boolean or a list"),
    ],
)
def test_a_mapping_gets_the_advice_for_its_parameter(key: str, advice: str) -> None:
    with pytest.raises(ParameterError) as info:
        write_query({key: {"author": True}})
    assert info.value.param == key and advice in str(info.value)
    if key != "imageVariant.card":
        assert "object_query" not in str(info.value)


def looped() -> list[object]:
    items: list[object] = [1]
    items.append(items)
    return items


def deep(depth: int) -> list[object]:
    items: list[object] = []
    for _ in range(depth):
        items = [items]
    return items


@pytest.mark.parametrize(
    "params,param,words",
    [
        ({"n": 10**5000}, "n", "64-bit"),
        ({"ids": [1, [2, [3, 2**70]]]}, "ids", "64-bit"),
        ({"ids": looped()}, "ids", "contains itself"),
        ({"ids": deep(5000)}, "ids", "nested"),
        ({"origin": LatLng(math.nan, 0)}, "origin", "finite"),
        ({"bounds": LatLngBounds(ne=LatLng(1, math.inf), sw=LatLng(0, 0))}, "bounds", "finite"),
        (
            {"start": dt.datetime(9999, 12, 31, 23, tzinfo=dt.timezone(-dt.timedelta(hours=5)))},
            "start",
            "range",
        ),
        ({10**5000: 1}, "<int>", "names must be strings"),
        ({"\ud800": 1}, "\ud800", "UTF-8"),
    ],
)
def test_hostile_values_name_the_parameter(
    params: dict[Any, object], param: str, words: str
) -> None:
    with pytest.raises(ParameterError, match=words) as info:
        write_query(params)
    assert info.value.param == param


def test_hostile_object_query_values_name_the_key() -> None:
    with pytest.raises(ParameterError, match="64-bit") as info:
        object_query({"w": 10**5000})
    assert info.value.param == "w"
    with pytest.raises(ParameterError, match="strings"):
        object_query({1: 2})  # type: ignore[dict-item]


def test_object_query_string() -> None:
    assert (
        object_query({"w": 640, "h": 1280, "fit": "scale", "x": None}) == "w:640;h:1280;fit:scale"
    )


# --- properties ---------------------------------------------------------------------------

keys = st.text(st.characters(codec="utf-8", exclude_characters="&=#"), min_size=1, max_size=12)
scalars = st.one_of(
    st.text(st.characters(codec="utf-8"), max_size=20),
    st.integers(-(2**53), 2**53),
    st.booleans(),
    st.uuids(),
    st.floats(allow_nan=False, allow_infinity=False),
)
values = st.one_of(
    scalars,
    st.lists(
        st.one_of(
            st.integers(-(2**63), 2**63 - 1),
            st.uuids(),
            st.text(st.characters(codec="utf-8", exclude_characters=","), min_size=1, max_size=8),
        ),
        min_size=1,
        max_size=4,
    ),
    st.none(),
)


def expected_text(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float):
        return js_number(value)
    if is_list(value):
        return ",".join(expected_text(v) for v in value)
    return str(value)


@given(st.dictionaries(keys, values, max_size=6))
def test_every_value_decodes_back_and_nones_are_dropped(params: dict[str, Any]) -> None:
    query = write_query(params)
    pairs = [p.split("=", 1) for p in query.split("&")] if query else []
    assert [unquote(k) for k, _ in pairs] == [k for k, v in params.items() if v is not None]
    for (_, text), value in zip(pairs, [v for v in params.values() if v is not None], strict=True):
        assert unquote(text) == expected_text(value)
        # Only what encodeURIComponent leaves alone, commas, and escapes appear.
        assert all(c.isascii() and (c.isalnum() or c in "-_.!~*'(),%") for c in text)


@given(st.floats(allow_nan=False, allow_infinity=False))
def test_js_numbers_read_back_as_the_same_float(value: float) -> None:
    assert float(js_number(value)) == value


def test_lists_nest_up_to_the_limit_and_not_one_level_more() -> None:
    # deep(n) is n lists around an empty one: n + 1 levels.
    assert write_query({"ids": deep(MAX_DEPTH - 1)}) == "ids="
    with pytest.raises(ParameterError, match=f"more than {MAX_DEPTH} levels") as info:
        write_query({"ids": deep(MAX_DEPTH)})
    assert info.value.param == "ids"
    assert write_query({"ids": [1, [2, [3, None]], None, 4]}) == "ids=1,2,3,,,4"


def test_a_list_met_twice_side_by_side_is_not_a_loop() -> None:
    shared: list[object] = [1, 2]
    assert write_query({"ids": [shared, shared]}) == "ids=1,2,1,2"


def test_no_parameters_are_an_empty_query_string() -> None:
    assert write_query({}) == "" and write_query(None) == ""
    assert write_query({"page": None}) == ""


def test_an_object_query_key_utf8_cannot_carry_is_named() -> None:
    with pytest.raises(ParameterError, match="UTF-8") as info:
        object_query({"\ud800": 1})
    assert info.value.param == "\ud800"


@pytest.mark.parametrize(
    ("value", "written"),
    [(2**63 - 1, "9223372036854775807"), (-(2**63), "-9223372036854775808"), (True, "true")],
)
def test_integers_up_to_64_bits_are_written(value: int, written: str) -> None:
    assert write_query({"n": value}) == f"n={written}"


@pytest.mark.parametrize("value", [2**63, -(2**63) - 1])
def test_integers_one_past_64_bits_are_refused(value: int) -> None:
    with pytest.raises(ParameterError, match="64-bit") as info:
        write_query({"n": value})
    assert info.value.param == "n"
