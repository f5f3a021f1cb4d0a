"""The fake answers queries as the API does: its orders, its filters, its validation errors."""

from __future__ import annotations

import datetime as dt
import uuid
from collections.abc import Sequence
from typing import cast

import pytest

from flexclient import (
    ApiError,
    IntegrationClient,
    LatLng,
    LatLngBounds,
    MarketplaceClient,
    Money,
    UnknownParameterWarning,
)
from flexclient.models import Listing, Transaction, User
from flexclient.params import (
    ListingSortKey,
    ListingsQueryParams,
    ListingState,
    Sort,
    TransactionsQueryParams,
)
from flexclient.testing import FakeMarketplace
from tests.helpers import integration
from tests.integration.conftest import ROOM_PRICE, hosted_room, midnight, paid_booking

# --- values the API refuses, refused in its words --------------------------------------------


def refusal(error: ApiError) -> tuple[int, str, list[str] | None]:
    first = error.data.errors[0]
    path = first.source.path if first.source is not None else None
    return error.status, first.code, path


@pytest.mark.parametrize(
    ("params", "where", "expected"),
    [
        ({"perPage": "abc"}, "perPage", "expected an integer"),
        ({"page": "1.5"}, "page", "expected an integer"),
        ({"minStock": "x"}, "minStock", "expected an integer"),
        ({"origin": "60.1"}, "origin", "expected a location"),
        ({"start": "tomorrow", "end": "later"}, "start", "expected a time in ISO 8601"),
        ({"price": "cheap"}, "price", "expected amounts in minor units"),
    ],
)
def test_a_value_of_the_wrong_type_is_named_not_quoted_from_python(
    marketplace_client: MarketplaceClient, params: dict[str, str], where: str, expected: str
) -> None:
    with pytest.raises(ApiError) as info:
        marketplace_client.listings.query(params)  # type: ignore[arg-type]
    assert refusal(info.value) == (400, "validation-invalid-value", ["query", where])
    title = info.value.data.errors[0].title
    assert f"Invalid value for {where}: {expected}" in title
    assert "literal" not in title and "could not convert" not in title


def test_events_per_page_of_the_wrong_type(integration_client: IntegrationClient) -> None:
    with pytest.raises(ApiError) as info:
        integration_client.events.query({"perPage": "ten"})  # type: ignore[typeddict-item]
    assert refusal(info.value) == (400, "validation-invalid-value", ["query", "perPage"])
    assert info.value.data.errors[0].title == "Invalid value for perPage: expected an integer"


@pytest.mark.parametrize(
    "point",
    [LatLng(600, 24.9), LatLng(-90.5, 0), LatLng(60, 180.01), LatLng(0, -181)],
)
def test_a_place_off_the_earth_is_refused(
    fake_marketplace: FakeMarketplace, marketplace_client: MarketplaceClient, point: LatLng
) -> None:
    with pytest.raises(ApiError) as info:
        marketplace_client.listings.query({"origin": point})
    assert refusal(info.value) == (400, "validation-invalid-value", ["query", "origin"])
    fake_marketplace.add_user("geo@example.com", "geo-password")
    marketplace_client.login(username="geo@example.com", password="geo-password")
    with pytest.raises(ApiError) as info:
        marketplace_client.own_listings.create({"title": "Lost", "geolocation": point})
    assert refusal(info.value) == (400, "validation-invalid-value", ["body", "geolocation"])
    assert "not within" in info.value.data.errors[0].title


def test_bounds_off_the_earth_are_refused_and_the_poles_are_not(
    marketplace_client: MarketplaceClient,
) -> None:
    with pytest.raises(ApiError) as info:
        marketplace_client.listings.query(
            {"bounds": LatLngBounds(ne=LatLng(95, 25), sw=LatLng(60, 24))}
        )
    assert refusal(info.value) == (400, "validation-invalid-value", ["query", "bounds"])
    whole = LatLngBounds(ne=LatLng(90, 180), sw=LatLng(-90, -180))
    assert marketplace_client.listings.query({"bounds": whole}).status == 200


# --- the order of a query: a plain key descending, "-key" ascending, newest first by default --


def created(resources: Sequence[Listing | User | Transaction]) -> list[dt.datetime]:
    times = [r.attributes.created_at for r in resources]
    assert all(t is not None for t in times)
    return cast(list[dt.datetime], times)


