"""The API's value types and what each becomes: text, JSON, Transit, and what people read.

One place for every conversion of `Money`, `LatLng`, `LatLngBounds`, `datetime`, `Decimal`
and `UUID` (and the numbers and text around them), so that query strings, request bodies,
multipart forms, the command line and notebook tables never disagree:

- `UUID`: its string everywhere; `~u...` in Transit.
- `datetime` (aware): `2018-07-01T00:00:00.000Z` (UTC, milliseconds) as text, in JSON and for
  display; `~m<epoch ms>` in Transit. Naive ones are refused.
- `Decimal`: its digits as text and as a JSON *string* (a JSON number would pass through a
  float); `~f...` in Transit.
- `Money(5000, "EUR")`: `{"amount": 5000, "currency": "EUR"}` in JSON, tag `mn` in Transit,
  `50.00 EUR` for display (major units by ISO 4217); no text form (a query takes the amount).
- `LatLng`: `60.16,24.93` as text, `{"lat", "lng"}` in JSON, tag `geo` in Transit,
  `60.16, 24.93` for display. `LatLngBounds`: four numbers as text (queries only).
- `float`: as JavaScript writes it (`5.0` is `5`, `1e21` is `1e+21`) as text and for display.

Each check names what is wrong (`Unwritable`); the caller adds where (`ParameterError`).
"""

from __future__ import annotations

import datetime as dt
import decimal
import json
import math
import uuid
from collections.abc import Callable
from typing import Any, Final, TypeVar

from pydantic import TypeAdapter
from transit.transit_types import Keyword

from flexclient._errors import ParameterError
from flexclient._support.compat import UuidSetters, uuid_slot_setters
from flexclient._support.narrow import is_array, is_dict
from flexclient._wire.value_types import LatLng, LatLngBounds, Money

_T = TypeVar("_T")

# The API reads integers as 64-bit longs (it runs on the JVM); a wider one has nowhere to go,
# and the official SDKs cannot send one (JavaScript numbers stop at 2**53). Refusing it here
# also keeps numbers too long for str() (10**5000) from reaching the writers.
INT64_MIN: Final = -(2**63)
INT64_MAX: Final = 2**63 - 1


class Unwritable(Exception):
    """What is wrong with one value; the code that found it adds where it is."""


# --- checks ---------------------------------------------------------------------------------


def check_time_value(value: dt.datetime) -> None:
    if value.tzinfo is None or value.utcoffset() is None:
        raise Unwritable(
            "naive datetime; give it a timezone, e.g. datetime(..., tzinfo=timezone.utc)"
        )
    try:
        value.astimezone(dt.UTC)
    except OverflowError:
        raise Unwritable(f"{value.isoformat()} is out of range once in UTC") from None


def check_number_value(value: float | decimal.Decimal) -> None:
    finite = value.is_finite() if isinstance(value, decimal.Decimal) else math.isfinite(value)
    if not finite:
        raise Unwritable(f"{value!r} cannot be written (not a finite number)")


def check_int_value(value: int) -> None:
    if not INT64_MIN <= value <= INT64_MAX:
        # Not the number itself in the message: str() refuses one past 4,300 digits.
        raise Unwritable(
            "integer out of the 64-bit range the API reads (-2**63 to 2**63 - 1); "
            "a Decimal or a string carries a wider number"
        )


def check_text_value(value: str) -> None:
    if value.isascii():
        return
    try:
        value.encode("utf-8")
    except UnicodeEncodeError as exc:
        reason = exc.reason
    else:
        return
    # Raised outside the `except`: the UnicodeEncodeError holds the whole text (a secret,
    # perhaps) and is not to travel along as this error's context.
    raise Unwritable(f"text cannot be encoded as UTF-8: {reason}")


