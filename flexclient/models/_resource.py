"""The generic resource, its relationships, and their resolution against `included`.

Every response resource is a `Resource` (or a typed subclass chosen by its `type`), built by
`resource_from`. `attach` resolves every relationship once, when the response is read, to the
included resources themselves; accessors then only look up, nothing touches the network, and
cycles (user -> listing -> user) are fine.
"""

from __future__ import annotations

import builtins
import contextlib
import copy
import importlib
import uuid
from collections.abc import Callable, Generator, Hashable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Annotated, Any, ClassVar, Self, TypeVar, cast

from pydantic import BaseModel, ConfigDict, Field, GetCoreSchemaHandler
from pydantic_core import CoreSchema, core_schema

from flexclient._errors import ParameterError, RelationshipNotIncludedError, RelationshipTypeError
from flexclient._support.frozen import Frozen
from flexclient._support.narrow import is_dict, is_list, is_mapping, is_set, is_str
from flexclient._wire.values import uuid_value
from flexclient.models._display import describe, html_fields, record, short_repr
from flexclient.models._relations import LINKS, NO_RESPONSE_LINKS, Relation


def no_items() -> list[Any]:
    """A new empty list: the default of a list field, as `Field(default_factory=no_items)`.

    pydantic reads a default factory's signature when it builds the model's validator.
    `list`'s is read from its text with the `tokenize` module, whose patterns the first such
    read compiles (in the first call that answers such a model); a function's is read from
    its code."""
    return []


def wire_name(name: str) -> str:
    """A field's name as the API spells it: the words between underscores, each after the
    first with its first letter capitalised, the rest left as written. `public_data` is
    `publicData`, `type_` is `type`.

    The alias generator of `WireModel` and so of every attribute model. pydantic's
    `to_camel` gives the same for every field flexclient defines (a test checks), but
    defining the models would then import it and compile its patterns at every start; it
    also differs on names no model here has (`variant_2x` is `variant2X` there).

    >>> wire_name("protected_data"), wire_name("display_name")
    ('protectedData', 'displayName')
    """
    head, *rest = name.split("_")
    return head + "".join(part[:1].upper() + part[1:] for part in rest)


# Attributes and nested values: snake_case in Python, the API's camelCase on the wire;
# attributes this version does not know are kept under their wire names.
WIRE_CONFIG = ConfigDict(
    alias_generator=wire_name,
    validate_by_name=True,
    validate_by_alias=True,
    serialize_by_alias=False,
    extra="allow",
    # Each model's validator is built when first used: import time counts (docs/performance.md).
    defer_build=True,
)


class WireModel(BaseModel):
    """Base of the attribute models: camelCase aliases (`wire_name`), unknown keys kept.

    `str()` (and so `print()` and table cells) is its fields that have a value, as people
    read them; `repr()` stays pydantic's.
    """

    model_config: ClassVar[ConfigDict] = WIRE_CONFIG

    def __str__(self) -> str:
        return describe(self)


def _serialized_as(schema: CoreSchema, serialization: core_schema.SerSchema) -> CoreSchema:
    """`schema` dumped by `serialization` (set inside the definitions pydantic may wrap it in)."""
    inner: dict[str, Any] = cast("dict[str, Any]", schema)
    while inner["type"] == "definitions":
        inner = inner["schema"]
    inner["serialization"] = serialization
    return schema


def _excluded(name: str, exclude: object) -> bool:
    # A dump's `exclude` at this level: a set of names, or a dict whose True (or ...) leaves a
    # name out whole (anything else there narrows inside the member).
    if is_dict(exclude):
        return exclude.get(name) is True or exclude.get(name) is Ellipsis
    return is_set(exclude) and name in exclude


def _dumped_with_unknown_members(
    value: object,
    handler: core_schema.SerializerFunctionWrapHandler,
    info: core_schema.SerializationInfo,
) -> object:
    # pydantic keeps a dataclass's unknown members (extra="allow") as attributes but leaves
    # them out of a dump (pydantic/pydantic#12557); a model's are in it, filtered as its fields.
    dumped = handler(value)
    fields = getattr(value, "__dataclass_fields__", {})
    if is_dict(dumped):
        include, exclude = info.include, info.exclude
        for name, member in vars(value).items():
            if (
                name in fields
                or _excluded(name, exclude)
                or (include is not None and name not in include)
                or (member is None and info.exclude_none)
            ):
                continue
            dumped[name] = member
    return dumped


