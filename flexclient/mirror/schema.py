"""The mirror's tables, each declared once, and their columns, derived from the models.

A table holds one resource type. Its columns come from the attribute model of that type:
each attribute is a column named as the model names it (the snake_case of the API's name);
Money becomes `<name>_amount` (minor units) and `<name>_currency`, LatLng `<name>_lat` and
`<name>_lng`, a nested object (a user's `profile`) a column per member with its name in front,
timestamps ISO-8601 UTC text, extended data and other structures JSON text. A to-one
relationship is a `<relationship>_id` column; a to-many one a link table.

Each table's entry (`Table`, listed in `TABLES`) says all the mirror needs of it, as a dlt
REST API source declares a resource: its resource type and model, its relationships, how a
snapshot reads it (`Windows` of its own query, or a query `PerParent` row of another table,
or nothing: the resources others include), and whether it is optional. The sync, the
`Mirror` options, the command line's flags, the dlt source and the docs read them from here.
Nothing here imports the models or pydantic until a table's columns are asked for: the command
line builds its flags from these entries.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import decimal
import functools
import json
import math
import types
import typing
import uuid
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal, TypedDict

import flexclient.models
from flexclient._errors import MirrorError

if TYPE_CHECKING:
    from pydantic import BaseModel

    from flexclient.models import Resource

# What a column holds; its type in each database follows from it (`TYPE_NAMES`).
Kind = Literal["text", "integer", "real", "boolean", "timestamp", "decimal", "json", "id"]

# Each kind's column type in SQLite and in PostgreSQL, as the docs' tables show them. The
# value a program reads or writes through the mirror is the same in both (the SQLite column's).
TYPE_NAMES: Mapping[Kind, tuple[str, str]] = {
    "text": ("text", "`text`"),
    "integer": ("integer", "`bigint`"),
    "real": ("real number", "`double precision`"),
    "boolean": ("0 or 1", "`boolean`"),
    "timestamp": ("ISO-8601 UTC text", "`timestamptz`"),
    "decimal": ("exact decimal as text", "`numeric`"),
    "json": ("JSON text", "`jsonb`"),
    "id": ("UUID as text", "`uuid`"),
}

# The integers a column of kind "integer" holds: SQLite's and PostgreSQL's 64 bits.
INTEGER_RANGE = range(-(2**63), 2**63)

SqlValue = str | int | float | None


@dataclass(frozen=True, slots=True)
class Column:
    """One column: its name, what it holds, and the path of its value in the resource."""

    name: str
    kind: Kind
    # Field names from the attributes down to the value; for Money and LatLng, the member.
    path: tuple[str, ...]

    @property
    def description(self) -> str:
        """What the column holds in SQLite (and what a program reads from either database)."""
        return TYPE_NAMES[self.kind][0]

    @property
    def postgresql_type(self) -> str:
        """The column's type in PostgreSQL."""
        return TYPE_NAMES[self.kind][1]


@dataclass(frozen=True, slots=True)
class LinkTable:
    """A to-many relationship: a row for each related resource, in the API's order."""

    name: str
    relationship: str  # its wire name
    owner_column: str
    target_column: str


@dataclass(frozen=True, slots=True)
class Windows:
    """A snapshot reads the table through the Integration API's `<group>.query`, oldest first,
    each request a first page from the newest `createdAt` read so far; `include` names the
    related resources it writes too (their tables have no reading of their own)."""

    group: str
    include: tuple[str, ...] = ()


Queries = Callable[[str, dt.datetime], Sequence[Mapping[str, object]]]
"""The parameters of each query a snapshot makes for one parent row: given the parent's ID and
the API's time at the start of the table's reading."""


@dataclass(frozen=True, slots=True)
class PerParent:
    """A snapshot reads the table row by row of `parent`: `<group>.query` with each of
    `queries(parent ID, now)`, every page; `column` is the to-one column naming the parent
    (filled from it when a resource leaves the relationship out)."""

    group: str
    parent: Table
    column: str
    queries: Queries


