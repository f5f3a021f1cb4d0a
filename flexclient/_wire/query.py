"""Query strings, written exactly as the official SDKs write them.

Values are percent-encoded as JavaScript's `encodeURIComponent` does, except that commas stay
literal; lists are comma-joined; `None` drops the parameter; numbers are written as JavaScript
writes them (`5.0` is `5`, `1e21` is `1e+21`). What cannot be written is a `ParameterError`
naming the parameter, with the same limits as bodies (`flexclient._wire.formats`): finite numbers,
64-bit integers, text UTF-8 can carry, lists nested at most `MAX_DEPTH` deep and not
containing themselves.
"""

from __future__ import annotations

from collections.abc import Mapping
from urllib.parse import quote

from flexclient._errors import ParameterError
from flexclient._support.narrow import is_array
from flexclient._wire.formats import MAX_DEPTH
from flexclient._wire.value_types import Money
from flexclient._wire.values import Unwritable, as_text, check_text

# encodeURIComponent leaves A-Z a-z 0-9 - _ . ! ~ * ' ( ) alone; the SDKs also keep commas.
_SAFE = "!*'(),"


def _scalar(value: object, key: str, open_lists: tuple[int, ...] = ()) -> str:
    if is_array(value):
        return _list(value, key, open_lists)
    if isinstance(value, Money):
        raise ParameterError(key, "Money cannot be used in a query; give the amount")
    if isinstance(value, Mapping):
        raise ParameterError(key, f"a mapping cannot be used in a query; {_instead(key)}")
    try:
        return as_text(value)
    except Unwritable as exc:
        raise ParameterError(key, str(exc)) from None


# What to give instead of a mapping, by the parameter's name (or its prefix, to the dot).
_INSTEAD = {
    "include": "give the relationship paths as a list, e.g. ['author', 'author.profileImage']",
    "fields.": "give the attribute names as a list, e.g. ['title', 'price']",
    "limit.": "give the number of resources to include, e.g. 5",
    "imageVariant.": "write the variant as 'w:640;h:480;fit:scale' (object_query)",
}


def _instead(key: str) -> str:
    prefix = key.partition(".")[0] + "." if "." in key else key
    return _INSTEAD.get(prefix, "give a string, a number, a boolean or a list")


def _list(value: list[object] | tuple[object, ...], key: str, open_lists: tuple[int, ...]) -> str:
    # As JavaScript's Array.toString: items comma-joined, nested lists flattened, None
    # written as nothing. JavaScript writes a list inside itself as nothing; here it is an
    # error, as in a body.
    if id(value) in open_lists:
        raise ParameterError(key, "the list contains itself")
    if len(open_lists) >= MAX_DEPTH:
        raise ParameterError(key, f"lists nested more than {MAX_DEPTH} levels deep")
    inner = (*open_lists, id(value))
    return ",".join("" if v is None else _scalar(v, key, inner) for v in value)


def _name(key: object) -> str:
    """A query parameter's name, which must be a string."""
    if not isinstance(key, str):
        raise ParameterError(f"<{type(key).__name__}>", "query parameter names must be strings")
    return key


def _encode(text: str, key: str) -> str:
    try:
        return quote(text, safe=_SAFE)
    except UnicodeEncodeError as exc:
        raise ParameterError(key, f"text cannot be encoded as UTF-8: {exc.reason}") from exc


def write_query(params: Mapping[str, object] | None) -> str:
    """Query parameters -> the query string (without `?`); raises `ParameterError`.

    >>> write_query({"include": ["author", "images"], "perPage": 5, "page": None})
    'include=author,images&perPage=5'
    """
    if not params:
        return ""
    parts: list[str] = []
    for key, value in params.items():
        name = _name(key)
        if value is None:
            continue
        parts.append(f"{_encode(name, name)}={_encode(_scalar(value, name), name)}")
    return "&".join(parts)


def object_query(values: Mapping[str, object]) -> str:
    """The API's "object query string" for parameters such as `imageVariant.<name>`.

    >>> object_query({"w": 640, "h": 1280, "fit": "scale"})
    'w:640;h:1280;fit:scale'
    """
    parts: list[str] = []
    for key, value in values.items():
        name = _name(key)
        if value is not None:
            check_text(name, name)
            parts.append(f"{name}:{_scalar(value, name)}")
    return ";".join(parts)