def check_text(value: str, path: str) -> None:
    """Raise `ParameterError` for text UTF-8 cannot carry (a lone surrogate); the error
    holds neither the text nor an exception that does."""
    try:
        check_text_value(value)
    except Unwritable as exc:
        problem = str(exc)
    else:
        return
    raise ParameterError(path, problem)


def check_value(value: object) -> None:
    """The checks every format makes of the API's value types (not of str, int, float,
    which the walks over parameters check themselves)."""
    if isinstance(value, Keyword):
        check_text_value(value.str)
    elif isinstance(value, decimal.Decimal):
        check_number_value(value)
    elif isinstance(value, Money):
        check_int_value(value.amount)
        check_text_value(value.currency)
    elif isinstance(value, LatLng):
        check_number_value(value.lat)
        check_number_value(value.lng)
    elif isinstance(value, dt.datetime):
        check_time_value(value)
    elif not isinstance(value, uuid.UUID):
        raise _unsupported(value)


def _unsupported(value: object) -> Unwritable:
    if isinstance(value, LatLngBounds):
        return Unwritable("LatLngBounds can only be used in query parameters")
    if isinstance(value, dt.date) and not isinstance(value, dt.datetime):
        return Unwritable("a date is not accepted; give a timezone-aware datetime")
    return Unwritable(f"cannot write a value of type {type(value).__name__}")


# --- text -----------------------------------------------------------------------------------


def iso_millis(value: dt.datetime) -> str:
    """A timezone-aware datetime as the API writes it: UTC, milliseconds, `Z`.

    >>> iso_millis(dt.datetime(2018, 7, 1, tzinfo=dt.timezone.utc))
    '2018-07-01T00:00:00.000Z'
    """
    utc = value.astimezone(dt.UTC)
    return utc.strftime("%Y-%m-%dT%H:%M:%S.") + f"{utc.microsecond // 1000:03d}Z"


def js_number(value: float) -> str:
    """A float written as JavaScript's `Number.prototype.toString` writes it.

    >>> js_number(5.0), js_number(0.1), js_number(1e21), js_number(1e-7), js_number(-0.0)
    ('5', '0.1', '1e+21', '1e-7', '0')
    """
    if value == 0:
        return "0"
    sign, digit_tuple, exponent = decimal.Decimal(repr(value)).as_tuple()
    assert isinstance(exponent, int)
    digits = "".join(map(str, digit_tuple)).rstrip("0")  # not empty: the value is not 0
    # value = 0.<digits> * 10**n
    n = len(digit_tuple) + exponent
    k = len(digits)
    if not -6 < n <= 21:
        mantissa = digits[0] + ("." + digits[1:] if k > 1 else "")
        text = f"{mantissa}e{n - 1:+d}"
    elif k <= n:
        text = digits + "0" * (n - k)
    elif n > 0:
        text = digits[:n] + "." + digits[n:]
    else:
        text = "0." + "0" * -n + digits
    return ("-" if sign else "") + text


def _point_text(point: LatLng) -> str:
    check_number_value(point.lat)
    check_number_value(point.lng)
    return f"{js_number(point.lat)},{js_number(point.lng)}"


def as_text(value: object) -> str:
    """A single value as text, as the official SDKs write it in query strings and forms.
    Raises `Unwritable` for what has no text form (Money, maps, other types)."""
    if isinstance(value, str):
        check_text_value(value)
        return value
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        check_int_value(value)
        return str(int(value))
    if isinstance(value, float):
        check_number_value(value)
        return js_number(value)
    if isinstance(value, uuid.UUID):
        return str(value)
    if isinstance(value, decimal.Decimal):
        check_number_value(value)
        return str(value)
    if isinstance(value, LatLng):
        return _point_text(value)
    if isinstance(value, LatLngBounds):
        return f"{_point_text(value.ne)},{_point_text(value.sw)}"
    if isinstance(value, dt.datetime):
        check_time_value(value)
        return iso_millis(value)
    if isinstance(value, Money):
        raise Unwritable("Money has no text form here; give the amount")
    raise Unwritable(f"cannot write a value of type {type(value).__name__} as text")


