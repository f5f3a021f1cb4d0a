"""Request and response bodies in the two wire formats, Transit and JSON.

Encoding walks the caller's parameters once, checking every value and naming the first one
that cannot be written (`ParameterError`), so that nothing is sent: a type the API has no
form for, a number that is not finite or does not fit 64 bits, text UTF-8 cannot carry, a
body nested deeper than `MAX_DEPTH` or containing itself. `flexclient._wire.transit_writer` then
writes Transit. Decoding (Transit by `flexclient._wire.transit_reader`) turns either format into the
same plain Python values: dicts with string keys, lists, `uuid.UUID`, `Money`, `LatLng`,
`decimal.Decimal` and timezone-aware `datetime`; the models are built from those.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from typing import Any, Final, Literal, TypeAlias

from transit.transit_types import TaggedValue

from flexclient._errors import ParameterError
from flexclient._wire.transit_reader import JSON_ARRAY, JSON_OBJECT
from flexclient._wire.transit_reader import loads as transit_loads
from flexclient._wire.transit_writer import dumps as transit_dumps
from flexclient._wire.values import (
    Unwritable,
    as_json,
    as_transit,
    check_int_value,
    check_number_value,
    check_text_value,
)

WireFormatName = Literal["transit", "json"]

# How deep parameters may nest. Well below Python's recursion limit (1,000 frames unless the
# program changed it), which the check here, the Transit writer and json's encoder each
# reach in turn from wherever the caller already stands; the API's bodies nest a few levels,
# extended data rarely more than a handful.
MAX_DEPTH: Final = 100


class WireDecodeError(ValueError):
    """A body that is not valid in its format; the transport turns it into an `ApiError`."""


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
                check_text_value(value)
                return value
            if isinstance(value, int):
                check_int_value(value)
                return value
            if isinstance(value, float):
                check_number_value(value)
                return value
            # The ignores (here and below): isinstance leaves the checkers containers of Unknown
            # items, and this walk (every value of a body) spends no call to tell them more.
            if isinstance(value, Mapping | list | tuple):
                return self.container(value, path, depth)  # pyright: ignore[reportUnknownArgumentType]
            return self.leaf(value)
        except Unwritable as exc:
            raise ParameterError(path_text(path), str(exc)) from None

    def container(self, value: object, path: Path, depth: int) -> object:
        if depth >= MAX_DEPTH:
            raise Unwritable(f"nested more than {MAX_DEPTH} levels deep")
        marker = id(value)
        if marker in self.open:
            raise Unwritable("contains itself")
        self.open.add(marker)
        try:
            if isinstance(value, Mapping):
                return self.mapping(value, path, depth + 1)  # pyright: ignore[reportUnknownArgumentType]
            assert isinstance(value, list | tuple)
            return [self.value(v, (path, i), depth + 1) for i, v in enumerate(value)]  # pyright: ignore[reportUnknownVariableType, reportUnknownArgumentType]
        finally:
            self.open.discard(marker)

    def mapping(self, value: Mapping[object, object], path: Path, depth: int) -> object:
        out: dict[str, object] = {}
        for k, v in value.items():
            if not isinstance(k, str):
                raise Unwritable(f"a map key of type {type(k).__name__} is not a string")
            where = (path, k)
            try:
                check_text_value(k)
            except Unwritable as exc:
                raise ParameterError(path_text(where), f"key: {exc}") from None
            out[k] = self.value(v, where, depth)
        return out


# --- decoding -------------------------------------------------------------------------------


def _check_resources(body: object) -> None:
    """Refuse an unknown Transit tag where a resource belongs (`data`, an item of `data` or
    `included`). transit-js keeps one there as an opaque tagged value, which no code using
    the SDK could take for a resource; elsewhere (an attribute) such a value is kept, as the
    official SDK keeps it."""
    if type(body) is not JSON_OBJECT:
        return
    # `Any` (what `get` gives, with None): `type(x) is JSON_ARRAY` then leaves a `list[Any]`.
    data: Any = body.get("data")
    included: Any = body.get("included")
    places: list[tuple[str, object]] = [("data", data)]
    if type(data) is JSON_ARRAY:
        places = [(f"data[{i}]", item) for i, item in enumerate(data)]
    if type(included) is JSON_ARRAY:
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


TRANSIT: Final = WireFormat("transit", "application/transit+json", as_transit)
JSON: Final = WireFormat("json", "application/json", as_json)
FORMATS: Final[dict[str, WireFormat]] = {"transit": TRANSIT, "json": JSON}


def format_for_content_type(content_type: str) -> WireFormat | None:
    """The format a response's Content-Type names, or None (plain text, HTML, ...)."""
    media = content_type.split(";", 1)[0].strip().lower()
    if media == "application/transit+json":
        return TRANSIT
    if media == "application/json" or media.endswith("+json"):
        return JSON
    return None
