"""Checks of parameters before anything is sent, each naming the parameter it refuses.

- Keys given in `custom=` must be of the API's open families (`pub_*`, `meta_*`, `priv_*`,
  `prot_*`, `fields.*`, `imageVariant.*`, `limit.*`), and not given twice.
- IDs must be UUIDs: every key that the endpoint's parameter TypedDict types as an ID
  (`id`, `listingId`, `ids`, ...; `flexclient.params.Id`) takes a `uuid.UUID` or its text,
  in its canonical form. The API would answer 400; this says which key, before sending.

- A key the endpoint's TypedDicts do not document (and of no open family) is sent, since the
  API is the judge of what it takes, but warned about with the documented keys it resembles:
  `UnknownParameterWarning: 'per_page' is not a documented parameter of listings/query; did
  you mean 'perPage'?` (make it an error with `warnings.simplefilter("error",
  UnknownParameterWarning)`).

- A snake_case spelling of a documented camelCase key (`listing_id` for `listingId`, as the
  official web template writes some) is sent as it is, since the API takes it, and warned
  about with the key to write instead: the types, the checks and the docs know `listingId`.

- A call of an endpoint the table marks deprecated (`deprecated=`, the reason) warns with a
  `DeprecationWarning` that says why.

The checks read the endpoint's TypedDicts (data, not a list of names kept here).
"""

from __future__ import annotations

import functools
import re
import typing
import uuid
import warnings
from collections.abc import Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, Literal

from flexclient._errors import ParameterError, UnknownParameterWarning, callers_level
from flexclient._support.narrow import is_dict, is_mapping, is_sequence
from flexclient._support.suggest import did_you_mean

if TYPE_CHECKING:
    from flexclient._endpoints.kinds import Endpoint

CUSTOM_PREFIXES = ("pub_", "meta_", "priv_", "prot_", "fields.", "imageVariant.", "limit.")
# Compiled by `re` when first used (and kept), not at import.
_UUID = r"(?i)[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}"


def is_custom_key(key: object) -> bool:
    """True for a key of one of the API's open families (`pub_color`, `fields.image`)."""
    return isinstance(key, str) and any(
        key.startswith(p) and len(key) > len(p) for p in CUSTOM_PREFIXES
    )


def check_mapping(param: str, value: object) -> None:
    """A `ParameterError` unless `value` is a mapping or None. `value` is `object`: arguments
    are checked for untyped callers too."""
    if value is not None and not isinstance(value, Mapping):
        raise ParameterError(param, f"must be a mapping, not {type(value).__name__}")


def with_custom(
    params: Mapping[str, object] | None,
    custom: Mapping[str, object] | None,
    where: str = "params",
) -> Mapping[str, object] | None:
    """`params` with the keys of `custom` added, after checking those keys."""
    if custom is None:
        return params
    check_mapping("custom", custom)
    for key in custom:
        if not is_custom_key(key):
            raise ParameterError(
                str(key),
                "is not a key of an open family: custom keys start with "
                + ", ".join(CUSTOM_PREFIXES),
            )
    if params is None or not custom:
        return dict(custom) if params is None else params
    if not is_mapping(params):
        return params  # the client says what is wrong with it
    for key in custom:
        if key in params:
            raise ParameterError(str(key), f"given both in {where} and in custom")
    return {**params, **custom}


IdShape = Literal["one", "many"]


def _id_shape(hint: Any) -> IdShape | None:
    from flexclient.params import Id, Ids

    while typing.get_origin(hint) in (typing.Required, typing.NotRequired):
        hint = typing.get_args(hint)[0]
    if hint == Id or hint == Id | None:
        return "one"
    if hint == Ids or hint == Sequence[Id]:
        return "many"
    return None


@functools.cache
def id_keys(params_type: Any) -> dict[str, IdShape]:
    """The keys a parameter TypedDict types as IDs: one ID, or several."""
    if not typing.is_typeddict(params_type):
        return {}
    hints: dict[str, Any] = typing.get_type_hints(params_type, include_extras=True)
    found: dict[str, IdShape] = {}
    for key, hint in hints.items():
        shape = _id_shape(hint)
        if shape is not None:
            found[key] = shape
    return found


def _check_id(key: str, value: object) -> None:
    if value is None or isinstance(value, uuid.UUID):
        return
    if isinstance(value, str) and re.fullmatch(_UUID, value):
        return
    shown = repr(value) if len(repr(value)) <= 60 else repr(value)[:57] + "..."
    if not isinstance(value, str):
        shown = f"{type(value).__name__} {shown}"
    raise ParameterError(key, f"must be a UUID or a UUID string, not {shown}")


def check_ids(params: Mapping[str, object] | None, params_type: Any) -> None:
    """Raise `ParameterError` for an ID that is not a UUID, naming its key."""
    if not isinstance(params, Mapping):
        return
    shapes = id_keys(params_type)
    for key, shape in shapes.items():
        _check_ids_of(key, params.get(key), shape)
    # A snake_case spelling of an ID key (`listing_id`) holds an ID too.
    for given in params:
        documented = alias_of(given, shapes)
        if documented is not None:
            _check_ids_of(given, params[given], shapes[documented])


