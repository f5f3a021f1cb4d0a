"""`Frozen`: equality, hashing and `repr()` for frozen dataclasses, written once.

The standard library's `dataclass` writes the source of `__eq__`, `__hash__` and `__repr__`
for every class it makes and compiles each (with `__init__`, `__setattr__` and
`__delattr__`), and the frozen dataclasses made when flexclient is imported were the largest
part of its import (docs/performance.md says how to measure it). A class declared
`@dataclass(frozen=True, eq=False, repr=False)` over `Frozen` behaves as before, from one
copy of each method that reads the class's fields when called:

>>> from dataclasses import dataclass, field
>>> @dataclass(frozen=True, eq=False, repr=False)
... class Pair(Frozen):
...     left: int
...     right: int = field(default=0, repr=False)
>>> Pair(1, 2), Pair(1, 2) == Pair(1, 2), hash(Pair(1, 2)) == hash((1, 2))
(Pair(left=1), True, True)
"""

from __future__ import annotations

import dataclasses
import reprlib

_NAMES: dict[tuple[type, str], tuple[str, ...]] = {}


def _names(cls: type, flag: str) -> tuple[str, ...]:
    """The names of `cls`'s fields with `flag` (compare, hash, repr) set, in field order."""
    found = _NAMES.get((cls, flag))
    if found is None:
        fields = dataclasses.fields(cls)
        # The dataclass's own rule: `hash=None` follows `compare`.
        found = _NAMES[cls, flag] = tuple(
            f.name
            for f in fields
            if (f.compare if flag == "hash" and f.hash is None else getattr(f, flag))
        )
    return found


def _values(record: object, flag: str) -> tuple[object, ...]:
    return tuple(getattr(record, name) for name in _names(type(record), flag))


class Frozen:
    """The base of flexclient's frozen dataclasses: compares, hashes and shows their fields as
    `@dataclass(frozen=True)` would (fields with `compare=False` or `repr=False` left out).
    Fields are compared as tuples, as Python 3.11 and 3.12 do (3.13 compares them one by one,
    which differs only for a value not equal to itself, such as a float NaN)."""

    __slots__ = ()

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        return _values(self, "compare") == _values(other, "compare")

    def __hash__(self) -> int:
        return hash(_values(self, "hash"))

    @reprlib.recursive_repr()
    def __repr__(self) -> str:
        shown = (f"{name}={getattr(self, name)!r}" for name in _names(type(self), "repr"))
        return f"{type(self).__qualname__}({', '.join(shown)})"
