"""What the fake knows of a resource type, read from its model in `flexclient.models`.

The fake keeps no field lists of its own: a resource's attributes are an instance of the
attribute model of its type (`ListingAttributes` for `listing`), stored and validated by
pydantic, and sent under the model's wire names. A type without a model keeps whatever
attributes its handler gives it, under their wire names.
"""

from __future__ import annotations

import types
import typing
from collections.abc import Mapping
from typing import Any, TypeGuard, TypeVar

from pydantic import BaseModel, ValidationError

from flexclient._support.narrow import is_json_object, is_list
from flexclient.models import Attributes
from flexclient.models._relations import Relation, ToMany
from flexclient.models._resource import Resource, model_for

M = TypeVar("M", bound=BaseModel)

# Extended data: merged key by key on update (a null value removes a key), filtered on by
# `pub_*`-style query keys. The wire name, and the prefix of the query keys that filter on it.
EXTENDED_DATA = {
    "publicData": "pub_",
    "protectedData": "prot_",
    "privateData": "priv_",
    "metadata": "meta_",
}


class BadValue(ValueError):
    """A value that does not fit the model; `path` says where, from the attributes down."""

    def __init__(self, path: list[str], why: str) -> None:
        super().__init__(why)
        self.path = path


def attributes_model(rtype: str) -> type[BaseModel]:
    """The attribute model of a resource type (`Attributes`, keeping anything, if none)."""
    annotation = model_for(rtype).model_fields["attributes"].annotation
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        return annotation
    return Attributes


def relations(rtype: str) -> dict[str, tuple[bool, str | None]]:
    """The relationships the model of a type declares: wire name -> (to many?, the type of
    the resources it refers to)."""
    found: dict[str, tuple[bool, str | None]] = {}
    for klass in reversed(model_for(rtype).__mro__):
        for value in vars(klass).values():
            if _is_relation(value):
                try:
                    target = value.model().resource_type
                except TypeError:  # a model named but not defined (yet)
                    target = None
                found[value.name] = (isinstance(value, ToMany), target)
    return found


def _is_relation(value: object) -> TypeGuard[Relation[Resource]]:
    # `isinstance` cannot name the type argument: a relation refers to a resource of some type.
    return isinstance(value, Relation)


def _without_none(annotation: Any) -> Any:
    if typing.get_origin(annotation) in (typing.Union, types.UnionType):
        rest = [a for a in typing.get_args(annotation) if a is not type(None)]
        return rest[0] if len(rest) == 1 else annotation
    return annotation


def blank(model: type[BaseModel]) -> dict[str, Any]:
    """The attributes of a new stored resource, by field name: extended data and lists empty,
    flags false, nested parts blank likewise, everything else null. Every field is set, so
    every one is sent."""
    out: dict[str, Any] = {}
    for name, info in model.model_fields.items():
        kind = _without_none(info.annotation)
        origin = typing.get_origin(kind) or kind
        if isinstance(origin, type) and issubclass(origin, BaseModel):
            out[name] = blank(origin)
        elif origin in (dict, Mapping):
            out[name] = {}
        elif origin in (list, typing.Sequence):
            out[name] = []
        elif kind is bool:
            out[name] = False
        else:
            out[name] = None
    return out


def field_names(model: type[BaseModel]) -> dict[str, str]:
    """Wire name -> field name, for every field of the model."""
    return {info.alias or name: name for name, info in model.model_fields.items()}


def by_field_name(model: type[BaseModel], values: Mapping[str, Any]) -> dict[str, Any]:
    """`values` keyed by wire name, keyed by field name where the model has the field."""
    names = field_names(model)
    return {names.get(key, key): value for key, value in values.items()}


def current(instance: BaseModel) -> dict[str, Any]:
    """What an instance holds, by field name: its set fields and the keys it kept."""
    values = {name: getattr(instance, name) for name in instance.model_fields_set}
    values.update(instance.model_extra or {})
    return values


def validated(model: type[M], values: Mapping[str, Any]) -> M:
    """`values` (by field name) as the model, or `BadValue` saying where they do not fit."""
    try:
        return model.model_validate(dict(values))
    except ValidationError as exc:
        error = exc.errors()[0]
        names = {name: info.alias or name for name, info in model.model_fields.items()}
        path = [names.get(str(p), str(p)) for p in error["loc"]]
        raise BadValue(path, error["msg"]) from exc


def stored(model: type[M], values: Mapping[str, Any] | None = None) -> M:
    """New attributes: `blank` ones with `values` (by field name) over them."""
    return validated(model, {**blank(model), **(values or {})})


def changed(instance: M, values: Mapping[str, Any]) -> M:
    """A validated copy of `instance` with `values` (by field name) replacing its own."""
    return validated(type(instance), {**current(instance), **values})


def wire(value: object) -> Any:
    """A stored value as the API sends it: models as maps of their set fields under their
    wire names (and the keys they kept), containers walked, other values as they are."""
    if isinstance(value, BaseModel):
        out: dict[str, Any] = {}
        for name, info in type(value).model_fields.items():
            if name in value.model_fields_set:
                out[info.alias or name] = wire(getattr(value, name))
        for key, extra in (value.model_extra or {}).items():
            out[key] = wire(extra)
        return out
    if is_list(value):
        return [wire(v) for v in value]
    if is_json_object(value):
        return {k: wire(v) for k, v in value.items()}
    return value
