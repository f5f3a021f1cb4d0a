"""The generic resource, its relationships, and their resolution against `included`.

Every response resource is a `Resource` (or a typed subclass chosen by its `type`). Relationship
accessors resolve lazily, against an index of the response's `included` built once per response;
nothing recurses and nothing touches the network, so cycles (user -> listing -> user) are fine.
"""

from __future__ import annotations

import builtins
import uuid
from collections.abc import Mapping, Sequence
from typing import Any, ClassVar, TypeVar

from pydantic import BaseModel, ConfigDict, Field, PrivateAttr, model_validator
from pydantic.alias_generators import to_camel

from flexclient._errors import RelationshipNotIncludedError, RelationshipTypeError
from flexclient.models._display import html_fields, record, short_repr

# Attributes and nested values: snake_case in Python, the API's camelCase on the wire;
# attributes this version does not know are kept under their wire names.
WIRE_CONFIG = ConfigDict(
    alias_generator=to_camel,
    validate_by_name=True,
    validate_by_alias=True,
    serialize_by_alias=False,
    extra="allow",
)


class WireModel(BaseModel):
    """Base of the attribute models: camelCase aliases, unknown keys kept."""

    model_config = WIRE_CONFIG


class Ref(BaseModel):
    """A reference to a resource: `{id, type}`, exactly as the API sent it."""

    model_config = ConfigDict(extra="allow", frozen=True)

    id: uuid.UUID
    type: str


class Relationship(BaseModel):
    """One relationship: `data` is a reference, a list of references, or None."""

    model_config = ConfigDict(extra="allow")

    data: Ref | list[Ref] | None = None


class Attributes(WireModel):
    """Attributes of a resource type this client has no model for; all keys are kept."""


class _Missing:
    """A reference whose resource is not in `included`, kept to say so when it is read."""

    def __init__(self, ref: Ref) -> None:
        self.ref = ref


R = TypeVar("R", bound="Resource")

_REGISTRY: dict[str, builtins.type[Resource]] = {}


class Resource(BaseModel):
    """A resource of any type: `id`, `type`, `attributes`, `relationships`.

    Typed subclasses (`Listing`, `User`, ...) add typed attributes and relationship
    properties; `related(name)` resolves any relationship by its wire name.

    >>> listing.related("author").attributes.profile.display_name  # doctest: +SKIP
    'Jane D'
    """

    model_config = ConfigDict(extra="allow")
    resource_type: ClassVar[str | None] = None

    id: uuid.UUID
    type: str
    attributes: Attributes = Field(default_factory=Attributes)
    relationships: dict[str, Relationship] = Field(default_factory=dict)

    # Set once, when the response is read: the shortest include path to this resource, and
    # its relationships resolved against `included`.
    _path: tuple[str, ...] = PrivateAttr(default=())
    _resolved: dict[str, Any] = PrivateAttr(default_factory=dict)

    @model_validator(mode="before")
    @classmethod
    def _absent_attributes(cls, data: Any) -> Any:
        # Commands without `expand` answer only `{id, type}`: no attributes at all.
        if isinstance(data, Mapping) and data.get("attributes") is None:
            return {**data, "attributes": {}}
        return data

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        rtype = cls.__dict__.get("resource_type")
        if rtype is not None:
            _REGISTRY[rtype] = cls

    def __repr__(self) -> str:
        return short_repr(self)

    def _repr_pretty_(self, p: Any, cycle: bool) -> None:
        p.text(repr(self))

    def _repr_html_(self) -> str:
        return html_fields(record(self), repr(self))

    def to_record(self, relationships: Sequence[str] = ()) -> dict[str, Any]:
        """This resource as one flat dict, with the chosen relationships (wire names).

        >>> listing.to_record(["author"])["author.profile.display_name"]  # doctest: +SKIP
        'Jane D'
        """
        return record(self, relationships)

    @property
    def ref(self) -> Ref:
        """This resource's `{id, type}` reference."""
        return Ref(id=self.id, type=self.type)

    def related(self, name: str) -> Resource | list[Resource] | None:
        """The resource(s) of the relationship `name` (its wire name, e.g. `"profileImage"`).

        A to-one relationship gives a resource or None, a to-many one a list. Raises
        `RelationshipNotIncludedError`, naming the include path to add, when the response
        did not include it.
        """
        if name not in self._resolved:
            raise RelationshipNotIncludedError(self._include_path(name))
        resolved = self._resolved[name]
        missing = resolved if isinstance(resolved, _Missing) else None
        if isinstance(resolved, list):
            missing = next((r for r in resolved if isinstance(r, _Missing)), None)
        if missing is not None:
            ref = missing.ref
            detail = f"{ref.type} {ref.id} is not in `included`"
            raise RelationshipNotIncludedError(self._include_path(name), detail)
        found: Resource | list[Resource] | None = resolved
        return found

    def _include_path(self, name: str) -> str:
        """The `include` value that would have brought relationship `name` of this resource."""
        return ".".join((*self._path, name))

    def _one(self, name: str, cls: builtins.type[R]) -> R | None:
        value = self.related(name)
        if value is None:
            return None
        return self._expect(name, value, cls)

    def _required(self, name: str, cls: builtins.type[R]) -> R:
        value = self._one(name, cls)
        if value is None:
            raise RelationshipNotIncludedError(
                self._include_path(name), "the API sent no resource for it"
            )
        return value

    def _many(self, name: str, cls: builtins.type[R]) -> list[R]:
        value = self.related(name)
        if value is None:
            return []
        if not isinstance(value, list):
            value = [value]
        return [self._expect(name, v, cls) for v in value]

    def _expect(self, name: str, value: object, cls: builtins.type[R]) -> R:
        if not isinstance(value, cls):
            got = value.type if isinstance(value, Resource) else type(value).__name__
            raise RelationshipTypeError(
                f"relationship {name!r} holds a {got!r}, not a {cls.resource_type!r}; "
                f"use related({name!r}) for the raw resource"
            )
        return value


def model_for(resource_type: str) -> type[Resource]:
    """The model class for a resource type; `Resource` for types this client does not know."""
    return _REGISTRY.get(resource_type, Resource)


def attach(primary: list[Resource], included: list[Resource]) -> None:
    """Resolve every relationship of a response's resources against its `included`, once.

    Resources then refer to each other directly, with no index kept: a page of resources
    without cycles in its data is freed by reference counting as soon as it is dropped.
    """
    by_key: dict[tuple[str, uuid.UUID], Resource] = {(r.type, r.id): r for r in included}
    for r in primary:
        by_key.setdefault((r.type, r.id), r)

    def target(ref: Ref) -> Resource | _Missing:
        return by_key.get((ref.type, ref.id)) or _Missing(ref)

    for res in (*primary, *included):
        resolved: dict[str, Any] = {}
        for name, rel in res.relationships.items():
            data = rel.data
            if data is None:
                resolved[name] = None
            elif isinstance(data, list):
                resolved[name] = [target(ref) for ref in data]
            else:
                resolved[name] = target(data)
        res._resolved = resolved
    # Include paths, shortest first (breadth first from the data), for error messages.
    seen = {id(r) for r in primary}
    frontier: list[Resource] = list(primary)
    while frontier:
        reached: list[Resource] = []
        for res in frontier:
            for name, value in res._resolved.items():
                for item in value if isinstance(value, list) else [value]:
                    if isinstance(item, Resource) and id(item) not in seen:
                        seen.add(id(item))
                        item._path = (*res._path, name)
                        reached.append(item)
        frontier = reached
