"""Request and response bodies in the two wire formats, Transit and JSON.

Encoding walks the caller's parameters once, checking every value and naming the first one
that cannot be written (`ParameterError`), so that nothing is sent; transit-python writes
Transit. Decoding (Transit by `flexclient._transit`) turns either format into the same plain
Python values: dicts with string keys, lists, `uuid.UUID`, `Money`,
`LatLng`, `decimal.Decimal` and timezone-aware `datetime`; the models are built from those.
"""

from __future__ import annotations

import datetime as dt
import decimal
import io
import json
import math
import uuid
from collections.abc import Callable, Mapping
from typing import Final, Literal

from transit.transit_types import Keyword, TaggedValue
from transit.writer import JsonMarshaler

from flexclient._errors import ParameterError
from flexclient._transit import loads as transit_loads
from flexclient._types import LatLng, LatLngBounds, Money

WireFormatName = Literal["transit", "json"]


class WireDecodeError(ValueError):
    """A body that is not valid in its format; the transport turns it into an `ApiError`."""


def iso_millis(value: dt.datetime) -> str:
    """A timezone-aware datetime as the API writes it: UTC, milliseconds, `Z`.

    >>> iso_millis(dt.datetime(2018, 7, 1, tzinfo=dt.timezone.utc))
    '2018-07-01T00:00:00.000Z'
    """
    utc = value.astimezone(dt.UTC)
    return utc.strftime("%Y-%m-%dT%H:%M:%S.") + f"{utc.microsecond // 1000:03d}Z"


def check_aware(value: dt.datetime, path: str) -> None:
    if value.tzinfo is None or value.utcoffset() is None:
        raise ParameterError(
            path, "naive datetime; give it a timezone, e.g. datetime(..., tzinfo=timezone.utc)"
        )


def check_finite(value: float | decimal.Decimal, path: str) -> None:
    finite = value.is_finite() if isinstance(value, decimal.Decimal) else math.isfinite(value)
    if not finite:
        raise ParameterError(path, f"{value!r} cannot be written (not a finite number)")


# --- encoding -------------------------------------------------------------------------------

Leaf = Callable[[object, str], object]


def _walk(value: object, path: str, leaf: Leaf, key: Callable[[str], object]) -> object:
    # bool before int: bool is an int subclass, and both pass through unchanged anyway.
    if value is None or isinstance(value, str | bool | int):
        return value
    if isinstance(value, float):
        check_finite(value, path)
        return value
    if isinstance(value, Mapping):
        out: dict[object, object] = {}
        for k, v in value.items():
            if not isinstance(k, str):
                raise ParameterError(path, f"map key {k!r} is not a string")
            out[key(k)] = _walk(v, f"{path}.{k}" if path else k, leaf, key)
        return out
    if isinstance(value, list | tuple):
        return [_walk(v, f"{path}[{i}]", leaf, key) for i, v in enumerate(value)]
    return leaf(value, path)


def _unsupported(value: object, path: str) -> ParameterError:
    if isinstance(value, LatLngBounds):
        return ParameterError(path, "LatLngBounds can only be used in query parameters")
    if isinstance(value, dt.date) and not isinstance(value, dt.datetime):
        return ParameterError(path, "a date is not accepted; give a timezone-aware datetime")
    return ParameterError(path, f"cannot write a value of type {type(value).__name__}")


def _transit_leaf(value: object, path: str) -> object:
    if isinstance(value, Keyword):  # written as the keyword it is (the fake's resource types)
        return value
    if isinstance(value, decimal.Decimal):
        check_finite(value, path)
        return value
    if isinstance(value, uuid.UUID):
        return value
    if isinstance(value, Money):
        return TaggedValue("mn", [value.amount, value.currency])
    if isinstance(value, LatLng):
        return TaggedValue("geo", [value.lat, value.lng])
    if isinstance(value, dt.datetime):
        check_aware(value, path)
        return value
    raise _unsupported(value, path)


def _json_leaf(value: object, path: str) -> object:
    if isinstance(value, Keyword):  # JSON has no keywords: the name, as the API writes them
        return value.str
    if isinstance(value, uuid.UUID):
        return str(value)
    if isinstance(value, decimal.Decimal):
        check_finite(value, path)
        # A string keeps every digit; a JSON number would pass through a float.
        return str(value)
    if isinstance(value, Money):
        return {"amount": value.amount, "currency": value.currency}
    if isinstance(value, LatLng):
        return {"lat": value.lat, "lng": value.lng}
    if isinstance(value, dt.datetime):
        check_aware(value, path)
        return iso_millis(value)
    raise _unsupported(value, path)


def _keyword(name: str) -> Keyword:
    return Keyword(name)


def _same(name: str) -> str:
    return name


# --- decoding -------------------------------------------------------------------------------


class WireFormat:
    """One wire format: its content type and its body encoder and decoder."""

    def __init__(
        self,
        name: WireFormatName,
        content_type: str,
        leaf: Leaf,
        key: Callable[[str], object],
    ) -> None:
        self.name: Final = name
        self.content_type: Final = content_type
        self._leaf = leaf
        self._key = key

    def __repr__(self) -> str:
        return f"WireFormat({self.name!r})"

    def to_wire(self, params: Mapping[str, object]) -> object:
        """Check and convert parameters to what the serializer takes; raises `ParameterError`."""
        return _walk(params, "", self._leaf, self._key)

    def encode(self, params: Mapping[str, object]) -> bytes:
        wire = self.to_wire(params)
        if self.name == "json":
            return json.dumps(wire, ensure_ascii=False, separators=(",", ":")).encode()
        out = io.StringIO()
        # transit-python's pure-Python marshaler, not `Writer`: the native writer decides what
        # to cache by UTF-8 length, so a short non-ASCII key ("~:é") would be sent as a cache
        # code that spec-following readers (the API, the official SDKs) do not expect.
        JsonMarshaler(out, {"cache_enabled": True}).marshal_top(wire)
        return out.getvalue().encode()

    def decode(self, raw: bytes) -> object:
        """A response body -> plain Python values; raises `WireDecodeError`."""
        try:
            text = raw.decode("utf-8")
            if self.name == "json":
                return json.loads(text)
            return transit_loads(text)
        except WireDecodeError:
            raise
        except Exception as exc:  # the decoders raise many kinds; all mean "not readable"
            raise WireDecodeError(f"invalid {self.name} body: {exc}") from exc


TRANSIT: Final = WireFormat("transit", "application/transit+json", _transit_leaf, _keyword)
JSON: Final = WireFormat("json", "application/json", _json_leaf, _same)
FORMATS: Final[dict[str, WireFormat]] = {"transit": TRANSIT, "json": JSON}


def format_for_content_type(content_type: str) -> WireFormat | None:
    """The format a response's Content-Type names, or None (plain text, HTML, ...)."""
    media = content_type.split(";", 1)[0].strip().lower()
    if media == "application/transit+json":
        return TRANSIT
    if media == "application/json" or media.endswith("+json"):
        return JSON
    return None
