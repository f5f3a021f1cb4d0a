"""Request and response bodies in the two wire formats, Transit and JSON.

Encoding walks the caller's parameters once, checking every value and naming the first one
that cannot be written (`ParameterError`), so that nothing is sent: a type the API has no
form for, a number that is not finite or does not fit 64 bits, text UTF-8 cannot carry, a
body nested deeper than `MAX_DEPTH` or containing itself. `flexclient._transit_writer` then
writes Transit. Decoding (Transit by `flexclient._transit`) turns either format into the
same plain Python values: dicts with string keys, lists, `uuid.UUID`, `Money`, `LatLng`,
`decimal.Decimal` and timezone-aware `datetime`; the models are built from those.
"""

from __future__ import annotations

import datetime as dt
import decimal
import json
import math
import uuid
from collections.abc import Callable, Mapping
from typing import Final, Literal, TypeAlias

from transit.transit_types import Keyword, TaggedValue

from flexclient._errors import ParameterError
from flexclient._transit import loads as transit_loads
from flexclient._transit_writer import dumps as transit_dumps
from flexclient._types import LatLng, LatLngBounds, Money

WireFormatName = Literal["transit", "json"]

# How deep parameters may nest. Well below Python's recursion limit (1,000 frames unless the
# program changed it), which the check here, the Transit writer and json's encoder each
# reach in turn from wherever the caller already stands; the API's bodies nest a few levels,
# extended data rarely more than a handful.
MAX_DEPTH: Final = 100
# The API reads integers as 64-bit longs (it runs on the JVM); a wider one has nowhere to go,
# and the official SDKs cannot send one (JavaScript numbers stop at 2**53). Refusing it here
# also keeps numbers too long for str() (10**5000) from reaching the writers.
INT64_MIN: Final = -(2**63)
INT64_MAX: Final = 2**63 - 1


class WireDecodeError(ValueError):
    """A body that is not valid in its format; the transport turns it into an `ApiError`."""


def iso_millis(value: dt.datetime) -> str:
    """A timezone-aware datetime as the API writes it: UTC, milliseconds, `Z`.

    >>> iso_millis(dt.datetime(2018, 7, 1, tzinfo=dt.timezone.utc))
    '2018-07-01T00:00:00.000Z'
    """
    utc = value.astimezone(dt.UTC)
    return utc.strftime("%Y-%m-%dT%H:%M:%S.") + f"{utc.microsecond // 1000:03d}Z"


class _Unwritable(Exception):
    """What is wrong with one value; the walk that found it adds where it is."""


def _check_time(value: dt.datetime) -> None:
    if value.tzinfo is None or value.utcoffset() is None:
        raise _Unwritable(
            "naive datetime; give it a timezone, e.g. datetime(..., tzinfo=timezone.utc)"
        )
    try:
        value.astimezone(dt.UTC)
    except OverflowError:
        raise _Unwritable(f"{value.isoformat()} is out of range once in UTC") from None


def _check_number(value: float | decimal.Decimal) -> None:
    finite = value.is_finite() if isinstance(value, decimal.Decimal) else math.isfinite(value)
    if not finite:
        raise _Unwritable(f"{value!r} cannot be written (not a finite number)")


def _check_int(value: int) -> None:
    if not INT64_MIN <= value <= INT64_MAX:
        # Not the number itself in the message: str() refuses one past 4,300 digits.
        raise _Unwritable(
            "integer out of the 64-bit range the API reads (-2**63 to 2**63 - 1); "
            "a Decimal or a string carries a wider number"
        )


def _check_text(value: str) -> None:
    if not value.isascii():
        try:
            value.encode("utf-8")
        except UnicodeEncodeError as exc:
            raise _Unwritable(f"text cannot be encoded as UTF-8: {exc.reason}") from None


def _checked(check: Callable[[], None], path: str) -> None:
    try:
        check()
    except _Unwritable as exc:
        raise ParameterError(path, str(exc)) from None


