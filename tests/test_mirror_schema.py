"""The mirror's columns come from the models, and values are stored as docs/mirror.md says."""

from __future__ import annotations

import datetime as dt
import decimal
import json
import math
import re
import sys
import uuid
from pathlib import Path

import pytest
import sqlalchemy as sa
from pydantic import Field

from flexclient import MirrorError, ParameterError
from flexclient._wire.value_types import LatLng, LatLngBounds, Money
from flexclient.mirror import schema_markdown, sqlite_path
from flexclient.mirror._store import Store
from flexclient.mirror.schema import (
    BOOKINGS,
    EVENTS,
    LISTINGS,
    MESSAGES,
    STOCK_ADJUSTMENTS,
    TABLES,
    TRANSACTIONS,
    USERS,
    Table,
    json_text,
    sql_value,
    timestamp,
)
from flexclient.models import Attributes, Listing, Resource, StockAdjustment, Transaction, User
from flexclient.models._resource import WireModel, model_for
from flexclient.models.listings import ListingAttributes

LISTING_ID = uuid.UUID("00000000-0000-0000-0000-0000000000a1")
HELSINKI_WINTER = dt.timezone(dt.timedelta(hours=2))
AUTHOR_ID = uuid.UUID("00000000-0000-0000-0000-0000000000b2")


def listing(**attributes: object) -> Listing:
    return Listing.model_validate(
        {
            "id": LISTING_ID,
            "type": "listing",
            "attributes": attributes,
            "relationships": {
                "author": {"data": {"id": AUTHOR_ID, "type": "user"}},
                "images": {"data": []},
            },
        }
    )


def test_columns_follow_the_models_attributes() -> None:
    names = [c.name for c in LISTINGS.columns]
    assert names[0] == "id"
    assert {"price_amount", "price_currency", "geolocation_lat", "geolocation_lng"} <= set(names)
    assert "price" not in names and "geolocation" not in names
    # Every attribute of the model has its column(s): none is forgotten.
    for field in ListingAttributes.model_fields:
        assert any(n == field or n.startswith(f"{field}_") for n in names), field
    assert names[-1] == "author_id"
    user = [c.name for c in USERS.columns]
    assert {"profile_display_name", "profile_public_data", "profile_image_id"} <= set(user)


def test_a_row_holds_money_points_times_and_extended_data_as_documented() -> None:
    row = LISTINGS.row(
        listing(
            title="Bike",
            price={"amount": 4990, "currency": "EUR"},
            geolocation={"lat": 60.17, "lng": 24.94},
            createdAt=dt.datetime(
                2026, 11, 26, 12, 0, 1, 5000, tzinfo=dt.timezone(dt.timedelta(hours=2))
            ),
            publicData={"b": 1, "a": [1, 2]},
            deleted=False,
        )
    )
    assert row["id"] == str(LISTING_ID) and row["author_id"] == str(AUTHOR_ID)
    assert (row["price_amount"], row["price_currency"]) == (4990, "EUR")
    assert (row["geolocation_lat"], row["geolocation_lng"]) == (60.17, 24.94)
    assert row["created_at"] == "2026-11-26T10:00:01.005Z"
    assert row["public_data"] == '{"a":[1,2],"b":1}'
    assert row["deleted"] == 0 and row["private_data"] is None and row["description"] is None


def test_json_keeps_the_apis_names_and_exact_decimals() -> None:
    tx = Transaction.model_validate(
        {
            "id": uuid.uuid4(),
            "type": "transaction",
            "attributes": {
                "lineItems": [
                    {
                        "code": "line-item/day",
                        "unitPrice": {"amount": 1000, "currency": "EUR"},
                        "quantity": decimal.Decimal("2.5"),
                        "includeFor": ["customer"],
                    }
                ],
                "payinTotal": {"amount": 2500, "currency": "EUR"},
            },
        }
    )
    row = TRANSACTIONS.row(tx)
    assert row["line_items"] == (
        '[{"code":"line-item/day","includeFor":["customer"],"quantity":"2.5",'
        '"unitPrice":{"amount":1000,"currency":"EUR"}}]'
    )
    assert (row["payin_total_amount"], row["payin_total_currency"]) == (2500, "EUR")
    assert row["listing_id"] is None  # not said, and no parent to say it


