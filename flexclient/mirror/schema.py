"""The mirror's tables, derived from the models: one source of truth for their columns.

A table holds one resource type. Its columns come from the attribute model of that type:
each attribute is a column named as the model names it (the snake_case of the API's name);
Money becomes `<name>_amount` (minor units) and `<name>_currency`, LatLng `<name>_lat` and
`<name>_lng`, a nested object (a user's `profile`) a column per member with its name in front,
timestamps ISO-8601 UTC text, extended data and other structures JSON text. A to-one
relationship is a `<relationship>_id` column; a to-many one a link table.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import decimal
import functools
import json
import types
import typing
import uuid
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal

from pydantic import BaseModel

from flexclient._wire.value_types import LatLng, Money
from flexclient.mirror._names import OPTIONAL_TABLES
from flexclient.models import (
    AvailabilityException,
    Booking,
    Event,
    Image,
    Listing,
    Message,
    Resource,
    Review,
    StockAdjustment,
    StockReservation,
    Transaction,
    User,
)

# What a column holds, as the docs describe it; the SQL type follows from it.
Kind = Literal["text", "integer", "real", "boolean", "timestamp", "decimal", "json", "id"]
_SQL_TYPES: Mapping[Kind, str] = {
    "text": "TEXT",
    "integer": "INTEGER",
    "real": "REAL",
    "boolean": "INTEGER",
    "timestamp": "TEXT",
    "decimal": "TEXT",
    "json": "TEXT",
    "id": "TEXT",
}
_KIND_DOCS: Mapping[Kind, str] = {
    "text": "text",
    "integer": "integer",
    "real": "real number",
    "boolean": "0 or 1",
    "timestamp": "ISO-8601 UTC text",
    "decimal": "exact decimal as text",
    "json": "JSON text",
    "id": "UUID as text",
}

SqlValue = str | int | float | None


@dataclass(frozen=True, slots=True)
class Column:
    """One column: its name, what it holds, and the path of its value in the resource."""

    name: str
    kind: Kind
    # Field names from the attributes down to the value; for Money and LatLng, the member.
    path: tuple[str, ...]

    @property
    def sql_type(self) -> str:
        return _SQL_TYPES[self.kind]

    @property
    def description(self) -> str:
        return _KIND_DOCS[self.kind]


@dataclass(frozen=True, slots=True)
class LinkTable:
    """A to-many relationship: a row for each related resource, in the API's order."""

    name: str
    relationship: str  # its wire name
    owner_column: str
    target_column: str


@dataclass(frozen=True, slots=True)
class Table:
    """A mirrored resource type: the table, the model its columns come from, its to-one
    relationships (column name, wire name) and its link tables."""

    name: str
    resource_type: str
    model: type[Resource]
    to_one: tuple[tuple[str, str], ...] = ()
    links: tuple[LinkTable, ...] = ()

    @property
    def optional(self) -> bool:
        """Whether the mirror keeps this table only when asked to."""
        return self.name in OPTIONAL_TABLES

    @property
    def columns(self) -> tuple[Column, ...]:
        return _table_columns(self)

    def row(
        self, resource: Resource, parent: Mapping[str, str] | None = None
    ) -> dict[str, SqlValue]:
        """The row of `resource`; `parent` fills to-one columns its relationships leave out
        (a booking read through its transaction names no transaction)."""
        row: dict[str, SqlValue] = {}
        for column in self.columns:
            if column.path[0] == "id":
                row[column.name] = str(resource.id)
            elif column.path[0] == "relationships":
                ref = _one(resource, column.path[1])
                fallback = parent.get(column.name) if parent else None
                row[column.name] = ref if ref is not None else fallback
            else:
                row[column.name] = _value(resource.attributes, column)
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


def _value(attributes: BaseModel, column: Column) -> SqlValue:
    value: object = attributes
    for name in column.path:
        value = getattr(value, name, None)
        if value is None:
            return None
    return sql_value(value, column.kind)


def sql_value(value: object, kind: Kind) -> SqlValue:
    """`value` as the column of `kind` stores it."""
    if value is None:
        return None
    if kind == "timestamp" and isinstance(value, dt.datetime):
        return timestamp(value)
    if kind == "json":
        return json_text(value)
    if kind == "boolean":
        return int(bool(value))
    if isinstance(value, str | int | float) and not isinstance(value, bool):
        return value
    return str(value)


def timestamp(value: dt.datetime) -> str:
    """ISO-8601 UTC with milliseconds, as the API sends times: `2026-11-26T10:00:00.000Z`."""
    if value.tzinfo is not None:
        value = value.astimezone(dt.UTC)
    return value.replace(tzinfo=None).isoformat(timespec="milliseconds") + "Z"


