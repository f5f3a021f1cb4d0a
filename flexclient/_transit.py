"""Reading Transit JSON (compact and verbose) straight into plain Python values.

`json.loads` does the parsing; one walk over its result then undoes Transit's encoding: maps
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

from transit.transit_types import TaggedValue

from flexclient._types import LatLng, Money

_CACHE_SIZE = 44 * 44
_EPOCH = dt.datetime(1970, 1, 1, tzinfo=dt.UTC)


class _Tag(str):
    """A `~#tag` read from the stream, kept apart from strings by its type."""


def _special(text: str) -> float:
    return {"NaN": float("nan"), "INF": float("inf"), "-INF": float("-inf")}[text]


def _time(text: str) -> dt.datetime:
    return dt.datetime.fromisoformat(text.replace("Z", "+00:00"))


def _millis(text: str) -> dt.datetime:
    return _EPOCH + dt.timedelta(milliseconds=int(text))


_SCALARS: dict[str, Any] = {
    ":": str,  # keyword
    "$": str,  # symbol
    "u": uuid.UUID,
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
        return Money(rep[0], rep[1])
    if tag == "geo" and isinstance(rep, list) and len(rep) == 2:
        return LatLng(rep[0], rep[1])
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
    """One walk over `json.loads` output. Written as closures over locals: this is the hot
    path of every Transit response, and attribute lookups cost here."""
    cache: list[Any] = []
    remember = cache.append
    scalars = _SCALARS

    def string(text: str, as_key: bool) -> Any:
        if not text:
            return text
        first = text[0]
        if first == "^":
            if text == "^ ":
                return text
            if len(text) == 2:
                return cache[ord(text[1]) - 48]
            return cache[(ord(text[1]) - 48) * 44 + ord(text[2]) - 48]
        if first != "~":
            if as_key and len(text) > 3:
                if len(cache) == _CACHE_SIZE:  # the writer starts over; so does the reader
                    cache.clear()
                remember(text)
            return text
        kind = text[1:2]
        if kind in ("~", "^", "`"):
            value: Any = text[1:]
        else:
            parse = scalars.get(kind)
            value = parse(text[2:]) if parse is not None else text
        if len(text) > 3 and (as_key or kind in (":", "$", "#")):
            if len(cache) == _CACHE_SIZE:
                cache.clear()
            remember(value)
        return value

    def value(node: Any, as_key: bool = False) -> Any:
        kind = type(node)
        if kind is str:
            first = node[:1]
            if first != "~" and first != "^" and not as_key:
                return node  # most strings: nothing to undo
            return string(node, as_key)
        if kind is list:
            if not node:
                return node
            head = node[0]
            if head == "^ ":
                out = {}
                for i in range(1, len(node) - 1, 2):
                    # The key first: the cache is filled in reading order.
                    key = value(node[i], True)
                    out[key if type(key) is str else _hashable(key)] = value(node[i + 1])
                return out
            if len(node) == 2 and type(head) is str:
                first_item = string(head, False)
                if type(first_item) is _Tag:
                    return _composite(first_item, value(node[1]))
                return [first_item, value(node[1])]
            return [value(item) for item in node]
        if kind is dict:  # verbose form
            if len(node) == 1:
                ((key, rep),) = node.items()
                tag = value(key, True)
                if type(tag) is _Tag:
                    return _composite(tag, value(rep))
                return {_hashable(tag): value(rep)}
            verbose = {}
            for k, v in node.items():
                vkey = _hashable(value(k, True))
                verbose[vkey] = value(v)
            return verbose
        return node

    return value(doc)


def loads(text: str | bytes) -> Any:
    """Transit JSON -> plain Python values; raises ValueError (or a subclass) if invalid."""
    try:
        return _read(json.loads(text))
    except (IndexError, KeyError, TypeError, ArithmeticError) as exc:
        raise ValueError(f"invalid transit: {type(exc).__name__}: {exc}") from exc
