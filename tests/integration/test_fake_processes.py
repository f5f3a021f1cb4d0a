"""The fake runs a user's own processes (the project's test processes in tests/data/processes):
every action, the reverse flow, and delayed transitions timed by every time expression."""

from __future__ import annotations

import datetime as dt
import uuid
from collections.abc import Iterator
from dataclasses import dataclass
from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest

from flexclient import (
    ApiError,
    BadRequestError,
    ConflictError,
    IntegrationClient,
    MarketplaceClient,
    Money,
)
from flexclient.models import Transaction
from flexclient.testing import FakeMarketplace
from flexclient.testing import _state as s
from tests.helpers import integration
from tests.integration.conftest import connect_stripe, items, login

DATA = Path(__file__).parents[1] / "data" / "processes"
EUR = Money(1000, "EUR")
HOUR = dt.timedelta(hours=1)
DAY = dt.timedelta(days=1)


@dataclass
class Parties:
    fake: FakeMarketplace
    provider: MarketplaceClient
    customer: MarketplaceClient
    integ: IntegrationClient
    listing_id: uuid.UUID

    def start(self, alias: str, transition: str, /, **params: Any) -> Transaction:
        return self.start_as(self.customer, alias, transition, **params)

    def start_as(
        self, by: MarketplaceClient, alias: str, transition: str, /, **params: Any
    ) -> Transaction:
        client = by.trusted_client()
        return client.transactions.initiate(
            {
                "processAlias": alias,
                "transition": transition,
                "params": {"listingId": self.listing_id, **params},
            },
            {"expand": True, "include": ["booking", "stockReservation", "customer", "provider"]},
        ).data.data

    def move(self, tx: Transaction, name: str, /, **params: Any) -> Transaction:
        return self.move_as(self.customer, tx, name, **params)

    def move_as(
        self, by: MarketplaceClient, tx: Transaction, name: str, /, **params: Any
    ) -> Transaction:
        client = by.trusted_client()
        return client.transactions.transition(
            {"id": tx.id, "transition": name, "params": params},
            {"expand": True, "include": ["booking", "stockReservation"]},
        ).data.data

    def operate(self, tx: Transaction, name: str) -> Transaction:
        return self.integ.transactions.transition(
            {"id": tx.id, "transition": name}, {"expand": True}
        ).data.data

    def stock(self) -> int | None:
        shown = self.provider.own_listings.show(
            {"id": self.listing_id, "include": ["currentStock"]}
        ).data.data
        return shown.current_stock.attributes.quantity if shown.current_stock else None


@pytest.fixture
def parties() -> Iterator[Parties]:
    with FakeMarketplace(processes=sorted(DATA.iterdir())) as fake:
        provider = login(fake, "provider@example.com")
        connect_stripe(provider)
        provider.current_user.update_profile({"protectedData": {"address": "Pier 1"}})
        listing = provider.own_listings.create({"title": "Boat", "price": EUR}).data.data
        provider.stock.compare_and_set({"listingId": listing.id, "oldTotal": None, "newTotal": 5})
        customer = login(fake, "customer@example.com")
        customer.current_user.update_profile(
            {"protectedData": {"phoneNumber": "+358 40 123", "shoeSize": 44}}
        )
        integ = integration(fake)
        yield Parties(fake, provider, customer, integ, listing.id)


def codes(info: pytest.ExceptionInfo[ApiError]) -> list[str]:
    return info.value.codes


def test_own_processes_run_beside_the_built_in_ones(parties: Parties) -> None:
    assert parties.fake.processes == sorted(
        [
            *(f"{name}/release-1" for name in ("day-bookings", "pricing", "stock-and-stripe")),
            "timers/release-1",
            *(
                f"default-{name}/release-1"
                for name in ("booking", "download", "inquiry", "negotiation", "purchase")
            ),
        ]
    )
    first = parties.customer.process_transitions.query(
        {"processAlias": "pricing/release-1"}
    ).data.data
    assert [t.attributes.name for t in first] == ["transition/start", "transition/offer"]
    assert first[1].attributes.actor == ["provider"]


# --- pricing, extended data and files ----------------------------------------------------------


