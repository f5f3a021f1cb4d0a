"""Reading Transit JSON (compact and verbose) straight into plain Python values.

A JSON parser does the parsing; one walk over its result then undoes Transit's encoding: maps
written as `["^ ", k, v, ...]`, scalars tagged `~u`, `~m`, `~t`, `~f`, `~:`, ..., composites
tagged `["~#mn", rep]`, and the rolling cache (`^0`, `^1`, ...) of keys, keywords and tags.
Keywords become plain strings, as in the official SDKs; `mn` and `geo` become `Money` and
`LatLng`; `~#` tags this client does not know stay as transit-python's `TaggedValue`, as
transit-js keeps them.

The reader follows transit-js, the Transit of the official SDKs, wherever the two could
differ on well-formed input: what is cached is decided by length in UTF-16 code units, and
the cache wraps around as transit-js's does. Where transit-js reads malformed input into
something unusable (an unknown cache code as `undefined`, `~iabc` as 0, Money without a
currency, `~f1e999999999` as a number no program can use), this reader refuses it with
ValueError; `tests/test_transit_js.py` records what transit-js does with each.

Writing is `flexclient._wire.transit_writer`. This reader exists because building transit-python's
own objects and converting them again costs more than the whole walk here. The platform wheels
carry this module compiled by mypyc (a walk in 0.4 of the time); anywhere else it runs as it
is, and both builds pass the same tests (scripts/test_compiled.sh, docs/performance.md).
"""

from __future__ import annotations

import base64
import datetime as dt
import decimal
import re
import sys
import uuid
from typing import Any, Final

from pydantic_core import from_json
from transit.transit_types import TaggedValue

from flexclient._support.compat import stack_depth
from flexclient._support.json_reading import SPARE_FRAMES, read_json
from flexclient._wire.values import fast_uuid, latlng_from, money_from

CACHE_SIZE = 44 * 44
# The cache codes in the order writers hand them out: "^0" ... "^[", then "^00" ...
_DIGITS = [chr(48 + n) for n in range(44)]
CACHE_CODES = ["^" + d for d in _DIGITS] + ["^" + a + b for a in _DIGITS[1:] for b in _DIGITS]
_EPOCH = dt.datetime(1970, 1, 1, tzinfo=dt.UTC)

# `list` and `dict` as a JSON parser makes them, for the type checkers: after
# `type(x) is JSON_ARRAY` they know `x` is a `list[Any]`, where `type(x) is list` leaves them a
# list of Unknown items. The same classes, looked up as fast: nothing changes at run time.
JSON_ARRAY: Final[type[list[Any]]] = list
JSON_OBJECT: Final[type[dict[str, Any]]] = dict


def long_enough(text: str) -> bool:
    """Whether `text` is long enough to be cached: more than 3 UTF-16 code units.

    The spec and transit-js measure in UTF-16 code units (JavaScript's `length`), in which a
    character outside the Basic Multilingual Plane counts twice.

    >>> long_enough("~:ab"), long_enough("~:é"), long_enough("~:😀")
    (True, False, True)
    """
    n = len(text)
    if n > 3 or n < 2 or text.isascii():
        return n > 3
    return n + sum(c > "\uffff" for c in text) > 3


class _Tag:
    """A `~#tag` read from the stream. Unhashable, and no string, so that a tag found where
    a key or a value belongs cannot pass for one."""

    __slots__ = ("name",)
    __hash__ = None  # type: ignore[assignment]

    def __init__(self, name: str) -> None:
        self.name = name


# Python's own number parsers take more than Transit writes (int() takes "1_000", " 12",
# digits of other scripts; Decimal() takes "NaN"); these are the forms writers produce. As
# text, compiled by `re` when a value first needs one (they are rare), not at import.
_INTEGER = r"-?[0-9]+\Z"
_FLOAT = r"-?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][+-]?[0-9]+)?\Z"
_BIG_DECIMAL = r"[+-]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][+-]?[0-9]+)?\Z"
# A BigDecimal written out in full must stay within Python's default limit on the digits of
# an int (sys.int_info.default_max_str_digits): beyond it int() and format(d, "f") of a value
# such as 1e999999999 would run for hours, and no marketplace quantity comes near it.
_DECIMAL_DIGITS = 4300
_INT64 = 2**63


