"""`wire_format="json"` gives the same models as Transit, the default: every resource type,
every attribute its model declares, with the values the API sends (exact decimals, 64-bit
integers, times to the millisecond, Money, LatLng, ids) and unknown attributes. The bodies are
written out as the API documents each format (`tests/sample.py`), not by the code under test.

What differs, by design (docs/performance.md): an attribute no model declares keeps its JSON
value in JSON, where Transit carries its type (a Money in Transit, `{"amount", "currency"}`
in JSON); the test compares unknown attributes of plain JSON values only."""

from __future__ import annotations

import datetime as dt
import decimal
import importlib
import types
import typing
import uuid
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from pydantic import BaseModel

from flexclient import LatLng, Money
from flexclient._wire.formats import JSON, TRANSIT
from flexclient.models import Resource
from flexclient.models._decoding import read_envelope
from flexclient.models._resource import MODEL_MODULES, model_for
from flexclient.testing._app import keyword_types
from tests import sample
from tests.shapes import as_json_object, is_dict, is_sequence

INT64 = st.integers(-(2**63), 2**63 - 1)
# Times as the API keeps them: to the millisecond, in UTC.
TIMES = st.datetimes(
    min_value=dt.datetime(1970, 1, 1), max_value=dt.datetime(2200, 1, 1), timezones=st.just(dt.UTC)
).map(lambda t: t.replace(microsecond=t.microsecond // 1000 * 1000))
DECIMALS = st.decimals(allow_nan=False, allow_infinity=False)
FLOATS = st.floats(allow_nan=False, allow_infinity=False)
TEXT = st.text(max_size=12)
JSON_VALUES = st.recursive(
    st.none() | st.booleans() | INT64 | FLOATS | TEXT,
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(TEXT, inner, max_size=3),
    max_leaves=8,
)
MONEY = st.builds(Money, INT64, st.sampled_from(["EUR", "USD", "JPY"]))
LAT_LNG = st.builds(
    LatLng, st.floats(-90, 90, allow_nan=False), st.floats(-180, 180, allow_nan=False)
)
SCALARS: dict[object, st.SearchStrategy[Any]] = {
    str: TEXT,
    int: INT64,
    float: FLOATS,
    bool: st.booleans(),
    decimal.Decimal: DECIMALS,
    dt.datetime: TIMES,
    uuid.UUID: st.uuids(),
    Money: MONEY,
    LatLng: LAT_LNG,
    Any: JSON_VALUES,
    object: JSON_VALUES,
}


def values_of(annotation: Any) -> st.SearchStrategy[Any]:
    """Wire values (before encoding) for a field of this type, as the API sends them."""
    if annotation in SCALARS:
        return SCALARS[annotation]
    if annotation is Resource:  # an event's snapshot of the resource it is about
        return resource_of("listing")
    origin, args = typing.get_origin(annotation), typing.get_args(annotation)
    if origin in (typing.Union, types.UnionType):
        return st.one_of([values_of(a) for a in args])
    if annotation is type(None):
        return st.none()
    if origin is typing.Literal:
        return st.sampled_from(args)
    if origin is list:
        return st.lists(values_of(args[0]), max_size=2)
    if origin is dict:
        return st.dictionaries(TEXT, values_of(args[1]), max_size=2)
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        return fields_of(annotation)
    raise AssertionError(f"no wire values for {annotation!r}: add them to this test")


def fields_of(model: type[BaseModel]) -> st.SearchStrategy[dict[str, Any]]:
    """Every declared field of `model` by its wire name, and unknown keys of JSON values."""
    hints = typing.get_type_hints(model)
    declared = {
        info.alias or name: values_of(hints[name]) for name, info in model.model_fields.items()
    }
    unknown = st.dictionaries(st.sampled_from(["futureKey", "another"]), JSON_VALUES, max_size=2)
    return st.tuples(st.fixed_dictionaries(declared), unknown).map(lambda p: {**p[1], **p[0]})


AUTHOR = st.fixed_dictionaries({"data": st.builds(sample.ref, st.uuids(), st.just("user"))})
IMAGES = st.fixed_dictionaries(
    {"data": st.lists(st.builds(sample.ref, st.uuids(), st.just("image")), max_size=2)}
)


def resource_of(rtype: str) -> st.SearchStrategy[dict[str, Any]]:
    attributes_model = model_for(rtype).model_fields["attributes"].annotation
    assert isinstance(attributes_model, type) and issubclass(attributes_model, BaseModel)
    return st.fixed_dictionaries(
        {
            "id": st.uuids(),
            "type": st.just(rtype),
            "attributes": fields_of(attributes_model),
            "relationships": st.fixed_dictionaries({"author": AUTHOR, "images": IMAGES}),
        }
    )


for _module in set(MODEL_MODULES.values()):  # every model, for `model_for` above
    importlib.import_module(f"flexclient.models.{_module}")

BODIES: st.SearchStrategy[dict[str, Any]] = st.fixed_dictionaries(
    {
        "data": st.tuples(*(resource_of(t) for t in sorted(MODEL_MODULES))).map(list),
        "meta": st.fixed_dictionaries({"totalItems": INT64, "perPage": st.integers(1, 100)}),
    }
)


def same(transit: object, json: object, path: str = "") -> None:
    """Equal, and of the same type all the way down (an exact Decimal is no float)."""
    assert type(transit) is type(json), f"{path}: {type(transit)} against {type(json)}"
    if is_dict(transit):
        other = as_json_object(json)
        assert transit.keys() == other.keys(), path
        for key, value in transit.items():
            same(value, other[str(key)], f"{path}.{key}")
    elif is_sequence(transit):
        assert is_sequence(json) and len(transit) == len(json), path
        for n, (t, j) in enumerate(zip(transit, json, strict=True)):
            same(t, j, f"{path}[{n}]")
    else:
        assert transit == json, f"{path}: {transit!r} against {json!r}"


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(BODIES)
def test_json_and_transit_decode_to_the_same_models(body: dict[str, Any]) -> None:
    from_transit = read_envelope(TRANSIT, TRANSIT.encode(keyword_types(body)))
    from_json = read_envelope(JSON, JSON.encode(as_json_object(sample.jsonable(body))))
    assert [type(r) for r in from_json.data] == [type(r) for r in from_transit.data]
    assert all(type(r) is not Resource for r in from_json.data)  # every type has its model
    same(from_transit.model_dump(), from_json.model_dump())
    for t, j in zip(from_transit.data, from_json.data, strict=True):
        same(t.attributes.model_extra, j.attributes.model_extra)
