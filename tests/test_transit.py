"""The Transit reader against transit-python's own, on the same bytes, and on its own.

transit-python measures strings in characters where the spec and transit-js (the official
SDKs' Transit) measure UTF-16 code units: the two agree on what is cached as long as all text
is in the Basic Multilingual Plane, and that is where it serves as a reference here.
`tests/test_transit_js.py` compares with transit-js itself, everywhere.
"""

from __future__ import annotations

import copy
import datetime as dt
import decimal
import enum
import io
import json
import math
import os
import sys
import threading
import types
import uuid
from collections.abc import Callable
from typing import Any, cast

import pytest
from hypothesis import given
from hypothesis import strategies as st
from transit.reader import JsonUnmarshaler
from transit.transit_types import Boolean, Keyword, Symbol, TaggedValue, frozendict

from flexclient import LatLng, Money
from flexclient._support.compat import stack_depth
from flexclient._support.json_reading import SPARE_FRAMES
from flexclient._wire import transit_reader
from flexclient._wire.formats import TRANSIT
from flexclient._wire.transit_reader import MAX_DEPTH, loads
from flexclient._wire.transit_writer import dumps
from tests.shapes import is_list, is_tuple
from tests.test_wire import bodies

_ = (Boolean, Keyword, Symbol, TaggedValue, frozendict)


def _tagged(value: TaggedValue) -> object:
    rep = value.rep
    if value.tag == "mn" and is_tuple(rep) and len(rep) == 2:
        return Money(*cast("tuple[int, str]", rep))
    if value.tag == "geo" and is_tuple(rep) and len(rep) == 2:
        return LatLng(*cast("tuple[float, float]", rep))
    # Tags the API does not document are kept, with their representation made plain.
    return TaggedValue(value.tag, _plain(rep))


def _plain(value: object) -> object:
    """Transit reader output -> plain Python values, in one pass."""
    cls = type(value)
    if cls is frozendict:
        assert isinstance(value, frozendict)
        return {_plain_key(k): _plain(v) for k, v in value.items()}
    if cls is tuple:
        assert is_tuple(value)
        return [_plain(v) for v in value]
    if cls is Keyword or cls is Symbol:
        assert isinstance(value, Keyword | Symbol)
        return value.str
    if cls is Boolean:
        return bool(value)
    if isinstance(value, frozenset):
        return [_plain(v) for v in cast("frozenset[object]", value)]
    if isinstance(value, TaggedValue):
        return _tagged(value)
    return value


def _plain_key(key: object) -> object:
    if type(key) is Keyword:
        assert isinstance(key, Keyword)
        return key.str
    return _plain(key)


def reference(text: str) -> Any:
    """transit-python's (pure-Python, spec-following) reading of `text`, as plain values."""
    return _plain(JsonUnmarshaler().load(io.StringIO(text)))


def in_the_bmp(text: str) -> bool:
    """Whether every character of `text` is one UTF-16 code unit, as transit-python assumes."""
    return all(c <= "\uffff" for c in text)


@given(bodies)
def test_same_as_transit_python_on_what_we_write(body: dict[str, object]) -> None:
    text = TRANSIT.encode(body).decode()
    assert loads(text) == body
    if in_the_bmp(text):
        assert reference(text) == body


# Transit-looking JSON: tags, cache codes, map markers, keywords, escapes.
atoms = st.sampled_from(
    [
        "~:abcd",
        "~:ab",
        "~#mn",
        "~#geo",
        "~#set",
        "~$sym1",
        "~~esc",
        "~^x",
        "^0",
        "^1",
        "^ ",
        "~i42",
        "~d1.5",
        "~?t",
        "~_",
        "~n123",
        "~f2.50",
        "~zINF",
        "plain",
        "long-plain-text",
        "~uf81d4fae-7dec-11d0-a765-00a0c91e6bf6",
        "~m1521794424443",
    ]
)
docs = st.recursive(
    atoms | st.integers(-5, 5) | st.booleans() | st.none(),
    lambda inner: (
        st.lists(inner, max_size=5)
        | st.lists(inner, min_size=1, max_size=5).map(lambda xs: ["^ ", *xs])
    ),
    max_leaves=20,
)