def _check_ids_of(key: str, value: object, shape: IdShape) -> None:
    if shape == "one" or isinstance(value, uuid.UUID) or value is None:
        _check_id(key, value)
    elif isinstance(value, str):
        for part in value.split(","):
            _check_id(key, part)
    elif is_sequence(value):
        for n, item in enumerate(value):
            _check_id(f"{key}[{n}]", item)
    else:
        _check_id(key, value)


@functools.cache
def documented_keys(params_type: Any) -> frozenset[str]:
    """The keys a parameter TypedDict declares (its bases' included); empty for another type."""
    keys: object = getattr(params_type, "__annotations__", None)
    if not is_dict(keys) or not hasattr(params_type, "__total__"):
        return frozenset()
    return frozenset(str(k) for k in keys)


def camel_case(key: str) -> str:
    """`key` in camelCase (`listing_id` -> `listingId`); a key without `_` as it is."""
    head, *rest = key.split("_")
    if not head or not rest or not all(rest):
        return key
    return head + "".join(part[:1].upper() + part[1:] for part in rest)


def alias_of(key: object, known: Iterable[str]) -> str | None:
    """The documented key that `key` spells in snake_case (`listing_id` -> `listingId`),
    if `known` has it; None otherwise (and for a key that is no string, as an untyped
    caller's may be)."""
    if not isinstance(key, str):
        return None
    camel = camel_case(key)
    return camel if camel != key and camel in known else None


def _undocumented(keys: Iterable[object], known: frozenset[str]) -> list[str]:
    # `object`: an untyped caller's params may have keys of any type; those are not warned of.
    return [k for k in keys if isinstance(k, str) and k not in known and not is_custom_key(k)]


def warn_unknown_keys(params: Mapping[str, object] | None, params_type: Any, path: str) -> None:
    """Warn about each key `params_type` does not document, naming the ones it resembles."""
    known = documented_keys(params_type)
    if not known or not isinstance(params, Mapping):
        return
    for key in _undocumented(params, known):
        documented = alias_of(key, known)
        if documented is not None:
            message = (
                f"{key!r} is the snake_case spelling of {documented!r}, a parameter of {path}:"
                f" the API reads it as {documented!r} (the official web template relies on"
                f" that) and it is sent as it is, but write {documented!r}, the key"
                " flexclient's types and checks know"
            )
        else:
            message = f"{key!r} is not a documented parameter of {path}" + did_you_mean(
                key, sorted(known)
            )
        warnings.warn(UnknownParameterWarning(message), stacklevel=callers_level())


_FROM_TEXT = "dict(urllib.parse.parse_qsl(text.lstrip('?')))"


def check_parts(param: str, value: object) -> None:
    """A `ParameterError` for the JS SDK's other ways of giving a query's parameters: a
    query string (`"?pub_category=road"`), or a list of parts, maps or query strings, that
    it merges into one query (`sdk.listings.query([part, part])`). flexclient takes one
    mapping, so that one call has one set of keys to check."""
    if isinstance(value, str):
        raise ParameterError(
            param,
            "is a query string, which the JS SDK reads as its parameters; flexclient takes a"
            f" mapping: {_FROM_TEXT}",
        )
    if is_sequence(value) and not isinstance(value, bytes):
        text = any(isinstance(part, str) for part in value)
        raise ParameterError(
            param,
            "is a list of parameter parts, which the JS SDK merges into one query; flexclient"
            " takes one mapping: merge the parts first, {**part1, **part2} (a later part's key"
            " wins, as in the JS SDK)"
            + (f"; a part that is a query string is {_FROM_TEXT}" if text else ""),
        )


def no_second_argument(endpoint: Endpoint[Any, Any], extra: Sequence[object]) -> None:
    """A `ParameterError` for arguments after a query's parameters: the JS SDK drops a
    query's second argument silently (`sdk.transactions.show({id}, {expand: true})`), so
    it never did anything; here it is refused rather than left without effect."""
    if extra:
        raise ParameterError(
            "query_params",
            f"{endpoint.path} is a query: it takes one mapping of query parameters and no"
            " second argument (the JS SDK drops a query's second argument silently). Leave"
            " {'expand': True} out (a query always answers whole resources) and put include,"
            " fields.* and the like in the first mapping",
        )


def check_call(
    endpoint: Endpoint[Any, Any],
    query: Mapping[str, object] | None,
    body: Mapping[str, object] | None,
) -> None:
    """Check an endpoint call's parameters against its TypedDicts (see the docstring)."""
    check_parts("query_params", query)
    if endpoint.deprecated:
        warnings.warn(
            f"{endpoint.path} is deprecated: {endpoint.deprecated}",
            DeprecationWarning,
            stacklevel=callers_level(),
        )
    check_ids(query, endpoint.query_params_type)
    warn_unknown_keys(query, endpoint.query_params_type, endpoint.path)
    if endpoint.kind != "query":
        check_ids(body, endpoint.params_type)
        warn_unknown_keys(body, endpoint.params_type, endpoint.path)
