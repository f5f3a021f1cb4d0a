"""flexclient's frozen dataclasses compare, hash and show themselves as the standard
library's `@dataclass(frozen=True)` would (flexclient._support.frozen writes those methods once)."""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import Any

import pytest

import flexclient
from flexclient._options import Options
from flexclient._support.frozen import Frozen


def frozen_classes() -> list[type[Frozen]]:
    # Every public name imported, so that each module defining one has run.
    for name in dir(flexclient):
        getattr(flexclient, name)
    found: list[type[Frozen]] = []
    bases = [Frozen]
    while bases:
        subclasses = bases.pop().__subclasses__()
        found += [c for c in subclasses if dataclasses.is_dataclass(c)]
        bases += subclasses
    return sorted(found, key=lambda c: c.__qualname__)


def test_the_clients_settings_and_answers_are_among_them() -> None:
    names = {c.__qualname__ for c in frozen_classes()}
    assert {"Token", "RetryPolicy", "RawResponse", "Response", "Money", "Ref"} <= names
    assert Options in frozen_classes()


def made(cls: type[Any], values: Mapping[str, object]) -> Any:
    # Past each class's checking __init__: the methods under test read fields only.
    record = object.__new__(cls)
    record.__dict__.update(values)
    return record


@pytest.mark.parametrize("cls", frozen_classes(), ids=lambda c: c.__qualname__)
def test_eq_hash_and_repr_are_the_standard_librarys(cls: type[Any]) -> None:
    fields = dataclasses.fields(cls)
    assert dataclasses.is_dataclass(cls)
    twin = dataclasses.make_dataclass(
        cls.__qualname__,
        [
            (f.name, object, dataclasses.field(repr=f.repr, compare=f.compare, hash=f.hash))
            for f in fields
        ],
        frozen=True,
    )
    first = {f.name: f"{f.name}-1" for f in fields}
    for changed in [None, *fields]:
        second = dict(first)
        if changed is not None:
            second[changed.name] = f"{changed.name}-2"
        ours, theirs = made(cls, first), made(twin, first)
        assert repr(made(cls, second)) == repr(made(twin, second))
        assert (ours == made(cls, second)) == (theirs == made(twin, second))
        assert hash(ours) == hash(theirs)
    # Another class is never equal, even one of the same fields on the same base.
    sibling = dataclasses.make_dataclass(
        cls.__qualname__, [f.name for f in fields], bases=(Frozen,), frozen=True, eq=False
    )
    assert made(cls, first) != made(twin, first)
    assert made(cls, first) != made(sibling, first)
    with pytest.raises(dataclasses.FrozenInstanceError):
        made(cls, first).__setattr__(fields[0].name, "x")


def test_a_field_left_out_of_comparison_is_left_out_of_equality_and_hash() -> None:
    def no_wait(seconds: float) -> None:
        pass

    def still() -> float:
        return 0.0

    dev = flexclient.RateLimits.preset("dev")
    assert dev == dataclasses.replace(dev, sleep=no_wait, clock=still)
    assert hash(dev) == hash(dataclasses.replace(dev, clock=still))
    assert dev != dataclasses.replace(dev, queries=flexclient.Bucket(1, 1, 1.0, 1))
    assert "sleep" not in repr(dev) and "Bucket(initial=" in repr(dev)


def test_a_record_that_contains_itself_is_shown_as_the_standard_library_shows_it() -> None:
    @dataclasses.dataclass(frozen=True, eq=False, repr=False)
    class Box(Frozen):
        content: list[object]

    @dataclasses.dataclass(frozen=True)
    class Twin:
        content: list[object]

    box, twin = Box([]), Twin([])
    box.content.append(box)
    twin.content.append(twin)
    assert repr(box) == repr(twin).replace("Twin", "Box")
    assert repr(box).endswith(".Box(content=[...])")