def malformed_tags(doc: object) -> bool:
    """A tag heading a list that is not exactly [tag, value], or a collection tag whose value
    is not a list (`["~#set", "abc"]`): not Transit."""
    if not is_list(doc):
        return False
    tag_head = bool(doc) and isinstance(doc[0], str) and doc[0].startswith(("~#", "^"))
    maybe_set = tag_head and doc[0] in ("~#set", "^0", "^1")  # a cache code may be the tag
    if maybe_set and len(doc) == 2 and not isinstance(doc[1], list):
        return True
    return (tag_head and len(doc) != 2) or any(malformed_tags(x) for x in doc)


@given(docs)
def test_same_as_transit_python_on_arbitrary_transit(doc: Any) -> None:
    text = json.dumps(doc)
    if malformed_tags(doc) or "~#set" in text:
        # transit-python reads a set as a frozenset, in no order to compare with; sets are
        # compared with transit-js in tests/test_transit_js.py.
        return
    try:
        expected = reference(text)
    except Exception:
        expected = "error"
    try:
        ours = loads(text)
    except ValueError:
        ours = "error"
    if expected == "error" or ours == "error" or "decoder.Tag" in repr(expected):
        # Malformed input (a refusal, or a bare tag outside a tagged value): each reader
        # handles it its own way; ours raises ValueError or keeps the text.
        return
    assert ours == expected


def test_values() -> None:
    assert loads('["~#mn",[5000,"USD"]]') == Money(5000, "USD")
    assert loads('["^ ","~:geo",["~#geo",[1.5,2]],"~:again",["^1",[3,4]]]') == {
        "geo": LatLng(1.5, 2),
        "again": LatLng(3, 4),
    }
    with pytest.raises(ValueError):
        loads('["^ ","^5",1]')


FORMS: list[Callable[[uuid.UUID], str]] = [
    str,
    lambda u: str(u).upper(),
    lambda u: "{" + str(u) + "}",
]


@given(st.uuids(), st.sampled_from(FORMS))
def test_uuids_are_the_standard_librarys(
    value: uuid.UUID, form: Callable[[uuid.UUID], str]
) -> None:
    text = form(value)
    read = loads(json.dumps(["~#'", f"~u{text}"]))
    assert type(read) is uuid.UUID and read == value and str(read) == str(value)
    assert hash(read) == hash(value) and read.version == value.version
    assert read.is_safe == uuid.UUID(text).is_safe


@pytest.mark.parametrize("text", ["~unot-a-uuid", "~u" + "g" * 32, "~u" + "0" * 31])
def test_a_malformed_uuid_is_invalid_transit(text: str) -> None:
    with pytest.raises(ValueError):
        loads(json.dumps(["~#'", text]))


def test_each_id_is_read_once_a_response() -> None:
    one = "~uf81d4fae-7dec-11d0-a765-00a0c91e6bf6"
    first, second = loads(json.dumps([one, one]))
    assert first is second


def test_money_and_points_are_checked_like_the_constructors() -> None:
    point = loads('["~#geo",[60,24.5]]')
    assert point == LatLng(60.0, 24.5) and type(point.lat) is float
    assert loads('["~#mn",[5000,"USD"]]') == Money(5000, "USD")
    with pytest.raises(ValueError, match="valid integer"):
        loads('["~#mn",["5000","USD"]]')
    with pytest.raises(ValueError, match="valid number"):
        loads('["~#geo",["north",24.5]]')


def test_a_body_that_fills_the_cache_reads_like_transit_python() -> None:
    # More cacheable keys than the cache holds (44 * 44): the writer starts over, and so must
    # the reader; repeated ids and tags on both sides of the wrap come back the same.
    same = uuid.UUID("f81d4fae-7dec-11d0-a765-00a0c91e6bf6")
    price = Money(5, "EUR")
    body = {"items": [{f"key{n:05d}": same, "again": [same, price]} for n in range(2500)]}
    text = TRANSIT.encode(body).decode()
    assert text.count('"~:again"') > 1  # written in full again after the writer started over
    assert loads(text) == reference(text) == body


