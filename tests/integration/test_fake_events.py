"""The fake's event feed as a mirror of the marketplace relies on it: events of related
resources (`relatedResourceId`) and a retention period past which events are gone."""

from __future__ import annotations

import datetime as dt
import uuid

import pytest

from flexclient import IntegrationClient, MarketplaceClient, MemoryPositionStore, Money
from flexclient.testing import FakeMarketplace
from tests.helpers import integration
from tests.integration.conftest import ROOM_PRICE, hosted_room, midnight, paid_booking


def kinds(integ: IntegrationClient, **params: object) -> list[tuple[str | None, uuid.UUID | None]]:
    events = integ.events.query(params).data.data  # type: ignore[arg-type]
    return [(e.attributes.event_type, e.attributes.resource_id) for e in events]


def test_related_events_are_the_resources_own_and_those_of_what_refers_to_it(
    fake_marketplace: FakeMarketplace,
) -> None:
    fake = fake_marketplace
    host, room, guest = hosted_room(fake)
    other = host.own_listings.create({"title": "Shed", "price": Money(900, "EUR")}).data.data
    tx = paid_booking(fake, guest, room.id, midnight(fake, 3), dt.timedelta(days=1), ROOM_PRICE)
    guest.messages.send({"transactionId": tx.id, "content": "Hello"})
    host.transactions.transition({"id": tx.id, "transition": "transition/accept"})
    integ = integration(fake)
    everything = kinds(integ)
    booking_id = next(rid for kind, rid in everything if kind == "booking/created")
    message_id = next(rid for kind, rid in everything if kind == "message/created")
    host_id, guest_id = (
        next(rid for kind, rid in everything if kind == "user/updated"),
        guest.current_user.show().data.data.id,
    )

    # The listing: its own events, its transaction's, and those of the transaction's booking
    # and message; not the other listing's.
    assert kinds(integ, relatedResourceId=room.id) == [
        ("listing/created", room.id),
        ("booking/created", booking_id),
        ("transaction/initiated", tx.id),
        ("transaction/transitioned", tx.id),
        ("message/created", message_id),
        ("booking/updated", booking_id),
        ("transaction/transitioned", tx.id),
    ]
    # The transaction: its own and its booking's and message's.
    assert [k for k, _ in kinds(integ, relatedResourceId=tx.id)] == [
        "booking/created",
        "transaction/initiated",
        "transaction/transitioned",
        "message/created",
        "booking/updated",
        "transaction/transitioned",
    ]
    # The provider: their own changes, their listings, and every event of their sale.
    host_events = kinds(integ, relatedResourceId=host_id)
    assert host_events[:3] == [
        ("user/updated", host_id),
        ("listing/created", room.id),
        ("listing/created", other.id),
    ]
    assert [e for e in host_events[3:] if e[1] == other.id] == []
    assert len(host_events) == 3 + 6
    # The customer: the same sale, not the provider's account nor listings.
    assert kinds(integ, relatedResourceId=guest_id) == host_events[3:]
    # With other filters, all must match.
    assert kinds(integ, relatedResourceId=room.id, eventTypes="booking/updated") == [
        ("booking/updated", booking_id)
    ]
    assert kinds(integ, relatedResourceId=uuid.uuid4()) == []


def test_events_older_than_the_retention_period_are_no_longer_answered(
    fake_marketplace: FakeMarketplace, integration_client: IntegrationClient
) -> None:
    fake = fake_marketplace
    author = fake.add_user("seller@example.com", "seller-pass")
    old = integration_client.listings.create({"title": "Old", "authorId": author}).data.data
    fake.advance(dt.timedelta(days=60))
    recent = integration_client.listings.create({"title": "New", "authorId": author}).data.data
    assert [rid for _, rid in kinds(integration_client)] == [old.id, recent.id]
    fake.advance(dt.timedelta(days=31))  # the first is 91 days old: past the 90 days kept
    assert kinds(integration_client) == [("listing/created", recent.id)]
    # Asking from before the oldest event kept answers from the oldest kept.
    long_ago = fake.now - dt.timedelta(days=365)
    assert kinds(integration_client, createdAtStart=long_ago) == [("listing/created", recent.id)]
    assert kinds(integration_client, startAfterSequenceId=0) == [("listing/created", recent.id)]
    assert kinds(integration_client, resourceId=old.id) == []
    # The resource itself stays.
    assert integration_client.listings.show({"id": old.id}).data.data.attributes.title == "Old"


def test_the_retention_period_is_an_option() -> None:
    with FakeMarketplace(event_retention=dt.timedelta(days=7)) as dev:  # as on Dev and Test
        author = dev.add_user("seller@example.com", "seller-pass")
        integ = integration(dev)
        integ.listings.create({"title": "Bike", "authorId": author})
        dev.advance(dt.timedelta(days=6, hours=23))
        assert len(kinds(integ)) == 1
        dev.advance(dt.timedelta(hours=2))
        assert kinds(integ) == []
    with FakeMarketplace(event_retention=None) as forever:
        author = forever.add_user("seller@example.com", "seller-pass")
        integ = integration(forever)
        integ.listings.create({"title": "Bike", "authorId": author})
        forever.advance(dt.timedelta(days=3650))
        assert len(kinds(integ)) == 1
    with pytest.raises(ValueError, match="event_retention"):
        FakeMarketplace(event_retention=dt.timedelta(0))


def test_a_feed_resumed_past_the_retention_period_finds_only_what_is_kept(
    fake_marketplace: FakeMarketplace, integration_client: IntegrationClient
) -> None:
    fake = fake_marketplace
    author = fake.add_user("seller@example.com", "seller-pass")
    for n in range(3):
        integration_client.listings.create({"title": f"L{n}", "authorId": author})
    store = MemoryPositionStore()
    feed = integration_client.events_feed(position=store, stop_when_caught_up=True)
    assert [next(feed).attributes.sequence_id, next(feed).attributes.sequence_id] == [1, 2]
    # The job dies while handling the second event: the first is its position.
    assert store.get() == 1
    # The job stays down for 100 days; meanwhile the marketplace goes on.
    fake.advance(dt.timedelta(days=100))
    integration_client.listings.create({"title": "While away", "authorId": author})
    resumed = integration_client.events_feed(position=store, stop_when_caught_up=True)
    seen = [(e.attributes.sequence_id, e.attributes.event_type) for e in resumed]
    # Events 2 and 3 are gone for good: a mirror must read the resources again.
    assert seen == [(4, "listing/created")]
    assert store.get() == 4


def test_a_feed_resumed_within_the_retention_period_loses_nothing(
    fake_marketplace: FakeMarketplace, marketplace_client: MarketplaceClient
) -> None:
    fake = fake_marketplace
    fake.add_user("seller@example.com", "seller-pass")
    marketplace_client.login(username="seller@example.com", password="seller-pass")
    integ = integration(fake)
    store = MemoryPositionStore(0)
    marketplace_client.own_listings.create({"title": "Before"})
    fake.advance(dt.timedelta(days=89))
    marketplace_client.own_listings.create({"title": "After"})
    feed = integ.events_feed(position=store, stop_when_caught_up=True)
    assert [e.attributes.sequence_id for e in feed] == [1, 2]
