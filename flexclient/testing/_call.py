"""One API call as a handler of the fake sees it: its endpoint, parameters, body and token;
the parameters checked against the endpoint's declared types, helpers that read them with
the API's own error codes, and the answer rendered as the endpoint declares it."""

from __future__ import annotations

import datetime as dt
import math
import typing
import uuid
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any, TypeVar, overload

from pydantic import BaseModel

from flexclient._endpoints.checks import alias_of
from flexclient._endpoints.kinds import Endpoint
from flexclient._support.narrow import is_json_object
from flexclient.models import CurrentUserAttributes
from flexclient.testing import _state as s
from flexclient.testing._asset_trees import AssetTrees
from flexclient.testing._context import INTEGRATION_API, MARKETPLACE_API, Context
from flexclient.testing._params import (
    Invalid,
    Missing,
    Spec,
    Unknown,
    checked,
    endpoint_types,
    expected,
    from_body,
    from_text,
    spec_of,
)
from flexclient.testing._render import Api, Refs, Renderer, Resource, stored_type
from flexclient.testing._routes import SEGMENTS
from flexclient.testing._schema import EXTENDED_DATA, BadValue, changed, field_names

T = TypeVar("T")
M = TypeVar("M", bound=BaseModel)
AnyEndpoint = Endpoint[Any, Any]
MAX_PER_PAGE = 100
PAGINATION_ROWS = 10_000


class ApiFailure(Exception):
    """An error answer in the API's shape: `{"errors": [{status, code, title, source?}]}`."""

    def __init__(
        self,
        status: int,
        code: str,
        title: str,
        source: list[str] | None = None,
        meta: dict[str, Any] | None = None,
    ):
        super().__init__(title)
        self.status, self.code, self.title, self.source = status, code, title, source
        self.meta = meta

    def body(self) -> dict[str, Any]:
        error: dict[str, Any] = {
            "id": uuid.uuid4(),
            "status": self.status,
            "code": self.code,
            "title": self.title,
        }
        if self.source is not None:
            error["source"] = {"path": self.source, "type": self.source[0]}
        if self.meta is not None:
            error["meta"] = self.meta
        return {"errors": [error]}


def invalid(where: str, name: str, why: str) -> ApiFailure:
    return ApiFailure(
        400, "validation-invalid-value", f"Invalid value for {name}: {why}", [where, name]
    )


def missing(where: str, name: str) -> ApiFailure:
    return ApiFailure(400, "validation-missing-key", f"Missing required key: {name}", [where, name])


def not_found(what: str) -> ApiFailure:
    return ApiFailure(404, "not-found", f"{what} not found")


def forbidden(why: str = "This token does not allow the call") -> ApiFailure:
    return ApiFailure(403, "forbidden", why)


COMMON_QUERY_KEYS = frozenset({"include", "expand", "page", "perPage"})
CUSTOM_QUERY_PREFIXES = ("fields.", "imageVariant.", "limit.")
EXTENDED_DATA_PREFIXES = tuple(EXTENDED_DATA.values())


def _failure(where: str, error: Unknown | Missing | Invalid, name: str = "") -> ApiFailure:
    if isinstance(error, Unknown):
        path = [where, *error.path, error.key]
        return ApiFailure(400, "validation-disallowed-key", f"Disallowed key: {error.key}", path)
    if isinstance(error, Missing):
        path = [where, *error.path, error.key]
        return ApiFailure(400, "validation-missing-key", f"Missing required key: {error.key}", path)
    path = [where, *error.path] if error.path else [where, name]
    return ApiFailure(
        400, "validation-invalid-value", f"Invalid value for {path[1]}: {error}", path
    )