@dataclass(frozen=True, slots=True)
class Table:
    """A mirrored resource type: the table, its resource type, the model its columns come from
    (a class, or its name in `flexclient.models`, imported when first needed), its to-one
    relationships (column name, wire name), its link tables, how a snapshot reads it (`read`;
    None: from the resources the other tables include) and, for a table the mirror keeps only
    when asked (`optional`), what it adds to a snapshot (`cost`, which `--help` says)."""

    name: str
    resource_type: str
    model_ref: type[Resource] | str
    to_one: tuple[tuple[str, str], ...] = ()
    links: tuple[LinkTable, ...] = ()
    read: Windows | PerParent | None = None
    optional: bool = False
    cost: str = ""

    @property
    def model(self) -> type[Resource]:
        """The model of the table's resources."""
        if isinstance(self.model_ref, str):
            model: type[Resource] = getattr(flexclient.models, self.model_ref)
            return model
        return self.model_ref

    @property
    def columns(self) -> tuple[Column, ...]:
        return _table_columns(self)

    def row(
        self, resource: Resource, parent: Mapping[str, str] | None = None
    ) -> dict[str, SqlValue]:
        """The row of `resource`; `parent` fills to-one columns its relationships leave out
        (a booking read through its transaction names no transaction)."""
        row: dict[str, SqlValue] = {"id": str(resource.id)}
        attributes = resource.attributes
        for name, path, kind in _attribute_columns(self):
            value: object = attributes
            for step in path:
                value = getattr(value, step, None)
                if value is None:
                    break
            try:
                row[name] = None if value is None else sql_value(value, kind)
            except MirrorError as exc:
                raise MirrorError(
                    exc.database, f"{resource.type} {resource.id}, column {name}: {exc.problem}"
                ) from None
        for name, wire in self.to_one:
            ref = _one(resource, wire)
            fallback = parent.get(name) if parent else None
            row[name] = ref if ref is not None else fallback
        return row

    def linked(self, link: LinkTable, resource: Resource) -> list[str] | None:
        """The IDs `resource` links to through `link`, or None when it did not say."""
        return related_ids(resource, link.relationship)


@functools.cache
def _table_columns(table: Table) -> tuple[Column, ...]:
    # Read from the model once a table, not for every row written.
    own = tuple(_columns(_attributes_model(table.model), ()))
    related = tuple(Column(name, "id", ("relationships", wire)) for name, wire in table.to_one)
    return (Column("id", "id", ("id",)), *own, *related)


def related_ids(resource: Resource, wire_name: str) -> list[str] | None:
    """The IDs a relationship of `resource` names (none, one or many), or None when the
    resource did not say (a relationship not included)."""
    relationship = resource.relationships.get(wire_name)
    if relationship is None:
        return None
    data = relationship.data
    refs = data if isinstance(data, list) else [data] if data is not None else []
    return [str(ref.id) for ref in refs]


def _attributes_model(model: type[Resource]) -> type[BaseModel]:
    from pydantic import BaseModel

    annotation = model.model_fields["attributes"].annotation
    assert isinstance(annotation, type) and issubclass(annotation, BaseModel)
    return annotation


def _unwrapped(annotation: Any) -> Any:
    """`X | None` as `X`."""
    if isinstance(annotation, types.UnionType) or typing.get_origin(annotation) is typing.Union:
        rest = [a for a in typing.get_args(annotation) if a is not type(None)]
        return rest[0] if len(rest) == 1 else Any
    return annotation


_SCALARS: Mapping[Any, Kind] = {
    str: "text",
    bool: "boolean",
    int: "integer",
    float: "real",
    dt.datetime: "timestamp",
    decimal.Decimal: "decimal",
    uuid.UUID: "id",
}