@pytest.mark.parametrize(
    "text",
    [
        # Read by json.loads when the faster parser refuses them: a lone surrogate escape,
        # and nesting past its 200 levels.
        '["^ ","~:title","\\ud800"]',
        '["^ ","~:deep",' + "[" * 300 + "]" * 300 + "]",
    ],
)
def test_what_only_json_loads_parses_is_read_all_the_same(text: str) -> None:
    assert loads(text) == reference(text)


def test_the_reader_under_test_is_the_build_asked_for() -> None:
    # scripts/test_compiled.sh runs these tests on mypyc's build of the reader and says so
    # (FLEX_WALK_BUILD=compiled); every other run tests the source, which a compiled module
    # left in the checkout by a build would silently replace.
    compiled = not transit_reader.__file__.endswith(".py")
    wanted = os.environ.get("FLEX_WALK_BUILD") == "compiled"
    fix = "not the compiled build" if wanted else "delete that build from the checkout"
    assert compiled == wanted, f"the reader under test is {transit_reader.__file__}: {fix}"


def test_a_body_nested_past_any_stack_is_refused_not_a_crash() -> None:
    # Compiled code does not count its calls against the recursion limit: without the walk's
    # own count it would run out of C stack here (a crash). A parsed document, as json.loads
    # could make with a raised limit, far deeper than the limit in force.
    doc: list[object] = []
    inner = doc
    for _ in range(sys.getrecursionlimit() * 50):
        deeper: list[object] = []
        inner.append(deeper)
        inner = deeper
    with pytest.raises(RecursionError, match="room"):
        transit_reader._read(doc)


# --- nesting ------------------------------------------------------------------------------


def nested_forms(d: int) -> dict[str, str]:
    """Transit text nested `d` arrays and objects deep, in each form (a tagged value is two)."""
    half = d // 2
    return {
        "lists": "[" * d + "]" * d,
        "maps": '["^ ","~:a",' * d + "1" + "]" * d,
        "verbose maps": '{"~:a":' * d + "1" + "}" * d,
        "verbose maps of two keys": '{"b":1,"~:a":' * d + "1" + "}" * d,
        "tagged values": '["~#list",[' * half + "]]" * half,
        "verbose tagged values": '{"~#list":[' * half + "]}" * half,
    }


def test_transit_reads_max_depth_levels_in_every_form_and_no_more() -> None:
    # As deep as any body may nest, read by json.loads past pydantic's parser's 200 levels.
    assert MAX_DEPTH % 2 == 0
    for form, text in nested_forms(MAX_DEPTH).items():
        assert loads(text) is not None, form
    for text in nested_forms(MAX_DEPTH + 2).values():
        with pytest.raises(ValueError, match="nested too deeply"):
            loads(text)


def test_nesting_past_the_recursion_limit_is_invalid_transit() -> None:
    # Past the interpreter's limit, whatever it is now (a library may have raised it).
    depth = sys.getrecursionlimit() + 1000
    with pytest.raises(ValueError, match="deep"):
        loads('["^ ","~:a",' * depth + "1" + "]" * depth)


def test_a_walk_out_of_stack_is_invalid_transit_not_a_recursion_error() -> None:
    # Text the parser reads in full (a hundred and fifty levels), read by a program with
    # fewer frames left than that: the walk runs out of stack, and says so as any reader of
    # invalid input does, with a ValueError.
    text = "[" * 150 + "]" * 150

    def read_at(height: int) -> None:
        if height > 0:
            read_at(height - 1)
            return
        with pytest.raises(ValueError, match="nested too deeply"):
            loads(text)

    read_at(sys.getrecursionlimit() - stack_depth() - 100)


def _chain(level: Callable[[object], object], levels: int, end: object = 1) -> object:
    doc = end
    for _ in range(levels):
        doc = level(doc)
    return doc