def _integer(text: str) -> int:
    if re.match(_INTEGER, text) is None:
        raise ValueError(f"not an integer: {text[:40]!r}")
    return int(text)


def _int64(text: str) -> int:
    # `~i` is a 64-bit integer; transit-js silently wraps a larger one.
    value = _integer(text)
    if not -_INT64 <= value < _INT64:
        raise ValueError(f"~i out of the 64-bit range: {text[:40]!r}")
    return value


def _float(text: str) -> float:
    if re.match(_FLOAT, text) is None:
        raise ValueError(f"not a number: {text[:40]!r}")
    return float(text)


def _big_decimal(text: str) -> decimal.Decimal:
    if re.match(_BIG_DECIMAL, text) is None:
        raise ValueError(f"not a decimal number: {text[:40]!r}")
    value = decimal.Decimal(text)
    exponent = value.as_tuple().exponent
    assert isinstance(exponent, int)  # finite, as the pattern above admits only those
    if value.adjusted() >= _DECIMAL_DIGITS or exponent < -_DECIMAL_DIGITS:
        raise ValueError(f"decimal number out of range: {text[:40]!r}")
    return value


def _special(text: str) -> float:
    return {"NaN": float("nan"), "INF": float("inf"), "-INF": float("-inf")}[text]


def _boolean(text: str) -> bool:
    return {"t": True, "f": False}[text]


def _null(text: str) -> None:
    if text:
        raise ValueError(f"~_ with a value: {text[:40]!r}")


def _time(text: str) -> dt.datetime:
    value = dt.datetime.fromisoformat(text)
    if value.utcoffset() is None:
        raise ValueError(f"time without a timezone: {text[:40]!r}")
    return value.astimezone(dt.UTC)


def _millis(text: str) -> dt.datetime:
    return _EPOCH + dt.timedelta(milliseconds=_integer(text))


_BASE64_SPACE = str.maketrans("", "", " \t\n\f\r")
_BASE64 = r"[A-Za-z0-9+/]*\Z"


def _binary(text: str) -> bytes:
    """Base64 read as transit-js reads it (the "forgiving" decoding of browsers' `atob`):
    ASCII whitespace is skipped and padding may be left out, but any other character, or a
    length that no bytes can have, is an error."""
    data = text.translate(_BASE64_SPACE)
    if len(data) % 4 == 0 and data.endswith("="):
        data = data[:-2] if data.endswith("==") else data[:-1]
    if len(data) % 4 == 1 or re.match(_BASE64, data) is None:
        raise ValueError(f"invalid base64: {text[:40]!r}")
    return base64.b64decode(data + "=" * (-len(data) % 4))


# The scalar codes after "~". Any other code is an error: the spec reserves one-character
# codes for itself, and an unknown one is more likely a string its writer failed to escape
# than anything to keep (transit-js makes a TaggedValue of it).
_SCALARS: dict[str, Any] = {
    ":": str,  # keyword
    "$": str,  # symbol
    "u": fast_uuid,
    "m": _millis,
    "t": _time,
    "f": _big_decimal,
    "n": _integer,
    "i": _int64,
    "d": _float,
    "?": _boolean,
    "_": _null,
    "z": _special,
    "c": str,
    "r": str,
    "b": _binary,
    "#": _Tag,
}


def _cmap(rep: Any) -> dict[Any, Any]:
    if type(rep) is not JSON_ARRAY or len(rep) % 2:
        raise ValueError("~#cmap needs a list of keys and values, two by two")
    return {_hashable(rep[i]): rep[i + 1] for i in range(0, len(rep), 2)}