class _RelationshipObject(Frozen):
    """Base of the objects inside `relationships`: frozen dataclasses that pydantic validates
    where a resource holds them, keeping members this version does not know as attributes
    and in `model_dump`. Compared, hashed and shown by their fields. Dataclasses rather than
    models: a page has one of these for every relationship and reference, and a model
    instance holds three more memory blocks."""

    __slots__ = ()
    __pydantic_config__: ClassVar[ConfigDict] = ConfigDict(extra="allow")

    @classmethod
    def __get_pydantic_core_schema__(
        cls, source: object, handler: GetCoreSchemaHandler
    ) -> CoreSchema:
        return _serialized_as(
            handler(source),
            core_schema.wrap_serializer_function_ser_schema(
                _dumped_with_unknown_members, info_arg=True
            ),
        )


@dataclass(frozen=True, init=False, eq=False, repr=False)
class Ref(_RelationshipObject):
    """A reference to a resource: `{id, type}`, as the API sent it. Made in code, `id` may
    be a UUID or its text; pydantic, reading a response, sets the fields without this check."""

    id: uuid.UUID
    type: str

    def __init__(self, id: uuid.UUID | str, type: str) -> None:
        if not is_str(type):  # code not type-checked may pass anything
            raise ParameterError("type", "must be a resource type, a string")
        self.__dict__.update(id=uuid_value("id", id), type=type)


@dataclass(frozen=True, eq=False, repr=False)
class Relationship(_RelationshipObject):
    """One relationship: `data` is a reference, a list of references, or None."""

    # Tried in order (a list, else one reference): pydantic's default "smart" union tries
    # every member on every value, and there is one of these for every relationship.
    data: Annotated[list[Ref] | Ref | None, Field(union_mode="left_to_right")] = None


class Attributes(WireModel):
    """Attributes of a resource type this client has no model for; all keys are kept."""


class _Missing:
    """A reference whose resource is not in `included`, kept to say so when it is read."""

    def __init__(self, ref: Ref) -> None:
        self.ref = ref


_ABSENT = object()
_LINKS = (LINKS,)
_NO_LINKS: dict[str, Any] = {}  # of resources without relationships; never written

R = TypeVar("R", bound="Resource")

# The model of each resource type. The library's own register themselves, each when its module
# (the one MODEL_MODULES names for its type) is imported; a program chooses its own with
# `register_model`, and those come first. `_REGISTRY` is the two together, what decoding
# reads; each change writes it in one `update` (a decode in another thread sees a type's model
# before or after the change, never neither).
_LIBRARY: dict[str, builtins.type[Resource]] = {}
_CHOSEN: dict[str, builtins.type[Resource]] = {}
_REGISTRY: dict[str, builtins.type[Resource]] = {}


def _registry_changed() -> None:
    wanted = {**_LIBRARY, **_CHOSEN}
    _REGISTRY.update(wanted)
    for gone in _REGISTRY.keys() - wanted.keys():
        del _REGISTRY[gone]
    for model in _REBUILT:
        if model.__pydantic_complete__:
            model.model_rebuild(force=True)


