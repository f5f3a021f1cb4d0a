"""Time slots and bookings in the fake: computed from the listing's availability plan (by day
or by time, with seats, in the plan's time zone), its availability exceptions and the
bookings that hold seats."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest

from flexclient import BadRequestError, MarketplaceClient, Money
from flexclient.params import AvailabilityPlan, ListingsQueryParams
from flexclient.testing import FakeMarketplace
from tests.integration.conftest import connect_stripe, items, login

MONDAY = dt.datetime(2031, 3, 3, tzinfo=dt.UTC)  # a Monday, far enough ahead
WEEK = dt.timedelta(days=7)
HELSINKI_PLAN: AvailabilityPlan = {
    "type": "availability-plan/time",
    "timezone": "Europe/Helsinki",
    "entries": [
        {"dayOfWeek": day, "seats": 2, "startTime": "09:00", "endTime": "17:00"}
        for day in ("mon", "tue", "wed", "thu", "fri")
    ],
}


def slots(sdk: MarketplaceClient, listing: Any, start: dt.datetime, end: dt.datetime) -> list[Any]:
    found = sdk.timeslots.query({"listingId": listing, "start": start, "end": end}).data.data
    return [(t.attributes.start, t.attributes.end, t.attributes.seats) for t in found]


@pytest.fixture
def provider(fake_marketplace: FakeMarketplace) -> MarketplaceClient:
    sdk = login(fake_marketplace, "host@example.com")
    connect_stripe(sdk)
    return sdk


def test_a_time_plan_in_its_time_zone_with_exceptions(provider: MarketplaceClient) -> None:
    listing = provider.own_listings.create(
        {"title": "Studio", "availabilityPlan": HELSINKI_PLAN}
    ).data.data.id
    # 09:00-17:00 in Helsinki in March is 07:00-15:00 UTC.
    monday = slots(provider, listing, MONDAY, MONDAY + dt.timedelta(days=1))
    assert monday == [(MONDAY + dt.timedelta(hours=7), MONDAY + dt.timedelta(hours=15), 2)]
    week = provider.timeslots.query({"listingId": listing, "start": MONDAY, "end": MONDAY + WEEK})
    assert len(week.data.data) == 5 and {t.attributes.type for t in week.data.data} == {
        "time-slot/time"
    }
    # An exception closes the afternoon, another opens the evening with one seat.
    for start, hours, seats in ((12, 3, 0), (15, 2, 1)):
        provider.availability_exceptions.create(
            {
                "listingId": listing,
                "start": MONDAY + dt.timedelta(hours=start),
                "end": MONDAY + dt.timedelta(hours=start + hours),
                "seats": seats,
            }
        )
    assert slots(provider, listing, MONDAY, MONDAY + dt.timedelta(days=1)) == [
        (MONDAY + dt.timedelta(hours=7), MONDAY + dt.timedelta(hours=12), 2),
        (MONDAY + dt.timedelta(hours=15), MONDAY + dt.timedelta(hours=17), 1),
    ]


def test_a_day_plan_in_whole_utc_days(provider: MarketplaceClient) -> None:
    plan: AvailabilityPlan = {
        "type": "availability-plan/day",
        "entries": [{"dayOfWeek": "mon", "seats": 1}, {"dayOfWeek": "tue", "seats": 3}],
    }
    listing = provider.own_listings.create({"title": "Cabin", "availabilityPlan": plan})
    lid = listing.data.data.id
    found = provider.timeslots.query({"listingId": lid, "start": MONDAY, "end": MONDAY + WEEK})
    days = [(t.attributes.start, t.attributes.seats, t.attributes.type) for t in found.data.data]
    assert days == [
        (MONDAY, 1, "time-slot/day"),
        (MONDAY + dt.timedelta(days=1), 3, "time-slot/day"),
    ]
    # An exception touching part of Tuesday covers all of it.
    provider.availability_exceptions.create(
        {
            "listingId": lid,
            "start": MONDAY + dt.timedelta(days=1, hours=10),
            "end": MONDAY + dt.timedelta(days=1, hours=11),
            "seats": 0,
        }
    )
    assert [s[2] for s in slots(provider, lid, MONDAY, MONDAY + WEEK)] == [1]
    # Without a plan a listing is free every day, one seat.
    plain = provider.own_listings.create({"title": "Tent"}).data.data.id
    assert len(slots(provider, plain, MONDAY, MONDAY + WEEK)) == 1  # seven days, joined
    assert slots(provider, plain, MONDAY, MONDAY + WEEK)[0][2] == 1


def test_bookings_take_seats_and_show_in_bookings_query(
    fake_marketplace: FakeMarketplace, provider: MarketplaceClient
) -> None:
    listing = provider.own_listings.create(
        {"title": "Desk", "price": Money(1000, "EUR"), "availabilityPlan": HELSINKI_PLAN}
    ).data.data.id
    customer = login(fake_marketplace, "guest@example.com").trusted_client()
    start = MONDAY + dt.timedelta(hours=8)
    for seats in (1, 1):
        customer.transactions.initiate(
            {
                "processAlias": "default-booking/release-1",
                "transition": "transition/request-payment",
                "params": {
                    "listingId": listing,
                    "bookingStart": start,
                    "bookingEnd": start + dt.timedelta(hours=2),
                    "seats": seats,
                    "lineItems": items(Money(1000, "EUR"), 2),
                },
            }
        )
    assert slots(provider, listing, MONDAY, MONDAY + dt.timedelta(days=1)) == [
        (MONDAY + dt.timedelta(hours=7), MONDAY + dt.timedelta(hours=8), 2),
        (MONDAY + dt.timedelta(hours=10), MONDAY + dt.timedelta(hours=15), 2),
    ]
    booked = provider.bookings.query(
        {"listingId": listing, "start": MONDAY, "end": MONDAY + WEEK, "include": ["transaction"]}
    ).data.data
    assert [(b.attributes.state, b.attributes.seats) for b in booked] == [
        ("pending", 1),
        ("pending", 1),
    ]
    assert booked[0].transaction.attributes.process_name == "default-booking"
    # Listings free for the whole period, and for part of it.
    full: ListingsQueryParams = {
        "start": start,
        "end": start + dt.timedelta(hours=1),
        "availability": "time-full",
    }
    assert customer.listings.query(full).data.data == []
    partial: ListingsQueryParams = {
        **full,
        "end": start + dt.timedelta(hours=3),
        "availability": "time-partial",
    }
    assert [lst.id for lst in customer.listings.query(partial).data.data] == [listing]


def test_time_slots_by_interval(provider: MarketplaceClient) -> None:
    plan: AvailabilityPlan = {
        "type": "availability-plan/time",
        "timezone": "Etc/UTC",
        "entries": [
            {"dayOfWeek": "mon", "seats": 1, "startTime": "09:00", "endTime": "10:00"},
            {"dayOfWeek": "mon", "seats": 1, "startTime": "12:00", "endTime": "16:00"},
            {"dayOfWeek": "tue", "seats": 1, "startTime": "08:00", "endTime": "12:00"},
        ],
    }
    listing = provider.own_listings.create({"title": "Court", "availabilityPlan": plan})
    found = provider.timeslots.query(
        {
            "listingId": listing.data.data.id,
            "start": MONDAY,
            "end": MONDAY + dt.timedelta(days=2),
            "intervalDuration": "P1D",
            "maxPerInterval": 1,
            "minDurationStartingInInterval": 90,
        }
    ).data.data
    # Monday's first slot is too short; one slot a day.
    assert [(t.attributes.start, t.attributes.end) for t in found] == [
        (MONDAY + dt.timedelta(hours=12), MONDAY + dt.timedelta(hours=16)),
        (MONDAY + dt.timedelta(days=1, hours=8), MONDAY + dt.timedelta(days=1, hours=12)),
    ]


def test_time_slot_queries_are_checked(provider: MarketplaceClient) -> None:
    listing = provider.own_listings.create({"title": "Boat"}).data.data.id
    with pytest.raises(BadRequestError) as too_long:
        provider.timeslots.query(
            {"listingId": listing, "start": MONDAY, "end": MONDAY + dt.timedelta(days=91)}
        )
    assert too_long.value.codes == ["validation-invalid-value"]
    with pytest.raises(BadRequestError):
        provider.timeslots.query(
            {"listingId": listing, "start": MONDAY, "end": MONDAY, "perPage": 501}
        )
