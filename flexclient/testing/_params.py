"""An endpoint's parameters as the endpoint table declares them, checked as the API checks them.

Each endpoint names its parameter type (`Command[OwnListingCreateParams, OwnListing]`); when
that is a TypedDict of `flexclient.params`, its keys are the keys the endpoint takes, its
`Required` ones the keys it needs, and its annotations the types of their values. The fake
reads all of that from the TypedDict, so a parameter is described once. An endpoint declared
with the untyped `Params` takes any key, and its handler checks what it reads.
"""

from __future__ import annotations

import contextlib
import datetime as dt
import decimal
import math
import re
import types
import typing
import uuid
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from functools import partial
from typing import Any, Literal, NotRequired, Required

from flexclient._endpoints.kinds import Endpoint
from flexclient._errors import ParameterError
from flexclient._support.narrow import is_array, is_mapping
from flexclient._wire.value_types import LatLng, LatLngBounds, Money
from flexclient._wire.values import latlng_from, parse, uuid_value
from flexclient.params import Id
from flexclient.params._common import INTEGER_TEXT


class Invalid(ValueError):
    """A value of the wrong type; `path` is where, below the parameter."""

    def __init__(self, why: str, path: tuple[str, ...] = ()) -> None:
        super().__init__(why)
        self.path = path


class Unknown(ValueError):
    """A key the endpoint does not take; `path` is the map it was found in."""

    def __init__(self, key: str, path: tuple[str, ...] = ()) -> None:
        super().__init__(key)
        self.key, self.path = key, path


class Missing(ValueError):
    """A key the endpoint needs and did not get; `path` is the map it was missing from."""

    def __init__(self, key: str, path: tuple[str, ...] = ()) -> None:
        super().__init__(key)
        self.key, self.path = key, path


@dataclass(frozen=True)
class Spec:
    """The keys of a parameter TypedDict: each key's type, and which keys are required."""

    hints: dict[str, Any]
    required: frozenset[str]


def endpoint_types(endpoint: Endpoint[Any, Any]) -> tuple[Any, Any]:
    """The parameter type and the data type an endpoint was declared with."""
    args = endpoint.declared()
    return (args[0], args[1]) if len(args) == 2 else (Mapping[str, object], Any)


def spec_of(kind: Any) -> Spec | None:
    """The keys of a TypedDict; None for any other type (an untyped mapping)."""
    if not typing.is_typeddict(kind):
        return None
    hints = typing.get_type_hints(kind, include_extras=True)
    # `__required_keys__` misses Required/NotRequired written as strings (this package uses
    # `from __future__ import annotations`) before Python 3.12: the markers decide here.
    required = set(kind.__required_keys__)
    for key, hint in hints.items():
        origin = typing.get_origin(hint)
        if origin is Required:
            required.add(key)
        elif origin is NotRequired:
            required.discard(key)
    return Spec({k: _bare(h) for k, h in hints.items()}, frozenset(required))


def _bare(hint: Any) -> Any:
    while typing.get_origin(hint) in (Required, NotRequired, typing.Annotated):
        hint = typing.get_args(hint)[0]
    return hint


def _members(hint: Any) -> tuple[Any, ...] | None:
    if typing.get_origin(hint) in (typing.Union, types.UnionType):
        return typing.get_args(hint)
    return None


def _kind_name(hint: Any) -> str:
    return getattr(hint, "__name__", None) or str(hint).replace("typing.", "")


# --- values of a body (decoded JSON or Transit) -------------------------------------------