def test_a_parent_fills_what_the_relationships_leave_out() -> None:
    adjustment = StockAdjustment.model_validate(
        {
            "id": uuid.uuid4(),
            "type": "stockAdjustment",
            "attributes": {"quantity": 3},
            "relationships": {"ownListing": {"data": {"id": LISTING_ID, "type": "ownListing"}}},
        }
    )
    # The Integration API names the listing `ownListing` here; either name fills listing_id.
    assert STOCK_ADJUSTMENTS.row(adjustment)["listing_id"] == str(LISTING_ID)
    bare = StockAdjustment.model_validate({"id": uuid.uuid4(), "type": "stockAdjustment"})
    assert STOCK_ADJUSTMENTS.row(bare, {"listing_id": "parent"})["listing_id"] == "parent"


def test_values_by_kind() -> None:
    assert sql_value(True, "boolean") == 1 and sql_value(False, "boolean") == 0
    assert sql_value(None, "json") is None
    assert sql_value(decimal.Decimal("0.10"), "decimal") == "0.10"
    assert sql_value(uuid.UUID(int=1), "id") == "00000000-0000-0000-0000-000000000001"
    assert timestamp(dt.datetime(2026, 1, 2, 3, 4, 5)) == "2026-01-02T03:04:05.000Z"
    assert json_text({"é": dt.datetime(2026, 1, 1, tzinfo=dt.UTC)}) == (
        '{"é":"2026-01-01T00:00:00.000Z"}'
    )


def test_the_tables_are_created_with_quoted_columns(database_url: str) -> None:
    store = Store(database_url)
    try:
        inspector = sa.inspect(store._engine)
        schema = store.target.schema
        columns = [c["name"] for c in inspector.get_columns("bookings", schema=schema)]
        assert {"start", "end"} <= set(columns)  # `end` is an SQL keyword
        events = [c["name"] for c in inspector.get_columns("events", schema=schema)]
        assert events == [c.name for c in EVENTS.columns]
        booking = str(uuid.uuid4())
        store.upsert(BOOKINGS, {"id": booking, "end": "2026-01-02T00:00:00.000Z"})
        assert store.rows("bookings")[0]["end"] == "2026-01-02T00:00:00.000Z"
    finally:
        store.close()


def test_nan_and_infinities_are_refused_not_written_as_invalid_json() -> None:
    for bad in (math.nan, math.inf, -math.inf):
        with pytest.raises(MirrorError, match="NaN or an infinity"):
            json_text({"a": [1, bad]})
        with pytest.raises(MirrorError, match="not a number a database column holds"):
            sql_value(bad, "real")
    assert json.loads(json_text({"a": 1e308})) == {"a": 1e308}


def test_integers_past_64_bits_are_exact_in_json_and_refused_in_a_column() -> None:
    big = 2**63
    assert json_text({"n": big, "m": -(2**80)}) == f'{{"m":{-(2**80)},"n":{big}}}'
    assert sql_value(big - 1, "integer") == big - 1
    assert sql_value(-big, "integer") == -big
    for bad in (big, -big - 1):
        with pytest.raises(MirrorError, match="past the 64-bit integers"):
            sql_value(bad, "integer")


def test_a_value_a_column_cannot_hold_names_the_resource_and_the_column() -> None:
    with pytest.raises(MirrorError) as caught:
        LISTINGS.row(listing(publicData={"ratio": math.nan}))
    assert caught.value.problem.startswith(f"listing {LISTING_ID}, column public_data: ")
    assert "NaN" in str(caught.value) and caught.value.database == ""


def test_extended_data_nested_as_deep_as_the_client_reads_is_written_exactly() -> None:
    depth = 1_000
    nested: object = "bottom"
    for i in range(depth):
        nested = {"k": [nested, i]} if i % 2 else [nested]
    text = json_text({"deep": nested})
    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(20_000)
    try:
        expected = json.dumps(
            {"deep": nested}, sort_keys=True, separators=(",", ":"), ensure_ascii=False
        )
        assert json.loads(text) == json.loads(expected)
    finally:
        sys.setrecursionlimit(limit)
    assert text == expected
    # Deep and shallow are written alike: sorted keys, no spaces, text as it is.
    shallow = {"b": [1, {"z": None, "y": True}], "a": "é\n"}
    assert json_text(shallow) == json.dumps(
        shallow, sort_keys=True, separators=(",", ":"), ensure_ascii=False
    )