# Parsed documents by the ways the walk goes one level deeper, each a function of a depth:
# the document, and the JSON arrays and objects on its deepest path.
NESTINGS: dict[str, Callable[[int], tuple[object, int]]] = {
    "lists": lambda n: (_chain(lambda d: [d], n), n),
    "maps": lambda n: (_chain(lambda d: ["^ ", "~:a", d], n), n),
    "verbose maps": lambda n: (_chain(lambda d: {"~:a": d}, n), n),
    "verbose maps in lists": lambda n: (_chain(lambda d: [{"b": 1, "~:a": d}], n), 2 * n),
    "verbose maps in maps": lambda n: (_chain(lambda d: ["^ ", "~:a", {"~:b": d}], n), 2 * n),
    "tagged lists": lambda n: (_chain(lambda d: ["~#list", [d]], n), 2 * n),
    "tagged maps": lambda n: (_chain(lambda d: ["~#'", {"~:a": d}], n), 2 * n),
    "verbose tagged lists": lambda n: (_chain(lambda d: {"~#list": [d]}, n), 2 * n),
    "verbose tagged maps": lambda n: (_chain(lambda d: {"~#'": {"~:a": d}}, n), 2 * n),
}


@pytest.mark.parametrize("form", NESTINGS)
def test_the_walk_counts_every_level_against_its_room(form: str) -> None:
    # The room is what keeps the compiled build from running out of C stack: each array and
    # object on the way down takes one, however the walk reaches it, and a walk given one
    # fewer than it needs is refused rather than read.
    doc, depth = NESTINGS[form](6)
    expected = loads(json.dumps(doc))
    walked = transit_reader._Walk().convert(copy.deepcopy(doc), False, depth + 1)
    assert walked == expected
    with pytest.raises(RecursionError, match="room"):
        transit_reader._Walk().convert(copy.deepcopy(doc), False, depth)


def test_the_walk_reads_max_depth_levels_and_refuses_one_more() -> None:
    assert transit_reader._read(_chain(lambda d: [d], MAX_DEPTH)) is not None
    with pytest.raises(RecursionError, match="room"):
        transit_reader._read(_chain(lambda d: [d], MAX_DEPTH + 1))