def json_text(value: object) -> str:
    """`value` as compact JSON with sorted keys, so equal values are equal text; members of
    the models keep the API's names."""
    return json.dumps(_plain(value), sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def _plain(value: object) -> object:
    if isinstance(value, BaseModel):
        dumped: dict[str, object] = {}
        for name, field in type(value).model_fields.items():
            member = getattr(value, name)
            if member is not None:
                dumped[field.alias or name] = _plain(member)
        for name, member in (value.model_extra or {}).items():
            dumped[name] = _plain(member)
        return dumped
    if isinstance(value, Money):
        return {"amount": value.amount, "currency": value.currency}
    if isinstance(value, LatLng):
        return {"lat": value.lat, "lng": value.lng}
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: _plain(getattr(value, f.name)) for f in dataclasses.fields(value)}
    if isinstance(value, Mapping):
        return {str(k): _plain(v) for k, v in typing.cast("Mapping[object, object]", value).items()}
    if isinstance(value, list | tuple):
        return [_plain(v) for v in typing.cast("Sequence[object]", value)]
    if isinstance(value, dt.datetime):
        return timestamp(value)
    if isinstance(value, decimal.Decimal | uuid.UUID):
        return str(value)
    if value is None or isinstance(value, str | int | float | bool):
        return value
    return str(value)


def _one(resource: Resource, wire_names: str) -> str | None:
    # `a|b`: the relationship is named either way (the Integration API names a stock
    # adjustment's listing `ownListing`).
    for wire_name in wire_names.split("|"):
        ids = related_ids(resource, wire_name)
        if ids:
            return ids[0]
    return None


USERS = Table("users", "user", User, to_one=(("profile_image_id", "profileImage"),))
LISTINGS = Table(
    "listings",
    "listing",
    Listing,
    to_one=(("author_id", "author"),),
    links=(LinkTable("listing_images", "images", "listing_id", "image_id"),),
)
IMAGES = Table("images", "image", Image)
TRANSACTIONS = Table(
    "transactions",
    "transaction",
    Transaction,
    to_one=(
        ("listing_id", "listing"),
        ("provider_id", "provider"),
        ("customer_id", "customer"),
        ("booking_id", "booking"),
        ("stock_reservation_id", "stockReservation"),
    ),
)
BOOKINGS = Table("bookings", "booking", Booking, to_one=(("transaction_id", "transaction"),))
REVIEWS = Table(
    "reviews",
    "review",
    Review,
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
    StockReservation,
    to_one=(("listing_id", "listing"), ("transaction_id", "transaction")),
)
MESSAGES = Table(
    "messages",
    "message",
    Message,
    to_one=(("sender_id", "sender"), ("transaction_id", "transaction")),
)
AVAILABILITY_EXCEPTIONS = Table(
    "availability_exceptions",
    "availabilityException",
    AvailabilityException,
    to_one=(("listing_id", "listing|ownListing"),),
)
STOCK_ADJUSTMENTS = Table(
    "stock_adjustments",
    "stockAdjustment",
    StockAdjustment,
    to_one=(("listing_id", "listing|ownListing"), ("stock_reservation_id", "stockReservation")),
)
EVENTS = Table("events", "event", Event)

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
BY_RESOURCE_TYPE: Mapping[str, Table] = {t.resource_type: t for t in TABLES}


def create_statements(tables: Sequence[Table]) -> list[str]:
    """`CREATE TABLE IF NOT EXISTS` for `tables`, their link tables and the events log."""
    statements: list[str] = []
    for table in (*tables, EVENTS):
        columns = ", ".join(
            f'"{c.name}" {c.sql_type}{" PRIMARY KEY" if c.name == "id" else ""}'
            for c in table.columns
        )
        statements.append(f"CREATE TABLE IF NOT EXISTS {table.name} ({columns})")
        for link in table.links:
            statements.append(
                f"CREATE TABLE IF NOT EXISTS {link.name} ({link.owner_column} TEXT NOT NULL,"
                f" {link.target_column} TEXT NOT NULL, position INTEGER NOT NULL,"
                f" PRIMARY KEY ({link.owner_column}, position))"
            )
    statements.append("CREATE UNIQUE INDEX IF NOT EXISTS events_sequence ON events (sequence_id)")
    return statements


def schema_markdown(tables: Sequence[Table] = TABLES) -> str:
    """The tables and their columns as Markdown (docs/mirror.md shows this, kept equal to it
    by a test)."""
    out: list[str] = []
    for table in (*tables, EVENTS):
        note = " (optional)" if table.optional else ""
        out.append(f"### `{table.name}`{note}\n")
        out.append("| column | holds |")
        out.append("|---|---|")
        out.extend(f"| `{c.name}` | {c.description} |" for c in table.columns)
        for link in table.links:
            out.append(
                f"\nLink table `{link.name}`: `{link.owner_column}`, `{link.target_column}`,"
                " `position` (the API's order)."
            )
        out.append("")
    return "\n".join(out)