def check_aware(value: dt.datetime, path: str) -> None:
    """Raise `ParameterError` for a datetime that cannot be sent: naive, or out of range."""
    _checked(lambda: _check_time(value), path)


def check_finite(value: float | decimal.Decimal, path: str) -> None:
    """Raise `ParameterError` for an infinite or NaN number."""
    _checked(lambda: _check_number(value), path)


def check_int(value: int, path: str) -> None:
    """Raise `ParameterError` for an integer outside the 64-bit range the API reads."""
    _checked(lambda: _check_int(value), path)


def check_text(value: str, path: str) -> None:
    """Raise `ParameterError` for text UTF-8 cannot carry (a lone surrogate)."""
    _checked(lambda: _check_text(value), path)


# --- encoding -------------------------------------------------------------------------------

# Where a value is: (where its container is, its key or index), None at the top. Kept as
# links and written out only for an error, so that the walk builds no strings.
Path: TypeAlias = "tuple[Path, str | int] | None"
Leaf = Callable[[object], object]


def path_text(path: Path) -> str:
    """A path as errors name it: `publicData.sizes[1]`."""
    steps: list[str | int] = []
    while path is not None:
        path, step = path
        steps.append(step)
    text = ""
    for step in reversed(steps):
        if isinstance(step, int):
            text += f"[{step}]"
        else:
            text = f"{text}.{step}" if text else step
    return text


class _Walk:
    """One check-and-convert pass over parameters; knows the containers it is inside."""

    def __init__(self, leaf: Leaf) -> None:
        self.leaf = leaf
        self.open: set[int] = set()  # id() of the containers on the way down

    def value(self, value: object, path: Path, depth: int) -> object:
        try:
            # bool before int: bool is an int subclass, and passes through unchanged.
            if value is None or isinstance(value, bool):
                return value
            if isinstance(value, str):
                _check_text(value)
                return value
            if isinstance(value, int):
                _check_int(value)
                return value
            if isinstance(value, float):
                _check_number(value)
                return value
            if isinstance(value, Mapping | list | tuple):
                return self.container(value, path, depth)
            return self.leaf(value)
        except _Unwritable as exc:
            raise ParameterError(path_text(path), str(exc)) from None

    def container(self, value: object, path: Path, depth: int) -> object:
        if depth >= MAX_DEPTH:
            raise _Unwritable(f"nested more than {MAX_DEPTH} levels deep")
        marker = id(value)
        if marker in self.open:
            raise _Unwritable("contains itself")
        self.open.add(marker)
        try:
            if isinstance(value, Mapping):
                return self.mapping(value, path, depth + 1)
            assert isinstance(value, list | tuple)
            return [self.value(v, (path, i), depth + 1) for i, v in enumerate(value)]
        finally:
            self.open.discard(marker)

    def mapping(self, value: Mapping[object, object], path: Path, depth: int) -> object:
        out: dict[str, object] = {}
        for k, v in value.items():
            if not isinstance(k, str):
                raise _Unwritable(f"a map key of type {type(k).__name__} is not a string")
            where = (path, k)
            try:
                _check_text(k)
            except _Unwritable as exc:
                raise ParameterError(path_text(where), f"key: {exc}") from None
            out[k] = self.value(v, where, depth)
        return out


def _unsupported(value: object) -> _Unwritable:
    if isinstance(value, LatLngBounds):
        return _Unwritable("LatLngBounds can only be used in query parameters")
    if isinstance(value, dt.date) and not isinstance(value, dt.datetime):
        return _Unwritable("a date is not accepted; give a timezone-aware datetime")
    return _Unwritable(f"cannot write a value of type {type(value).__name__}")