# --- bodies ---------------------------------------------------------------------------------


def as_json(value: object) -> object:
    """One of the API's value types as a JSON body carries it (after `check_value`)."""
    check_value(value)
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


def as_transit(value: object) -> object:
    """One of the API's value types as the Transit writer takes it: itself (the writer has a
    handler for each, and writes a Keyword as the keyword it is)."""
    check_value(value)
    return value


def jsonable(value: object) -> object:
    """Plain data with the API's value types in it (a decoded body, a model dump) as JSON
    values, converted as a JSON body carries them; for printing, not for sending."""
    if is_dict(value):
        return {str(k): jsonable(v) for k, v in value.items()}
    if is_array(value):
        return [jsonable(v) for v in value]
    if value is None or isinstance(value, str | int | float):
        return value
    try:
        return as_json(value)
    except Unwritable:
        return str(value)


# --- display --------------------------------------------------------------------------------


def display(value: object) -> str:
    """A value as people read it in tables and summaries: money in major units with its
    currency, points as "lat, lng", times as the API writes them, lists as their items.

    >>> display(Money(5000, "EUR")), display(LatLng(60.16, 24.93)), display(["a", 2])
    ('50.00 EUR', '60.16, 24.93', 'a, 2')
    """
    if value is None:
        return ""
    if isinstance(value, Money):
        return str(value)
    if isinstance(value, LatLng):
        return f"{js_number(value.lat)}, {js_number(value.lng)}"
    if isinstance(value, LatLngBounds):
        return f"{display(value.ne)} to {display(value.sw)}"
    if isinstance(value, dt.datetime):
        return iso_millis(value) if value.utcoffset() is not None else value.isoformat()
    if isinstance(value, float):
        return js_number(value) if math.isfinite(value) else str(value)
    if is_array(value):
        texts = [display(v) for v in value]
        # Items that hold commas of their own (line items, points) are told apart by "; ".
        return ("; " if any(", " in t for t in texts) else ", ").join(texts)
    if is_dict(value):
        return json.dumps(jsonable(value), ensure_ascii=False)
    return str(value)


# --- from text ------------------------------------------------------------------------------

KINDS: Final = ("uuid", "money", "latlng", "bounds", "date", "decimal")


def parse(kind: str, text: str) -> object:
    """A value of one of the API's types from its text form (the command line's `kind:text`):
    `uuid`, `money` (`5000:USD`, minor units), `latlng` (`60.16,24.93`), `bounds` (four
    numbers, north-east then south-west), `date` (ISO 8601 with a timezone), `decimal`.
    Raises ValueError saying what is wrong.

    >>> parse("money", "5000:USD"), parse("latlng", "60.16,24.93")
    (Money(amount=5000, currency='USD'), LatLng(lat=60.16, lng=24.93))
    """
    if kind == "uuid":
        return uuid.UUID(text)
    if kind == "money":
        amount, _, currency = text.partition(":")
        return Money(int(amount), currency)
    if kind == "latlng":
        lat, lng = (float(x) for x in text.split(","))
        return LatLng(lat, lng)
    if kind == "bounds":
        a, b, c, d = (float(x) for x in text.split(","))
        return LatLngBounds(ne=LatLng(a, b), sw=LatLng(c, d))
    if kind == "date":
        when = dt.datetime.fromisoformat(text)
        try:
            check_time_value(when)
        except Unwritable as exc:
            raise ValueError(str(exc)) from None
        return when
    if kind == "decimal":
        try:
            return decimal.Decimal(text)
        except decimal.InvalidOperation:
            raise ValueError(f"not a decimal number: {text!r}") from None
    raise ValueError(f"unknown kind {kind!r}; one of {', '.join(KINDS)}")


# --- values read from the wire, and ids given in code ----------------------------------------

