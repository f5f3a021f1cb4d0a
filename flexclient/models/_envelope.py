"""The response envelope (`data`, `meta`, `included`) and how one is built from a decoded body."""

from __future__ import annotations

import functools
from collections.abc import Callable, Hashable, Mapping, Sequence
from typing import Any, ClassVar, Generic, TypeVar, cast

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    GetCoreSchemaHandler,
    TypeAdapter,
    ValidationError,
)
from pydantic_core import CoreSchema, ErrorDetails, PydanticCustomError, core_schema

from flexclient._support.narrow import is_list
from flexclient.models._display import dataframe, html_table, included_relationships, record
from flexclient.models._resource import (
    WIRE_CONFIG,
    AnyResource,
    Resource,
    attach,
    no_items,
    registered_models,
    resource_from,
)

D = TypeVar("D")


class Meta(BaseModel):
    """Response metadata; pagination fields on queries, empty on most commands.

    `total_items` may be None when the API does not count; keys this version does not know
    are kept.
    """

    model_config: ClassVar[ConfigDict] = WIRE_CONFIG

    total_items: int | None = None
    total_pages: int | None = None
    page: int | None = None
    per_page: int | None = None
    pagination_limit: int | None = None
    pagination_unsupported: bool | None = None


class Envelope(BaseModel, Generic[D]):
    """A successful response body.

    `data` is one resource for show endpoints and commands, a list for queries; `included`
    holds the related resources that `include` asked for, already resolvable from `data`.

    >>> page = sdk.listings.query({"include": ["author"]}).data  # doctest: +SKIP
    >>> page.data[0].author.attributes.profile.display_name  # doctest: +SKIP
    'Jane D'
    """

    model_config: ClassVar[ConfigDict] = ConfigDict(arbitrary_types_allowed=True, defer_build=True)

    data: D
    meta: Meta = Field(default_factory=Meta)
    included: list[AnyResource] = Field(default_factory=no_items)

    def resources(self) -> list[Resource]:
        """The resources of `data`, as a list also for show endpoints."""
        data: object = self.data
        items = data if is_list(data) else [data]
        return [r for r in items if isinstance(r, Resource)]

    def to_records(self, relationships: Sequence[str] = ()) -> list[dict[str, Any]]:
        """`data` as flat dicts, one a resource, with the chosen relationships (wire names).

        >>> rows = page.to_records(["author", "images"])  # doctest: +SKIP
        >>> rows[0]["author.profile.display_name"], rows[0]["images.count"]  # doctest: +SKIP
        """
        return [record(r, relationships) for r in self.resources()]

    def to_dataframe(self, relationships: Sequence[str] = ()) -> Any:
        """`to_records()` as a pandas DataFrame (pandas: the `pandas` extra)."""
        return dataframe(self.to_records(relationships))

    def _summary(self) -> str:
        found = self.resources()
        m = self.meta
        if not found:
            text = "no resources"
            if m.total_items:
                text += f" here, {m.total_items} in all"
        else:
            kinds = "/".join(sorted({type(r).__name__ for r in found}))
            text = f"{len(found)} {kinds}"
            if m.total_items is not None:
                text += f" of {m.total_items}"
        if m.page is not None and m.total_pages:
            text += f", page {m.page}/{m.total_pages}"
        if self.included:
            text += f", {len(self.included)} included"
        return text

    def __repr__(self) -> str:
        return f"<Envelope: {self._summary()}>"

    # print() shows the same one line, not pydantic's every field (`to_records()` has them).
    __str__ = __repr__

    def _repr_pretty_(self, p: Any, cycle: bool) -> None:
        p.text(repr(self))

    def _repr_html_(self) -> str:
        # The resources with what was included for them, then the included resources
        # themselves, a table for each type, as the summary counts them.
        found = self.resources()
        related = included_relationships(found)
        tables = [html_table([record(r, related) for r in found], caption=self._summary())]
        by_type: dict[str, list[Resource]] = {}
        for resource in self.included:
            by_type.setdefault(resource.type, []).append(resource)
        for name, resources in by_type.items():
            caption = f"included: {len(resources)} {name}"
            tables.append(html_table([record(r) for r in resources], caption=caption))
        return "".join(tables)


class EnvelopeError(ValueError):
    """A decoded body that is not an API envelope; the transport turns it into an `ApiError`."""


# How a body becomes models: one pydantic validation of the whole body, in pydantic-core.
# Each resource goes by its `type` to its model's own validator; what that does not take (a
# type without a model, null `attributes`, a value that is no resource) comes to the
# functions below, which say why or keep the value. The whole body as one schema is what
# lets a JSON body go from bytes straight into models (`envelope_from_json`).

_NOT_RESOURCE = "flexclient_resource"


def _is_resource(raw: object) -> bool:
    # type() before the ABC check: isinstance against Mapping is a Python call.
    return (type(raw) is dict or isinstance(raw, Mapping)) and "id" in raw and "type" in raw


def _typed(raw: Mapping[str, Any]) -> Resource:
    try:
        return resource_from(raw)
    except ValidationError as exc:
        reason = f"not a valid {raw['type']!r} resource: {exc}"
        raise PydanticCustomError(_NOT_RESOURCE, "{reason}", {"reason": reason}) from exc