def _columns(model: type[BaseModel], prefix: tuple[str, ...]) -> Iterator[Column]:
    from pydantic import BaseModel

    from flexclient._wire.value_types import LatLng, Money

    for name, field in model.model_fields.items():
        path = (*prefix, name)
        kind = _unwrapped(field.annotation)
        column = "_".join(path)
        if kind is Money:
            yield Column(f"{column}_amount", "integer", (*path, "amount"))
            yield Column(f"{column}_currency", "text", (*path, "currency"))
        elif kind is LatLng:
            yield Column(f"{column}_lat", "real", (*path, "lat"))
            yield Column(f"{column}_lng", "real", (*path, "lng"))
        elif isinstance(kind, type) and issubclass(kind, BaseModel):
            yield from _columns(kind, path)
        else:
            yield Column(column, _SCALARS.get(kind, "json"), path)


@functools.cache
def _attribute_columns(table: Table) -> tuple[tuple[str, tuple[str, ...], Kind], ...]:
    """The columns a table's attributes fill: name, path and kind (read once a table)."""
    return tuple(
        (c.name, c.path, c.kind) for c in table.columns if c.path[0] not in ("id", "relationships")
    )


def sql_value(value: object, kind: Kind) -> SqlValue:
    """`value` as the column of `kind` stores it; a value no column could hold faithfully
    (an integer past 64 bits, a NaN) is a `MirrorError`."""
    if value is None:
        return None
    if kind == "timestamp" and isinstance(value, dt.datetime):
        return timestamp(value)
    if kind == "json":
        return json_text(value)
    if kind == "boolean":
        return int(bool(value))
    if isinstance(value, int) and not isinstance(value, bool):
        if kind == "integer" and value not in INTEGER_RANGE:
            raise MirrorError("", f"{value} is past the 64-bit integers a column holds")
        return value
    if isinstance(value, float):
        if not math.isfinite(value):
            raise MirrorError("", f"{value} is not a number a database column holds exactly")
        return value
    if isinstance(value, str):
        return value
    return str(value)


def timestamp(value: dt.datetime) -> str:
    """ISO-8601 UTC with milliseconds, as the API sends times: `2026-11-26T10:00:00.000Z`."""
    if value.tzinfo is not None:
        value = value.astimezone(dt.UTC)
    return value.replace(tzinfo=None).isoformat(timespec="milliseconds") + "Z"


def json_text(value: object) -> str:
    """`value` as compact JSON with sorted keys, so equal values are equal text; members of
    the models keep the API's names. Always valid JSON: NaN and infinities, which JSON has no
    way to write, are a `MirrorError`. Nesting as deep as the client reads is written.

    >>> json_text({"b": [1, 2.5], "a": "é"})
    '{"a":"é","b":[1,2.5]}'
    """
    try:
        # Extended data is JSON's values already: the encoder alone, at C speed.
        return _dumps(value)
    except (TypeError, RecursionError):
        pass  # a model, Money, a datetime ... inside; or nested very deep
    except ValueError:
        raise MirrorError("", "holds NaN or an infinity, which JSON cannot hold") from None
    plain = _plain(value)
    try:
        return _dumps(plain)
    except RecursionError:
        # Deeper than the encoder's recursion allows: written level by level instead.
        return _deep_json(plain)
    except ValueError:
        raise MirrorError("", "holds NaN or an infinity, which JSON cannot hold") from None


# One encoder for every value: json.dumps would make one a call.
_ENCODER = json.JSONEncoder(
    sort_keys=True, separators=(",", ":"), ensure_ascii=False, allow_nan=False
)


def _dumps(value: object) -> str:
    return _ENCODER.encode(value)


def _deep_json(value: object) -> str:
    """What `json_text` writes, with no recursion, for values nested very deep."""
    out: list[str] = []
    # The stack holds values still to write, and the punctuation between them.
    stack: list[object] = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, _Text):
            out.append(item.text)
        elif isinstance(item, dict):
            members = sorted(typing.cast("dict[str, object]", item).items())
            stack.append(_Text("}"))
            for i, (key, member) in enumerate(reversed(members)):
                stack.append(member)
                stack.append(_Text(json.dumps(key, ensure_ascii=False) + ":"))
                if i < len(members) - 1:
                    stack.append(_Text(","))
            stack.append(_Text("{"))
        elif isinstance(item, list):
            elements = typing.cast("list[object]", item)
            stack.append(_Text("]"))
            for i, element in enumerate(reversed(elements)):
                stack.append(element)
                if i < len(elements) - 1:
                    stack.append(_Text(","))
            stack.append(_Text("["))
        else:
            try:
                out.append(json.dumps(item, ensure_ascii=False, allow_nan=False))
            except ValueError:
                raise MirrorError("", "holds NaN or an infinity, which JSON cannot hold") from None
    return "".join(out)


