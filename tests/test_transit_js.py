"""The Transit reader and writer against transit-js, as the official SDKs use it.

Both directions, in one node process (`tests/transit_js.py`): what transit-js writes (with
the handlers the SDK registers for its types) flexclient reads to the same value; what
flexclient writes is transit-js's text to the byte, and the SDK's reader reads it back to
the same value. The cases are the ones where a reader or writer can go wrong: characters
outside the Basic Multilingual Plane (two UTF-16 code units each, which decide what is
cached), short non-ASCII keys, strings that start with Transit's marks, more cacheable
strings than the cache has codes, nesting, and the SDK's types. Malformed input is refused;
the table below records what transit-js makes of each instead.
"""

from __future__ import annotations

import datetime as dt
import decimal
import json
import uuid
from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from transit.transit_types import Keyword, TaggedValue

from flexclient import LatLng, Money
from flexclient._wire.formats import TRANSIT, WireDecodeError
from flexclient._wire.transit_reader import loads
from flexclient._wire.transit_writer import dumps
from flexclient._wire.values import js_number, money_from
from tests.shapes import as_json_object, is_dict
from tests.transit_js import Oracle, comparable, from_js, marked

U1 = uuid.UUID("0e0b60fe-d9a2-11e6-bf26-cec0c932ce01")
U2 = uuid.UUID("5e1f2086-522c-46f3-87b4-451c6770c833")
WHEN = dt.datetime(2018, 3, 23, 8, 40, 24, 443000, tzinfo=dt.UTC)
# 2,000 distinct keys of 5 characters ("~:k0000" written), used twice: more than the 1,936
# codes, so the cache starts over in the middle of the first map.
KEYS = [f"k{n:04d}" for n in range(2000)]


@pytest.fixture(scope="module")
def oracle() -> Iterator[Oracle]:
    js = Oracle()
    yield js
    js.close()


# Values both sides write: maps with string keys (keywords on the wire), the SDK's types.
# Floats only where Python and JavaScript write the same digits (JavaScript writes 2.0 as 2).
VALUES: dict[str, Any] = {
    "astral key": {"😀": 1, "x": {"😀": 2}},
    "astral everywhere": {
        "a😀": Keyword("😀"),
        "b": Keyword("😀"),
        "😀😀": ["😀", "😀😀", "~😀", "^😀", "`😀"],
        "c": {"a😀": "x", "😀": Keyword("a😀")},
    },
    "short non-ASCII keys": {"é": 1, "x": {"é": 2}, "éé": 3, "y": {"éé": 4}, "ü": {"é": 5}},
    "marks in strings": {
        "values": ["~", "^", "`", "~~", "^ ", "~:abcd", "~#mn", "^0", "`abcd", "~u1", "a~"],
        "keys": {"~": 1, "^": 2, "`": 3, "^ ": 4, "~:abcd": 5, "^0": 6, "~#mn": 7},
    },
    "keywords": {"type": Keyword("listing"), "again": Keyword("listing"), "k": Keyword("a")},
    "sdk types": {
        "id": U1,
        "ids": [U1, U2, U1],
        "price": Money(5000, "USD"),
        "prices": [Money(1, "EUR"), Money(-2, "JPY"), Money(2**60, "USD")],
        "geolocation": LatLng(60.16, 24.93),
        "points": [LatLng(-1.5, 179.25), LatLng(0.1, -0.2)],
        "start": WHEN,
        "dates": [dt.datetime(1969, 12, 31, 23, 59, 59, 999000, tzinfo=dt.UTC), WHEN],
        "quantity": decimal.Decimal("2.50"),
        "decimals": [decimal.Decimal("1E+30"), decimal.Decimal("-0.001"), decimal.Decimal("0")],
    },
    "integers": {
        "safe": [2**53 - 1, -(2**53 - 1), 0, -1],
        "64-bit": [2**53, -(2**53), 2**63 - 1, -(2**63)],
        "wider": [2**63, -(2**63) - 1, 10**30],
    },
    "text": {"json escapes": 'a"b\\c\n\r\t\b\f\x00\x1f\x7f\u2028\u2029/', "empty": ""},
    "nested": {"a": [[[[{"b": [{"c": [], "d": {}}]}]]]], "e": {}, "l": [], "n": None},
    "cache rollover": {
        "first": {k: n for n, k in enumerate(KEYS)},
        "second": {k: Keyword(k) for k in KEYS},
        "third": [{"k0000": Money(n, "USD"), "k1999": U1} for n in range(3)],
    },
    "top-level list": [Keyword("abcd"), Keyword("abcd"), {"abcd": "abcd"}],
    "top-level string": "~abcd",
    "top-level keyword": Keyword("abcd"),
    "top-level integer": 2**63,
    "top-level null": None,
    "top-level uuid": U1,
    "top-level money": Money(5, "EUR"),
    "top-level date": WHEN,
}
# What only transit-js writes (flexclient never does), marked for the oracle, with what the
# reader makes of it.
JS_ONLY: dict[str, tuple[Any, Any]] = {
    "set and list": ({"$map": [["s", {"$set": [1, 2]}], ["l", {"$list": ["a"]}]]}, None),
    "map with composite keys": ({"$cmap": [[[1, 2], "v"], [{"$uuid": str(U1)}, 3]]}, None),
    "maps with plain string keys": (
        {"$map": [["x", {"$cmap": [["abcd", 1]]}], ["y", {"$cmap": [["abcd", 2]]}]]},
        {"x": {"abcd": 1}, "y": {"abcd": 2}},
    ),
    "bytes": ({"$bytes": "AAEC/w=="}, b"\x00\x01\x02\xff"),
    "symbol and URI": (
        [{"$sym": "abcd"}, {"$uri": "https://x.test/"}],
        ["abcd", "https://x.test/"],
    ),
    "unknown tag": ({"$tag": ["point", [1, 2]]}, TaggedValue("point", [1, 2])),
    "special numbers": ([{"$float": "NaN"}, {"$float": "INF"}, {"$float": "-INF"}], None),
}
JS_ONLY_EXPECTED: dict[str, Any] = {
    "set and list": {"s": [1, 2], "l": ["a"]},
    "map with composite keys": {(1, 2): "v", U1: 3},
    "special numbers": [float("nan"), float("inf"), float("-inf")],
}


