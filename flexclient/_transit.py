"""Reading Transit JSON (compact and verbose) straight into plain Python values.

A JSON parser does the parsing; one walk over its result then undoes Transit's encoding: maps
written as `["^ ", k, v, ...]`, scalars tagged `~u`, `~m`, `~t`, `~f`, `~:`, ..., composites
tagged `["~#mn", rep]`, and the rolling cache (`^0`, `^1`, ...) of keys, keywords and tags.
Keywords become plain strings, as in the official SDKs; `mn` and `geo` become `Money` and
`LatLng`; tags this client does not know stay as transit-python's `TaggedValue`.

Writing stays with transit-python (`flexclient._wire`); this reader exists because building
transit-python's own objects and converting them again costs more than the whole walk here.
"""

from __future__ import annotations

import base64
import datetime as dt
import decimal
import json
import uuid
from typing import Any

from pydantic_core import from_json
from transit.transit_types import TaggedValue

from flexclient._types import latlng_from, money_from

_CACHE_SIZE = 44 * 44
# The cache codes in the order the writer hands them out: "^0" ... "^?", then "^00" ...
_CODES = [
    "^" + (chr(48 + n) if n < 44 else chr(48 + n // 44) + chr(48 + n % 44))
    for n in range(_CACHE_SIZE)
]
_EPOCH = dt.datetime(1970, 1, 1, tzinfo=dt.UTC)


class _Tag(str):
    """A `~#tag` read from the stream, kept apart from strings by its type."""


def _special(text: str) -> float:
    return {"NaN": float("nan"), "INF": float("inf"), "-INF": float("-inf")}[text]


def _time(text: str) -> dt.datetime:
    return dt.datetime.fromisoformat(text.replace("Z", "+00:00"))


def _millis(text: str) -> dt.datetime:
    return _EPOCH + dt.timedelta(milliseconds=int(text))


# First characters of the strings that mean something in Transit: escapes, tags, cache codes.
_MARKED = frozenset(("~", "^"))
_UNKNOWN_SAFETY = uuid.SafeUUID.unknown
_new = object.__new__
_set_int = uuid.UUID.__dict__["int"].__set__
_set_safety = uuid.UUID.__dict__["is_safe"].__set__


def _uuid(text: str) -> uuid.UUID:
    # uuid.UUID(text) spends most of its time on forms the API never writes (braces, urn:);
    # this is its own check (32 digits once the dashes are gone, int() decides they are hex)
    # and object, built without its keyword handling; other forms go to uuid.UUID.
    digits = text.replace("-", "")
    if len(digits) != 32:
        return uuid.UUID(text)
    made = _new(uuid.UUID)
    _set_int(made, int(digits, 16))
    _set_safety(made, _UNKNOWN_SAFETY)
    return made


_SCALARS: dict[str, Any] = {
    ":": str,  # keyword
    "$": str,  # symbol
    "u": _uuid,
    "m": _millis,
    "t": _time,
    "f": decimal.Decimal,
    "n": int,
    "i": int,
    "d": float,
    "?": lambda t: t == "t",
    "_": lambda t: None,
    "z": _special,
    "c": str,
    "r": str,
    "b": base64.b64decode,
    "#": _Tag,
}


def _composite(tag: str, rep: Any) -> Any:
    if tag == "mn" and isinstance(rep, list) and len(rep) == 2:
        return money_from(rep[0], rep[1])
    if tag == "geo" and isinstance(rep, list) and len(rep) == 2:
        return latlng_from(rep[0], rep[1])
    if tag in ("set", "list") and isinstance(rep, list):
        return rep
    if tag == "'":
        return rep
    if tag == "cmap" and isinstance(rep, list):
        return {_hashable(rep[i]): rep[i + 1] for i in range(0, len(rep) - 1, 2)}
    if tag == "u" and isinstance(rep, list) and len(rep) == 2:  # UUID as two 64-bit halves
        return uuid.UUID(int=((rep[0] & (2**64 - 1)) << 64) | (rep[1] & (2**64 - 1)))
    return TaggedValue(tag, rep)


def _hashable(key: Any) -> Any:
    if isinstance(key, list):
        return tuple(_hashable(k) for k in key)
    if isinstance(key, dict):
        return tuple(sorted((str(k), _hashable(v)) for k, v in key.items()))
    return key


def _read(doc: Any) -> Any:
    """One walk over the parsed JSON. Written as closures over locals, with scalars
    handled in the loops rather than by a call each: this is the hot path of every Transit
    response, and calls and attribute lookups are what cost here."""
    # The rolling cache, by code ("^0" -> its value): one dict lookup a cached key.
    cache: dict[str, Any] = {}
    codes = _CODES
    cached = cache.get
    scalars = _SCALARS
    marked = _MARKED
    # Scalars read outside the cache's reach (ids, times, numbers: immutable values), by
    # their text. The same id comes back in every reference to a resource: parsed once.
    parsed: dict[str, Any] = {}
    known = parsed.get

    def remember(value: Any) -> None:
        n = len(cache)
        if n == _CACHE_SIZE:  # the writer starts over; so does the reader
            cache.clear()
            n = 0
        cache[codes[n]] = value

    def string(text: str, as_key: bool) -> Any:
        first = text[:1]
        if first == "^":
            return text if text == "^ " else cache[text]
        if first != "~":
            if as_key and len(text) > 3:
                remember(text)
            return text
        kind = text[1:2]
        value: Any
        if kind in ("~", "^", "`"):
            value = text[1:]
        else:
            parse = scalars.get(kind)
            value = parse(text[2:]) if parse is not None else text
        if len(text) > 3 and (as_key or kind in (":", "$", "#")):
            remember(value)
        elif not as_key:
            parsed[text] = value
        return value

    def key(node: Any) -> Any:
        found = string(node, True) if type(node) is str else convert(node, True)
        return found if type(found) is str else _hashable(found)

    def convert(node: Any, as_key: bool = False) -> Any:
        kind = type(node)
        if kind is str:
            if as_key or node[:1] in marked:
                return string(node, as_key)
            return node  # most strings: nothing to undo
        if kind is list or kind is dict:
            return container(node)
        return node

    def container(node: Any) -> Any:
        if type(node) is dict:  # verbose form
            if len(node) == 1:
                ((tag, rep),) = node.items()
                tag = key(tag)
                if type(tag) is _Tag:
                    return _composite(tag, convert(rep))
                return {tag: convert(rep)}
            return {key(k): convert(v) for k, v in node.items()}
        if not node:
            return node
        head = node[0]
        if head == "^ ":
            out = {}
            # Keys first, in order: the cache is filled in reading order. Almost every key
            # of an API body is a cache code after its first use: one dict lookup.
            pairs = iter(node)
            next(pairs)
            for k in pairs:
                v = next(pairs)  # StopIteration for a key without value: not Transit
                # A cache code, else a key read for the first time (or a cached falsy value,
                # which `key` finds again). A composite key raises TypeError: the spec writes
                # maps with such keys as `cmap`, so this is not Transit.
                k = cached(k) or key(k)
                kind = type(v)
                if kind is str:
                    if v[:1] in marked:
                        v = known(v) or string(v, False)
                elif kind is list or kind is dict:
                    v = container(v)
                out[k] = v
            return out
        start = 0
        if len(node) == 2 and type(head) is str and head[:1] in marked:
            head = string(head, False)
            if type(head) is _Tag:
                return _composite(head, convert(node[1]))
            node[0] = head
            start = 1
        # A list: converted in place, the parser made it for this walk alone.
        for i in range(start, len(node)):
            v = node[i]
            kind = type(v)
            if kind is str:
                if v[:1] in marked:
                    node[i] = known(v) or string(v, False)
            elif kind is list or kind is dict:
                node[i] = container(v)
        return node

    return convert(doc)


def _parse(text: str | bytes) -> Any:
    # pydantic-core's parser, which hands back one object for each repeated short string
    # (cache codes, keywords, ids): the walk's lookups of them are faster. It reads a little
    # less than json.loads (lone surrogate escapes, nesting past 200): those go to json.loads.
    try:
        return from_json(text, cache_strings=True)
    except ValueError:
        return json.loads(text)


def loads(text: str | bytes) -> Any:
    """Transit JSON -> plain Python values; raises ValueError (or a subclass) if invalid."""
    try:
        return _read(_parse(text))
    except (IndexError, KeyError, TypeError, ArithmeticError, StopIteration) as exc:
        raise ValueError(f"invalid transit: {type(exc).__name__}: {exc}") from exc