class Resource(BaseModel):
    """A resource of any type: `id`, `type`, `attributes`, `relationships`.

    Typed subclasses (`Listing`, `User`, ...) add typed attributes and relationships
    (`ToOne`, `ToOneOrNone`, `ToMany`); `related(name)` resolves any relationship by its wire
    name. `has_attributes` is False for the bare `{id, type}` a command answers without
    `expand=true` (its attributes are then all None or empty).

    >>> listing.related("author").attributes.profile.display_name  # doctest: +SKIP
    'Jane D'
    """

    model_config: ClassVar[ConfigDict] = ConfigDict(
        extra="allow", ignored_types=(Relation,), defer_build=True
    )
    resource_type: ClassVar[str | None] = None
    # The wire names of the relationships a typed model declares (None: a resource of a type
    # this client has no model for, whose relationships are not known in advance).
    relationship_names: ClassVar[frozenset[str] | None] = None
    # Set by `attach` when the response is read: the shortest include path to this resource
    # (for error messages), and its relationships resolved against `included`, by wire name.
    # One slot for both (one write a resource), rather than pydantic private attributes,
    # which cost a Python call per resource while a response is validated.
    __slots__ = _LINKS
    if TYPE_CHECKING:  # annotated for mypy only: pydantic would make it a private attribute
        _links: tuple[tuple[str, ...], dict[str, Any]]

    id: uuid.UUID
    type: str
    attributes: Attributes = Field(default_factory=Attributes)
    relationships: dict[str, Relationship] = Field(default_factory=dict)

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        declared = {
            value.name
            for klass in cls.__mro__
            for value in vars(klass).values()
            if isinstance(value, Relation)
        }
        if declared or cls.resource_type is not None:
            cls.relationship_names = frozenset(declared)
        # Only the library's own models register themselves: a program's subclass changes
        # nothing until the program passes it to `register_model`.
        rtype = cls.__dict__.get("resource_type")
        if rtype is not None and cls.__module__ == f"flexclient.models.{MODEL_MODULES.get(rtype)}":
            _LIBRARY[rtype] = cls
            _registry_changed()

    # Copies and pickles keep the resolved relationships (pydantic copies only its own state).
    def __copy__(self) -> Self:
        new = super().__copy__()
        for slot in _LINKS:
            if hasattr(self, slot):
                setattr(new, slot, getattr(self, slot))
        return new

    def __deepcopy__(self, memo: dict[int, Any] | None = None) -> Self:
        memo = {} if memo is None else memo
        new = super().__deepcopy__(memo)  # registers `new` in memo first: cycles end there
        for slot in _LINKS:
            if hasattr(self, slot):
                setattr(new, slot, copy.deepcopy(getattr(self, slot), memo))
        return new

    def __getstate__(self) -> dict[Any, Any]:
        state = super().__getstate__()
        state["flexclient_links"] = {s: getattr(self, s) for s in _LINKS if hasattr(self, s)}
        return state

    def __setstate__(self, state: dict[Any, Any]) -> None:
        super().__setstate__(state)
        for slot, value in state.get("flexclient_links", {}).items():
            setattr(self, slot, value)

    def __repr__(self) -> str:
        return short_repr(self)

    # print() shows the same short form, not pydantic's every field.
    __str__ = __repr__

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

    @property
    def has_attributes(self) -> bool:
        """False when the API sent only `id` and `type`: the answer of a command called
        without `{"expand": True}`. Its attributes are then all None (lists and maps empty)."""
        return "attributes" in self.model_fields_set

    def related(self, name: str) -> Resource | list[Resource] | None:
        """The resource(s) of the relationship `name` (its wire name, e.g. `"profileImage"`).

        A to-one relationship gives a resource or None, a to-many one a list. Raises
        `RelationshipNotIncludedError`, naming the include path to add, when the response
        did not include it, and `ParameterError` when the model has no relationship of that
        name (the message lists those it has).
        """
        resolved: Any = getattr(self, LINKS, NO_RESPONSE_LINKS)[1].get(name, _ABSENT)
        if resolved is _ABSENT:
            self._check_relationship_name(name)
            raise RelationshipNotIncludedError(self._include_path(name))
        missing = resolved if isinstance(resolved, _Missing) else None
        if is_list(resolved):
            for item in resolved:
                if isinstance(item, _Missing):
                    missing = item
                    break
            resolved = list(resolved)  # the caller's own list
        if missing is not None:
            ref = missing.ref
            detail = f"{ref.type} {ref.id} is not in `included`"
            raise RelationshipNotIncludedError(self._include_path(name), detail)
        # What attach() resolved: a resource, a list of them, or None (no _Missing is left).
        return cast("Resource | list[Resource] | None", resolved)

    def _check_relationship_name(self, name: str) -> None:
        """A ParameterError unless the model declares `name` or the response sent it."""
        known = type(self).relationship_names
        if known is None or name in known or name in self.relationships:
            return
        names = sorted(known | self.relationships.keys())
        has = f"its relationships are {', '.join(names)}" if names else "it has none"
        raise ParameterError("name", f"a {self.type!r} has no relationship {name!r}; {has}")

    def _include_path(self, name: str) -> str:
        """The `include` value that would have brought relationship `name` of this resource."""
        return ".".join((*getattr(self, LINKS, NO_RESPONSE_LINKS)[0], name))

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
        # The exact type first: isinstance against a pydantic model class is a Python call.
        if type(value) is not cls and not isinstance(value, cls):
            got = value.type if isinstance(value, Resource) else type(value).__name__
            raise RelationshipTypeError(
                f"relationship {name!r} holds a {got!r}, not a {cls.resource_type!r}; "
                f"use related({name!r}) for the raw resource"
            )
        return value


