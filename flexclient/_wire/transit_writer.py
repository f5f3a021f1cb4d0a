"""Writing compact Transit JSON, to the byte as the official SDKs (transit-js) write it.

Maps are written `["^ ", k, v, ...]` with string keys as keywords (`"~:title"`), as the SDKs
write every object's keys; strings that start with `~`, `^` or `` ` `` are escaped with a
`~`; `uuid.UUID` is `~u`, `decimal.Decimal` `~f`, `datetime` `~m` (milliseconds since the
epoch, rounded down), `Money` the tag `mn`, `LatLng` the tag `geo`, a transit-python `Keyword`
a keyword. Integers beyond JavaScript's safe range are `~i` (64-bit) or `~n` (wider).
Floats are the one difference: they are written as Python writes them (`2.0`, `1e-07`),
where JavaScript, which has one kind of number, writes `2` and `1e-7`; a float stays a
float for the API.

Keys, keywords and tags longer than 3 UTF-16 code units are cached, as the reader
(`flexclient._wire.transit_reader`) expects: the first use is written in full, later ones as
`^0`, `^1`,
...; after the last of the 44 * 44 codes, the next cacheable string starts the cache afresh.

`dumps` expects values already checked (`flexclient._wire.formats` does that for request bodies:
depth, cycles, finite numbers, text that UTF-8 can carry); it raises TypeError or ValueError
for what it cannot write.
"""

from __future__ import annotations

import datetime as dt
import decimal
import json
import math
import uuid
from collections.abc import Mapping
from typing import Any

from transit.transit_types import Keyword

from flexclient._support.narrow import is_array, is_mapping
from flexclient._wire.transit_reader import CACHE_CODES, CACHE_SIZE, long_enough
from flexclient._wire.value_types import LatLng, Money

# Integers JavaScript reads exactly (Number.MAX_SAFE_INTEGER); beyond them, a string.
_SAFE = 2**53 - 1
_INT64 = 2**63
_EPOCH = dt.datetime(1970, 1, 1, tzinfo=dt.UTC)
_MILLISECOND = dt.timedelta(milliseconds=1)
_ESCAPED = frozenset("~^`")
_dump = json.JSONEncoder(
    ensure_ascii=False, separators=(",", ":"), allow_nan=False, check_circular=False
).encode


def dumps(value: object) -> str:
    """`value` as compact Transit JSON.

    >>> dumps({"title": "Bike", "tags": ["~red"]})
    '["^ ","~:title","Bike","~:tags",["~~red"]]'
    """
    return _dump(_Writer().top(value))


def millis(value: dt.datetime) -> int:
    """A timezone-aware datetime as milliseconds since the epoch, rounded down (as a
    JavaScript Date holds it)."""
    return (value - _EPOCH) // _MILLISECOND


def integer(value: int) -> int | str:
    """An integer as Transit JSON has it: a number while JavaScript reads it exactly,
    `~i` up to 64 bits, `~n` beyond."""
    if -_SAFE <= value <= _SAFE:
        return int(value)  # int(): an IntEnum member is written as its number
    return ("~i%d" if -_INT64 <= value < _INT64 else "~n%d") % value


def _composite(value: object) -> bool:
    """Whether `value` is written as a map or an array (a tagged value is an array)."""
    return isinstance(value, Mapping | list | tuple | Money | LatLng)


class _Writer:
    """One document's writing: the cache lives as long as the document."""

    __slots__ = ("_codes",)

    def __init__(self) -> None:
        self._codes: dict[str, str] = {}

    def cached(self, text: str) -> str:
        """`text` (a key, keyword or tag) in full the first time, its code after that."""
        if not long_enough(text):
            return text
        codes = self._codes
        if len(codes) == CACHE_SIZE:
            # transit-js starts afresh when a cacheable string comes with every code taken,
            # even one it could have given a code: that string is written in full.
            codes.clear()
        code = codes.get(text)
        if code is None:
            codes[text] = CACHE_CODES[len(codes)]
            return text
        return code

    def top(self, value: object) -> object:
        # A scalar alone is written inside the quote tag: a JSON document must be a map or
        # an array, for the older parsers the spec had in mind.
        if _composite(value):
            return self.value(value)
        return ["~#'", self.value(value)]

    def value(self, value: object) -> object:
        # Exact types first, in the order a body has most of them: one check each.
        if type(value) is str:
            return "~" + value if value[:1] in _ESCAPED else value
        if value is None or type(value) is bool:
            return value
        if type(value) is int or type(value) is float:
            return self.number(value)
        # The ignores: `type(value) is dict` leaves a checker with dict[Unknown, Unknown] (and
        # so for lists and tuples), and this path spends no call on telling it `object`.
        if type(value) is dict:
            return self.map(value)  # pyright: ignore[reportUnknownArgumentType]
        if type(value) is list or type(value) is tuple:
            return [self.value(v) for v in value]  # pyright: ignore[reportUnknownVariableType, reportUnknownArgumentType]
        return self.other(value)

    def number(self, value: object) -> object:
        if isinstance(value, int):
            return integer(value)
        assert isinstance(value, float)
        if not math.isfinite(value):
            raise ValueError(f"{value!r} cannot be written (not a finite number)")
        return float(value)

    def map(self, value: Mapping[Any, object]) -> list[object]:
        out: list[object] = ["^ "]
        for k, v in value.items():
            if not isinstance(k, str):
                raise TypeError(f"map keys must be strings, not {type(k).__name__}")
            out.append(self.cached("~:" + k))
            out.append(self.value(v))
        return out

    def other(self, value: object) -> object:
        if is_mapping(value):
            return self.map(value)
        if isinstance(value, str):
            return self.value(str.__str__(value))
        if isinstance(value, bool | int | float):  # subclasses, such as IntEnum members
            return self.number(value)
        if is_array(value):
            return [self.value(v) for v in value]
        if isinstance(value, Keyword):
            return self.cached("~:" + value.str)
        if isinstance(value, uuid.UUID):
            return f"~u{value}"
        if isinstance(value, decimal.Decimal):
            if not value.is_finite():
                raise ValueError(f"{value!r} cannot be written (not a finite number)")
            return f"~f{value}"
        if isinstance(value, dt.datetime):
            if value.utcoffset() is None:
                raise ValueError("a naive datetime cannot be written")
            return f"~m{millis(value)}"
        if isinstance(value, Money):
            return [self.cached("~#mn"), [integer(value.amount), self.value(value.currency)]]
        if isinstance(value, LatLng):
            return [self.cached("~#geo"), [self.number(value.lat), self.number(value.lng)]]
        raise TypeError(f"cannot write a value of type {type(value).__name__}")
