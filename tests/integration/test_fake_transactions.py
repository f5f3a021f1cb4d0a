"""Transactions in the fake run by Sharetribe's default processes: who may take which
transition, line items and their totals, bookings and stock followed, speculative calls that
save nothing, delayed transitions on the fake's clock, and the events of each change."""

from __future__ import annotations

import datetime as dt
import decimal
from dataclasses import dataclass
from typing import Any

import pytest

from flexclient import (
    BadRequestError,
    ConflictError,
    ForbiddenError,
    IntegrationClient,
    MarketplaceClient,
    Money,
)
from flexclient._errors import ApiError
from flexclient.models import Transaction
from flexclient.testing import FakeMarketplace
from tests.integration.conftest import connect_stripe, items, login

BOOKING = "default-booking/release-1"
PURCHASE = "default-purchase/release-1"
EUR = Money(2500, "EUR")


@dataclass
class Market:
    fake: FakeMarketplace
    provider: MarketplaceClient
    customer: MarketplaceClient
    integ: IntegrationClient
    listing_id: Any

    def initiate(
        self, process: str, transition: str, params: dict[str, Any], *, trusted: bool = True
    ) -> Transaction:
        client = self.customer.trusted_client() if trusted else self.customer
        return client.transactions.initiate(
            {
                "processAlias": process,
                "transition": transition,
                "params": {"listingId": self.listing_id, **params},
            },
            {"expand": True, "include": ["booking", "stockReservation"]},
        ).data.data

    def move(
        self, client: MarketplaceClient, tx: Transaction, name: str, **params: Any
    ) -> Transaction:
        return client.transactions.transition(
            {"id": tx.id, "transition": name, "params": params},
            {"expand": True, "include": ["booking", "stockReservation", "reviews"]},
        ).data.data

    def pay(self, tx: Transaction) -> Transaction:
        """The customer pays: Stripe.js confirms the card payment in the browser, then the
        customer confirms the payment to the marketplace."""
        self.fake.stripe.confirm_payment_intent(tx.id)
        return self.move(self.customer, tx, "transition/confirm-payment")


@pytest.fixture
def market(fake_marketplace: FakeMarketplace, integration_client: IntegrationClient) -> Market:
    provider = login(fake_marketplace, "provider@example.com")
    connect_stripe(provider)
    listing = provider.own_listings.create({"title": "Kayak", "price": EUR}).data.data
    provider.stock.compare_and_set({"listingId": listing.id, "oldTotal": None, "newTotal": 3})
    customer = login(fake_marketplace, "customer@example.com")
    return Market(fake_marketplace, provider, customer, integration_client, listing.id)


def days_ahead(fake: FakeMarketplace, days: int) -> dt.datetime:
    today = fake.now.replace(hour=0, minute=0, second=0, microsecond=0)
    return today + dt.timedelta(days=days)


def booking_params(market: Market, days: int = 10, length: int = 2) -> dict[str, Any]:
    start = days_ahead(market.fake, days)
    return {
        "bookingStart": start,
        "bookingEnd": start + dt.timedelta(days=length),
        "lineItems": items(EUR, length, commission_percent=10),
    }


def codes(info: pytest.ExceptionInfo[ApiError]) -> list[str]:
    return info.value.codes