class _DumpedAsItsOwnType:
    """Marks a field's resources to be dumped each as its own model (a User with a User's
    attributes), not as the `Resource` the field declares. pydantic's `SerializeAsAny` does
    the same, but its module and dataclasses would be imported with the models."""

    def __get_pydantic_core_schema__(
        self, source: object, handler: GetCoreSchemaHandler
    ) -> CoreSchema:
        return _serialized_as(handler(source), core_schema.simple_ser_schema("any"))


AnyResource = Annotated[Resource, _DumpedAsItsOwnType()]
"""A field type for resources of any type, each dumped (`model_dump`) as its own model."""


class ValidatedByItsType(_DumpedAsItsOwnType):
    """Marks a field holding one resource of any type, validated by its type's model inside
    pydantic-core, as a response's own resources are (`_envelope`): a JSON body goes from its
    bytes straight into the model, with no plain values in between, which a validator of the
    enclosing model's (a Python function) would force on all of it. A resource the models do
    not take (a type without a model, null `attributes`, no `type`) goes to `resource_from`,
    its type then read from the field `type_field` names, validated before this one.

    The schema holds the registry's models as it is built, all of the library's imported
    first; the models with such a field are rebuilt when the registry changes
    (`rebuilt_with_the_registry`), so that a program's own model is read here too. Use it as
    `Annotated[Resource, ValidatedByItsType("resource_type")] | None`; dumped as its own
    model, as `AnyResource` is."""

    def __init__(self, type_field: str) -> None:
        self.type_field = type_field

    def __get_pydantic_core_schema__(
        self, source: object, handler: GetCoreSchemaHandler
    ) -> CoreSchema:
        for module in sorted(set(MODEL_MODULES.values())):
            importlib.import_module(f"flexclient.models.{module}")  # registers its models
        choices: dict[Hashable, CoreSchema] = {
            m.resource_type: handler.generate_schema(m)
            for m in registered_models()
            if m.resource_type
        }
        typed = core_schema.tagged_union_schema(choices, discriminator="type")
        other = core_schema.with_info_plain_validator_function(self._other)
        schema = core_schema.union_schema([typed, other], mode="left_to_right")
        return _serialized_as(schema, core_schema.simple_ser_schema("any"))

    def _other(self, raw: object, info: core_schema.ValidationInfo) -> Resource:
        if isinstance(raw, Resource):
            return raw
        if not (is_mapping(raw) and "id" in raw):
            # Not a resource at all: the generic model's validation says what is missing.
            made: Resource = Resource.__pydantic_validator__.validate_python(raw)
            return made
        if not raw.get("type"):
            raw = {**raw, "type": info.data.get(self.type_field)}
        return resource_from(raw)


_REBUILT: list[builtins.type[BaseModel]] = []


def rebuilt_with_the_registry(*models: builtins.type[BaseModel]) -> None:
    """Rebuild `models` (in order: a model before those that hold it) whenever the registry
    changes, once built: they hold `ValidatedByItsType` fields, whose schema holds the models."""
    _REBUILT.extend(models)


# Where each resource type's model is defined: a module of flexclient.models is imported when
# a resource of one of its types is first read (tests/test_relationships.py keeps this true).
MODEL_MODULES: dict[str, str] = {
    "asset": "assets",
    "availabilityException": "availability",
    "timeSlot": "availability",
    "event": "events",
    "file": "files",
    "fileAttachment": "files",
    "fileDownload": "files",
    "fileUpload": "files",
    "ownFile": "files",
    "ownFileDownload": "files",
    "image": "images",
    "listing": "listings",
    "ownListing": "listings",
    "marketplace": "marketplace",
    "message": "messages",
    "review": "reviews",
    "stock": "stock",
    "stockAdjustment": "stock",
    "stockReservation": "stock",
    "stripeAccount": "stripe",
    "stripeAccountLink": "stripe",
    "stripeCustomer": "stripe",
    "stripePaymentMethod": "stripe",
    "stripePerson": "stripe",
    "stripeSetupIntent": "stripe",
    "booking": "transactions",
    "processTransition": "transactions",
    "transaction": "transactions",
    "currentUser": "users",
    "passwordReset": "users",
    "permissionSet": "users",
    "user": "users",
}