@dataclass(frozen=True, slots=True)
class _Text:
    text: str


def _plain(value: object) -> object:
    """`value` as JSON's values (dicts with text keys, lists, text, numbers, booleans, None),
    without recursion: extended data may nest as deep as the client reads."""
    root: list[object] = [None]
    # Each entry: the value to convert, and the container and key (or index) to put it in.
    work: list[tuple[object, Any, Any]] = [(value, root, 0)]
    while work:
        item, into, key = work.pop()
        converted, children = _plain_one(item)
        into[key] = converted
        work.extend(children)
    return root[0]


def _plain_one(value: object) -> tuple[object, list[tuple[object, Any, Any]]]:
    """One level of `_plain`: the converted container (to be filled) and its members."""
    from pydantic import BaseModel

    from flexclient._wire.value_types import LatLng, Money

    if value is None or isinstance(value, str | int | float | bool):
        return value, []
    if isinstance(value, BaseModel):
        members: dict[str, object] = {}
        for name, field in type(value).model_fields.items():
            member = getattr(value, name)
            if member is not None:
                members[field.alias or name] = member
        members.update(value.model_extra or {})
        return _plain_one(members)
    if isinstance(value, Money):
        return {"amount": value.amount, "currency": value.currency}, []
    if isinstance(value, LatLng):
        return {"lat": value.lat, "lng": value.lng}, []
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        fields = {f.name: getattr(value, f.name) for f in dataclasses.fields(value)}
        return _plain_one(fields)
    if isinstance(value, Mapping):
        mapping = typing.cast("Mapping[object, object]", value)
        out: dict[str, object] = {}
        return out, [(v, out, str(k)) for k, v in mapping.items()]
    if isinstance(value, list | tuple):
        sequence = typing.cast("Sequence[object]", value)
        items: list[object] = [None] * len(sequence)
        return items, [(v, items, i) for i, v in enumerate(sequence)]
    if isinstance(value, dt.datetime):
        return timestamp(value), []
    return str(value), []


def _one(resource: Resource, wire_names: str) -> str | None:
    # `a|b`: the relationship is named either way (the Integration API names a stock
    # adjustment's listing `ownListing`).
    for wire_name in wire_names.split("|"):
        ids = related_ids(resource, wire_name)
        if ids:
            return ids[0]
    return None


# Availability exceptions and stock adjustments are queried by a listing and a time range of
# at most 366 days: the mirror reads the year before and the year after the sync.
_YEAR = dt.timedelta(days=365)


def _messages_of(transaction: str, now: dt.datetime) -> list[dict[str, object]]:
    return [{"transactionId": transaction, "include": ["sender"]}]


def _exceptions_of(listing: str, now: dt.datetime) -> list[dict[str, object]]:
    # The year behind and the year ahead.
    return [{"listingId": listing, "start": s, "end": s + _YEAR} for s in (now - _YEAR, now)]


def _adjustments_of(listing: str, now: dt.datetime) -> list[dict[str, object]]:
    return [{"listingId": listing, "start": now - _YEAR, "end": now + dt.timedelta(days=1)}]


