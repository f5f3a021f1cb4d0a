"""Narrowing for values whose shape the type checker cannot know: parsed JSON, decoded Transit,
what a node process answered.

`isinstance(value, dict)` on an `object` leaves the keys and values Unknown to pyright (strict
mode reports every use); these guards and checks say what is known of them, `object` and no
more, so that each use narrows again. The `as_*` checks assert, as a test would.
"""

from __future__ import annotations

from typing import TypeGuard


def is_list(value: object) -> TypeGuard[list[object]]:
    return isinstance(value, list)


def is_tuple(value: object) -> TypeGuard[tuple[object, ...]]:
    return isinstance(value, tuple)


def is_sequence(value: object) -> TypeGuard[list[object] | tuple[object, ...]]:
    """A list or a tuple (what a writer takes as an array)."""
    return isinstance(value, list | tuple)


def is_dict(value: object) -> TypeGuard[dict[object, object]]:
    return isinstance(value, dict)


def is_json_object(value: object) -> TypeGuard[dict[str, object]]:
    """A dict with text keys, as JSON objects are read."""
    return is_dict(value) and all(isinstance(k, str) for k in value)


def as_list(value: object) -> list[object]:
    assert is_list(value), f"expected a list, got {value!r}"
    return value


def as_json_object(value: object) -> dict[str, object]:
    assert is_json_object(value), f"expected a JSON object, got {value!r}"
    return value


def as_str(value: object) -> str:
    assert isinstance(value, str), f"expected text, got {value!r}"
    return value