def model_for(resource_type: str) -> type[Resource]:
    """The model class for a resource type; `Resource` for types this client does not know."""
    found = _REGISTRY.get(resource_type)
    if found is None:
        module = MODEL_MODULES.get(resource_type)
        if module is None:
            return Resource
        importlib.import_module(f"flexclient.models.{module}")  # registers its models
        found = _REGISTRY.get(resource_type, Resource)
    return found


def registered_models() -> tuple[type[Resource], ...]:
    """The model of every resource type with one whose module is imported or that a program
    registered, the latest definition of each."""
    return tuple(_REGISTRY.values())


def register_model(model: type[R]) -> type[R]:
    """Read every resource of `model.resource_type` as a `model`, in every client of this
    process, from the next answer on; returns `model`, so it also serves as a decorator.

    A subclass of a resource model (`class MyListing(Listing)`) is an ordinary class until it
    is registered: defining it replaces nothing. Registering a model for a type that has one
    replaces it (the last registered wins); a type this client has no model for gets one.
    `registered(...)` does the same for a block only, as a test wants.

    >>> @register_model  # doctest: +SKIP
    ... class MyListing(Listing):
    ...     @property
    ...     def category(self) -> str | None:
    ...         return (self.attributes.public_data or {}).get("category")
    """
    if not _is_typed_model(model):  # code not type-checked may pass anything
        raise ParameterError("model", f"must be a subclass of Resource, not {model!r}")
    rtype = model.resource_type
    if not is_str(rtype) or not rtype:
        raise ParameterError(
            "model", f"{model.__name__} has no resource_type: the type it is the model of"
        )
    _CHOSEN[rtype] = model
    _registry_changed()
    return model


def _is_typed_model(value: object) -> bool:
    return isinstance(value, type) and issubclass(value, Resource) and value is not Resource


@contextlib.contextmanager
def registered(*models: type[Resource]) -> Generator[None]:
    """Within the block, resources of each model's type are read as that model (as
    `register_model` does); after it, the models registered before it are back, whatever was
    registered inside it.

    >>> with registered(MyListing):  # doctest: +SKIP
    ...     assert type(sdk.listings.show({"id": listing_id}).data.data) is MyListing
    """
    saved = dict(_CHOSEN)
    try:
        for model in models:
            register_model(model)
        yield
    finally:
        _CHOSEN.clear()
        _CHOSEN.update(saved)
        _registry_changed()


def resource_from(raw: Mapping[str, Any]) -> Resource:
    """A decoded `{id, type, attributes, relationships}` as the model for its `type`.

    What the client does with each resource of a response; useful for resources kept as
    JSON (a stored event, a fixture). Types this client has no model for give a `Resource`;
    absent or null `attributes` give empty ones. Raises pydantic's `ValidationError` when the
    value does not fit the model. Relationships are resolved only within a response.

    >>> resource_from({"id": "c6ff7190-bdf7-47a0-8a2b-e3136e74334f", "type": "listing"})
    <Listing listing c6ff7190-bdf7-47a0-8a2b-e3136e74334f>
    """
    if "attributes" in raw and raw["attributes"] is None:
        # Commands without `expand` answer only `{id, type}`: no attributes at all, which
        # `has_attributes` tells apart from attributes sent and empty.
        raw = {k: v for k, v in raw.items() if k != "attributes"}
    rtype = raw.get("type")
    cls = model_for(rtype) if type(rtype) is str else Resource
    # The validator itself: model_validate adds a Python frame per resource for nothing here.
    made: Resource = cls.__pydantic_validator__.validate_python(raw)
    return made


# The slot's own setter: object.__setattr__ would look the name up in the type on every call
# (pydantic's __setattr__ is Python), and this runs for most resources of a response.
_set_links = Resource.__dict__[LINKS].__set__

_Key = tuple[str, int]
_Path = tuple[str, ...]


