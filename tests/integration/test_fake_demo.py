"""The demo marketplace's history: transactions in several states, messages, reviews and Stripe
accounts, the same on every run, and what a user exploring it sees."""

from __future__ import annotations

import datetime as dt
import json
import subprocess
import sys
from typing import Any

import pytest

from flexclient import ConflictError, MarketplaceClient, Money
from flexclient.models import Transaction
from flexclient.testing import DEMO_USERS, FakeMarketplace
from tests.helpers import NO_WAIT, integration
from tests.integration.conftest import items

EVERYTHING = ["listing", "customer", "provider", "booking", "stockReservation", "reviews"]


def demo_user(fake: FakeMarketplace, index: int) -> MarketplaceClient:
    email, password, *_ = DEMO_USERS[index]
    sdk = MarketplaceClient(
        fake.client_id, client_secret=fake.client_secret, base_url=fake.url, retry_policy=NO_WAIT
    )
    sdk.login(username=email, password=password)
    return sdk


def transactions(fake: FakeMarketplace) -> list[Transaction]:
    return integration(fake).transactions.query({"include": EVERYTHING}).data.data


def summary(tx: Transaction) -> tuple[Any, ...]:
    booking = tx.booking.attributes.state if tx.booking is not None else None
    reviews = sorted((r.attributes.state or "", r.attributes.rating or 0) for r in tx.reviews)
    return (
        tx.attributes.process_name,
        tx.attributes.last_transition,
        tx.customer.attributes.profile.display_name,
        tx.provider.attributes.profile.display_name,
        booking,
        tuple(reviews),
    )


def test_the_demo_has_transactions_in_many_states(demo_marketplace: FakeMarketplace) -> None:
    found = {summary(tx) for tx in transactions(demo_marketplace)}
    assert found == {
        ("default-booking", "transition/review-2-by-provider", "Aino K", "Ben O", "accepted",
         (("public", 5), ("public", 5))),
        ("default-booking", "transition/decline", "Chloé M", "Dev P", "declined", ()),
        ("default-booking", "transition/expire-payment", "Dev P", "Aino K", "declined", ()),
        ("default-purchase", "transition/expire-provider-review-period", "Ben O", "Chloé M",
         None, (("public", 4),)),
        ("default-booking", "transition/cancel", "Dev P", "Chloé M", "cancelled", ()),
        ("default-booking", "transition/review-1-by-customer", "Chloé M", "Ben O", "accepted",
         (("pending", 5),)),
        ("default-booking", "transition/accept", "Ben O", "Aino K", "accepted", ()),
        ("default-booking", "transition/confirm-payment", "Aino K", "Dev P", "pending", ()),
        ("default-purchase", "transition/confirm-payment", "Dev P", "Ben O", None, ()),
        ("default-booking", "transition/inquire", "Aino K", "Chloé M", None, ()),
        ("default-inquiry", "transition/inquire-without-payment", "Ben O", "Dev P", None, ()),
    }  # fmt: skip


