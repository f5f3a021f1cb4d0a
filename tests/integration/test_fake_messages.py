"""Messages and reviews in the fake: tied to a transaction, readable and writable by its
parties (and the operator), reviews public once both are in or the period is over."""

from __future__ import annotations

import datetime as dt

import pytest

from flexclient import BadRequestError, IntegrationClient, MarketplaceClient, Money, NotFoundError
from flexclient.testing import FakeMarketplace
from tests.integration.conftest import connect_stripe, login, paid_booking


@pytest.fixture
def parties(fake_marketplace: FakeMarketplace) -> tuple[MarketplaceClient, MarketplaceClient, str]:
    provider = login(fake_marketplace, "teacher@example.com")
    listing = provider.own_listings.create({"title": "Lesson"}).data.data
    customer = login(fake_marketplace, "student@example.com")
    tx = customer.transactions.initiate(
        {
            "processAlias": "default-inquiry/release-1",
            "transition": "transition/inquire-without-payment",
            "params": {"listingId": listing.id},
        }
    ).data.data
    return provider, customer, str(tx.id)


def test_parties_talk_within_their_transaction(
    fake_marketplace: FakeMarketplace,
    parties: tuple[MarketplaceClient, MarketplaceClient, str],
    integration_client: IntegrationClient,
) -> None:
    provider, customer, tx = parties
    customer.messages.send({"transactionId": tx, "content": "Hello?"})
    provider.messages.send({"transactionId": tx, "content": "Hi!"}, {"expand": True})
    thread = customer.messages.query({"transactionId": tx, "include": ["sender"]}).data.data
    assert [m.attributes.content for m in thread] == ["Hi!", "Hello?"]  # newest first
    assert thread[0].sender.attributes.profile.display_name == "Teacher U"
    shown = customer.transactions.show({"id": tx, "include": ["messages"]}).data.data
    assert len(shown.messages) == 2
    operator = integration_client.messages.query({"transactionId": tx}).data.data
    assert len(operator) == 2
    kinds = [e.attributes.event_type for e in integration_client.events.query().data.data]
    assert kinds.count("message/created") == 2
    outsider = login(fake_marketplace, "nosy@example.com")
    with pytest.raises(NotFoundError):
        outsider.messages.query({"transactionId": tx})
    with pytest.raises(NotFoundError):
        outsider.messages.send({"transactionId": tx, "content": "Me too"})
    with pytest.raises(BadRequestError):
        customer.messages.send({"transactionId": tx, "content": "   "})


def test_reviews_are_seen_when_published(fake_marketplace: FakeMarketplace) -> None:
    provider = login(fake_marketplace, "guide@example.com")
    connect_stripe(provider)
    listing = provider.own_listings.create({"title": "Tour", "price": Money(900, "EUR")}).data.data
    customer = login(fake_marketplace, "hiker@example.com")
    start = fake_marketplace.now.replace(microsecond=0) + dt.timedelta(days=2)
    tx = paid_booking(
        fake_marketplace, customer, listing.id, start, dt.timedelta(hours=3), Money(900, "EUR")
    )
    provider.transactions.transition({"id": tx.id, "transition": "transition/accept"})
    fake_marketplace.transition(tx.id, "transition/operator-complete")
    customer.transactions.transition(
        {
            "id": tx.id,
            "transition": "transition/review-1-by-customer",
            "params": {"reviewRating": 5, "reviewContent": "Great views"},
        }
    )
    pending = customer.reviews.query({"transactionId": tx.id, "state": "pending"}).data.data
    assert len(pending) == 1
    review = pending[0]
    assert customer.reviews.show({"id": review.id}).data.data.attributes.rating == 5
    stranger = MarketplaceClient(fake_marketplace.client_id, base_url=fake_marketplace.url)
    with pytest.raises(NotFoundError):
        stranger.reviews.show({"id": review.id})
    # The provider does not review: seven days after the booking the review is published.
    fake_marketplace.advance(dt.timedelta(days=10))
    public = stranger.reviews.show(
        {"id": review.id, "include": ["author", "subject", "listing"]}
    ).data.data
    assert public.attributes.state == "public" and public.attributes.type == "ofProvider"
    assert public.subject.attributes.profile.display_name == "Guide U"
    assert public.author.attributes.profile.display_name == "Hiker U"
    assert public.listing.id == listing.id
    by_subject = stranger.reviews.query({"subjectId": public.subject.id}).data.data
    assert [r.id for r in by_subject] == [review.id]