def test_with_less_stack_left_the_walk_has_the_room_the_interpreter_has() -> None:
    # Called from deep in a program, the walk is given the room below the reader's own two
    # frames (`loads`, `_read`, which a compiled build does not have), less SPARE_FRAMES, and
    # needs one more than the levels it walks.
    def at_height(height: int) -> None:
        if height > 0:
            at_height(height - 1)
            return
        levels = sys.getrecursionlimit() - stack_depth() - 2 - SPARE_FRAMES - 1
        assert 0 < levels < MAX_DEPTH
        assert transit_reader._read(_chain(lambda d: [d], levels)) is not None
        with pytest.raises(RecursionError, match="room"):
            transit_reader._read(_chain(lambda d: [d], levels + 1))

    at_height(sys.getrecursionlimit() - stack_depth() - SPARE_FRAMES - MAX_DEPTH // 2)


@pytest.mark.parametrize("form", NESTINGS)
def test_a_thread_of_the_smallest_stack_reads_max_depth_levels(form: str) -> None:
    # What MAX_DEPTH is for: the compiled walk, whose calls take C stack, reads the deepest
    # body allowed in a thread of 128 KiB of stack (musl's default) without running out.
    _, per_level = NESTINGS[form](1)
    doc, depth = NESTINGS[form](MAX_DEPTH // per_level)
    assert depth == MAX_DEPTH
    read: list[object] = []
    previous = threading.stack_size(128 * 1024)
    try:
        thread = threading.Thread(target=lambda: read.append(transit_reader._read(doc)))
        thread.start()
        thread.join(60)
    finally:
        threading.stack_size(previous)
    assert read and read[0] is not None


def test_a_map_as_a_key_of_a_cmap_is_kept_as_sorted_pairs() -> None:
    # A dict cannot be a dict's key: a map (verbose or compact) as a key becomes the tuple
    # of its (key, value) pairs, sorted by key, so that equal maps make equal keys.
    assert loads('["~#cmap",[["^ ","b",2,"a",1],"x",[1,2],"y"]]') == {
        (("a", 1), ("b", 2)): "x",
        (1, 2): "y",
    }
    assert loads('["~#cmap",[{"b":[3],"a":1},"x"]]') == {(("a", 1), ("b", (3,))): "x"}


# --- what writers write, read strictly ---------------------------------------------------


@pytest.mark.parametrize(
    "text,value",
    [
        ("~i-42", -42),
        ("~i9223372036854775807", 2**63 - 1),
        ("~n-123456789012345678901234567890", -123456789012345678901234567890),
        ("~d1.5", 1.5),
        ("~d-1e-7", -1e-7),
        ("~d1e+21", 1e21),
        ("~f2.50", decimal.Decimal("2.50")),
        ("~f-1E+5", decimal.Decimal("-1E+5")),
        ("~f.5", decimal.Decimal("0.5")),
        ("~f1e4299", decimal.Decimal("1e4299")),
        ("~f1e-4300", decimal.Decimal("1e-4300")),
        ("~m-1", dt.datetime(1969, 12, 31, 23, 59, 59, 999000, tzinfo=dt.UTC)),
        ("~t2018-03-23T08:40:24.443Z", dt.datetime(2018, 3, 23, 8, 40, 24, 443000, tzinfo=dt.UTC)),
        ("~t2018-03-23T11:40:24+03:00", dt.datetime(2018, 3, 23, 8, 40, 24, tzinfo=dt.UTC)),
        ("~?t", True),
        ("~?f", False),
        ("~_", None),
        ("~bAAE", b"\x00\x01"),
        ("~b AA E=\n", b"\x00\x01"),
        ("~~:x", "~:x"),
        ("~^ ", "^ "),
        ("~`x", "`x"),
    ],
)
def test_scalars(text: str, value: object) -> None:
    read = loads(json.dumps(["~#'", text]))
    assert read == value and type(read) is type(value)
    if isinstance(read, dt.datetime):
        assert read.utcoffset() == dt.timedelta(0)


def test_the_largest_decimal_read_stays_cheap_to_use() -> None:
    # Refusing exponents past 4,300 digits is what keeps int() and formatting quick.
    big = loads('["~#\'","~f9.99e4299"]')
    assert len(str(int(big))) == 4300 and len(f"{loads(chr(34) + '~f1e-4300' + chr(34)):f}") < 4400
    with pytest.raises(ValueError, match="valid integer"):  # no Money of a decimal amount
        loads('["~#mn",["~f1e4299","USD"]]')


@pytest.mark.parametrize(
    "text,value",
    [
        ('["~#u",[-1,-1]]', uuid.UUID(int=2**128 - 1)),
        (
            '["~#u","f81d4fae-7dec-11d0-a765-00a0c91e6bf6"]',
            uuid.UUID("f81d4fae-7dec-11d0-a765-00a0c91e6bf6"),
        ),
        ('["~#m",1521794424443]', dt.datetime(2018, 3, 23, 8, 40, 24, 443000, tzinfo=dt.UTC)),
        ('["~#f","1.5"]', decimal.Decimal("1.5")),
        ('["~#:","abc"]', "abc"),
        ('["~#cmap",[["a"],1,"~:b",2]]', {("a",): 1, "b": 2}),
        ('{"~#mn":[5,"EUR"]}', Money(5, "EUR")),
        ('["~#point",[1,2]]', TaggedValue("point", [1, 2])),
    ],
)
def test_composites(text: str, value: object) -> None:
    assert loads(text) == value


def test_a_tag_is_cached_and_may_come_back_only_as_a_tag() -> None:
    assert loads('[["~#point",[1]],["^0",[2]]]') == [
        TaggedValue("point", [1]),
        TaggedValue("point", [2]),
    ]
    for text in ('[["~#point",[1]],"^0"]', '[["~#point",[1]],["^ ","^0",2]]'):
        with pytest.raises(ValueError):
            loads(text)


@pytest.mark.parametrize(
    ("halves", "value"),
    [
        ("[-568210367123287600,-6384696206158828554]", "f81d4fae-7dec-11d0-a765-00a0c91e6bf6"),
        ("[0,1]", "00000000-0000-0000-0000-000000000001"),
        ("[1,0]", "00000000-0000-0001-0000-000000000000"),
        ("[9223372036854775807,-9223372036854775808]", "7fffffff-ffff-ffff-8000-000000000000"),
    ],
)
def test_a_uuid_as_two_signed_halves(halves: str, value: str) -> None:
    assert loads(f'["~#u",{halves}]') == uuid.UUID(value)


@pytest.mark.parametrize("halves", ["[1]", "[1,2,3]", '["1",2]', "[1,2.5]", "[true,1]"])
def test_a_uuid_of_anything_but_two_integer_halves_is_refused(halves: str) -> None:
    with pytest.raises(ValueError, match="two integers"):
        loads(f'["~#u",{halves}]')


@pytest.mark.parametrize("text", ["~f1e4300", "~f-9.9e4300", "~f1e-4301", "~f0.1e-4300"])
def test_a_decimal_just_past_the_digit_limit_is_refused(text: str) -> None:
    with pytest.raises(ValueError, match="out of range"):
        loads(json.dumps(["~#'", text]))


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("~bSGVsbG8sIFhYWA==", b"Hello, XXX"),
        ("~bSGVsbG8sIFhYWA", b"Hello, XXX"),  # padding left out
        ("~bWA==", b"X"),
        ("~b+/+/", b"\xfb\xff\xbf"),
        ("~b", b""),
    ],
)
def test_base64_of_any_letters_is_read(text: str, value: bytes) -> None:
    assert loads(json.dumps(["~#'", text])) == value