def same(ours: Any, js_answer: dict[str, Any]) -> bool:
    """Whether the oracle read `ours`'s value (what flexclient has) back."""
    return "ok" in js_answer and from_js(js_answer["ok"]) == comparable(ours)


def test_our_writing_is_transit_js_to_the_byte(oracle: Oracle) -> None:
    names = list(VALUES)
    answers = oracle.write([marked(VALUES[n]) for n in names])
    for name, js in zip(names, answers, strict=True):
        assert dumps(VALUES[name]) == js["ok"], name
        if js["sdk"] is not None:  # the SDK's own writer, where plain objects hold the value
            assert js["sdk"] == js["ok"], name


def test_request_bodies_are_the_writers_text() -> None:
    for name, value in VALUES.items():
        if is_dict(value) and name != "integers":  # bodies refuse wider integers
            body = as_json_object(value)
            assert TRANSIT.encode(body) == dumps(body).encode(), name


def test_the_sdk_reads_our_writing_back(oracle: Oracle) -> None:
    names = list(VALUES)
    answers = oracle.read([dumps(VALUES[n]) for n in names])
    for name, js in zip(names, answers, strict=True):
        assert same(VALUES[name], js), (name, js)


@pytest.mark.parametrize("verbose", [False, True], ids=["compact", "verbose"])
def test_we_read_transit_js_writing(oracle: Oracle, verbose: bool) -> None:
    names = list(VALUES)
    answers = oracle.write([marked(VALUES[n]) for n in names], verbose=verbose)
    for name, js in zip(names, answers, strict=True):
        assert comparable(loads(js["ok"])) == comparable(VALUES[name]), name


def test_we_read_what_only_transit_js_writes(oracle: Oracle) -> None:
    names = list(JS_ONLY)
    for verbose in (False, True):
        answers = oracle.write([JS_ONLY[n][0] for n in names], verbose=verbose)
        for name, js in zip(names, answers, strict=True):
            expected = JS_ONLY[name][1] or JS_ONLY_EXPECTED[name]
            assert comparable(loads(js["ok"])) == comparable(expected), (name, js["ok"])


def test_the_cache_counts_utf16_code_units() -> None:
    # "~:😀" is three characters and four UTF-16 code units: cached, as transit-js does.
    assert dumps({"😀": 1, "x": {"😀": 2}}) == '["^ ","~:😀",1,"~:x",["^ ","^0",2]]'
    assert loads('["^ ","~:😀",1,"~:x",["^ ","^0",2]]') == {"😀": 1, "x": {"😀": 2}}
    # "~:é" is three units: not cached; "~:éé" is four.
    assert dumps({"é": 1, "x": {"é": 2}}) == '["^ ","~:é",1,"~:x",["^ ","~:é",2]]'
    assert dumps({"éé": 1, "x": {"éé": 2}}) == '["^ ","~:éé",1,"~:x",["^ ","^0",2]]'


