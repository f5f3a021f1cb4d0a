"""One API call as a handler of the fake sees it: parameters, body, token, and helpers that
validate them with the API's own error codes."""

from __future__ import annotations

import datetime as dt
import math
import uuid
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, TypeVar

from flexclient._types import LatLng, Money
from flexclient.testing import _state as s
from flexclient.testing._render import Api, Refs, Renderer, Resource

T = TypeVar("T")
MAX_PER_PAGE = 100
PAGINATION_ROWS = 10_000


class ApiFailure(Exception):
    """An error answer in the API's shape: `{"errors": [{status, code, title, source?}]}`."""

    def __init__(self, status: int, code: str, title: str, source: list[str] | None = None):
        super().__init__(title)
        self.status, self.code, self.title, self.source = status, code, title, source

    def body(self) -> dict[str, Any]:
        error: dict[str, Any] = {
            "id": uuid.uuid4(),
            "status": self.status,
            "code": self.code,
            "title": self.title,
        }
        if self.source is not None:
            error["source"] = {"path": self.source, "type": self.source[0]}
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


@dataclass
class Call:
    state: s.State
    api: Api
    params: dict[str, str]
    body: dict[str, Any]
    grant: s.Grant
    base_url: str
    command: bool = False
    files: dict[str, tuple[str, str, bytes]] = field(default_factory=dict)

    @property
    def renderer(self) -> Renderer:
        return Renderer(self.state, self.base_url, self.api, self.grant.user_id, self.params)

    @property
    def source(self) -> str:
        return "source/marketplace-api" if self.api == "marketplace" else "source/integration-api"

    @property
    def expand(self) -> bool:
        return self.params.get("expand") == "true"

    # --- who calls ---------------------------------------------------------------------------

    def user(self) -> s.User:
        """The logged-in user; 403 for an anonymous token."""
        if self.grant.user_id is None or self.grant.user_id not in self.state.users:
            raise forbidden("This call needs a logged-in user")
        return self.state.users[self.grant.user_id]

    # --- query parameters ----------------------------------------------------------------------

    def q(self, name: str, parse: Callable[[str], T], *, required: bool = False) -> T | None:
        raw = self.params.get(name)
        if raw is None:
            if required:
                raise missing("query", name)
            return None
        try:
            return parse(raw)
        except ValueError as exc:
            raise invalid("query", name, str(exc) or raw) from exc

    def q_id(self, name: str = "id") -> uuid.UUID:
        value = self.q(name, uuid.UUID, required=True)
        assert value is not None
        return value

    # --- body --------------------------------------------------------------------------------

    def b(self, name: str, kind: type[T] | tuple[type, ...], *, required: bool = False) -> T | None:
        if name not in self.body or self.body[name] is None:
            if required:
                raise missing("body", name)
            return None
        value = self.body[name]
        if (kind is int and isinstance(value, bool)) or not isinstance(value, kind):
            raise invalid("body", name, f"expected {getattr(kind, '__name__', kind)}")
        return value  # type: ignore[return-value]

    def b_id(self, name: str = "id") -> uuid.UUID:
        value = self.body.get(name)
        if value is None:
            raise missing("body", name)
        try:
            return value if isinstance(value, uuid.UUID) else uuid.UUID(str(value))
        except ValueError as exc:
            raise invalid("body", name, "not a UUID") from exc

    def b_money(self, name: str) -> Money | None:
        value = self.body.get(name)
        if value is None or isinstance(value, Money):
            return value
        if isinstance(value, Mapping) and set(value) == {"amount", "currency"}:
            try:
                return Money(value["amount"], value["currency"])
            except ValueError:
                pass
        raise invalid("body", name, "expected money")

    def b_latlng(self, name: str) -> LatLng | None:
        value = self.body.get(name)
        if value is None or isinstance(value, LatLng):
            return value
        if isinstance(value, Mapping) and set(value) == {"lat", "lng"}:
            return LatLng(value["lat"], value["lng"])
        raise invalid("body", name, "expected a location")

    def b_time(self, name: str) -> dt.datetime:
        value = self.body.get(name)
        if value is None:
            raise missing("body", name)
        if isinstance(value, str):
            try:
                value = dt.datetime.fromisoformat(value.replace("Z", "+00:00"))
            except ValueError as exc:
                raise invalid("body", name, "not a timestamp") from exc
        if not isinstance(value, dt.datetime) or value.tzinfo is None:
            raise invalid("body", name, "not a timestamp")
        return value

    def allow_query(self, allowed: Iterable[str], *, extended_data: bool = False) -> None:
        """Refuse query keys the endpoint does not know (common ones are always allowed)."""
        known = set(allowed) | {"include", "expand", "page", "perPage"}
        prefixes: tuple[str, ...] = ("fields.", "imageVariant.", "limit.")
        if extended_data:
            prefixes += ("pub_", "meta_", "priv_", "prot_")
        for key in self.params:
            if key not in known and not key.startswith(prefixes):
                raise ApiFailure(
                    400, "validation-disallowed-key", f"Disallowed key: {key}", ["query", key]
                )

    def allow_body(self, allowed: Iterable[str]) -> None:
        extra = sorted(set(self.body) - set(allowed))
        if extra:
            raise ApiFailure(
                400, "validation-disallowed-key", f"Disallowed key: {extra[0]}", ["body", extra[0]]
            )

    # --- events --------------------------------------------------------------------------------

    def snapshot(self, rtype: str, rid: uuid.UUID) -> Resource | None:
        """The resource as the Integration API shows it, for events."""
        rendered = Renderer(self.state, self.base_url, "integration", None, {}).by_ref(rtype, rid)
        return rendered[0] if rendered is not None else None

    def emit(self, event_type: str, rtype: str, rid: uuid.UUID, before: Resource | None) -> None:
        """Record the event of a change; `before` is the snapshot taken before it."""
        after = self.snapshot(rtype, rid)
        previous = None
        if before is not None:
            old = before["attributes"]
            new = after["attributes"] if after is not None else {}
            previous = {"attributes": {k: v for k, v in old.items() if new.get(k) != v}}
        self.state.record(
            event_type,
            self.source,
            rtype,
            rid,
            after,
            previous,
            self.grant.user_id,
            self.grant.client_id,
        )

    # --- answers -------------------------------------------------------------------------------

    def one(self, rendered: tuple[Resource, Refs]) -> dict[str, Any]:
        """A command or show answer: the whole resource, or only its id and type."""
        res, refs = rendered
        if self.command and not self.expand:
            return {"data": {"id": res["id"], "type": res["type"]}}
        return self.renderer.document([(res, refs)], many=False)

    def page(
        self, rendered: Sequence[tuple[Resource, Refs]], *, limited: bool = False
    ) -> dict[str, Any]:
        """A query answer: one page of the results, with pagination meta."""
        page = self.q("page", _positive, required=False) or 1
        per_page = self.q("perPage", _per_page, required=False) or MAX_PER_PAGE
        total = len(rendered)
        pages = max(1, math.ceil(total / per_page))
        chunk = rendered[(page - 1) * per_page : page * per_page]
        body = self.renderer.document(chunk, many=True)
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


def _positive(raw: str) -> int:
    value = int(raw)
    if value < 1:
        raise ValueError("must be 1 or more")
    return value


def _per_page(raw: str) -> int:
    value = _positive(raw)
    if value > MAX_PER_PAGE:
        raise ValueError(f"at most {MAX_PER_PAGE}")
    return value
