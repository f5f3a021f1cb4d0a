"""The Integration API end to end, and the events every change produces."""

from __future__ import annotations

import datetime as dt
import uuid

import pytest

from flexclient import ConflictError, IntegrationClient, MarketplaceClient, Money
from flexclient._wire.formats import WireFormatName
from flexclient.models import Event, Listing, Stock, User
from flexclient.params import AvailabilityExceptionsQueryParams
from flexclient.testing import FakeMarketplace
from flexclient.testing._seed import png
from tests.integration.conftest import connect_stripe, login, paid_booking


@pytest.fixture
def seller(fake_marketplace: FakeMarketplace) -> uuid.UUID:
    return fake_marketplace.add_user(
        "seller@example.com", "seller-pass", first_name="Sam", last_name="Seller"
    )


def test_users(integ: IntegrationClient, seller: uuid.UUID) -> None:
    users = integ.users.query({"perPage": 10}).data
    assert [u.id for u in users.data] == [seller] and users.meta.total_items == 1
    user = integ.users.show({"id": seller}).data.data
    assert (
        isinstance(user, User)
        and user.attributes.email == "seller@example.com"
        and user.attributes.state == "active"
    )
    updated = integ.users.update_profile(
        {"id": seller, "metadata": {"vip": True}, "firstName": "Samuel"}, {"expand": True}
    ).data.data
    assert (
        updated.attributes.profile.metadata == {"vip": True}
        and updated.attributes.profile.first_name == "Samuel"
    )
    assert updated.attributes.profile.private_data == {}
    sparse = integ.users.show({"id": seller, "fields.user": ["email", "profile.metadata"]})
    profile = sparse.data.data.attributes.profile
    assert profile.metadata == {"vip": True} and profile.first_name is None
    assert (profile.public_data, profile.protected_data, profile.private_data) == (None,) * 3
    # A custom key in the dict (the type checkers refuse it; docs/typing.md).
    assert [u.id for u in integ.users.query({"meta_vip": True}).data.data] == [seller]  # type: ignore[typeddict-unknown-key]
    assert (
        integ.users.approve({"id": seller}, {"expand": True}).data.data.attributes.state == "active"
    )


def test_listings(integ: IntegrationClient, seller: uuid.UUID) -> None:
    created = integ.listings.create(
        {
            "title": "Tandem",
            "authorId": seller,
            "state": "pendingApproval",
            "price": Money(9900, "EUR"),
            "metadata": {"source": "erp"},
        },
        {"expand": True},
    ).data.data
    assert isinstance(created, Listing) and created.attributes.state == "pendingApproval"
    assert (
        integ.listings.approve({"id": created.id}, {"expand": True}).data.data.attributes.state
        == "published"
    )
    integ.listings.close({"id": created.id})
    assert (
        integ.listings.open({"id": created.id}, {"expand": True}).data.data.attributes.state
        == "published"
    )
    updated = integ.listings.update(
        {"id": created.id, "title": "Tandem for two"}, {"expand": True, "include": ["author"]}
    ).data.data
    assert updated.attributes.title == "Tandem for two" and updated.author.id == seller
    assert updated.attributes.metadata == {"source": "erp"}
    assert updated.attributes.private_data == {}  # the operator sees it, and it is empty
    meta_only = integ.listings.show({"id": created.id, "fields.listing": "metadata"}).data.data
    assert meta_only.attributes.metadata == {"source": "erp"}
    assert meta_only.attributes.public_data is None and meta_only.attributes.title is None
    assert [lst.id for lst in integ.listings.query({"authorId": seller}).data.data] == [created.id]
    assert integ.listings.show({"id": created.id}).data.data.attributes.price == Money(9900, "EUR")
    image = integ.images.upload({"image": png(5, 5, (0, 0, 0))}, {"expand": True}).data.data
    assert "default" in image.attributes.variants


def test_stock(integ: IntegrationClient, seller: uuid.UUID) -> None:
    listing = integ.listings.create({"title": "Helmets", "authorId": seller}).data.data
    stock = integ.stock.compare_and_set(
        {"listingId": listing.id, "oldTotal": None, "newTotal": 5}, {"expand": True}
    ).data.data
    assert isinstance(stock, Stock) and stock.attributes.quantity == 5
    with pytest.raises(ConflictError):
        integ.stock.compare_and_set({"listingId": listing.id, "oldTotal": 3, "newTotal": 4})
    integ.stock_adjustments.create({"listingId": listing.id, "quantity": -2})
    shown = integ.listings.show({"id": listing.id, "include": ["currentStock"]}).data.data
    assert shown.current_stock is not None and shown.current_stock.attributes.quantity == 3
    now = dt.datetime.now(dt.UTC)
    adjustments = integ.stock_adjustments.query(
        {
            "listingId": listing.id,
            "start": now - dt.timedelta(hours=1),
            "end": now + dt.timedelta(hours=1),
        }
    ).data.data
    assert [a.attributes.quantity for a in adjustments] == [5, -2]