USERS = Table(
    "users",
    "user",
    "User",
    to_one=(("profile_image_id", "profileImage"),),
    read=Windows("users", ("profileImage",)),
)
LISTINGS = Table(
    "listings",
    "listing",
    "Listing",
    to_one=(("author_id", "author"),),
    links=(LinkTable("listing_images", "images", "listing_id", "image_id"),),
    read=Windows("listings", ("author", "images")),
)
IMAGES = Table("images", "image", "Image")
TRANSACTIONS = Table(
    "transactions",
    "transaction",
    "Transaction",
    to_one=(
        ("listing_id", "listing"),
        ("provider_id", "provider"),
        ("customer_id", "customer"),
        ("booking_id", "booking"),
        ("stock_reservation_id", "stockReservation"),
    ),
    read=Windows(
        "transactions",
        (
            "listing",
            "provider",
            "customer",
            "booking",
            "stockReservation",
            "reviews",
            "reviews.author",
            "reviews.subject",
        ),
    ),
)
BOOKINGS = Table("bookings", "booking", "Booking", to_one=(("transaction_id", "transaction"),))
REVIEWS = Table(
    "reviews",
    "review",
    "Review",
    to_one=(
        ("author_id", "author"),
        ("subject_id", "subject"),
        ("listing_id", "listing"),
        ("transaction_id", "transaction"),
    ),
)
STOCK_RESERVATIONS = Table(
    "stock_reservations",
    "stockReservation",
    "StockReservation",
    to_one=(("listing_id", "listing"), ("transaction_id", "transaction")),
)
MESSAGES = Table(
    "messages",
    "message",
    "Message",
    to_one=(("sender_id", "sender"), ("transaction_id", "transaction")),
    read=PerParent("messages", TRANSACTIONS, "transaction_id", _messages_of),
    optional=True,
    cost="a request a transaction",
)
AVAILABILITY_EXCEPTIONS = Table(
    "availability_exceptions",
    "availabilityException",
    "AvailabilityException",
    to_one=(("listing_id", "listing|ownListing"),),
    read=PerParent("availability_exceptions", LISTINGS, "listing_id", _exceptions_of),
    optional=True,
    cost="two requests a listing",
)
STOCK_ADJUSTMENTS = Table(
    "stock_adjustments",
    "stockAdjustment",
    "StockAdjustment",
    to_one=(("listing_id", "listing|ownListing"), ("stock_reservation_id", "stockReservation")),
    read=PerParent("stock_adjustments", LISTINGS, "listing_id", _adjustments_of),
    optional=True,
    cost="a request a listing",
)
EVENTS = Table("events", "event", "Event")

# Every resource table, in the order a snapshot reads them; `events` is the raw log.
TABLES: tuple[Table, ...] = (
    USERS,
    LISTINGS,
    IMAGES,
    TRANSACTIONS,
    BOOKINGS,
    REVIEWS,
    STOCK_RESERVATIONS,
    MESSAGES,
    AVAILABILITY_EXCEPTIONS,
    STOCK_ADJUSTMENTS,
)
# The tables the mirror keeps only when asked: each costs requests at a snapshot (`cost`).
OPTIONAL_TABLES: tuple[str, ...] = tuple(t.name for t in TABLES if t.optional)


class OptionalTables(TypedDict, total=False):
    """The optional tables, as keywords of `Mirror(...)` and `dlt_source(...)`: each True
    adds its table (what it costs: its entry's `cost`). A key for each entry of `TABLES`
    with `optional=True` (a test keeps them equal), so that a type checker names a
    misspelled one.

    >>> from flexclient.mirror import Mirror
    >>> Mirror(integ, "sqlite:///market.db", messages=True)  # doctest: +SKIP
    """

    messages: bool
    availability_exceptions: bool
    stock_adjustments: bool


BY_RESOURCE_TYPE: Mapping[str, Table] = {t.resource_type: t for t in TABLES}


def schema_markdown(tables: Sequence[Table] = TABLES) -> str:
    """The tables and their columns as Markdown (docs/mirror.md shows this, kept equal to it
    by a test)."""
    out: list[str] = []
    for table in (*tables, EVENTS):
        note = " (optional)" if table.optional else ""
        out.append(f"### `{table.name}`{note}\n")
        out.append("| column | holds (SQLite) | PostgreSQL |")
        out.append("|---|---|---|")
        out.extend(f"| `{c.name}` | {c.description} | {c.postgresql_type} |" for c in table.columns)
        for link in table.links:
            out.append(
                f"\nLink table `{link.name}`: `{link.owner_column}`, `{link.target_column}`,"
                " `position` (the API's order)."
            )
        out.append("")
    return "\n".join(out)