_UNKNOWN_SAFETY = uuid.SafeUUID.unknown
_new = object.__new__
_from_hex = bytes.fromhex
_from_bytes = int.from_bytes


def _unused(made: uuid.UUID, value: object) -> None:
    # The setters' stand-in where there are none, for the type checkers: never called.
    raise AssertionError("no setter without the reach-in")  # pragma: no mutate


def _uuid_reader(setters: UuidSetters | None) -> Callable[[str], uuid.UUID]:
    """`fast_uuid`, its UUIDs built through `uuid.UUID`'s slot setters (`setters`, from
    `flexclient._support.compat`), or by `uuid.UUID(bytes=...)` given None: the same check,
    the same UUIDs, in about three times the time."""
    plain = setters is None
    set_int, set_safety = (_unused, _unused) if setters is None else setters

    def fast_uuid(text: str) -> uuid.UUID:
        # uuid.UUID(text) spends most of its time on forms the API never writes (braces,
        # urn:); this is its own check (32 digits once the dashes are gone, of which
        # bytes.fromhex makes 16 bytes: it takes no sign, "_" or other scripts' digits, as
        # int() would) and object, built without its keyword handling; other forms go to
        # uuid.UUID.
        digits = text.replace("-", "")
        if len(digits) != 32:
            return uuid.UUID(text)
        raw = _from_hex(digits)
        if len(raw) != 16:  # spaces between the digits
            raise ValueError(f"not a UUID: {text[:40]!r}")
        if plain:
            return uuid.UUID(bytes=raw)
        made = _new(uuid.UUID)
        set_int(made, _from_bytes(raw))
        set_safety(made, _UNKNOWN_SAFETY)
        return made

    return fast_uuid


fast_uuid: Final[Callable[[str], uuid.UUID]] = _uuid_reader(uuid_slot_setters())
"""A UUID from its text: the API's form (36 characters, or 32 without dashes) read strictly,
any other through `uuid.UUID`; a ValueError for text that is none."""


def _built(cls: type[_T], **fields: object) -> _T:
    # The dataclass without its validation: for values already checked to have exact types.
    made = object.__new__(cls)
    made.__dict__.update(fields)  # where a (frozen) dataclass keeps its fields
    return made


# Made when first needed: well-formed values never need one.
_ADAPTERS: dict[type[Any], TypeAdapter[Any]] = {}


def _validated(cls: type[_T], fields: dict[str, object]) -> _T:
    # pydantic's validation says what is wrong (the constructors' own checks are advice for
    # code that writes a value, not for what a server sent).
    adapter = _ADAPTERS.get(cls)
    if adapter is None:
        adapter = _ADAPTERS[cls] = TypeAdapter(cls)
    made: _T = adapter.validate_python(fields)
    return made


def money_from(amount: object, currency: object) -> Money:
    """`Money` read from the wire; validated only when the types are not already exact."""
    if type(amount) is int and type(currency) is str:
        return _built(Money, amount=amount, currency=currency)
    return _validated(Money, {"amount": amount, "currency": currency})


def latlng_from(lat: object, lng: object) -> LatLng:
    """`LatLng` read from the wire; validated only when the types are not already exact."""
    if type(lat) is float and type(lng) is float:
        return _built(LatLng, lat=lat, lng=lng)
    return _validated(LatLng, {"lat": lat, "lng": lng})


def uuid_value(param: str, value: object) -> uuid.UUID:
    """`value`, a UUID or its text, as a UUID; a `ParameterError` naming `param` otherwise.

    >>> uuid_value("id", "c6ff7190-bdf7-47a0-8a2b-e3136e74334f").version
    4
    """
    if isinstance(value, uuid.UUID):
        return value
    if isinstance(value, str):
        try:
            return uuid.UUID(value)
        except ValueError:
            raise ParameterError(param, "not a UUID") from None
    raise ParameterError(param, f"must be a UUID or its text, not {type(value).__name__}")