def test_the_demo_history_lies_in_the_past_and_what_is_pending_ahead(
    demo_marketplace: FakeMarketplace,
) -> None:
    fake = demo_marketplace
    now = fake.now
    for tx in transactions(fake):
        a = tx.attributes
        assert a.created_at is not None and now - dt.timedelta(days=61) < a.created_at < now
        assert a.last_transitioned_at is not None and a.last_transitioned_at <= now
        # Paid for what was ordered, with the provider's commission taken.
        if a.payin_total is not None and a.payin_total.amount > 0:
            assert a.payout_total == Money(a.payin_total.amount * 9 // 10, "EUR")
    accepted = next(
        tx for tx in transactions(fake) if tx.attributes.last_transition == "transition/accept"
    )
    assert accepted.booking is not None and accepted.booking.attributes.start is not None
    assert accepted.booking.attributes.start > now + dt.timedelta(days=9)
    # The sale still to ship holds a unit of the listing's stock.
    to_ship = next(
        tx
        for tx in transactions(fake)
        if tx.attributes.process_name == "default-purchase"
        and tx.attributes.last_transition == "transition/confirm-payment"
    )
    assert to_ship.stock_reservation is not None
    assert to_ship.stock_reservation.attributes.state == "accepted"


def test_the_demo_users_talk_and_review(demo_marketplace: FakeMarketplace) -> None:
    aino = demo_user(demo_marketplace, 0)
    mine = aino.transactions.query({"include": ["messages"], "sort": "lastMessageAt"}).data.data
    talked = [[m.attributes.content for m in tx.messages] for tx in mine if tx.messages]
    assert talked[0] == [
        "Is this one free in early summer?",
        "Most of June, yes. Just book the days you want.",
    ]
    assert len(talked) == 3
    me = aino.current_user.show().data.data
    about_aino = aino.reviews.query({"subjectId": me.id}).data.data
    assert [(r.attributes.type, r.attributes.state, r.attributes.rating) for r in about_aino] == [
        ("ofCustomer", "public", 5)
    ]
    # A pending review shows only to the transaction's parties.
    ben = demo_user(demo_marketplace, 1)
    pending = ben.reviews.query({"state": "pending"}).data.data
    assert [r.attributes.content for r in pending] == [
        "Smooth ride along the coast. Would rent again."
    ]
    assert aino.reviews.query({"state": "pending"}).data.data == []


def test_every_demo_listing_can_be_transacted_on_by_its_own_process(
    demo_marketplace: FakeMarketplace,
) -> None:
    """Booking a demo listing failed with transaction-missing-stripe-account: every author now
    has a Stripe account, and every listing (booked by the day, bought, or asked about, as its
    `transactionProcessAlias` says) takes the first transition of its process, priced; a
    listing sold out (the demo has some, as a real marketplace does) refuses a purchase."""
    fake = demo_marketplace
    customers = [demo_user(fake, index) for index in range(len(DEMO_USERS))]
    ids = [sdk.current_user.show().data.data.id for sdk in customers]
    for sdk in customers:
        assert sdk.current_user.show().data.data.attributes.stripe_connected is True
    start = (fake.now + dt.timedelta(days=40)).replace(hour=0, minute=0, second=0, microsecond=0)
    listings = list(
        customers[0].listings.query.iter({"perPage": 100, "include": ["author", "currentStock"]})
    )
    assert len(listings) == 250
    started: dict[str, int] = {}
    for listing in listings:
        price = listing.attributes.price
        alias = (listing.attributes.public_data or {}).get("transactionProcessAlias")
        assert price is not None and isinstance(alias, str), listing.attributes.title
        # Someone other than the author transacts.
        customer = customers[(ids.index(listing.author.id) + 1) % len(customers)]
        params: dict[str, Any] = {"listingId": listing.id}
        transition = "transition/request-payment"
        if alias.startswith("default-booking/"):
            end = start + dt.timedelta(days=1)
            params |= {"bookingStart": start, "bookingEnd": end, "lineItems": items(price)}
        elif alias.startswith("default-purchase/"):
            params |= {"stockReservationQuantity": 1, "lineItems": items(price)}
            stock = listing.current_stock
            if stock is None or stock.attributes.quantity == 0:
                with pytest.raises(ConflictError) as refused:
                    customer.trusted_client().transactions.initiate_speculative(
                        {"processAlias": alias, "transition": transition, "params": params}
                    )
                assert refused.value.codes == ["transaction-listing-insufficient-stock"]
                started["sold out"] = started.get("sold out", 0) + 1
                continue
        else:
            transition = "transition/inquire-without-payment"
        tx = (
            customer.trusted_client()
            .transactions.initiate_speculative(
                {"processAlias": alias, "transition": transition, "params": params},
                {"expand": True},
            )
            .data.data
        )
        if transition == "transition/request-payment":
            assert tx.attributes.payin_total == price, listing.attributes.title
        started[alias] = started.get(alias, 0) + 1
    assert started == {
        "default-booking/release-1": 150,
        "default-purchase/release-1": 57,
        "sold out": 18,
        "default-inquiry/release-1": 25,
    }


def test_the_demo_is_the_same_on_every_run() -> None:
    def snapshot() -> list[tuple[Any, ...]]:
        with FakeMarketplace(seed="demo") as fake:
            found = transactions(fake)
            events = integration(fake).events.query().data.data
            first = min(tx.attributes.created_at for tx in found if tx.attributes.created_at)
            return [
                *(
                    (
                        tx.id,
                        summary(tx),
                        tx.attributes.created_at - first if tx.attributes.created_at else None,
                    )
                    for tx in found
                ),
                *((e.id, e.attributes.sequence_id, e.attributes.event_type) for e in events),
            ]

    once, again = snapshot(), snapshot()
    assert once == again and len(once) > 11 + 50


def test_the_demo_events_are_those_of_its_history(demo_marketplace: FakeMarketplace) -> None:
    integ = integration(demo_marketplace)
    events = integ.events.query().data.data
    kinds = {e.attributes.event_type for e in events}
    assert {
        "user/updated",  # the Stripe accounts
        "transaction/initiated",
        "transaction/transitioned",
        "booking/created",
        "booking/updated",
        "stockReservation/created",
        "message/created",
        "review/created",
        "review/updated",
    } <= kinds
    assert "listing/created" not in kinds  # the listings are older than the 90 days kept
    sources = {e.attributes.source for e in events}
    # The users' calls, and the transitions (the operator's cancel among them).
    assert sources == {"source/marketplace-api", "source/transaction"}
    reviewed = next(
        tx
        for tx in transactions(demo_marketplace)
        if tx.attributes.last_transition == "transition/review-2-by-provider"
    )
    related = integ.events.query({"relatedResourceId": reviewed.listing.id}).data.data
    assert {e.attributes.event_type for e in related} >= {
        "transaction/initiated",
        "booking/updated",
        "message/created",
        "review/updated",
    }


def test_the_command_line_shows_the_demo_transactions() -> None:
    def flexclient(*argv: str) -> Any:
        command = [sys.executable, "-m", "flexclient", "--fake", "call", *argv]
        done = subprocess.run(command, capture_output=True, text=True, timeout=60)
        assert done.returncode == 0, done.stderr
        return json.loads(done.stdout)

    aino = flexclient("transactions.query", "include=listing")
    assert len(aino["data"]) == 5 and len(aino["included"]) == 5
    everyone = flexclient("--integration", "transactions.query", "perPage=100")
    assert everyone["meta"]["totalItems"] == 11