def test_a_booking_from_request_to_reviews(market: Market) -> None:
    params = booking_params(market)
    tx = market.initiate(BOOKING, "transition/request-payment", params)
    a = tx.attributes
    assert a.process_name == "default-booking" and a.last_transition == "transition/request-payment"
    assert (a.state, a.process_version) == ("state/pending-payment", 1)
    assert (a.payin_total, a.payout_total) == (Money(5000, "EUR"), Money(4500, "EUR"))
    commission = a.line_items[1]
    assert commission.percentage == 10 and commission.line_total == Money(-500, "EUR")
    assert commission.include_for == ["provider"]
    assert a.protected_data is not None and "stripePaymentIntents" in a.protected_data
    assert tx.booking is not None and tx.booking.attributes.state == "pending"
    assert tx.booking.attributes.start == params["bookingStart"]

    confirmed = market.pay(tx)
    assert confirmed.attributes.protected_data == {}  # the payment intent's secret is gone
    assert confirmed.attributes.state == "state/preauthorized"
    nexts = market.provider.process_transitions.query({"transactionId": tx.id}).data.data
    assert [t.attributes.name for t in nexts] == [
        "transition/accept",
        "transition/operator-accept",
        "transition/decline",
        "transition/operator-decline",
        "transition/expire",
    ]
    assert nexts[0].attributes.actor == ["provider"]

    accepted = market.move(market.provider, tx, "transition/accept")
    assert accepted.booking is not None and accepted.booking.attributes.state == "accepted"
    # Two days after the booking ends the system completes it.
    market.fake.advance(dt.timedelta(days=15))
    done = market.customer.transactions.show({"id": tx.id}).data.data
    assert done.attributes.last_transition == "transition/complete"
    assert done.attributes.transitions[-1].by == "system"

    first = market.move(
        market.customer,
        tx,
        "transition/review-1-by-customer",
        reviewRating=5,
        reviewContent="Smooth waters",
    )
    assert [r.attributes.state for r in first.reviews] == ["pending"]
    anonymous = MarketplaceClient(market.fake.client_id, base_url=market.fake.url)
    assert anonymous.reviews.query({"listingId": market.listing_id}).data.data == []
    market.move(
        market.provider,
        tx,
        "transition/review-2-by-provider",
        reviewRating=4,
        reviewContent="On time",
    )
    reviews = anonymous.reviews.query({"listingId": market.listing_id}).data.data
    assert sorted((r.attributes.type, r.attributes.rating) for r in reviews) == [
        ("ofCustomer", 4),
        ("ofProvider", 5),
    ]
    assert all(r.attributes.state == "public" for r in reviews)

    events = market.integ.events.query({"startAfterSequenceId": 0, "perPage": 100}).data.data
    tx_events = [
        (e.attributes.event_type, e.attributes.source)
        for e in events
        if e.attributes.source == "source/transaction"
    ]
    assert tx_events[:2] == [
        ("booking/created", "source/transaction"),
        ("transaction/initiated", "source/transaction"),
    ]
    assert ("review/updated", "source/transaction") in tx_events


def test_who_may_take_which_transition(market: Market) -> None:
    with pytest.raises(ForbiddenError):  # privileged: only from a trusted context
        market.initiate(
            BOOKING, "transition/request-payment", booking_params(market), trusted=False
        )
    tx = market.initiate(BOOKING, "transition/request-payment", booking_params(market))
    with pytest.raises(ConflictError) as early:  # not from this state
        market.move(market.provider, tx, "transition/accept")
    assert codes(early) == ["transaction-invalid-transition"]
    market.pay(tx)
    with pytest.raises(ForbiddenError):  # the provider's transition
        market.move(market.customer, tx, "transition/accept")
    with pytest.raises(ForbiddenError):  # the operator's
        market.move(market.provider, tx, "transition/operator-decline")
    with pytest.raises(ConflictError) as unknown:
        market.move(market.provider, tx, "transition/no-such-thing")
    assert codes(unknown) == ["transaction-invalid-transition"]
    # Parameters no action of the transition takes are accepted, and ignored, as the API does.
    ignored = market.provider.transactions.transition_speculative(
        {"id": tx.id, "transition": "transition/accept", "params": {"rating": 5}}, {"expand": True}
    ).data.data
    assert ignored.attributes.last_transition == "transition/accept"
    declined = market.integ.transactions.transition(
        {"id": tx.id, "transition": "transition/operator-decline"}, {"expand": True}
    ).data.data
    assert declined.attributes.transitions[-1].by == "operator"
    with pytest.raises(ConflictError) as process:
        market.initiate("no-such-process/release-1", "transition/inquire", {})
    assert codes(process) == ["transaction-unknown-alias"]
    with pytest.raises(ConflictError) as own:
        market.provider.transactions.initiate(
            {
                "processAlias": "default-inquiry/release-1",
                "transition": "transition/inquire-without-payment",
                "params": {"listingId": market.listing_id},
            }
        )
    assert codes(own) == ["transaction-same-author-and-customer"]