def _halves(rep: Any) -> uuid.UUID:
    # A UUID as two signed 64-bit halves, as Transit writes one that has no string form.
    if len(rep) != 2 or type(rep[0]) is not int or type(rep[1]) is not int:
        raise ValueError("~#u needs a list of two integers")
    high, low = rep
    return uuid.UUID(int=((high & (2**64 - 1)) << 64) | (low & (2**64 - 1)))


def _scalar_tag(tag: str, rep: Any) -> Any:
    """`["~#u", rep]` and the like: a scalar code used as a tag."""
    if tag == "u" and type(rep) is list:
        return _halves(rep)
    if tag == "m" and type(rep) is int:
        return _EPOCH + dt.timedelta(milliseconds=rep)
    parse = _SCALARS.get(tag)
    if parse is None or tag == "#" or type(rep) is not str:
        raise ValueError(f"~#{tag} with a value it cannot have")
    return parse(rep)


def _composite(tag: str, rep: Any) -> Any:
    if tag == "mn" or tag == "geo":
        if type(rep) is not JSON_ARRAY or len(rep) != 2:
            raise ValueError(f"~#{tag} needs a list of two values")
        return (money_from if tag == "mn" else latlng_from)(rep[0], rep[1])
    if tag == "set" or tag == "list":
        if type(rep) is not JSON_ARRAY:
            raise ValueError(f"~#{tag} needs a list")
        return rep
    if tag == "'":
        return rep
    if tag == "cmap":
        return _cmap(rep)
    if len(tag) == 1:
        return _scalar_tag(tag, rep)
    return TaggedValue(tag, rep)


def _hashable(key: Any) -> Any:
    # The ignores: isinstance narrows an `Any` to a list (dict) of Unknown items, and this
    # path spends no call to tell the checkers more.
    if isinstance(key, list):
        return tuple(_hashable(k) for k in key)  # pyright: ignore[reportUnknownVariableType]
    if isinstance(key, dict):
        return tuple(sorted((str(k), _hashable(v)) for k, v in key.items()))  # pyright: ignore[reportUnknownVariableType, reportUnknownArgumentType]
    return key


# First characters of the strings that mean something in Transit: escapes, tags, cache codes.
_MARKED: Final = frozenset(("~", "^"))