def test_transactions_seen_by_the_operator(
    fake_marketplace: FakeMarketplace,
    integ: IntegrationClient,
    wire: WireFormatName,
) -> None:
    provider = login(fake_marketplace, "provider@example.com", wire)
    connect_stripe(provider)
    listing = provider.own_listings.create({"title": "Bike", "price": Money(1000, "USD")}).data.data
    buyer = login(fake_marketplace, "buyer@example.com", wire)
    start = fake_marketplace.now.replace(microsecond=0) + dt.timedelta(days=3)
    tx = paid_booking(
        fake_marketplace, buyer, listing.id, start, dt.timedelta(days=1), Money(1000, "USD")
    )
    assert [t.id for t in integ.transactions.query().data.data] == [tx.id]
    done = integ.transactions.transition(
        {"id": tx.id, "transition": "transition/operator-accept"}, {"expand": True}
    ).data.data
    assert done.attributes.transitions[-1].by == "operator"
    meta = integ.transactions.update_metadata(
        {"id": tx.id, "metadata": {"refund": "none"}}, {"expand": True}
    ).data.data
    assert meta.attributes.metadata == {"refund": "none"}
    assert meta.attributes.protected_data == {}  # sent, and empty once the payment is confirmed
    sparse = integ.transactions.show({"id": tx.id, "fields.transaction": "lastTransition"})
    attrs = sparse.data.data.attributes
    assert attrs.last_transition == "transition/operator-accept"
    assert attrs.metadata is None and attrs.protected_data is None  # not asked for
    assert (
        integ.transactions.show({"id": tx.id}).data.data.attributes.last_transition
        == "transition/operator-accept"
    )


def test_every_change_appends_an_event(
    integ: IntegrationClient, sdk: MarketplaceClient, seller: uuid.UUID
) -> None:
    sdk.login(username="seller@example.com", password="seller-pass")
    own = sdk.own_listings.create({"title": "Through the Marketplace API"}).data.data
    integ.listings.update({"id": own.id, "title": "Through the Integration API"})
    integ.users.update_profile({"id": seller, "bio": "Hello"})
    events = integ.events.query().data.data
    assert all(isinstance(e, Event) for e in events)
    seq = [e.attributes.sequence_id or 0 for e in events]
    assert seq == sorted(seq) and len(set(seq)) == len(seq)
    kinds = [(e.attributes.event_type, e.attributes.source) for e in events]
    assert kinds == [
        ("listing/created", "source/marketplace-api"),
        ("listing/updated", "source/integration-api"),
        ("user/updated", "source/integration-api"),
    ]
    update = events[1]
    resource = update.attributes.resource
    assert (
        isinstance(resource, Listing) and resource.attributes.title == "Through the Integration API"
    )
    assert update.attributes.previous_values == {
        "attributes": {"title": "Through the Marketplace API"}
    }
    assert update.attributes.audit_data is not None and update.attributes.resource_id == own.id
    # Filters
    after = integ.events.query({"startAfterSequenceId": seq[0]}).data.data
    assert [e.attributes.sequence_id for e in after] == seq[1:]
    assert [
        e.attributes.event_type
        for e in integ.events.query({"eventTypes": ["user/updated"]}).data.data
    ] == ["user/updated"]
    assert len(integ.events.query({"resourceId": own.id}).data.data) == 2
    first_time = events[0].attributes.created_at
    assert (
        first_time is not None
        and len(integ.events.query({"createdAtStart": first_time}).data.data) == 3
    )


def test_availability_exceptions_of_any_listing(
    integ: IntegrationClient, seller: uuid.UUID
) -> None:
    listing = integ.listings.create({"title": "Cabin", "authorId": seller}).data.data
    start = dt.datetime(2027, 6, 1, tzinfo=dt.UTC)
    window: AvailabilityExceptionsQueryParams = {
        "listingId": listing.id,
        "start": start,
        "end": start + dt.timedelta(days=7),
    }
    made = integ.availability_exceptions.create(
        {"listingId": listing.id, "start": start, "end": start + dt.timedelta(days=1), "seats": 2},
        {"expand": True},
    ).data.data
    assert made.attributes.seats == 2
    assert [e.id for e in integ.availability_exceptions.query(window).data.data] == [made.id]
    integ.availability_exceptions.delete({"id": made.id})
    assert integ.availability_exceptions.query(window).data.data == []
    kinds = [
        e.attributes.event_type
        for e in integ.events.query(
            {"eventTypes": ["availabilityException/created", "availabilityException/deleted"]}
        ).data.data
    ]
    assert kinds == ["availabilityException/created", "availabilityException/deleted"]