def test_only_sqlite_urls_are_mirrored_here() -> None:
    assert sqlite_path("sqlite:///:memory:") == ":memory:"
    for url in ("market.db", "sqlite:///", "postgresql://host/db"):
        with pytest.raises(ParameterError, match="database"):
            sqlite_path(url)


def test_docs_show_the_tables_as_the_code_makes_them() -> None:
    docs = (Path(__file__).parent.parent / "docs" / "mirror.md").read_text()
    assert schema_markdown() in docs
    # And every table the docs name exists.
    named = set(re.findall(r"^### `(\w+)`", docs, re.MULTILINE))
    assert named == {t.name for t in (*TABLES, EVENTS)}


def test_users_keep_integration_only_attributes() -> None:
    user = User.model_validate(
        {
            "id": uuid.uuid4(),
            "type": "user",
            "attributes": {"email": "a@example.com", "profile": {"firstName": "A"}},
        }
    )
    row = USERS.row(user)
    assert row["email"] == "a@example.com" and row["profile_first_name"] == "A"


class _GadgetSize(WireModel):
    width_mm: int | None = None
    label: str | None = None


class _GadgetAttributes(Attributes):
    price: Money | None = None
    spot: LatLng | None = None
    size: _GadgetSize | None = None
    count: int | None = None
    weight: float | None = None
    flag: bool | None = None
    seen_at: dt.datetime | None = None
    ratio: decimal.Decimal | None = None
    owner: uuid.UUID | None = None
    either: int | str | None = None
    tags: list[str] | None = None
    area: LatLngBounds | None = None


class _Gadget(Resource):
    attributes: _GadgetAttributes = Field(default_factory=_GadgetAttributes)  # pyright: ignore[reportIncompatibleVariableOverride]


GADGETS = Table("gadgets", "flexclientTestGadget", _Gadget, to_one=(("maker_id", "maker"),))


def test_each_kind_of_attribute_gets_its_columns() -> None:
    kinds = [(c.name, c.kind) for c in GADGETS.columns]
    assert kinds == [
        ("id", "id"),
        ("price_amount", "integer"),
        ("price_currency", "text"),
        ("spot_lat", "real"),
        ("spot_lng", "real"),
        ("size_width_mm", "integer"),
        ("size_label", "text"),
        ("count", "integer"),
        ("weight", "real"),
        ("flag", "boolean"),
        ("seen_at", "timestamp"),
        ("ratio", "decimal"),
        ("owner", "id"),
        ("either", "json"),  # more than one type: kept as JSON
        ("tags", "json"),
        ("area", "json"),
        ("maker_id", "id"),
    ]
    assert GADGETS.optional is False and MESSAGES.optional is True


def test_each_kind_of_attribute_is_stored_as_documented() -> None:
    gadget = _Gadget.model_validate(
        {
            "id": LISTING_ID,
            "type": "flexclientTestGadget",
            "attributes": {
                "price": Money(250, "EUR"),
                "spot": LatLng(60.5, 24.25),
                "size": {"widthMm": 40},
                "count": 3,
                "weight": 1.5,
                "flag": True,
                "ratio": decimal.Decimal("0.125"),
                "owner": AUTHOR_ID,
                "either": "x",
                "tags": ["a", "b"],
                "area": LatLngBounds(ne=LatLng(1.0, 2.0), sw=LatLng(-1.0, -2.0)),
            },
        }
    )
    row = GADGETS.row(gadget)
    assert row == {
        "id": str(LISTING_ID),
        "price_amount": 250,
        "price_currency": "EUR",
        "spot_lat": 60.5,
        "spot_lng": 24.25,
        "size_width_mm": 40,
        "size_label": None,
        "count": 3,
        "weight": 1.5,
        "flag": 1,
        "seen_at": None,
        "ratio": "0.125",
        "owner": str(AUTHOR_ID),
        "either": '"x"',
        "tags": '["a","b"]',
        "area": '{"ne":{"lat":1.0,"lng":2.0},"sw":{"lat":-1.0,"lng":-2.0}}',
        "maker_id": None,
    }