def test_a_declined_booking_is_refunded_and_frees_its_time(market: Market) -> None:
    params = booking_params(market)
    tx = market.initiate(BOOKING, "transition/request-payment", params)
    other = login(market.fake, "late@example.com")
    with pytest.raises(ConflictError) as taken:
        other.trusted_client().transactions.initiate(
            {
                "processAlias": BOOKING,
                "transition": "transition/request-payment",
                "params": {"listingId": market.listing_id, **params},
            }
        )
    assert codes(taken) == ["transaction-booking-time-not-available"]
    market.pay(tx)
    declined = market.move(market.provider, tx, "transition/decline")
    a = declined.attributes
    assert declined.booking is not None and declined.booking.attributes.state == "declined"
    reversals = [i for i in a.line_items if i.reversal]
    assert [i.line_total for i in reversals] == [Money(-5000, "EUR"), Money(500, "EUR")]
    assert (a.payin_total, a.payout_total) == (Money(0, "EUR"), Money(0, "EUR"))
    again = other.trusted_client().transactions.initiate(
        {
            "processAlias": BOOKING,
            "transition": "transition/request-payment",
            "params": {"listingId": market.listing_id, **params},
        },
        {"expand": True},
    )
    assert again.data.data.attributes.last_transition == "transition/request-payment"


def test_an_unpaid_request_expires_on_the_fakes_clock(market: Market) -> None:
    tx = market.initiate(BOOKING, "transition/request-payment", booking_params(market))
    market.fake.advance(dt.timedelta(minutes=14))
    assert market.customer.transactions.show(
        {"id": tx.id}
    ).data.data.attributes.last_transition == ("transition/request-payment")
    market.fake.advance(60)
    expired = market.customer.transactions.show({"id": tx.id, "include": ["booking"]}).data.data
    assert expired.attributes.last_transition == "transition/expire-payment"
    assert expired.booking is not None and expired.booking.attributes.state == "declined"


def test_a_purchase_reserves_stock_and_gives_it_back(market: Market) -> None:
    def stock() -> int | None:
        shown = market.provider.own_listings.show(
            {"id": market.listing_id, "include": ["currentStock"]}
        ).data.data
        assert shown.current_stock is not None
        return shown.current_stock.attributes.quantity

    with pytest.raises(ConflictError) as short:
        market.initiate(
            PURCHASE,
            "transition/request-payment",
            {"stockReservationQuantity": 4, "lineItems": items(EUR, 4)},
        )
    assert codes(short) == ["transaction-listing-insufficient-stock"]
    tx = market.initiate(
        PURCHASE,
        "transition/request-payment",
        {"stockReservationQuantity": 2, "lineItems": items(EUR, 2)},
    )
    assert tx.stock_reservation is not None
    assert (tx.stock_reservation.attributes.state, tx.stock_reservation.attributes.quantity) == (
        "pending",
        2,
    )
    assert stock() == 1
    market.fake.advance(dt.timedelta(minutes=16))  # the payment was never confirmed
    gone = market.integ.stock_reservations.show(
        {"id": tx.stock_reservation.id, "include": ["transaction"]}
    ).data.data
    assert gone.attributes.state == "declined"
    assert stock() == 3


def test_speculative_calls_save_nothing(market: Market) -> None:
    seen = len(market.integ.events.query().data.data)
    trusted = market.customer.trusted_client()
    guess = trusted.transactions.initiate_speculative(
        {
            "processAlias": BOOKING,
            "transition": "transition/request-payment",
            "params": {"listingId": market.listing_id, **booking_params(market)},
        },
        {"expand": True, "include": ["booking"]},
    ).data.data
    assert guess.attributes.payin_total == Money(5000, "EUR") and guess.booking is not None
    assert market.customer.transactions.query().data.data == []
    assert len(market.integ.events.query().data.data) == seen
    tx = market.initiate(BOOKING, "transition/request-payment", booking_params(market))
    peek = market.customer.transactions.transition_speculative(
        {"id": tx.id, "transition": "transition/confirm-payment"}, {"expand": True}
    ).data.data
    assert peek.attributes.last_transition == "transition/confirm-payment"
    shown = market.customer.transactions.show({"id": tx.id}).data.data
    assert shown.attributes.last_transition == "transition/request-payment"


def test_line_items_are_checked_and_totalled(market: Market) -> None:
    seats_units = [
        {"code": "line-item/seats", "unitPrice": Money(1000, "EUR"), "seats": 2, "units": 3}
    ]
    tx = market.initiate(
        PURCHASE,
        "transition/request-payment",
        {"stockReservationQuantity": 1, "lineItems": seats_units},
    )
    line = tx.attributes.line_items[0]
    assert (line.quantity, line.line_total) == (decimal.Decimal(6), Money(6000, "EUR"))
    assert line.include_for == ["customer", "provider"]
    for bad in (
        [{"code": "line-item/x", "unitPrice": Money(100, "EUR")}],  # no quantity
        [
            {
                "code": "line-item/x",
                "unitPrice": Money(100, "EUR"),
                "quantity": 1,
                "lineTotal": Money(99, "EUR"),
            }
        ],  # a total that does not add up
        [*items(EUR), *items(Money(100, "USD"))],  # two currencies
    ):
        with pytest.raises(BadRequestError) as refused:
            market.initiate(
                PURCHASE,
                "transition/request-payment",
                {"stockReservationQuantity": 1, "lineItems": bad},
            )
        assert codes(refused) == ["validation-invalid-value"]