def test_the_cache_starts_over_when_full() -> None:
    text = dumps(VALUES["cache rollover"])
    doc = json.loads(text)
    first, second = doc[2], doc[4]
    # "~:first" took code 0 and k0000 ... k1934 the rest: k1935 finds every code taken and
    # starts the cache over as code 0. In the second map k0000 is no longer cached: written
    # in full, it is entry 66 after k1935 ... k1999 and "~:second", and its keyword value
    # refers to it by that code.
    assert first[1 + 2 * 1935] == "~:k1935" and first[1 + 2 * 1936] == "~:k1936"
    assert second[1:3] == ["~:k0000", "^1" + chr(48 + 66 - 44)]
    assert loads(text) == {
        "first": {k: n for n, k in enumerate(KEYS)},
        "second": {k: k for k in KEYS},
        "third": [{"k0000": Money(n, "USD"), "k1999": U1} for n in range(3)],
    }


# Texts whose reading depends on what is cached, and when: what is cached is decided by the
# kind of string (a key, a keyword, a symbol, a tag; not an escaped string in a value's
# place) and its length in UTF-16 units. A reader that cached one string more or less would
# read every later cache code as the wrong string.
CACHE_ORDER = [
    # A key of three units, one of them not ASCII: too short to be cached.
    '[["^ ","éab",1,"abcd",2],["^ ","^0",3]]',
    # A scalar tag ("~#u", three units) is not cached; the key after it is code 0.
    '[["~#u","c8e08d52-2b4c-4f37-9a7a-2f6a3e1d2b10"],["^ ","abcd",1],["^ ","^0",2]]',
    # A symbol in a value's place is cached, as a keyword is.
    '[["~$abcd"],["^0"]]',
    # An escaped string is cached as a key, not as a value: in the one key of a verbose
    # map (read as a possible tag first, then as the key), a verbose map's value, a tagged
    # value, verbose or compact.
    '[{"~~abcd":1},["^ ","wxyz",2],["^ ","^1",3]]',
    '[{"a":"~~abcd"},["^ ","wxyz",1],["^ ","^0",2]]',
    '[{"~#\'":"~~abcd"},["^ ","wxyz",1],["^ ","^0",2]]',
    '[["~#\'","~~abcd"],["^ ","wxyz",1],["^ ","^0",2]]',
    # "^ " anywhere but at the head of a list is the string it is; a plain string alone too.
    '["a","^ "]',
    '"abc"',
]


def test_the_cache_is_filled_as_transit_js_fills_it(oracle: Oracle) -> None:
    for text, js in zip(CACHE_ORDER, oracle.read(CACHE_ORDER), strict=True):
        assert comparable(loads(text)) == from_js(js["ok"]), (text, js)


# --- malformed input ---------------------------------------------------------------------

# Each is refused (ValueError from the reader, WireDecodeError from the wire format); the
# second column is what the official SDK's reader makes of it (oracle's form), or "error".
TAG = "~#'"
HOSTILE: list[tuple[str, Any]] = [
    (f'["{TAG}","~Qabc"]', {"$tag": ["Q", "abc"]}),
    (f'["{TAG}","~"]', {"$tag": ["", ""]}),
    (f'["{TAG}","~b!!!!"]', "error"),
    (f'["{TAG}","~bA"]', "error"),
    (f'["{TAG}","~bAA-_"]', "error"),
    ('["~#cmap",["a",1,"b"]]', {"$map": [["a", 1], ["b", {"$undefined": True}]]}),
    (f'["{TAG}","~f1e999999999"]', {"$decimal": "1e999999999"}),
    (f'["{TAG}","~f1e-999999999"]', {"$decimal": "1e-999999999"}),
    (f'["{TAG}","~fNaN"]', {"$decimal": "NaN"}),
    (f'["{TAG}","~f1_000"]', {"$decimal": "1_000"}),
    (f'["{TAG}","~iabc"]', 0),
    (f'["{TAG}","~i1_000"]', 1),
    (f'["{TAG}","~i9223372036854775808"]', {"$int": "-9223372036854775808"}),
    (f'["{TAG}","~n12x"]', {"$int": "12x"}),
    (f'["{TAG}","~d1.5x"]', 1.5),
    (f'["{TAG}","~dnan"]', {"$float": "NaN"}),
    (f'["{TAG}","~zFOO"]', "error"),
    (f'["{TAG}","~?x"]', False),
    (f'["{TAG}","~m12x"]', {"$date": 12}),
    (f'["{TAG}","~tnotatime"]', {"$date": None}),
    (f'["{TAG}","~t2018-03-23T08:40:24.443"]', {"$date": 1521794424443}),  # JS: local time
    (f'["{TAG}","~unot-a-uuid"]', {"$uuid": "not-a-uuid"}),
    (f'["{TAG}","~u 0000000000000000000000000000001"]', {"$uuid": " " + "0" * 30 + "1"}),
    (f'["{TAG}","^5"]', {"$undefined": True}),
    ('["^ ","^5",1]', {"$map": [["undefined", 1]]}),
    (f'["{TAG}","~#abcd"]', {"$baretag": "abcd"}),
    ('["~#set",["~#abcd",1]]', [{"$baretag": "abcd"}, 1]),
    ('["^ ","~#abcd",1]', {"$map": [["[object Object]", 1]]}),
    ('["~#mn",[1]]', {"$money": [1, {"$undefined": True}]}),
    ('["~#mn","x"]', {"$money": ["x", {"$undefined": True}]}),
    ('["~#geo",[1]]', {"$latlng": [1, {"$undefined": True}]}),
    ('["~#set","abc"]', "abc"),
    ('["~#u","x"]', {"$uuid": "x"}),
    ('["^ ","~:a"]', {"$map": [["a", None]]}),
    # A tag's value is read as it stands: a list there whose first item is a tag is a list,
    # and in it that tag is a bare one.
    ('{"~#list":["~#set",[1]]}', [{"$baretag": "set"}, [1]]),
    ('["~#list",["~#set",[1]]]', [{"$baretag": "set"}, [1]]),
    # A cache code with nothing cached under it, even one long enough to be a key.
    ('"^abcd"', {"$undefined": True}),
]