@pytest.mark.parametrize("text", ["~bWA=X", "~bWA===", "~bSGVsbG8$", "~bWAX=="])
def test_base64_with_a_character_out_of_place_is_refused(text: str) -> None:
    with pytest.raises(ValueError, match="invalid base64"):
        loads(json.dumps(["~#'", text]))


def test_plain_string_keys_are_cached_for_later_maps() -> None:
    text = '[["^ ","title",1,"ab",2],["^ ","^0",3,"ab",4],["^ ","^0",5]]'
    assert loads(text) == [{"title": 1, "ab": 2}, {"title": 3, "ab": 4}, {"title": 5}]
    # Keys of 3 characters or fewer are not: "^0" is still the first long one.
    assert loads('[["^ ","abc",1,"abcd",2],["^ ","^0",3]]') == [
        {"abc": 1, "abcd": 2},
        {"abcd": 3},
    ]


@pytest.mark.parametrize(
    ("value", "written"),
    [
        (2**53 - 1, "9007199254740991"),
        (-(2**53 - 1), "-9007199254740991"),
        (2**53, '"~i9007199254740992"'),
        (-(2**53), '"~i-9007199254740992"'),
        (2**63 - 1, '"~i9223372036854775807"'),
        (-(2**63), '"~i-9223372036854775808"'),
        (2**63, '"~n9223372036854775808"'),
        (-(2**63) - 1, '"~n-9223372036854775809"'),
    ],
)
def test_integers_are_numbers_while_javascript_reads_them_exactly(value: int, written: str) -> None:
    assert dumps(value) == f'["~#\'",{written}]'
    assert loads(dumps(value)) == value


def test_the_writer_writes_compact_utf8_and_escapes_only_marked_strings() -> None:
    assert dumps({"name": "Xavier Æbelø", "tag": "~x", "code": "^0", "quote": "`q"}) == (
        '["^ ","~:name","Xavier Æbelø","~:tag","~~x","~:code","~^0","~:quote","~`q"]'
    )
    with pytest.raises(ValueError, match="finite"):
        dumps({"n": float("nan")})


