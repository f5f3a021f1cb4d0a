"""The benchmarks' pages and models, checked so that each figure measures what it says.

The eager-model floor of benchmarks/decode.py (`benchmarks/_plain_models.py`) declares its
own plain models of the benchmark page: each field must be the real model's field, with the
same wire name and type, and each model must read every key the page sends, so that the floor
measures the models flexclient has, not ones that drifted from them.

The shapes of page end_to_end.py reads (`_pages.SHAPES`) must be what the API sends: each
reads to the same models from its JSON and its Transit, every attribute lands in a declared
field (none is kept as unknown), and every relationship the benchmark reads resolves.
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
from pydantic import BaseModel

from flexclient._support.narrow import is_list
from flexclient._wire.formats import JSON, TRANSIT
from flexclient.models import (
    Event,
    ImageAttributes,
    ImageVariant,
    ListingAttributes,
    Resource,
    UserAttributes,
)
from flexclient.models._decoding import read_envelope
from flexclient.models.users import UserProfile

BENCHMARKS = Path(__file__).parents[1] / "benchmarks"


def load(name: str) -> ModuleType:
    spec = importlib.util.spec_from_file_location(f"benchmark{name}", BENCHMARKS / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = sys.modules[spec.name] = importlib.util.module_from_spec(spec)
    sys.path.insert(0, str(BENCHMARKS))  # they import each other by name
    try:
        spec.loader.exec_module(module)
    finally:
        sys.path.remove(str(BENCHMARKS))
    return module


plain = load("_plain_models")
pages = load("_pages")
PAGE: dict[str, Any] = pages.page(2, 2)
LISTING, USER, IMAGE = PAGE["data"][0], PAGE["included"][0], PAGE["included"][-1]

PAIRS: list[tuple[type[BaseModel], type[BaseModel], dict[str, Any]]] = [
    (plain.ListingAttributes, ListingAttributes, LISTING["attributes"]),
    (plain.UserAttributes, UserAttributes, USER["attributes"]),
    (plain.Profile, UserProfile, USER["attributes"]["profile"]),
    (plain.ImageAttributes, ImageAttributes, IMAGE["attributes"]),
    (plain.Variant, ImageVariant, IMAGE["attributes"]["variants"]["default"]),
]


def _wire(model: type[BaseModel]) -> dict[str, tuple[str, object]]:
    return {name: (f.alias or name, f.annotation) for name, f in model.model_fields.items()}


@pytest.mark.parametrize("floor, real, sent", PAIRS, ids=lambda x: getattr(x, "__name__", ""))
def test_each_plain_model_is_a_part_of_the_real_one(
    floor: type[BaseModel], real: type[BaseModel], sent: dict[str, Any]
) -> None:
    theirs, ours = _wire(floor), _wire(real)
    for name, (alias, annotation) in theirs.items():
        assert name in ours, f"{floor.__name__}.{name}: no such field in {real.__name__}"
        real_alias, real_annotation = ours[name]
        assert alias == real_alias, f"{floor.__name__}.{name}: wire name {alias}"
        # The plain models hold nested models of their own; every other type is the same.
        if not _nests_plain_model(annotation):
            assert annotation == real_annotation, f"{floor.__name__}.{name}: {annotation}"
    assert {alias for alias, _ in theirs.values()} == set(sent), floor.__name__


def _nests_plain_model(annotation: object) -> bool:
    text = repr(annotation)
    return any(f"_plain_models.{n}" in text for n in ("Profile", "Variant"))


def _read(shape: str) -> tuple[Any, Any]:
    as_json, as_transit = pages.encoded_shape(shape)
    return read_envelope(JSON, as_json), read_envelope(TRANSIT, as_transit)


def _without_previous_values(event: Event) -> Event:
    attributes = event.attributes.model_copy(update={"previous_values": None})
    return event.model_copy(update={"attributes": attributes})


@pytest.mark.parametrize("shape", list(pages.SHAPES))
def test_each_shape_reads_to_the_same_models_from_json_and_transit(shape: str) -> None:
    from_json, from_transit = _read(shape)
    assert len(from_json.data) >= 24 and from_json.included == from_transit.included
    if shape != "events":
        assert from_json.data == from_transit.data
        return
    # An event's previousValues are what no model declares: each format's own values
    # (docs/performance.md, "Choosing the wire format"); everything else is the same.
    assert [_without_previous_values(e) for e in from_json.data] == [
        _without_previous_values(e) for e in from_transit.data
    ]
    assert {type(e.attributes.resource).__name__ for e in from_json.data} == {
        "Listing",
        "User",
        "Transaction",
        "Booking",
        "AvailabilityException",
        "NoneType",  # a deletion's event has no resource
    }


def _unknown(value: object, where: str) -> list[str]:
    """The attributes kept as unknown anywhere in `value` (a model's extra keys)."""
    if isinstance(value, BaseModel):
        found = [f"{where}.{key}" for key in value.model_extra or {}]
        for name in type(value).model_fields:
            found += _unknown(getattr(value, name), f"{where}.{name}")
        return found
    if is_list(value):
        return [u for n, item in enumerate(value) for u in _unknown(item, f"{where}[{n}]")]
    return []


@pytest.mark.parametrize("shape", list(pages.SHAPES))
def test_each_shape_lands_in_declared_fields_and_its_relationships_resolve(shape: str) -> None:
    envelope, _ = _read(shape)
    resources: list[Resource] = [*envelope.data, *envelope.included]
    events = [e.attributes.resource for e in envelope.data if isinstance(e, Event)]
    resources += [r for r in events if r is not None]
    for resource in resources:
        assert _unknown(resource.attributes, resource.type) == []
    pages.READS[shape](envelope.data)  # what the benchmarks read of it is there
    if not envelope.included:
        return
    for resource in resources:
        for name, sent in resource.relationships.items():
            refs = sent.data if isinstance(sent.data, list) else [sent.data]
            related = resource.related(name)
            found = related if isinstance(related, list) else [related]
            assert [r.id for r in found if r is not None] == [r.id for r in refs if r is not None]