def test_payments_need_the_providers_stripe_account_and_a_good_card(
    fake_marketplace: FakeMarketplace,
) -> None:
    provider = login(fake_marketplace, "nostripe@example.com")
    listing = provider.own_listings.create({"title": "Tent", "price": EUR}).data.data
    customer = login(fake_marketplace, "buyer@example.com").trusted_client()
    start = days_ahead(fake_marketplace, 5)

    def request(**extra: Any) -> Transaction:
        return customer.transactions.initiate(
            {
                "processAlias": BOOKING,
                "transition": "transition/request-payment",
                "params": {
                    "listingId": listing.id,
                    "bookingStart": start,
                    "bookingEnd": start + dt.timedelta(days=1),
                    "lineItems": items(EUR),
                    **extra,
                },
            }
        ).data.data

    with pytest.raises(ConflictError) as no_account:
        request()
    assert codes(no_account) == ["transaction-missing-stripe-account"]
    connect_stripe(provider)

    def confirm(tx: Transaction) -> None:
        customer.transactions.transition({"id": tx.id, "transition": "transition/confirm-payment"})

    # Not paid in the browser (Stripe.js): the payment cannot be confirmed.
    unpaid = request()
    with pytest.raises(ConflictError) as not_paid:
        confirm(unpaid)
    assert codes(not_paid) == ["stripe-invalid-payment-intent-status"]
    # A declined card is declined by Stripe, in the browser; confirming then fails with 402.
    declined = request(
        bookingStart=start + dt.timedelta(days=1), bookingEnd=start + dt.timedelta(days=2)
    )
    stripe = fake_marketplace.stripe.confirm_payment_intent(declined.id, "pm_card_chargeDeclined")
    assert stripe["error"]["code"] == "card_declined"
    assert fake_marketplace.stripe.payment_intent(declined.id)["status"] == (
        "requires_payment_method"
    )
    with pytest.raises(ApiError) as failed:
        confirm(declined)
    assert failed.value.status == 402 and codes(failed) == ["transaction-payment-failed"]
    assert failed.value.data.errors[0].meta == {
        "stripeMessage": "Your card was declined.",
        "stripeCode": "card_declined",
        "stripeDeclineCode": "generic_decline",
    }
    # Another card then goes through.
    again = fake_marketplace.stripe.confirm_payment_intent(declined.id, "4242424242424242")
    assert again["paymentIntent"]["status"] == "requires_capture"
    confirm(declined)


def test_test_hooks_take_operator_and_system_transitions(market: Market) -> None:
    tx = market.initiate(BOOKING, "transition/request-payment", booking_params(market))
    market.pay(tx)
    market.fake.transition(tx.id, "transition/operator-accept")
    market.fake.transition(tx.id, "transition/complete", by="system")
    shown = market.customer.transactions.show({"id": tx.id}).data.data
    assert [(t.transition, t.by) for t in shown.attributes.transitions][-2:] == [
        ("transition/operator-accept", "operator"),
        ("transition/complete", "system"),
    ]
    with pytest.raises(ValueError, match="forbidden"):
        market.fake.transition(tx.id, "transition/review-1-by-customer")


def test_an_inquiry_and_the_transitions_a_process_offers(market: Market) -> None:
    tx = market.initiate(
        "default-inquiry/release-1",
        "transition/inquire-without-payment",
        {"protectedData": {"question": "Life vests?"}},
        trusted=False,
    )
    assert tx.attributes.protected_data == {"question": "Life vests?"}
    assert tx.attributes.payin_total is None and tx.attributes.line_items == []
    first = market.customer.process_transitions.query({"processAlias": PURCHASE}).data.data
    assert [t.attributes.name for t in first] == [
        "transition/inquire",
        "transition/request-payment",
    ]
    params = first[1].attributes.params
    assert params["req"] == {
        "listingId": "uuid",
        "stockReservationQuantity": "integer",
        "lineItems": ["lineItem"],
    }
    after = market.customer.process_transitions.query(
        {"processAlias": PURCHASE, "lastTransition": "transition/inquire"}
    ).data.data
    assert [t.attributes.name for t in after] == ["transition/request-payment-after-inquiry"]