def attach(primary: list[Resource], included: list[Resource]) -> None:
    """Resolve every relationship of a response's resources against its `included`, once.

    Resources then refer to each other directly, with no index kept: a page of resources
    without cycles in its data is freed by reference counting as soon as it is dropped.
    """
    # Keyed by the UUID's int: hashing an int is done in C, hashing a UUID calls Python.
    by_key: dict[_Key, Resource] = {(r.type, r.id.int): r for r in included}
    # The included resources no reference has reached yet: the reference that takes one out
    # of here is the first to reach it, in the lookup that finds it (no set of ids beside).
    unseen = by_key.copy()
    twice = len(unseen) < len(included)  # a resource twice: the index has the last of each
    lost = _DataIndex(primary).get
    # Breadth first from the data, so that each resource gets the shortest include path that
    # reaches it (for error messages); included resources nothing refers to come last, at ().
    _spread(primary, by_key.get, unseen.pop, lost)
    rest = _unreached(included, by_key, unseen) if twice else list(unseen.values())
    unseen.clear()
    _spread(rest, by_key.get, unseen.pop, lost)


class _DataIndex:
    """The data's resources by key, for references to them (rare: most point into `included`,
    which is looked in first), built on the first such reference."""

    def __init__(self, primary: list[Resource]) -> None:
        self._primary = primary
        self._index: dict[_Key, Resource] | None = None

    def get(self, key: _Key) -> Resource | None:
        if self._index is None:  # the first of a key in `data` is the one
            self._index = {(r.type, r.id.int): r for r in reversed(self._primary)}
        return self._index.get(key)


def _unreached(
    included: list[Resource], by_key: dict[_Key, Resource], unseen: dict[_Key, Resource]
) -> list[Resource]:
    """The included resources no reference reached, the shadowed ones of a repeated key too."""
    rest: list[Resource] = []
    for r in included:
        key = (r.type, r.id.int)
        if unseen.get(key) is r or by_key[key] is not r:
            rest.append(r)
    return rest


def _spread(
    start: list[Resource],
    find: Callable[[_Key], Resource | None],
    take: Callable[[_Key, None], Resource | None],
    lost: Callable[[_Key], Resource | None],
) -> None:
    """Resolve the relationships of `start`, at include path (), then of what they reach."""
    set_links = _set_links
    # The resources of one level, by the include path that reached them: each relationship
    # of each parent adds to one list, so no path is kept per resource until its own
    # relationships are resolved (the authors of a page all share ("author",)).
    level: dict[_Path, list[Resource]] = {(): start}
    while level:
        reached: dict[_Path, list[Resource]] = {}
        for path, members in level.items():
            bare = (path, _NO_LINKS)  # the links of those with no relationships
            groups: dict[str, list[Resource]] = {}
            for res in members:
                rels = res.relationships
                if not rels:
                    # Most included resources (images) refer to nothing, and their model
                    # declares nothing: `related()` can only say so, and needs no path.
                    declared = type(res).relationship_names
                    if declared is None or declared:
                        set_links(res, bare)
                    continue
                resolved: dict[str, Any] = {}
                for name, rel in rels.items():
                    data = rel.data
                    if data is None:
                        resolved[name] = None
                    elif isinstance(data, list):
                        found: list[Any] = []
                        group = None
                        for ref in data:
                            key = (ref.type, ref.id.int)
                            item = take(key, None)
                            if item is None:
                                found.append(find(key) or lost(key) or _Missing(ref))
                                continue
                            if group is None:
                                group = groups.get(name) or _group(groups, reached, path, name)
                            group.append(item)
                            found.append(item)
                        resolved[name] = found
                    else:
                        key = (data.type, data.id.int)
                        one = take(key, None)
                        if one is None:
                            resolved[name] = find(key) or lost(key) or _Missing(data)
                            continue
                        (groups.get(name) or _group(groups, reached, path, name)).append(one)
                        resolved[name] = one
                set_links(res, (path, resolved))
        level = reached


def _group(
    groups: dict[str, list[Resource]],
    reached: dict[_Path, list[Resource]],
    path: _Path,
    name: str,
) -> list[Resource]:
    """The list of the next level's resources reached through relationship `name` of those
    at `path`."""
    group = groups[name] = reached[(*path, name)] = []
    return group