def test_commissions_a_negotiated_total_and_a_refund(parties: Parties) -> None:
    p = parties
    tx = p.start("pricing/release-1", "transition/start", protectedData={"note": "hi"})
    a = tx.attributes
    assert a.state == "state/open" and a.process_name == "pricing"
    # The customer's phone under its new name (and nothing else of theirs); the provider's all.
    assert a.protected_data == {"note": "hi", "customerPhone": "+358 40 123", "address": "Pier 1"}
    # The deprecated set-line-items-and-total takes no includeFor: every line is for both.
    line = {"code": "line-item/x", "unitPrice": EUR, "quantity": 2, "includeFor": ["provider"]}
    priced = p.move(tx, "transition/set-items", lineItems=[line]).attributes
    lines = {i.code: (i.line_total, i.include_for) for i in priced.line_items}
    assert lines == {
        "line-item/x": (Money(2000, "EUR"), ["customer", "provider"]),
        # 10% of 2000, at least 150
        "line-item/customer-commission": (Money(200, "EUR"), ["customer"]),
        # 20% of 2000, at most 300
        "line-item/provider-commission": (Money(-300, "EUR"), ["provider"]),
        "line-item/customer-fixed-commission": (Money(50, "EUR"), ["customer"]),
        "line-item/provider-fixed-commission": (Money(-70, "EUR"), ["provider"]),
    }
    assert (priced.payin_total, priced.payout_total) == (Money(2250, "EUR"), Money(1630, "EUR"))
    commission = next(i for i in priced.line_items if i.code == "line-item/customer-commission")
    assert commission.percentage == Decimal(10)

    # The provider's offer: a line that makes the customer's total the offer, changed in place.
    for offer, payin in ((2000, 2000), (2100, 2100)):
        offered = p.move_as(
            p.provider,
            tx,
            "transition/negotiate",
            negotiatedTotal=Money(offer, "EUR"),
            metadata={"offers": offer},
        ).attributes
        assert offered.payin_total == Money(payin, "EUR") and offered.metadata == {"offers": offer}
        assert [i.code for i in offered.line_items].count("line-item/negotiated-total-price") == 1
    refunded = p.operate(tx, "transition/refund").attributes
    assert (refunded.payin_total, refunded.payout_total) == (Money(0, "EUR"), Money(0, "EUR"))
    assert all(i.reversal for i in refunded.line_items[6:]) and len(refunded.line_items) == 12
    with pytest.raises(ConflictError):  # a full refund runs once
        p.operate(tx, "transition/refund-again")


def test_prices_from_the_listing(parties: Parties) -> None:
    p = parties
    tx = p.start("pricing/release-1", "transition/start")
    units = p.move(tx, "transition/units", quantity=3).attributes
    assert units.payin_total == Money(3000, "EUR") and units.line_items[0].code == "line-item/units"
    other = p.start("pricing/release-1", "transition/start")
    with pytest.raises(BadRequestError) as missing:
        p.move(other, "transition/two-units", quantity1=1)
    assert codes(missing) == ["validation-missing-key"]
    two = p.move(other, "transition/two-units", quantity1=1, quantity2=2).attributes
    assert [(i.code, i.unit_price, i.quantity) for i in two.line_items] == [
        ("line-item/units1", EUR, Decimal(1)),
        ("line-item/units2", Money(500, "EUR"), Decimal(2)),
    ]
    assert two.payin_total == Money(2000, "EUR")


def test_a_failing_action_undoes_the_whole_transition(parties: Parties) -> None:
    p = parties
    tx = p.start("pricing/release-1", "transition/start", protectedData={"note": "hi"})
    with pytest.raises(ConflictError) as failed:
        p.move(tx, "transition/break", protectedData={"note": "changed"})
    assert codes(failed) == ["conflict"]
    shown = p.customer.transactions.show({"id": tx.id}).data.data.attributes
    assert shown.state == "state/open" and shown.protected_data is not None
    assert shown.protected_data["note"] == "hi"


def test_the_reverse_flow(parties: Parties) -> None:
    p = parties
    # The customer's listing is a request; the provider makes an offer on it.
    wanted = p.customer.own_listings.create({"title": "Need a boat"}).data.data
    tx = (
        p.provider.trusted_client()
        .transactions.initiate(
            {
                "processAlias": "pricing/release-1",
                "transition": "transition/offer",
                "params": {"listingId": wanted.id, "lineItems": items(EUR)},
            },
            {"expand": True, "include": ["customer", "provider"]},
        )
        .data.data
    )
    assert tx.customer.attributes.profile.display_name == "Customer U"
    assert tx.provider.attributes.profile.display_name == "Provider U"
    assert tx.attributes.transitions[0].by == "provider"
    with pytest.raises(ConflictError) as own:  # the request's author cannot offer on it
        p.start_as(p.customer, "pricing/release-1", "transition/offer", listingId=wanted.id)
    assert codes(own) == ["transaction-same-author-and-customer"]