def from_body(value: Any, hint: Any, path: tuple[str, ...] = ()) -> Any:
    """`value` as the type `hint` names, converted from its JSON form where it has one (a
    UUID's string, money's map, an ISO timestamp, an integer's text); `Invalid` if it is not
    of that type."""
    if INTEGER_TEXT in getattr(hint, "__metadata__", ()):
        if isinstance(value, str) and re.fullmatch(r"-?[0-9]+", value):
            return int(value)
        raise Invalid("expected an integer", path)
    hint = _bare(hint)
    if hint is Any or hint is object:
        return value
    if hint is type(None):
        if value is None:
            return None
        raise Invalid("expected null", path)
    members = _members(hint)
    if members is not None:
        if value is None and type(None) in members:
            return None
        if set(members) == set(typing.get_args(Id)):  # an ID is a UUID, given as one or as text
            return from_body(value, uuid.UUID, path)
        failure: Invalid | None = None
        for member in members:
            if member is type(None):
                continue
            try:
                return from_body(value, member, path)
            except Invalid as exc:
                failure = failure or exc
        raise failure or Invalid("unexpected value", path)
    origin = typing.get_origin(hint)
    if origin is Literal:
        if value in typing.get_args(hint):
            return value
        raise Invalid(f"one of {', '.join(map(str, typing.get_args(hint)))}", path)
    if typing.is_typeddict(hint):
        spec = spec_of(hint)
        assert spec is not None
        if not is_mapping(value):
            raise Invalid("expected a map", path)
        return checked(value, spec, path)
    if origin in (dict, Mapping) or hint in (dict, Mapping):
        if not is_mapping(value):
            raise Invalid("expected a map", path)
        args = typing.get_args(hint)
        if len(args) == 2 and args[1] is not Any:
            return {k: from_body(v, args[1], (*path, str(k))) for k, v in value.items()}
        return dict(value)
    if origin in (list, Sequence) or hint in (list, Sequence):
        if isinstance(value, str | bytes) or not is_array(value):
            raise Invalid("expected a list", path)
        args = typing.get_args(hint)
        each = args[0] if args else Any
        return [from_body(v, each, (*path, str(i))) for i, v in enumerate(value)]
    return _scalar(value, hint, path)


def _scalar(value: Any, hint: Any, path: tuple[str, ...]) -> Any:
    if hint is bool:
        if isinstance(value, bool):
            return value
    elif hint is int:
        if isinstance(value, int) and not isinstance(value, bool):
            return value
    elif hint is float:
        if isinstance(value, int | float) and not isinstance(value, bool):
            return float(value)
    elif hint is str:
        if isinstance(value, str):
            return value
    elif hint is uuid.UUID:
        try:
            return uuid_value(".".join(path), value)
        except ParameterError:
            pass
    elif hint is Money:
        if isinstance(value, Money):
            return value
        if is_mapping(value) and set(value) == {"amount", "currency"}:
            amount, currency = value["amount"], value["currency"]
            if isinstance(amount, int) and isinstance(currency, str):
                try:
                    return Money(amount, currency)
                except ValueError:
                    pass
    elif hint is LatLng:
        point: LatLng | None = value if isinstance(value, LatLng) else None
        if point is None and is_mapping(value) and set(value) == {"lat", "lng"}:
            # Read as the client reads a point from the wire (numeric text too).
            with contextlib.suppress(ValueError):
                point = latlng_from(value["lat"], value["lng"])
        if point is not None:
            try:
                return on_earth(point)
            except ValueError as exc:
                raise Invalid(str(exc), path) from None
    elif hint is dt.datetime:
        if isinstance(value, dt.datetime) and value.tzinfo is not None:
            return value
        if isinstance(value, str):
            try:
                return parse("date", value)
            except ValueError:
                pass
    elif hint is decimal.Decimal:
        if isinstance(value, decimal.Decimal):
            return value
        if isinstance(value, int | float | str) and not isinstance(value, bool):
            try:
                return decimal.Decimal(str(value))
            except decimal.InvalidOperation:
                pass
    elif isinstance(hint, type):
        if isinstance(value, hint):
            return value
    else:
        return value  # a type this module does not know: the handler checks it
    raise Invalid(f"expected {_kind_name(hint)}", path)