class _Walk:
    """One walk over the parsed JSON, undoing Transit's encoding, with its rolling cache.

    This is the hot path of every Transit response, written for two builds of one source:
    run as it is, and compiled by mypyc for the wheels that carry a compiled build
    (docs/performance.md). Hence the exact-type tests (`type(v) is str`, which mypyc turns
    into a pointer comparison and the interpreter runs faster than `isinstance`), a class
    rather than closures (whose calls mypyc cannot make directly), and scalars handled in
    the loops rather than by a call each.

    Compiled code does not count its calls against the interpreter's recursion limit, and
    runs out of C stack instead (a crash): so each call of `array` and `verbose` takes the
    `room` left, counted down from MAX_DEPTH or from what the interpreter allows, if less,
    and the walk refuses a body nested deeper than that in either build alike
    (RecursionError, which `loads` reports as invalid Transit).
    """

    def __init__(self) -> None:
        # The rolling cache, by code ("^0" -> its value): one dict lookup a cached key.
        self.cache: dict[object, object] = {}
        # Scalars read outside the cache's reach (ids, times, numbers: immutable values), by
        # their text. The same id comes back in every reference to a resource: parsed once.
        self.parsed: dict[str, object] = {}
        self.filled = 0

    def remember(self, value: object) -> None:
        # Past the last code the writer starts again at "^0"; so does the reader, replacing
        # entries one by one as transit-js does (a writer never refers to the old ones).
        if self.filled == CACHE_SIZE:
            self.filled = 0
        self.cache[CACHE_CODES[self.filled]] = value
        self.filled += 1

    def string(self, text: str, as_key: bool, head: bool = False) -> object:
        """A string that is a key, or a value starting with "~" or "^"; only a `head` (the
        first of two items, or the one key of a verbose map) may be a tag."""
        first = text[:1]
        # transit-js asks "cacheable?" before "cache code?": a key such as "^abcd" (which a
        # writer would have escaped) is that string.
        if first == "^" and not (as_key and long_enough(text)):
            if text == "^ ":
                return text
            found = self.cache[text]
            if type(found) is _Tag and not head:
                raise ValueError(f"a tag (~#{found.name}) outside a tagged value")
            return found
        if first != "~":
            if as_key and (len(text) > 3 or (not text.isascii() and long_enough(text))):
                self.remember(text)
            return text
        kind = text[1:2]
        value: object
        if kind == "~" or kind == "^" or kind == "`":
            value = text[1:]
        else:
            parse = _SCALARS.get(kind)
            if parse is None:
                raise ValueError(f"unknown Transit code {text[:2]!r}")
            value = parse(text[2:])
            if kind == "#":
                if long_enough(text):  # a tag is read in full once, then by its code
                    self.remember(value)
                if not head:
                    raise ValueError(f"a tag ({text[:40]}) outside a tagged value")
                return value
        if (as_key or kind == ":" or kind == "$") and (
            len(text) > 3 or (not text.isascii() and long_enough(text))
        ):
            self.remember(value)
        elif not as_key:
            self.parsed[text] = value
        return value

    def key(self, node: object) -> object:
        # A JSON object's keys are strings; a compact map's key that is a list or a map has
        # already failed the cache lookup (unhashable): what else comes here is a number, a
        # boolean or null, its own key.
        return self.string(node, True) if type(node) is str else node

    def convert(self, node: object, as_key: bool, room: int) -> object:
        if type(node) is str:
            if as_key or node[:1] in _MARKED:
                return self.string(node, as_key)
            return node  # most strings: nothing to undo
        if type(node) is JSON_ARRAY:
            return self.array(node, False, room - 1)
        if type(node) is JSON_OBJECT:
            return self.verbose(node, room - 1)
        return node

    def verbose(self, node: dict[str, object], room: int) -> object:
        """A map in the verbose form, or a tagged value written as a map of one key."""
        if room <= 0:
            raise RecursionError("the walk ran out of room")
        marked = _MARKED
        if len(node) == 1:
            ((k, v),) = node.items()
            # transit-js reads the one key as a possible tag, then (not a tag) again as a
            # key: a keyword key is cached twice. Verbose writers use no cache codes, so this
            # matters only to match transit-js on bodies mixing both forms.
            tag = self.string(k, False, True) if k[:1] in marked else None
            if type(tag) is _Tag:
                # A tag's value is read as it stands: a list there is a list, even when its
                # first item looks like a tag (transit-js reads it so). Here and in `array`,
                # not in a method of its own: each level must stay one frame of the pure
                # build, as `room` counts them.
                if type(v) is JSON_ARRAY:
                    v = self.array(v, True, room - 1)
                elif type(v) is JSON_OBJECT:
                    v = self.verbose(v, room - 1)
                elif type(v) is str and v[:1] in marked:
                    v = self.string(v, False)
                return _composite(tag.name, v)
        out: dict[object, object] = {}
        parsed = self.parsed
        for k, v in node.items():
            # The loop repeats `convert` rather than call it a value: most values are plain.
            key = self.key(k)
            if type(v) is str:
                if v[:1] in marked:
                    v = parsed.get(v) or self.string(v, False)
            elif type(v) is JSON_ARRAY:
                v = self.array(v, False, room - 1)
            elif type(v) is JSON_OBJECT:
                v = self.verbose(v, room - 1)
            out[key] = v
        return out

    def array(self, node: list[object], rep: bool, room: int) -> object:
        """A JSON array: a map `["^ ", k, v, ...]`, a tagged value `[tag, rep]` (unless it
        is itself a tag's value, `rep`), or a list, converted in place: the parser made it
        for this walk alone."""
        if room <= 0:
            raise RecursionError("the walk ran out of room")
        if not node:
            return node
        marked = _MARKED
        parsed = self.parsed
        head = node[0]
        if head == "^ ":
            cache = self.cache
            out: dict[object, object] = {}
            # Keys first, in order: the cache is filled in reading order. Almost every key of
            # an API body is a cache code after its first use: one dict lookup.
            n = len(node)
            i = 1
            while i < n:
                k = node[i]
                v = node[i + 1]  # IndexError for a key without value: not Transit
                i += 2
                # A cache code, else a key read for the first time. A composite key raises
                # TypeError here: the spec writes maps with such keys as `cmap`, so this is
                # not Transit; so does a cached tag.
                key = cache.get(k)
                if key is None:
                    key = self.key(k)
                if type(v) is str:
                    if v[:1] in marked:
                        v = parsed.get(v) or self.string(v, False)
                elif type(v) is JSON_ARRAY:
                    v = self.array(v, False, room - 1)
                elif type(v) is JSON_OBJECT:
                    v = self.verbose(v, room - 1)
                out[key] = v
            return out
        start = 0
        if not rep and len(node) == 2 and type(head) is str and head[:1] in marked:
            tag = self.string(head, False, True)
            if type(tag) is _Tag:
                v = node[1]  # read as a verbose tag's value is (there, why twice)
                if type(v) is JSON_ARRAY:
                    v = self.array(v, True, room - 1)
                elif type(v) is JSON_OBJECT:
                    v = self.verbose(v, room - 1)
                elif type(v) is str and v[:1] in marked:
                    v = self.string(v, False)
                return _composite(tag.name, v)
            node[0] = tag
            start = 1
        for i in range(start, len(node)):
            v = node[i]
            if type(v) is str:
                if v[:1] in marked:
                    node[i] = parsed.get(v) or self.string(v, False)
            elif type(v) is JSON_ARRAY:
                node[i] = self.array(v, False, room - 1)
            elif type(v) is JSON_OBJECT:
                node[i] = self.verbose(v, room - 1)
        return node