def test_the_listings_protected_files_are_revealed(parties: Parties) -> None:
    p = parties
    with p.fake.state.lock:
        stored = s.add(p.fake.state, "file", {"name": "map.pdf", "state": "available"})
        kept = s.add(p.fake.state, "fileAttachment", {"scope": "protected", "deleted": False})
        kept.link("file", "file", stored.id)
        gone = s.add(p.fake.state, "fileAttachment", {"scope": "protected", "deleted": True})
        p.fake.state.listings[p.listing_id].link_many(
            "protectedFileAttachments", "fileAttachment", [kept.id, gone.id]
        )
    tx = p.start("pricing/release-1", "transition/start")
    p.move(tx, "transition/reveal-files")
    revealed = p.customer.transactions.show(
        {"id": tx.id, "include": ["protectedFileAttachments"]}
    ).data.data
    copies = revealed.relationships["protectedFileAttachments"].data
    assert isinstance(copies, list) and len(copies) == 1 and copies[0].id != kept.id


# --- bookings ----------------------------------------------------------------------------------


def _days(fake: FakeMarketplace, first: int, count: int) -> dict[str, dt.datetime]:
    today = fake.now.replace(hour=0, minute=0, second=0, microsecond=0)
    start = today + first * DAY
    return {"bookingStart": start, "bookingEnd": start + count * DAY}


def test_bookings_priced_by_the_deprecated_actions(parties: Parties) -> None:
    p = parties
    alias = "day-bookings/release-1"
    days = _days(p.fake, 3, 3)
    tx = p.start(alias, "transition/book-days", **days)
    assert tx.booking is not None and tx.booking.attributes.state == "pending"
    [line] = tx.attributes.line_items
    assert (line.code, line.quantity, line.line_total) == (
        "line-item/day",
        Decimal(3),
        Money(3000, "EUR"),
    )
    with pytest.raises(ConflictError) as taken:  # observe-availability? true
        p.start(alias, "transition/book-days", **days)
    assert codes(taken) == ["transaction-booking-time-not-available"]
    # Without observe-availability?, the deprecated create-booking books what is taken.
    nights = p.start(alias, "transition/book-nights", **days).attributes.line_items
    assert [(i.code, i.quantity) for i in nights] == [("line-item/night", Decimal(3))]

    with pytest.raises(ConflictError):  # at least three days
        p.start(alias, "transition/book-exclude-start", **_days(p.fake, 10, 2))
    middle = p.start(alias, "transition/book-exclude-start", **_days(p.fake, 10, 4))
    assert middle.attributes.line_items[0].quantity == 2
    for first_day, name, code, payout in (
        (20, "book-nightly-total", "line-item/night", 1800),
        (25, "book-total", "line-item/night", 2000),
        (30, "book-daily-total", "line-item/day", 1800),
    ):
        priced = p.start(alias, f"transition/{name}", **_days(p.fake, first_day, 2))
        a = priced.attributes
        assert a.line_items[0].code == code
        assert (a.payin_total, a.payout_total) == (Money(2000, "EUR"), Money(payout, "EUR"))
    with pytest.raises(ConflictError) as past:
        p.start(alias, "transition/book-total", **_days(p.fake, -2, 1))
    assert codes(past) == ["transaction-booking-time-not-available"]


def test_proposed_bookings_hold_nothing_until_accepted(parties: Parties) -> None:
    p = parties
    alias = "day-bookings/release-1"
    start = (p.fake.now + 5 * DAY).replace(minute=0, second=0, microsecond=0)
    slot = {"bookingStart": start, "bookingEnd": start + 2 * HOUR}
    first = p.start(alias, "transition/propose", **slot)
    second = p.start(alias, "transition/propose", **slot)  # proposed: the time is still free
    assert first.booking is not None and first.booking.attributes.state == "proposed"
    assert first.booking.attributes.start == start  # a time booking: not whole days
    with pytest.raises(BadRequestError):  # a range is changed whole
        p.move_as(p.provider, first, "transition/reschedule", bookingStart=start + HOUR)
    later = {"bookingStart": start + HOUR, "bookingEnd": start + 3 * HOUR}
    moved = p.move_as(p.provider, first, "transition/reschedule", **later)
    assert moved.booking is not None and moved.booking.attributes.start == start + HOUR
    assert moved.booking.attributes.display_start == start  # display times stay
    accepted = p.move_as(p.provider, first, "transition/accept")
    assert accepted.booking is not None and accepted.booking.attributes.state == "accepted"
    with pytest.raises(ConflictError) as taken:
        p.move_as(p.provider, second, "transition/accept")
    assert codes(taken) == ["transaction-booking-time-not-available"]
    declined = p.move_as(p.provider, second, "transition/decline")
    assert declined.booking is not None and declined.booking.attributes.state == "declined"
    p.operate(first, "transition/cancel")
    cancelled = p.customer.transactions.show({"id": first.id, "include": ["booking"]}).data.data
    assert cancelled.booking is not None and cancelled.booking.attributes.state == "cancelled"


