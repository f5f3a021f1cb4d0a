"""Checks on values the fake did not make itself (request bodies and the maps and lists in
them, stored JSON), which are typed `object` until checked.

`isinstance(value, dict)` tells a type checker that `value` is a dict of unknown keys and
values; these checks say what the fake then reads from it: objects, under text keys. The
keys are not checked one by one: the wire decoders give maps text keys, and a key of any
other kind (a Transit `cmap`'s) is simply one the fake never looks up.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TypeGuard


def is_map(value: object) -> TypeGuard[dict[str, object]]:
    """Whether `value` is a map (a dict, as the decoders make them)."""
    return isinstance(value, dict)


def is_mapping(value: object) -> TypeGuard[Mapping[str, object]]:
    """Whether `value` is a mapping of any kind."""
    return isinstance(value, Mapping)


def is_list(value: object) -> TypeGuard[list[object]]:
    """Whether `value` is a list."""
    return isinstance(value, list)


def is_sequence(value: object) -> TypeGuard[list[object] | tuple[object, ...]]:
    """Whether `value` is a list or a tuple (as a caller in the same process may give)."""
    return isinstance(value, list | tuple)