def test_json_of_nested_values_keeps_money_points_and_unknown_members() -> None:
    size = _GadgetSize.model_validate({"widthMm": 4, "colourCode": "red"})
    assert json_text(size) == '{"colourCode":"red","widthMm":4}'  # no null label
    value: dict[object, object] = {
        1: (Money(5, "USD"), LatLng(1.5, 2.5)),
        "at": dt.datetime(2026, 1, 1, 12, tzinfo=HELSINKI_WINTER),
        "id": uuid.UUID(int=2),
        "n": None,
        "ok": False,
        "other": frozenset(),
    }
    assert json.loads(json_text(value)) == {
        "1": [{"amount": 5, "currency": "USD"}, {"lat": 1.5, "lng": 2.5}],
        "at": "2026-01-01T10:00:00.000Z",
        "id": "00000000-0000-0000-0000-000000000002",
        "n": None,
        "ok": False,
        "other": "frozenset()",
    }


def test_a_to_many_relationship_lists_its_ids_or_says_it_was_not_sent() -> None:
    link = LISTINGS.links[0]
    assert LISTINGS.linked(link, listing()) == []
    with_images = Listing.model_validate(
        {
            "id": LISTING_ID,
            "type": "listing",
            "relationships": {
                "images": {
                    "data": [
                        {"id": AUTHOR_ID, "type": "image"},
                        {"id": LISTING_ID, "type": "image"},
                    ]
                }
            },
        }
    )
    assert LISTINGS.linked(link, with_images) == [str(AUTHOR_ID), str(LISTING_ID)]
    bare = Listing.model_validate({"id": LISTING_ID, "type": "listing"})
    assert LISTINGS.linked(link, bare) is None  # not sent: the links held are kept
    one = Listing.model_validate(
        {
            "id": LISTING_ID,
            "type": "listing",
            "relationships": {"images": {"data": {"id": AUTHOR_ID, "type": "image"}}},
        }
    )
    assert LISTINGS.linked(link, one) == [str(AUTHOR_ID)]
    null = Listing.model_validate(
        {"id": LISTING_ID, "type": "listing", "relationships": {"images": {"data": None}}}
    )
    assert LISTINGS.linked(link, null) == []


def test_values_of_plain_kinds_are_stored_as_they_are() -> None:
    assert sql_value("a", "text") == "a" and sql_value(3, "integer") == 3
    assert sql_value(2.5, "real") == 2.5
    assert sql_value(dt.datetime(2026, 1, 1, tzinfo=dt.UTC), "timestamp") == (
        "2026-01-01T00:00:00.000Z"
    )
    assert sql_value({"b": [1]}, "json") == '{"b":[1]}'


def test_each_table_reads_its_models_type_and_declared_relationships() -> None:
    for table in (*TABLES, EVENTS):
        assert model_for(table.resource_type) is table.model, table.name
        declared = table.model.relationship_names or frozenset()
        for column, wire_names in table.to_one:
            # `a|b`: either name (the Integration API's `ownListing`); one the model declares.
            assert set(wire_names.split("|")) & declared, (table.name, column)
        for link in table.links:
            assert link.relationship in declared, (table.name, link.name)


def test_a_column_of_each_kind_has_its_description_and_postgresql_type() -> None:
    types = {c.name: (c.description, c.postgresql_type) for c in GADGETS.columns}
    assert types["ratio"] == ("exact decimal as text", "`numeric`")
    assert types["size_label"] == ("text", "`text`")
    assert types["count"] == ("integer", "`bigint`")
    assert types["flag"] == ("0 or 1", "`boolean`")
    assert types["weight"] == ("real number", "`double precision`")
    assert types["seen_at"] == ("ISO-8601 UTC text", "`timestamptz`")
    assert types["tags"] == ("JSON text", "`jsonb`")
    assert types["owner"] == ("UUID as text", "`uuid`")
    assert "| `ratio` | exact decimal as text | `numeric` |" in schema_markdown((GADGETS,))