def test_listings_sort_as_the_web_template_labels_them(demo_sdk: MarketplaceClient) -> None:
    def order(sort: ListingSortKey | None) -> list[Listing]:
        params: ListingsQueryParams = {"perPage": 100, "pub_category": "road"}  # type: ignore[typeddict-unknown-key]
        if sort is not None:
            params["sort"] = sort
        return demo_sdk.listings.query(params).data.data

    newest = created(order(None))
    assert newest == sorted(newest, reverse=True) and created(order("createdAt")) == newest
    assert created(order("-createdAt")) == sorted(newest)  # "Oldest"
    highest = [lst.attributes.price.amount for lst in order("price") if lst.attributes.price]
    assert highest == sorted(highest, reverse=True) and len(highest) == 50  # "Highest price"
    lowest = [lst.attributes.price.amount for lst in order("-price") if lst.attributes.price]
    assert lowest == sorted(lowest)  # "Lowest price"


def test_listings_sort_by_up_to_three_keys_numeric_extended_data_among_them(
    demo_sdk: MarketplaceClient,
) -> None:
    by_gears = Sort("pub_gears,-price,createdAt")  # extended data among them
    page = demo_sdk.listings.query({"perPage": 100, "sort": by_gears}).data.data
    keys = [
        (-(lst.attributes.public_data or {})["gears"], lst.attributes.price.amount)
        for lst in page
        if lst.attributes.price
    ]
    assert keys == sorted(keys) and len(keys) == 100
    with pytest.raises(ApiError) as info:
        demo_sdk.listings.query({"sort": Sort("price,createdAt,pub_gears,-price")})
    assert refusal(info.value) == (400, "validation-invalid-value", ["query", "sort"])
    with pytest.raises(ApiError) as info:
        demo_sdk.listings.query({"sort": Sort("title")})
    assert refusal(info.value) == (400, "validation-invalid-value", ["query", "sort"])


def test_a_listing_without_the_sort_value_comes_last_either_way(
    fake_marketplace: FakeMarketplace, integration_client: IntegrationClient
) -> None:
    author = fake_marketplace.add_user("shop@example.com", "shop-password")
    for title, price in (("Cheap", Money(100, "EUR")), ("Free", None), ("Dear", Money(900, "EUR"))):
        integration_client.listings.create({"title": title, "authorId": author, "price": price})
    orders: list[tuple[ListingSortKey, list[str]]] = [
        ("price", ["Dear", "Cheap", "Free"]),
        ("-price", ["Cheap", "Dear", "Free"]),
    ]
    for sort, titles in orders:
        page = integration_client.listings.query({"sort": sort}).data.data
        assert [lst.attributes.title for lst in page] == titles


# --- the time of creation: createdAtStart inclusive, createdAtEnd exclusive -----------------


def test_integration_listings_by_time_of_creation(
    demo_marketplace: FakeMarketplace, demo_sdk: MarketplaceClient
) -> None:
    integ = integration(demo_marketplace)
    far_future = dt.datetime(2100, 1, 1, tzinfo=dt.UTC)
    assert integ.listings.query({"createdAtStart": far_future}).data.data == []
    # The demo's listings were made an hour apart from 2026-01-01T00:00Z.
    first = dt.datetime(2026, 1, 1, tzinfo=dt.UTC)
    window = integ.listings.query(
        {
            "createdAtStart": first + dt.timedelta(hours=10),
            "createdAtEnd": first + dt.timedelta(hours=13),
            "sort": "-createdAt",
        }
    ).data
    assert created(window.data) == [first + dt.timedelta(hours=h) for h in (10, 11, 12)]
    assert window.meta.total_items == 3
    everything = integ.listings.query({"createdAtEnd": far_future, "perPage": 1}).data.meta
    assert everything.total_items == 250
    # The Marketplace API's listing query has no such filter.
    with pytest.raises(ApiError) as info:
        demo_sdk.listings.query({"createdAtStart": first})  # type: ignore[typeddict-unknown-key]
    assert refusal(info.value) == (400, "validation-disallowed-key", ["query", "createdAtStart"])


def test_integration_users_by_time_of_creation_newest_first(
    demo_marketplace: FakeMarketplace,
) -> None:
    integ = integration(demo_marketplace)
    users = integ.users.query().data.data
    assert created(users) == sorted(created(users), reverse=True)
    assert created(integ.users.query({"sort": "-createdAt"}).data.data) == sorted(created(users))
    # The demo users joined a day apart from 2026-01-01.
    second_day = dt.datetime(2026, 1, 2, tzinfo=dt.UTC)
    joined = integ.users.query(
        {"createdAtStart": second_day, "createdAtEnd": second_day + dt.timedelta(days=2)}
    ).data.data
    assert created(joined) == [second_day + dt.timedelta(days=1), second_day]


# --- transactions: by their own times, their latest message's and their booking's -----------