# --- stock and payments ------------------------------------------------------------------------


def test_a_proposed_reservation_and_a_push_payment(parties: Parties) -> None:
    p = parties
    alias = "stock-and-stripe/release-1"
    order = {"stockReservationQuantity": 2, "lineItems": items(EUR, 2)}
    with pytest.raises(BadRequestError):
        p.start(alias, "transition/propose", paymentMethodTypes=["bitcoin"], **order)
    tx = p.start(alias, "transition/propose", paymentMethodTypes=["ideal"], **order)
    assert tx.stock_reservation is not None
    assert tx.stock_reservation.attributes.state == "proposed" and p.stock() == 5
    p.move_as(p.provider, tx, "transition/accept")
    assert p.stock() == 3
    with pytest.raises(ConflictError):  # not paid at the bank yet
        p.move(tx, "transition/pay")
    paid = p.fake.stripe.confirm_payment_intent(tx.id, "pm_ideal")["paymentIntent"]
    assert (paid["status"], paid["payment_method_types"]) == ("succeeded", ["ideal"])
    p.move(tx, "transition/pay")
    p.operate(tx, "transition/refund")  # stripe-refund-charge, the old name
    assert p.stock() == 5
    refunded = p.integ.transactions.show({"id": tx.id, "include": ["stockReservation"]}).data.data
    assert refunded.stock_reservation is not None
    assert refunded.stock_reservation.attributes.state == "cancelled"

    declined = p.start(alias, "transition/propose", paymentMethodTypes=["eps"], **order)
    p.move_as(p.provider, declined, "transition/decline")
    assert p.stock() == 5

    paid_out = p.start(alias, "transition/propose", paymentMethodTypes=["p24"], **order)
    p.move_as(p.provider, paid_out, "transition/accept")
    p.fake.stripe.confirm_payment_intent(paid_out.id)
    p.move(paid_out, "transition/pay")
    p.operate(paid_out, "transition/payout")


def test_a_saved_card_charged_off_session(parties: Parties) -> None:
    p = parties
    alias = "stock-and-stripe/release-1"
    with pytest.raises(ConflictError) as no_card:
        p.start(alias, "transition/subscribe", lineItems=items(EUR))
    assert codes(no_card) == ["stripe-customer-not-found"]
    p.customer.stripe_customer.create({"stripePaymentMethodId": "pm_card_chargeDeclined"})
    with pytest.raises(ApiError) as declined:
        p.start(alias, "transition/subscribe", lineItems=items(EUR))
    assert declined.value.status == 402 and codes(declined) == ["transaction-payment-failed"]
    p.customer.stripe_customer.add_payment_method({"stripePaymentMethodId": "pm_card_visa"})
    tx = p.start(alias, "transition/subscribe", lineItems=items(EUR))
    assert tx.attributes.protected_data == {}  # no secret: nothing to confirm in a browser
    assert p.fake.stripe.payment_intent(tx.id)["status"] == "succeeded"
    p.operate(tx, "transition/pay-out-subscription")


# --- delayed transitions -----------------------------------------------------------------------