def _included(raw: object) -> Resource:
    if not _is_resource(raw):
        raise PydanticCustomError(_NOT_RESOURCE, "{reason}", {"reason": "not a resource"})
    return _typed(cast(Mapping[str, Any], raw))


def _data_item(raw: object) -> Any:
    # Not a resource: some endpoints answer plain values in `data`; they are kept as they are.
    return _typed(cast(Mapping[str, Any], raw)) if _is_resource(raw) else raw


def _data_one(raw: object) -> Any:
    if type(raw) is list:  # a list whose items did not all validate: that error is the one
        raise PydanticCustomError("flexclient_list", "a list is read item by item")
    return _data_item(raw)


def _by_type(
    handler: GetCoreSchemaHandler, models: tuple[type[Resource], ...]
) -> CoreSchema | None:
    choices: dict[Hashable, CoreSchema] = {
        m.resource_type: handler.generate_schema(m) for m in models if m.resource_type
    }
    return core_schema.tagged_union_schema(choices, discriminator="type") if choices else None


def _or(first: CoreSchema | None, rest: Callable[[Any], Any]) -> CoreSchema:
    then = core_schema.no_info_plain_validator_function(rest)
    if first is None:  # no model imported yet: `rest` reads the resource (and imports it)
        return then
    return core_schema.union_schema([first, then], mode="left_to_right")


@functools.lru_cache(maxsize=4)
def _body(models: tuple[type[Resource], ...]) -> TypeAdapter[dict[str, Any]]:
    """The validator of a body for these resource models (the registry when it is built)."""

    class Body:
        @classmethod
        def __get_pydantic_core_schema__(
            cls, source: object, handler: GetCoreSchemaHandler
        ) -> CoreSchema:
            field = core_schema.typed_dict_field
            by_type = _by_type(handler, models)
            item = _or(by_type, _data_item)
            data: list[CoreSchema | tuple[CoreSchema, str]] = [
                core_schema.list_schema(item),
                _or(by_type, _data_one),
            ]
            included = core_schema.list_schema(_or(by_type, _included))
            meta = handler.generate_schema(Meta)
            fields = {
                "data": field(core_schema.union_schema(data, mode="left_to_right")),
                "included": field(core_schema.nullable_schema(included), required=False),
                "meta": field(core_schema.nullable_schema(meta), required=False),
            }
            return core_schema.typed_dict_schema(fields)

    return TypeAdapter(cast(type[dict[str, Any]], Body))


def _adapter() -> TypeAdapter[dict[str, Any]]:
    # Keyed by the registered models: a model imported or defined later (the first resource of
    # its type, read through `_typed`, imports its module; a user's own model) is in the
    # validator of the bodies that follow.
    return _body(registered_models())


def _error(errors: list[ErrorDetails]) -> EnvelopeError:
    """What is wrong with a body, from pydantic's errors: where, and why."""
    for err in errors:
        if err["type"] == _NOT_RESOURCE:
            where = "".join(
                f"[{p}]" if isinstance(p, int) else p
                for p in err["loc"]
                if isinstance(p, int) or p in ("data", "included")
            )
            return EnvelopeError(f"{where}: {err['msg']}")
    first = errors[0]["loc"][:1] if errors else ()
    if first == ("included",):
        return EnvelopeError("`included` is not a list")
    if first == ("meta",):
        why = "; ".join(f"{'.'.join(map(str, e['loc']))}: {e['msg']}" for e in errors)
        return EnvelopeError(f"`meta` is not valid: {why}")
    return EnvelopeError("the body is not an API envelope (no `data`)")


def _envelope(body: dict[str, Any]) -> Envelope[Any]:
    # Built without validation: the body's validator has just checked every part (and so
    # the envelope's own validator is built only if a program validates one itself).
    included: list[Resource] = body.get("included") or []
    meta: Meta = body.get("meta") or Meta.model_construct()
    # Unparametrized at run time, as every envelope is: `data` is what the body held.
    envelope: Envelope[Any] = Envelope.model_construct(  # pyright: ignore[reportUnknownVariableType]
        data=body["data"], meta=meta, included=included
    )
    attach(envelope.resources(), envelope.included)
    return envelope


def build_envelope(body: object) -> Envelope[Any]:
    """Decoded body -> `Envelope` with typed resources and relationships resolvable."""
    try:
        validated = _adapter().validate_python(body)
    except ValidationError as exc:
        raise _error(exc.errors(include_url=False)) from exc
    return _envelope(validated)


def envelope_from_json(raw: bytes) -> Envelope[Any] | None:
    """A JSON body straight into an `Envelope`, with no plain values in between.

    None when pydantic's JSON parser does not read the bytes: `json.loads` reads a little
    more (lone surrogate escapes, nesting deeper than 200), so the caller decodes and calls
    `build_envelope`, which also says what is wrong when nothing reads them.
    """
    try:
        validated = _adapter().validate_json(raw)
    except ValidationError as exc:
        errors = exc.errors(include_url=False)
        if any(err["type"] == "json_invalid" for err in errors):
            return None
        raise _error(errors) from exc
    return _envelope(validated)