def checked(body: Mapping[str, Any], spec: Spec, path: tuple[str, ...] = ()) -> dict[str, Any]:
    """A map checked against a TypedDict's keys: every required key present, no other key,
    each value of its type (converted). Raises `Unknown`, `Missing` or `Invalid`. A null
    value of an optional key stands for the key left out, as the handlers read it."""
    for key in body:
        if key not in spec.hints:
            raise Unknown(str(key), path)
    for key in sorted(spec.required):
        if body.get(key) is None and not _nullable(spec.hints[key]):
            raise Missing(key, path)
    return {
        key: None if value is None else from_body(value, spec.hints[key], (*path, key))
        for key, value in body.items()
    }


def _nullable(hint: Any) -> bool:
    members = _members(hint)
    return hint is Any or (members is not None and type(None) in members)


# --- values of a query string --------------------------------------------------------------


def from_text(text: str, hint: Any) -> Any:
    """A query-string value as the type `hint` names, as the SDKs write each type (lists
    comma-joined, UUIDs and timestamps as text, a location as `lat,lng`); ValueError if the
    text is no such value."""
    hint = _bare(hint)
    members = _members(hint)
    if members is not None:
        if set(members) == set(typing.get_args(Id)):
            return from_text(text, uuid.UUID)
        failure: ValueError | None = None
        for member in members:
            if member is type(None):
                continue
            try:
                return from_text(text, member)
            except ValueError as exc:
                failure = failure or exc
        raise failure or ValueError(text)
    origin = typing.get_origin(hint)
    if origin is Literal:
        if text in typing.get_args(hint):
            return text
        raise ValueError(f"one of {', '.join(map(str, typing.get_args(hint)))}")
    if origin in (list, Sequence) or hint in (list, Sequence):
        args = typing.get_args(hint)
        return [from_text(part, args[0] if args else str) for part in text.split(",")]
    if hint is bool:
        if text in ("true", "false"):
            return text == "true"
        raise ValueError("true or false")
    reader = _TEXT_READERS.get(hint)
    if reader is None:
        return text
    try:
        value = reader(text)
    except ValueError:
        # What Python says of the text (`invalid literal for int()`) is no API's answer.
        raise ValueError(f"expected {_EXPECTED[hint]}") from None
    if isinstance(value, LatLng):
        return on_earth(value)
    if isinstance(value, LatLngBounds):
        on_earth(value.ne)
        on_earth(value.sw)
    return value


def _finite(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise ValueError(text)
    return value


# How the query string writes each type, and what it should have been when it is not.
_TEXT_READERS: dict[Any, Callable[[str], object]] = {
    int: int,
    float: _finite,
    uuid.UUID: partial(parse, "uuid"),
    LatLng: partial(parse, "latlng"),
    LatLngBounds: partial(parse, "bounds"),
    dt.datetime: partial(parse, "date"),
    decimal.Decimal: partial(parse, "decimal"),
}
_EXPECTED: dict[Any, str] = {
    int: "an integer",
    float: "a number",
    uuid.UUID: "a UUID",
    LatLng: "a location, latitude and longitude in degrees (60.17,24.94)",
    LatLngBounds: "bounds, the north-east corner then the south-west one (60.3,25.1,60.0,24.8)",
    dt.datetime: "a time in ISO 8601 with its time zone (2026-07-01T00:00:00.000Z)",
    decimal.Decimal: "a decimal number",
}


def expected(kind: Any) -> str | None:
    """What a value of type `kind` (`int`, `uuid.UUID`, ...) should have been, as an error
    says it (`expected an integer`); None for a type without a description."""
    described = _EXPECTED.get(kind)
    return f"expected {described}" if described is not None else None


def on_earth(point: LatLng) -> LatLng:
    """`point` if it is a place on Earth: latitude -90 to 90, longitude -180 to 180, both
    finite; ValueError otherwise (the API refuses `LatLng(600, 0)` with a 400)."""
    if not (math.isfinite(point.lat) and -90 <= point.lat <= 90):
        raise ValueError(f"latitude {point.lat} is not within -90 to 90")
    if not (math.isfinite(point.lng) and -180 <= point.lng <= 180):
        raise ValueError(f"longitude {point.lng} is not within -180 to 180")
    return point