MAX_DEPTH: Final = 512
"""The most arrays and objects a Transit body may nest, one inside the next: far more than any
API body, and what the compiled walk can take in a thread's smallest C stack (128 KiB, musl's
default: about 160 bytes a level), where a deeper walk would crash. Deeper is invalid Transit."""

# The reader's own frames above the walk's, `loads` and `_read`: taken from the room in both
# builds, as the pure one has them on the interpreter's stack (the compiled one has none).
_READER_FRAMES = 2


def _read(doc: object) -> Any:
    """The walk over a parsed document: with room for MAX_DEPTH levels, or as many as the
    interpreter has left below the reader, less the frames kept free for what may run
    meanwhile (finalizers the collector calls), if fewer; the same in both builds."""
    below = stack_depth(outside=__name__)
    left = sys.getrecursionlimit() - below - _READER_FRAMES - SPARE_FRAMES
    return _Walk().convert(doc, False, min(left, MAX_DEPTH + 1))


def _parse(text: str | bytes) -> Any:
    # pydantic-core's parser, which hands back one object for each repeated short string
    # (cache codes, keywords, ids): the walk's lookups of them are faster. It reads a little
    # less than json.loads (lone surrogate escapes, nesting past 200): those go to json.loads.
    try:
        return from_json(text, cache_strings=True)
    except ValueError:
        return read_json(text)


def loads(text: str | bytes) -> Any:
    """Transit JSON -> plain Python values; raises ValueError (or a subclass) if invalid."""
    try:
        return _read(_parse(text))
    except RecursionError as exc:
        raise ValueError("invalid transit: nested too deeply to read") from exc
    except (IndexError, KeyError, TypeError, ArithmeticError, StopIteration) as exc:
        raise ValueError(f"invalid transit: {type(exc).__name__}: {exc}") from exc