def test_the_apis_errors_for_listings_parties_and_accounts(market: Market) -> None:
    def request(days: int = 10) -> Transaction:
        return market.initiate(BOOKING, "transition/request-payment", booking_params(market, days))

    with pytest.raises(ConflictError) as past:  # a booking cannot start in the past
        request(days=-3)
    assert codes(past) == ["transaction-booking-time-not-available"]
    # Stripe disables the provider's account: no charges, then no payouts.
    provider_id = market.provider.current_user.show().data.data.id
    market.fake.stripe.disable_account(provider_id, charges=True, payouts=False)
    with pytest.raises(ConflictError) as charges:
        request()
    assert codes(charges) == ["transaction-stripe-account-disabled-charges"]
    market.fake.stripe.disable_account(provider_id, charges=False, payouts=True)
    tx = request()
    market.pay(tx)
    market.fake.transition(tx.id, "transition/operator-accept")
    with pytest.raises(ConflictError) as payouts:
        market.integ.transactions.transition(
            {"id": tx.id, "transition": "transition/operator-complete"}
        )
    assert codes(payouts) == ["transaction-stripe-account-disabled-payouts"]

    # Another operation under way: the transition may be tried again.
    other = request(days=20)
    market.fake.lock_transaction(other.id)
    with pytest.raises(ConflictError) as locked:
        market.pay(other)
    assert codes(locked) == ["transaction-locked"]
    market.move(market.customer, other, "transition/confirm-payment")

    # A banned party: their transactions stop, and new ones on their listings do not start.
    customer_id = market.customer.current_user.show().data.data.id
    market.fake.ban_user(customer_id)
    with pytest.raises(ConflictError) as banned:
        market.move(market.provider, other, "transition/accept")
    assert codes(banned) == ["transaction-customer-banned-or-deleted"]
    market.integ.transactions.transition(
        {"id": other.id, "transition": "transition/operator-decline"}
    )
    market.fake.ban_user(provider_id)
    late = login(market.fake, "late@example.com")
    with pytest.raises(ConflictError) as gone:
        late.transactions.initiate(
            {
                "processAlias": "default-inquiry/release-1",
                "transition": "transition/inquire-without-payment",
                "params": {"listingId": market.listing_id},
            }
        )
    assert codes(gone) == ["transaction-provider-banned-or-deleted"]


def test_a_closed_listing_cannot_be_transacted(market: Market) -> None:
    market.provider.own_listings.close({"id": market.listing_id})
    with pytest.raises(ConflictError) as closed:
        market.initiate("default-inquiry/release-1", "transition/inquire-without-payment", {})
    assert closed.value.status == 409 and codes(closed) == ["transaction-listing-not-found"]


def test_transactions_as_the_api_returns_them(market: Market) -> None:
    tx = market.initiate(BOOKING, "transition/request-payment", booking_params(market))
    paid = market.pay(tx)
    shown = market.integ.transactions.show({"id": tx.id}).data.data
    a = shown.attributes
    assert (a.state, a.process_name, a.process_version) == (
        "state/preauthorized",
        "default-booking",
        1,
    )
    assert a.last_transition == "transition/confirm-payment"
    assert (
        a.last_transitioned_at
        == a.transitions[-1].created_at
        == paid.attributes.transitions[-1].created_at
    )
    assert [(t.transition, t.by) for t in a.transitions] == [
        ("transition/request-payment", "customer"),
        ("transition/confirm-payment", "customer"),
    ]
    assert a.created_at == a.transitions[0].created_at
    assert a.metadata == {} and a.protected_data == {}
    assert all(i.reversal is False and i.include_for for i in a.line_items)
    # The `states` filter takes the same names.
    found = market.customer.transactions.query({"states": ["state/preauthorized"]}).data.data
    assert [t.id for t in found] == [tx.id]
    assert market.customer.transactions.query({"states": ["state/accepted"]}).data.data == []
    inquiry = market.initiate(
        "default-inquiry/release-1", "transition/inquire-without-payment", {}, trusted=False
    )
    assert inquiry.attributes.state == "state/free-inquiry"
    assert inquiry.attributes.payin_total is None and inquiry.attributes.payout_total is None