class Colour(enum.IntEnum):
    RED = 1


class Name(str):
    pass


class Items(list[object]):
    pass


def test_the_writer_writes_subclasses_and_other_mappings_as_their_base() -> None:
    assert dumps(types.MappingProxyType({"a": 1})) == dumps({"a": 1}) == '["^ ","~:a",1]'
    assert dumps([Name("~x"), Colour.RED, Items([Name("y")])]) == '["~~x",1,["y"]]'
    assert dumps([decimal.Decimal("2.50"), uuid.UUID(int=1)]) == (
        '["~f2.50","~u00000000-0000-0000-0000-000000000001"]'
    )


@pytest.mark.parametrize(
    ("value", "error", "said"),
    [
        ({1: "a"}, TypeError, "map keys must be strings"),
        (decimal.Decimal("NaN"), ValueError, "not a finite number"),
        (float("inf"), ValueError, "not a finite number"),
        (dt.datetime(2024, 1, 1), ValueError, "naive datetime"),
        (object(), TypeError, "cannot write a value of type object"),
    ],
)
def test_what_the_writer_cannot_write_is_an_error_saying_why(
    value: object, error: type[Exception], said: str
) -> None:
    with pytest.raises(error, match=said):
        dumps({"v": value})


def test_keys_are_cached_by_their_length_in_utf16_code_units() -> None:
    # Two characters outside the Basic Multilingual Plane are four UTF-16 units: cached, as
    # transit-js caches them; a keyword of three units (`~:é`) is not, one of four (`~:ab`) is.
    assert loads('[["^ ","😀😀",1],["^ ","^0",2]]') == [{"😀😀": 1}, {"😀😀": 2}]
    assert loads('[["^ ","~:é",1],["^ ","~:ab",2],["^ ","^0",3]]') == [
        {"é": 1},
        {"ab": 2},
        {"ab": 3},
    ]


def test_special_numbers_and_null_read_as_written() -> None:
    nan, inf, minus_inf = loads('["~zNaN","~zINF","~z-INF"]')
    assert math.isnan(nan) and inf == math.inf and minus_inf == -math.inf
    assert loads('["~_"]') == [None]
    with pytest.raises(ValueError, match="~_ with a value"):
        loads('["~_x"]')


def test_symbols_and_unpadded_base64_read_as_transit_js_reads_them() -> None:
    assert loads('["~$a-symbol"]') == ["a-symbol"]
    assert loads('["~bAAAAAA"]') == [b"\x00\x00\x00\x00"]  # six characters, padding left out


def test_characters_uris_and_cmaps_read_as_written() -> None:
    assert loads('["~cx","~rhttps://example.com/a"]') == ["x", "https://example.com/a"]
    assert loads('["~#cmap",[["~#list",[1]],"one"]]') == {(1,): "one"}
    for rep in ('"ab"', "[1]"):
        with pytest.raises(ValueError, match="cmap needs a list"):
            loads(f'["~#cmap",{rep}]')


def test_tagged_values_read_by_their_tag_and_refuse_what_it_cannot_hold() -> None:
    assert loads('["~#m",1000]') == dt.datetime(1970, 1, 1, 0, 0, 1, tzinfo=dt.UTC)
    assert loads('["~#geo",[1.5,2.5]]') == LatLng(1.5, 2.5)
    assert loads('["~#mn",["~n5","USD"]]') == Money(5, "USD")
    assert loads('["~#list",[1,2]]') == [1, 2]
    for body in (
        '["~#u",5]',  # a UUID is text or two numbers
        '["~#i",5]',  # a tagged scalar's value is text
        '["~##","x"]',
        '["~#mn",[1]]',
        '["~#list","x"]',
    ):
        with pytest.raises(ValueError, match="~#"):
            loads(body)


def test_an_unknown_scalar_code_is_named() -> None:
    with pytest.raises(ValueError, match="unknown Transit code '~Q'"):
        loads('["~Qx"]')
