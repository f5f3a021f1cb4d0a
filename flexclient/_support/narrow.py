"""What an `isinstance` check on a value from outside (a parsed body, a user's argument) tells
a type checker.

`isinstance(value, dict)` on a value typed `object` leaves a checker with a dict of unknown
items; these checks say what is known instead: items of some type (`object`), each to be
checked in turn. `is_json_object` is for values parsed from JSON, whose keys are strings.

Each is a call: not for the loops that decode every response (`_wire.transit_reader`,
`_wire.values`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from collections.abc import Set as AbstractSet
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from typing import TypeGuard

    from typing_extensions import TypeIs


def is_dict(value: object) -> TypeIs[dict[object, object]]:
    """`isinstance(value, dict)`."""
    return isinstance(value, dict)


def is_json_object(value: object) -> TypeIs[dict[str, object]]:
    """`isinstance(value, dict)`, of a value parsed from JSON (so its keys are strings)."""
    return isinstance(value, dict)


def is_list(value: object) -> TypeIs[list[object]]:
    """`isinstance(value, list)`."""
    return isinstance(value, list)


def is_mapping(value: object) -> TypeIs[Mapping[Any, object]]:
    """`isinstance(value, Mapping)`. The keys are `Any` as a Mapping's key type is invariant:
    a value known to be a `Mapping[str, object]` stays one."""
    return isinstance(value, Mapping)


def is_sequence(value: object) -> TypeIs[Sequence[object]]:
    """`isinstance(value, Sequence)`."""
    return isinstance(value, Sequence)


def is_str(value: object) -> TypeIs[str]:
    """`isinstance(value, str)`."""
    return isinstance(value, str)


def is_whole(value: object, minimum: int) -> TypeGuard[int]:
    """Whether `value` is an int (not a bool) of at least `minimum`."""
    return isinstance(value, int) and not isinstance(value, bool) and value >= minimum


def is_set(value: object) -> TypeIs[AbstractSet[object]]:
    """`isinstance(value, set | frozenset)`."""
    return isinstance(value, set | frozenset)


def is_tuple(value: object) -> TypeIs[tuple[object, ...]]:
    """`isinstance(value, tuple)`."""
    return isinstance(value, tuple)


def is_array(value: object) -> TypeIs[list[object] | tuple[object, ...]]:
    """`isinstance(value, list | tuple)`: what is written as a JSON array."""
    return isinstance(value, list | tuple)