def test_delayed_transitions_by_every_timepoint(parties: Parties) -> None:
    p = parties
    alias = "timers/release-1"
    start = (p.fake.now + 3 * DAY).replace(minute=0, second=0, microsecond=0)
    end = start + 3 * HOUR
    tx = p.start(alias, "transition/request", bookingStart=start, bookingEnd=end)
    t0 = tx.attributes.created_at
    assert t0 is not None
    assert p.fake.scheduled(tx.id) == [
        ("transition/remind", t0 + 2 * HOUR),  # last entered + 2 h
        ("transition/expire", t0 + 3 * HOUR),  # min(first entered + 3 h, start - 1 day)
    ]
    p.fake.advance(HOUR)
    nudged = p.move(tx, "transition/nudge").attributes.last_transitioned_at
    assert nudged is not None
    # Entered again: `remind` moves (last entered), `expire` does not (first entered).
    assert p.fake.scheduled(tx.id) == [
        ("transition/expire", t0 + 3 * HOUR),
        ("transition/remind", nudged + 2 * HOUR),
    ]
    p.fake.advance(2 * HOUR + dt.timedelta(minutes=1))
    expired = p.customer.transactions.show({"id": tx.id}).data.data.attributes
    # The first due is taken, at the time it was due, by the system; the other is not.
    assert expired.state == "state/expired"
    assert (expired.transitions[-1].by, expired.transitions[-1].created_at) == (
        "system",
        t0 + 3 * HOUR,
    )
    assert p.fake.scheduled(tx.id) == []

    # Another: reminded, then waiting until a day before the booking shows as starting.
    start, end = start + DAY, end + DAY  # the first one's booking is still pending
    shown_start = start - HOUR
    tx = p.start(
        alias, "transition/request", bookingStart=start, bookingEnd=end,
        bookingDisplayStart=shown_start, bookingDisplayEnd=end + HOUR,
    )  # fmt: skip
    t1 = tx.attributes.created_at
    assert t1 is not None
    p.fake.advance(2 * HOUR + dt.timedelta(minutes=1))
    assert p.customer.transactions.show({"id": tx.id}).data.data.attributes.state == (
        "state/reminded"
    )
    waited = p.move(tx, "transition/wait").attributes.last_transitioned_at
    assert waited is not None
    assert p.fake.scheduled(tx.id) == [("transition/start-soon", shown_start - DAY)]
    p.fake.advance(shown_start - DAY - p.fake.now + HOUR)
    # Started, then finished an hour after the booking ends, then closed by the earliest of:
    # initiated + 30 days, waited + 20 days, shown end + 2 days.
    p.fake.advance(end - p.fake.now + 2 * HOUR)
    p.fake.advance(3 * DAY)
    closed = p.customer.transactions.show({"id": tx.id}).data.data.attributes
    assert [(t.transition, t.created_at) for t in closed.transitions][-3:] == [
        ("transition/start-soon", shown_start - DAY),
        ("transition/finish", end + HOUR),
        ("transition/close", end + HOUR + 2 * DAY),
    ]


def test_ignore_if_past_and_times_already_past(parties: Parties) -> None:
    p = parties
    alias = "timers/release-1"
    soon = (p.fake.now + 20 * HOUR).replace(minute=0, second=0, microsecond=0)
    # The booking starts within a day: `expire` (a day before it) is due at once.
    tx = p.start(alias, "transition/request", bookingStart=soon, bookingEnd=soon + HOUR)
    [first, _] = p.fake.scheduled(tx.id)
    assert first[0] == "transition/expire" and first[1] == tx.attributes.created_at
    assert p.customer.transactions.show({"id": tx.id}).data.data.attributes.state == (
        "state/expired"
    )
    # Display times a day and more ahead, so that it waits; then the display start moves
    # near: ignore-if-past drops start-soon.
    later = (p.fake.now + 4 * DAY).replace(minute=0, second=0, microsecond=0)
    tx = p.start(
        alias, "transition/request", bookingStart=later, bookingEnd=later + HOUR,
        bookingDisplayStart=p.fake.now + 10 * HOUR, bookingDisplayEnd=later + HOUR,
    )  # fmt: skip
    p.fake.advance(2 * HOUR + dt.timedelta(minutes=1))
    p.move(tx, "transition/wait")
    assert p.fake.scheduled(tx.id) == []  # its time has passed: nothing is scheduled
    p.operate(tx, "transition/start-now")
    assert [name for name, _ in p.fake.scheduled(tx.id)] == ["transition/finish"]


# --- the pytest marker -------------------------------------------------------------------------


@pytest.mark.transaction_processes("tests/data/processes/timers")
def test_the_marker_gives_the_fixture_processes(fake_marketplace: FakeMarketplace) -> None:
    assert "timers/release-1" in fake_marketplace.processes
    assert "pricing/release-1" not in fake_marketplace.processes


@pytest.mark.transaction_processes({"renamed/release-2": "tests/data/processes/pricing"})
def test_the_marker_takes_aliases(
    fake_marketplace: FakeMarketplace, marketplace_client: MarketplaceClient
) -> None:
    assert "renamed/release-2" in fake_marketplace.processes
    found = marketplace_client.process_transitions.query(
        {"processAlias": "renamed/release-2"}
    ).data.data
    assert found[0].attributes.name == "transition/start"


def test_the_command_line_refuses_a_process_it_cannot_run(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from flexclient.testing.__main__ import main

    (tmp_path / "process.edn").write_text("{:format :v2}")
    assert main(["serve", "--port", "0", "--process", str(tmp_path)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "the fake runs format :v3" in err