@dataclass
class Call:
    state: s.State
    api: Api
    endpoint: AnyEndpoint
    params: dict[str, str]
    body: dict[str, Any]
    grant: s.Grant
    base_url: str
    files: dict[str, tuple[str, str, bytes]] = field(default_factory=lambda: {})
    # The marketplace's asset trees, for what lists assets (`sitemap_data.query_assets`).
    assets: AssetTrees | None = None

    @property
    def command(self) -> bool:
        return self.endpoint.kind != "query"

    @property
    def url_path(self) -> str:
        """The path of the endpoint called, `/v1/api/file_uploads/create`."""
        return f"/v1/{SEGMENTS[self.api]}/{self.endpoint.path}"

    @property
    def renderer(self) -> Renderer:
        return Renderer(self.state, self.base_url, self.api, self.grant.user_id, self.params)

    @property
    def expand(self) -> bool:
        return self.params.get("expand") == "true"

    # --- the parameters, checked against the endpoint's declared parameter type ------------

    def check(self, *, extended_data_filters: bool) -> None:
        """Refuse what the endpoint's parameter TypedDict does not allow, with the API's
        validation errors; convert body values to the types it names."""
        spec = spec_of(endpoint_types(self.endpoint)[0])
        if self.endpoint.kind == "query":
            self._check_query(spec, extended_data_filters)
        elif spec is not None:
            try:
                # An uploaded file is a part of the body too; its bytes are in `files`.
                for name in self.files:
                    if name not in spec.hints:
                        raise Unknown(name)
                form = Spec(
                    {k: h for k, h in spec.hints.items() if k not in self.files},
                    spec.required - set(self.files),
                )
                self.body = checked(self.body, form)
            except (Unknown, Missing, Invalid) as exc:
                raise _failure("body", exc) from exc

    def _check_query(self, spec: Spec | None, extended_data_filters: bool) -> None:
        if spec is None:
            return
        prefixes: tuple[str, ...] = CUSTOM_QUERY_PREFIXES
        if extended_data_filters:
            prefixes += EXTENDED_DATA_PREFIXES
        # The API takes a snake_case spelling of a camelCase key (`listing_id`, as the web
        # template sends it) for that key; spelled both ways, the second spelling is unknown.
        for key in list(self.params):
            documented = alias_of(key, spec.hints)
            if documented is not None and documented not in self.params:
                self.params[documented] = self.params.pop(key)
        for key, raw in self.params.items():
            hint = spec.hints.get(key)
            if hint is None:
                if key not in COMMON_QUERY_KEYS and not key.startswith(prefixes):
                    raise _failure("query", Unknown(key))
                continue
            try:
                from_text(raw, hint)
            except ValueError as exc:
                raise invalid("query", key, str(exc) or raw) from exc
        for key in sorted(spec.required - set(self.params)):
            raise missing("query", key)

    # --- who calls ---------------------------------------------------------------------------

    def user(self) -> s.Record[CurrentUserAttributes]:
        """The logged-in user; 403 for an anonymous token."""
        user = self.state.users.get(self.grant.user_id) if self.grant.user_id else None
        if user is None:
            raise forbidden("This call needs a logged-in user")
        return user

    # --- query parameters ----------------------------------------------------------------------

    def query_value(
        self, name: str, parse: Callable[[str], T], *, required: bool = False
    ) -> T | None:
        """The query parameter `name` read by `parse`; None when absent (400 when
        `required`), 400 naming it when `parse` refuses it."""
        raw = self.params.get(name)
        if raw is None:
            if required:
                raise missing("query", name)
            return None
        try:
            return parse(raw)
        except ValueError as exc:
            # A type's own parser (`int`, `uuid.UUID`) speaks Python: say what was expected.
            why = expected(parse) or str(exc) or raw
            raise invalid("query", name, why) from exc

    def query_id(self, name: str = "id") -> uuid.UUID:
        """The required query parameter `name` as a UUID."""
        value = self.query_value(name, uuid.UUID, required=True)
        assert value is not None
        return value

    # --- body --------------------------------------------------------------------------------

    # A list or a map in the body holds values of any type, under text keys: the overloads
    # say so (from the bare class alone, a type checker takes its contents for unknown).
    @overload
    def body_value(
        self, name: str, kind: type[list[Any]], *, required: bool = False
    ) -> list[object] | None: ...
    @overload
    def body_value(
        self, name: str, kind: type[dict[Any, Any]], *, required: bool = False
    ) -> dict[str, object] | None: ...
    @overload
    def body_value(
        self, name: str, kind: type[T] | tuple[type, ...], *, required: bool = False
    ) -> T | None: ...
    def body_value(
        self, name: str, kind: type[T] | tuple[type, ...], *, required: bool = False
    ) -> T | None:
        """The body value `name`, which must be of `kind`; None when absent or null (400
        when `required`)."""
        if name not in self.body or self.body[name] is None:
            if required:
                raise missing("body", name)
            return None
        value = self.body[name]
        if (kind is int and isinstance(value, bool)) or not isinstance(value, kind):
            raise invalid("body", name, f"expected {getattr(kind, '__name__', kind)}")
        return value  # type: ignore[return-value]

    def body_id(self, name: str = "id") -> uuid.UUID:
        """The required body value `name` as a UUID."""
        value = self.body.get(name)
        if value is None:
            raise missing("body", name)
        try:
            return value if isinstance(value, uuid.UUID) else uuid.UUID(str(value))
        except ValueError as exc:
            raise invalid("body", name, "not a UUID") from exc

    def body_time(self, name: str) -> dt.datetime:
        """The required body value `name` as a timestamp."""
        value = self.body.get(name)
        if value is None:
            raise missing("body", name)
        try:
            when = from_body(value, dt.datetime)
        except Invalid as exc:
            raise invalid("body", name, "not a timestamp") from exc
        assert isinstance(when, dt.datetime)
        return when

    def write(self, target: M, *, only: Iterable[str] | None = None) -> M:
        """`target` (attributes, or a part of them such as a profile) with the body's keys
        that are its fields written over it, under their wire names; extended data merged key
        by key, a null value removing a key. `only` limits the keys taken."""
        names = field_names(type(target))
        wanted = set(only) if only is not None else None
        values: dict[str, Any] = {}
        for key, value in self.body.items():
            if key not in names or (wanted is not None and key not in wanted):
                continue
            if key in EXTENDED_DATA:
                value = _merged(key, getattr(target, names[key]), value)
            values[names[key]] = value
        try:
            return changed(target, values)
        except BadValue as exc:
            raise invalid("body", exc.path[0], str(exc)) from exc

    # --- events --------------------------------------------------------------------------------

    @property
    def ctx(self) -> Context:
        """This call as the author of changes and their events."""
        source = MARKETPLACE_API if self.api == "marketplace" else INTEGRATION_API
        return Context(self.state, self.base_url, source, self.grant.user_id, self.grant.client_id)

    def snapshot(self, record: s.Record[Any]) -> Resource:
        return self.ctx.snapshot(record)

    def emit(self, event_type: str, record: s.Record[Any], before: Resource | None) -> None:
        self.ctx.emit(event_type, record, before)

    def emit_deleted(self, event_type: str, record: s.Record[Any]) -> None:
        self.ctx.emit_deleted(event_type, record)

    # --- answers -------------------------------------------------------------------------------

    def view(self, record: s.Record[Any]) -> tuple[Resource, Refs]:
        """A record as this endpoint answers it: as the resource type the endpoint table
        declares for the endpoint (`ownListing`, `currentUser`) when that is a view of it."""
        declared = endpoint_types(self.endpoint)[1]
        if typing.get_origin(declared) is list:
            declared = typing.get_args(declared)[0]
        rtype = getattr(declared, "resource_type", None)
        if isinstance(rtype, str) and stored_type(rtype) == record.type:
            return self.renderer.resource(record, rtype)
        return self.renderer.resource(record)

    def one(self, record: s.Record[Any], *, whole: bool = False) -> dict[str, Any]:
        """A command or show answer: the whole resource, or (a command without `expand`)
        only its id and type. `whole`: always the whole resource, as for the short-lived
        targets (an upload URL, a Stripe link) that are nothing without their attributes."""
        res, refs = self.view(record)
        if self.command and not self.expand and not whole:
            return {"data": {"id": res["id"], "type": res["type"]}}
        return self.renderer.document([(res, refs)], many=False)

    def page(
        self,
        records: Sequence[s.Record[Any]],
        *,
        limited: bool = False,
        max_per_page: int = MAX_PER_PAGE,
    ) -> dict[str, Any]:
        """A query answer: one page of the results, with pagination meta."""
        page = self.query_value("page", _positive, required=False) or 1
        per_page = (
            self.query_value("perPage", _per_page(max_per_page), required=False) or MAX_PER_PAGE
        )
        total = len(records)
        pages = max(1, math.ceil(total / per_page))
        chunk = records[(page - 1) * per_page : page * per_page]
        body = self.renderer.document([self.view(r) for r in chunk], many=True)
        meta: dict[str, Any] = {
            "totalItems": total,
            "totalPages": pages,
            "page": page,
            "perPage": per_page,
        }
        if limited:
            meta["paginationLimit"] = max(1, PAGINATION_ROWS // per_page)
        body["meta"] = meta
        return body


def _merged(key: str, old: object, new: object) -> dict[str, object]:
    """Extended data given in the body (`new`) merged key by key over the stored (`old`): a
    null value removes a key."""
    if new is not None and not is_json_object(new):
        raise invalid("body", key, "expected a map")
    merged = {**(old if is_json_object(old) else {}), **(new if is_json_object(new) else {})}
    return {k: v for k, v in merged.items() if v is not None}


def _positive(raw: str) -> int:
    try:
        value = int(raw)
    except ValueError:
        raise ValueError(expected(int)) from None
    if value < 1:
        raise ValueError("must be 1 or more")
    return value


def _per_page(most: int) -> Callable[[str], int]:
    def parse(raw: str) -> int:
        value = _positive(raw)
        if value > most:
            raise ValueError(f"at most {most}")
        return value

    return parse
