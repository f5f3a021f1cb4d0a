"""Relationships declared on a model: one line each, typed, resolved against `included`.

    class Listing(Resource):
        author: ClassVar[ToOne[User]] = ToOne("author")     # a User; the API always sends one
        current_stock: ClassVar[ToOneOrNone[Stock]] = ToOneOrNone("currentStock")  # or None
        images: ClassVar[ToMany[Image]] = ToMany("images")  # a list of Image

The annotation's type argument is the model of the related resources, looked up by name when
first needed, so a model module imports the models it refers to for the type checkers only
(a module of models is imported when a resource of its types is first read); the argument is
the relationship's wire name. Reading the attribute resolves it as `Resource.related` does,
and a model's declared names are what `related()` checks a name against.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, ForwardRef, Generic, Self, TypeVar, overload

from flexclient._support.lazy import declared_args

if TYPE_CHECKING:
    from flexclient.models._resource import Resource

R = TypeVar("R", bound="Resource")

# The descriptors below answer the usual case in their own frame: the relationship resolved
# when the response was read, to resources of exactly the declared model. Anything else (not
# resolved, not included, None where one is required, another type) goes through the
# resource's own checks, which say what is wrong. One Python call instead of six or more, for
# an access every program makes for every resource it reads (decode.py times it).
_ABSENT: Any = object()
# A resource's links (the attribute `LINKS` names, set when a response is read): its include
# path and its relationships resolved by wire name; `NO_RESPONSE_LINKS` for a resource built
# by hand. Never written.
LINKS = "_links"
NO_RESPONSE_LINKS: tuple[tuple[str, ...], dict[str, Any]] = ((), {})


class Relation(Generic[R]):
    """A relationship of a model: its wire name and the model of its resources.

    The descriptors call the resource's own protected checks (`_required`, `_one`, `_many`):
    they are the resource's declared relationships, the checks' only other callers."""

    def __init__(self, name: str) -> None:
        self.name = name
        self._model: type[Any] | None = None
        self.target: object = None  # the declared model, or its name

    def __set_name__(self, owner: type, attr: str) -> None:
        # `ClassVar[ToOne[User]]` names the model.
        declared = declared_args(owner, attr)
        self.target = (declared[0] or None) if declared else None

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.name!r}: {self.model().__name__}>"

    def model(self) -> type[R]:
        """The model of the related resources (resolved on first use)."""
        if self._model is None:
            self._model = _resolve(self)
        return self._model


def _resolve(relation: Relation[Any]) -> type[Any]:
    from flexclient.models._resource import Resource, registered_models

    target: object = relation.target or Resource
    if isinstance(target, ForwardRef):
        target = target.__forward_arg__
    if isinstance(target, str):
        name = target
        named = {m.__name__: m for m in registered_models()}
        if name in named:
            return named[name]
        import flexclient.models  # a model whose module is not imported yet

        target = getattr(flexclient.models, name, None)
        if target is None:
            raise TypeError(f"no resource model named {name!r}")
    if not isinstance(target, type):
        raise TypeError(f"relationship {relation.name!r}: {target!r} is not a resource model")
    return target


class ToOne(Relation[R]):
    """A to-one relationship the API always fills: the resource, never None."""

    @overload
    def __get__(self, resource: None, owner: type) -> Self: ...
    @overload
    def __get__(self, resource: Resource, owner: type) -> R: ...
    def __get__(self, resource: Resource | None, owner: type) -> Self | R:
        if resource is None:
            return self
        found: R = getattr(resource, LINKS, NO_RESPONSE_LINKS)[1].get(self.name, _ABSENT)
        if type(found) is self._model:
            return found
        return resource._required(self.name, self.model())  # pyright: ignore[reportPrivateUsage]


class ToOneOrNone(Relation[R]):
    """A to-one relationship that may be empty: the resource or None."""

    @overload
    def __get__(self, resource: None, owner: type) -> Self: ...
    @overload
    def __get__(self, resource: Resource, owner: type) -> R | None: ...
    def __get__(self, resource: Resource | None, owner: type) -> Self | R | None:
        if resource is None:
            return self
        found: R | None = getattr(resource, LINKS, NO_RESPONSE_LINKS)[1].get(self.name, _ABSENT)
        if found is None or type(found) is self._model:
            return found
        return resource._one(self.name, self.model())  # pyright: ignore[reportPrivateUsage]


class ToMany(Relation[R]):
    """A to-many relationship: a list, empty when the API sent none."""

    @overload
    def __get__(self, resource: None, owner: type) -> Self: ...
    @overload
    def __get__(self, resource: Resource, owner: type) -> list[R]: ...
    def __get__(self, resource: Resource | None, owner: type) -> Self | list[R]:
        if resource is None:
            return self
        # Declared as what the usual case holds; the type() checks are what decide.
        found: list[R] | None = getattr(resource, LINKS, NO_RESPONSE_LINKS)[1].get(self.name)
        if type(found) is list:
            model = self._model
            for item in found:
                if type(item) is not model:
                    break
            else:
                return list(found)  # the caller's own list
        return resource._many(self.name, self.model())  # pyright: ignore[reportPrivateUsage]
