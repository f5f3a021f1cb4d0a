"""The eager-model floor of benchmarks/decode.py (`benchmarks/_plain_models.py`) declares its
own plain models of the benchmark page: each field must be the real model's field, with the
same wire name and type, and each model must read every key the page sends, so that the floor
measures the models flexclient has, not ones that drifted from them."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
from pydantic import BaseModel

from flexclient.models import ImageAttributes, ImageVariant, ListingAttributes, UserAttributes
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
