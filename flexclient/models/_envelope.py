"""The response envelope (`data`, `meta`, `included`) and how one is built from a decoded body."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Generic, TypeVar

from pydantic import BaseModel, ConfigDict, Field, SerializeAsAny, ValidationError

from flexclient.models._display import dataframe, html_table, record
from flexclient.models._resource import WIRE_CONFIG, Resource, attach, resource_from

D = TypeVar("D")


class Meta(BaseModel):
    """Response metadata; pagination fields on queries, empty on most commands.

    `total_items` may be None when the API does not count; keys this version does not know
    are kept.
    """

    model_config = WIRE_CONFIG

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

    model_config = ConfigDict(arbitrary_types_allowed=True)

    data: D
    meta: Meta = Field(default_factory=Meta)
    # SerializeAsAny: dump each resource as its own type (User, Image...), not as the base.
    included: list[SerializeAsAny[Resource]] = Field(default_factory=list)

    def resources(self) -> list[Resource]:
        """The resources of `data`, as a list also for show endpoints."""
        items = self.data if isinstance(self.data, list) else [self.data]
        return [r for r in items if isinstance(r, Resource)]

    def to_records(self, relationships: Sequence[str] = ()) -> list[dict[str, Any]]:
        """`data` as flat dicts, one a resource, with the chosen relationships (wire names).

        >>> rows = page.to_records(["author", "images"])  # doctest: +SKIP
        >>> rows[0]["author.profile.display_name"], rows[0]["images.count"]  # doctest: +SKIP
        """
        return [record(r, relationships) for r in self.resources()]

    def to_dataframe(self, relationships: Sequence[str] = ()) -> Any:
        """`to_records()` as a pandas DataFrame (extra `flexclient[pandas]`)."""
        return dataframe(self.to_records(relationships))

    def _summary(self) -> str:
        found = self.resources()
        kinds = sorted({type(r).__name__ for r in found}) or ["no resource"]
        text = f"{len(found)} {'/'.join(kinds)}"
        m = self.meta
        if m.total_items is not None:
            text += f" of {m.total_items}"
        if m.page is not None and m.total_pages is not None:
            text += f", page {m.page}/{m.total_pages}"
        return text + f", {len(self.included)} included"

    def __repr__(self) -> str:
        return f"<Envelope: {self._summary()}>"

    def _repr_pretty_(self, p: Any, cycle: bool) -> None:
        p.text(repr(self))

    def _repr_html_(self) -> str:
        return html_table(self.to_records(), caption=self._summary())


class EnvelopeError(ValueError):
    """A decoded body that is not an API envelope; the transport turns it into an `ApiError`."""


def _resource(raw: object, where: str) -> Resource | None:
    """The resource `raw` is, or None when it is not one (`{id, type, ...}`)."""
    # type() before the ABC check: isinstance against Mapping is a Python call, per resource.
    if not (type(raw) is dict or isinstance(raw, Mapping)) or "id" not in raw or "type" not in raw:
        return None
    try:
        return resource_from(raw)
    except ValidationError as exc:
        raise EnvelopeError(f"{where}: not a valid {raw['type']!r} resource: {exc}") from exc


def build_envelope(body: object) -> Envelope[Any]:
    """Decoded body -> `Envelope` with typed resources and relationships resolvable."""
    if not isinstance(body, Mapping) or "data" not in body:
        raise EnvelopeError("the body is not an API envelope (no `data`)")
    raw_data = body["data"]
    raw_included = body.get("included") or []
    if not isinstance(raw_included, list):
        raise EnvelopeError("`included` is not a list")
    data: Any
    primary: list[Resource] = []
    if isinstance(raw_data, list):
        data = []
        for i, item in enumerate(raw_data):
            res = _resource(item, f"data[{i}]")
            if res is None:  # not a resource (some endpoints answer plain values): kept as is
                data.append(item)
            else:
                data.append(res)
                primary.append(res)
    else:
        data = _resource(raw_data, "data")
        if data is None:
            data = raw_data
        else:
            primary.append(data)
    included: list[Resource] = []
    for i, item in enumerate(raw_included):
        res = _resource(item, f"included[{i}]")
        if res is None:
            raise EnvelopeError(f"included[{i}] is not a resource")
        included.append(res)
    try:
        meta = Meta.model_validate(body.get("meta") or {})
    except ValidationError as exc:
        raise EnvelopeError(f"`meta` is not valid: {exc}") from exc

    attach(primary, included)
    return Envelope(data=data, meta=meta, included=included)