def test_malformed_transit_is_refused_where_transit_js_reads_nonsense(oracle: Oracle) -> None:
    answers = oracle.read([text for text, _ in HOSTILE])
    for (text, js_reading), js in zip(HOSTILE, answers, strict=True):
        assert js.get("ok", "error") == js_reading, (text, js)
        with pytest.raises(ValueError):
            loads(text)
        with pytest.raises(WireDecodeError):
            TRANSIT.decode(text.encode())


def test_an_unknown_tag_is_kept_in_an_attribute_and_refused_as_a_resource(
    oracle: Oracle,
) -> None:
    resource = f'["^ ","~:id","~u{U1}","~:type","~:listing"]'
    attribute = (
        f'["^ ","~:data",["^ ","~:id","~u{U1}","~:type","~:listing",'
        '"~:attributes",["^ ","~:publicData",["^ ","~:x",["~#point",[1,2]]]]]]'
    )
    in_data = f'["^ ","~:data",["~#foo",{resource}]]'
    in_list = f'["^ ","~:data",[{resource},["~#foo",{resource}]]]'
    js_attribute, js_data = oracle.read([attribute, in_data])
    # transit-js keeps both as tagged values; a tagged value is no resource.
    assert "$tag" in json.dumps(js_attribute["ok"]) and "$tag" in json.dumps(js_data["ok"])
    body = TRANSIT.decode(attribute.encode())
    assert isinstance(body, dict)
    assert body["data"]["attributes"]["publicData"]["x"] == TaggedValue("point", [1, 2])
    for text in (in_data, in_list):
        with pytest.raises(WireDecodeError, match="~#foo"):
            TRANSIT.decode(text.encode())


# --- properties ---------------------------------------------------------------------------


def _same_digits(x: float) -> bool:
    return json.dumps(x) == js_number(x)


floats = st.floats(allow_nan=False, allow_infinity=False).filter(_same_digits)
texts = st.text(max_size=8) | st.sampled_from(["~", "^", "`", "~:ab", "^ ", "😀", "é", "^0"])
leaves = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-(2**64), 2**64),
    floats,
    texts,
    texts.map(Keyword),
    st.uuids(),
    st.builds(money_from, st.integers(-(2**63), 2**63 - 1), st.sampled_from(["USD", "EUR", "~X"])),
    st.builds(LatLng, floats, floats),
    st.decimals(allow_nan=False, allow_infinity=False),
    st.datetimes(timezones=st.just(dt.UTC)).map(
        lambda d: d.replace(microsecond=d.microsecond // 1000 * 1000)
    ),
)
# Few distinct keys, so that the cache is used; astral and short non-ASCII ones among them.
keys = st.sampled_from(["a", "abcd", "é", "éé", "😀", "a😀", "~x", "^ ", "k" * 5]) | texts


def _containers(inner: st.SearchStrategy[Any]) -> st.SearchStrategy[Any]:
    return st.lists(inner, max_size=4) | st.dictionaries(keys, inner, max_size=5)


trees = st.recursive(leaves, _containers, max_leaves=25)


@given(trees)
@settings(suppress_health_check=[HealthCheck.too_slow], deadline=None)
def test_any_value_both_ways(oracle: Oracle, value: Any) -> None:
    ours = dumps(value)
    (js_written,) = oracle.write([marked(value)])
    assert ours == js_written["ok"]
    (js_read,) = oracle.read([ours])
    assert same(value, js_read), js_read
    assert comparable(loads(ours)) == comparable(value)