def _check_leaf(value: object) -> None:
    """The checks both formats make of the API's value types."""
    if isinstance(value, Keyword):
        _check_text(value.str)
    elif isinstance(value, decimal.Decimal):
        _check_number(value)
    elif isinstance(value, Money):
        _check_int(value.amount)
        _check_text(value.currency)
    elif isinstance(value, LatLng):
        _check_number(value.lat)
        _check_number(value.lng)
    elif isinstance(value, dt.datetime):
        _check_time(value)
    elif not isinstance(value, uuid.UUID):
        raise _unsupported(value)


def _transit_leaf(value: object) -> object:
    # The Transit writer writes each of these types itself (a Keyword as the keyword it is:
    # the fake's resource types).
    _check_leaf(value)
    return value


def _json_leaf(value: object) -> object:
    _check_leaf(value)
    if isinstance(value, Keyword):  # JSON has no keywords: the name, as the API writes them
        return value.str
    if isinstance(value, uuid.UUID):
        return str(value)
    if isinstance(value, decimal.Decimal):
        # A string keeps every digit; a JSON number would pass through a float.
        return str(value)
    if isinstance(value, Money):
        return {"amount": value.amount, "currency": value.currency}
    if isinstance(value, LatLng):
        return {"lat": value.lat, "lng": value.lng}
    assert isinstance(value, dt.datetime)
    return iso_millis(value)


# --- decoding -------------------------------------------------------------------------------


def _check_resources(body: object) -> None:
    """Refuse an unknown Transit tag where a resource belongs (`data`, an item of `data` or
    `included`). transit-js keeps one there as an opaque tagged value, which no code using
    the SDK could take for a resource; elsewhere (an attribute) such a value is kept, as the
    official SDK keeps it."""
    if type(body) is not dict:
        return
    data = body.get("data")
    included = body.get("included")
    places = [("data", data)]
    if type(data) is list:
        places = [(f"data[{i}]", item) for i, item in enumerate(data)]
    if type(included) is list:
        places += [(f"included[{i}]", item) for i, item in enumerate(included)]
    for where, item in places:
        if isinstance(item, TaggedValue):
            raise WireDecodeError(f"invalid transit body: a ~#{item.tag} value in {where}")


class WireFormat:
    """One wire format: its content type and its body encoder and decoder."""

    def __init__(
        self,
        name: WireFormatName,
        content_type: str,
        leaf: Leaf,
    ) -> None:
        self.name: Final = name
        self.content_type: Final = content_type
        self._leaf = leaf

    def __repr__(self) -> str:
        return f"WireFormat({self.name!r})"

    def to_wire(self, params: Mapping[str, object]) -> object:
        """Check and convert parameters to what the serializer takes; raises `ParameterError`."""
        return _Walk(self._leaf).value(params, None, 0)

    def encode(self, params: Mapping[str, object]) -> bytes:
        """Parameters as a request body; raises `ParameterError` before anything is sent."""
        wire = self.to_wire(params)
        if self.name == "json":
            return json.dumps(wire, ensure_ascii=False, separators=(",", ":")).encode()
        return transit_dumps(wire).encode()

    def decode(self, raw: bytes) -> object:
        """A response body -> plain Python values; raises `WireDecodeError`."""
        try:
            text = raw.decode("utf-8")
            if self.name == "json":
                return json.loads(text)
            body = transit_loads(text)
            _check_resources(body)
            return body
        except WireDecodeError:
            raise
        except Exception as exc:  # the decoders raise many kinds; all mean "not readable"
            raise WireDecodeError(f"invalid {self.name} body: {exc}") from exc


TRANSIT: Final = WireFormat("transit", "application/transit+json", _transit_leaf)
JSON: Final = WireFormat("json", "application/json", _json_leaf)
FORMATS: Final[dict[str, WireFormat]] = {"transit": TRANSIT, "json": JSON}


def format_for_content_type(content_type: str) -> WireFormat | None:
    """The format a response's Content-Type names, or None (plain text, HTML, ...)."""
    media = content_type.split(";", 1)[0].strip().lower()
    if media == "application/transit+json":
        return TRANSIT
    if media == "application/json" or media.endswith("+json"):
        return JSON
    return None