def test_transactions_sort_by_messages_and_bookings_those_without_last(
    fake_marketplace: FakeMarketplace,
) -> None:
    fake = fake_marketplace
    _, room, guest = hosted_room(fake)
    day, night, price = midnight(fake, 10), dt.timedelta(days=1), ROOM_PRICE
    later = paid_booking(fake, guest, room.id, day + dt.timedelta(days=5), night, price)
    fake.advance(dt.timedelta(seconds=1))  # a distinct time of creation for each
    sooner = paid_booking(fake, guest, room.id, day, night, price)
    fake.advance(dt.timedelta(seconds=1))
    asked = guest.transactions.initiate(
        {
            "processAlias": "default-inquiry/release-1",
            "transition": "transition/inquire-without-payment",
            "params": {"listingId": room.id},
        }
    ).data.data
    guest.messages.send({"transactionId": asked.id, "content": "Is it quiet?"})
    fake.advance(dt.timedelta(minutes=1))
    guest.messages.send({"transactionId": later.id, "content": "Arriving late"})

    def order(sort: str | None = None) -> list[uuid.UUID]:
        params: TransactionsQueryParams = {"only": "order"}
        if sort is not None:
            params["sort"] = Sort(sort)  # several keys in one text, as the API reads them
        return [t.id for t in guest.transactions.query(params).data.data]

    assert order() == order("createdAt") == [asked.id, sooner.id, later.id]  # newest first
    assert order("-createdAt") == [later.id, sooner.id, asked.id]
    assert order("lastMessageAt,createdAt") == [later.id, asked.id, sooner.id]
    assert order("-lastMessageAt,createdAt") == [asked.id, later.id, sooner.id]
    assert order("bookingStart") == [later.id, sooner.id, asked.id]
    assert order("-bookingStart") == [sooner.id, later.id, asked.id]
    integ = integration(fake)
    assert [t.id for t in integ.transactions.query({"sort": "-bookingEnd"}).data.data] == [
        sooner.id,
        later.id,
        asked.id,
    ]


# --- keys the web template sends, as the real API reads them ---------------------------------


def test_a_snake_case_key_filters_as_the_camel_case_one(fake_marketplace: FakeMarketplace) -> None:
    # The web template sends `messages.query({transaction_id})` and `listings.query({author_id})`.
    host, room, guest = hosted_room(fake_marketplace)
    tx = guest.transactions.initiate(
        {
            "processAlias": "default-booking/release-1",
            "transition": "transition/inquire",
            "params": {"listingId": room.id},
        }
    ).data.data
    guest.messages.send({"transactionId": tx.id, "content": "Free next week?"})
    other = host.own_listings.create({"title": "Other room", "price": ROOM_PRICE}).data.data
    by_snake: dict[str, object] = {"transaction_id": tx.id}
    with pytest.warns(UnknownParameterWarning, match="write 'transactionId'"):
        messages = guest.messages.query(by_snake).data.data  # type: ignore[arg-type]
    assert [m.attributes.content for m in messages] == ["Free next week?"]
    by_author: dict[str, object] = {"author_id": host.current_user.show().data.data.id}
    with pytest.warns(UnknownParameterWarning):
        listed = guest.listings.query(by_author).data.data  # type: ignore[arg-type]
    assert {lst.id for lst in listed} == {room.id, other.id}
    nobody: dict[str, object] = {"author_id": uuid.uuid4()}
    with pytest.warns(UnknownParameterWarning):
        assert guest.listings.query(nobody).data.data == []  # type: ignore[arg-type]


def test_own_listings_by_state(fake_marketplace: FakeMarketplace) -> None:
    # `own_listings.query({"states": ...})`, as the web template's profile page asks.
    host, room, _ = hosted_room(fake_marketplace)
    draft = host.own_listings.create_draft({"title": "Draft"}).data.data
    assert [lst.id for lst in host.own_listings.query({"states": ["published"]}).data.data] == [
        room.id
    ]
    assert [lst.id for lst in host.own_listings.query({"states": "draft"}).data.data] == [draft.id]
    both = host.own_listings.query({"states": ["draft", "published"]}).data.data
    assert {lst.id for lst in both} == {room.id, draft.id}
    with pytest.raises(ApiError) as info:
        host.own_listings.query({"states": cast(ListingState, "pubished")})
    assert refusal(info.value)[:2] == (400, "validation-invalid-value")


def test_stock_totals_as_text_are_read_as_integers(fake_marketplace: FakeMarketplace) -> None:
    # The web template sends its stock form's value as it is: `newTotal: "3"`.
    host, room, _ = hosted_room(fake_marketplace)
    stock = host.stock.compare_and_set(
        {"listingId": room.id, "oldTotal": None, "newTotal": "3"}, {"expand": True}
    ).data.data
    assert stock.attributes.quantity == 3
    host.stock.compare_and_set({"listingId": room.id, "oldTotal": "3", "newTotal": 5})
    with pytest.raises(ApiError) as info:
        host.stock.compare_and_set({"listingId": room.id, "oldTotal": 5, "newTotal": "five"})
    assert refusal(info.value) == (400, "validation-invalid-value", ["body", "newTotal"])
