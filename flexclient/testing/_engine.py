"""Transactions run by their process: who may take which transition, what each action does
(line items, bookings, stock reservations, reviews, payments), and the delayed transitions
the system takes when their time comes.

Every change a transition makes is recorded as an event with the source
`source/transaction`, the transition's own last: `booking/created` before
`transaction/transitioned`, as the API's event reference describes.
"""

from __future__ import annotations

import datetime as dt
import decimal
import secrets
import uuid
from collections.abc import Callable, Generator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from functools import partial
from typing import Any, Literal

from flexclient._support.narrow import is_array, is_mapping
from flexclient._wire.value_types import Money
from flexclient.models import TransactionAttributes
from flexclient.testing import _availability, _processes
from flexclient.testing import _state as s
from flexclient.testing._call import ApiFailure, forbidden, invalid, missing
from flexclient.testing._context import TRANSACTION, Context
from flexclient.testing._params import Invalid, from_body
from flexclient.testing._schema import current, wire
from flexclient.testing._stock import adjust, quantity
from flexclient.testing._stripe import account_of, payment_method_fails

Actor = Literal["customer", "provider", "operator", "system"]
Transaction = s.Record[TransactionAttributes]
PARTIES = ("customer", "provider")

# --- what each action takes ------------------------------------------------------------------
# Parameter types as `process_transitions.query` names them.
_BOOKING_PARAMS = {
    "bookingDisplayStart": "timestamp",
    "bookingDisplayEnd": "timestamp",
    "seats": "integer",
}
_REVIEW = {"reviewRating": "integer", "reviewContent": "string"}
ACTION_PARAMS: dict[str, tuple[dict[str, Any], dict[str, Any]]] = {
    # action: (required params, optional params)
    "action/update-protected-data": ({}, {"protectedData": "object"}),
    "action/privileged-update-metadata": ({}, {"metadata": "object"}),
    "action/privileged-set-line-items": ({"lineItems": ["lineItem"]}, {}),
    "action/create-pending-booking": (
        {"bookingStart": "timestamp", "bookingEnd": "timestamp"},
        _BOOKING_PARAMS,
    ),
    "action/create-proposed-booking": (
        {"bookingStart": "timestamp", "bookingEnd": "timestamp"},
        _BOOKING_PARAMS,
    ),
    "action/update-booking": (
        {},
        {"bookingStart": "timestamp", "bookingEnd": "timestamp", **_BOOKING_PARAMS},
    ),
    "action/create-pending-stock-reservation": ({"stockReservationQuantity": "integer"}, {}),
    "action/create-proposed-stock-reservation": ({"stockReservationQuantity": "integer"}, {}),
    "action/post-review-by-customer": (_REVIEW, {}),
    "action/post-review-by-provider": (_REVIEW, {}),
    "action/stripe-create-payment-intent": (
        {},
        {"paymentMethod": "string", "setupPaymentMethodForSaving": "boolean"},
    ),
}
INITIAL_PARAMS = {"listingId": "uuid"}


def transition_params(t: _processes.Transition) -> tuple[dict[str, Any], dict[str, Any]]:
    """The required and the optional parameters of a transition, from its actions."""
    required: dict[str, Any] = dict(INITIAL_PARAMS) if t.start is None else {}
    optional: dict[str, Any] = {}
    for action in t.actions:
        req, opt = ACTION_PARAMS.get(action.name, ({}, {}))
        required.update(req)
        optional.update(opt)
    return required, {k: v for k, v in optional.items() if k not in required}


# --- running a transition ----------------------------------------------------------------------


@dataclass
class Step:
    """One transition being taken: the transaction, its parameters, and who takes it."""

    ctx: Context
    tx: Transaction
    params: dict[str, Any]
    by: Actor
    transition: _processes.Transition

    @property
    def state(self) -> s.State:
        return self.ctx.state

    @property
    def progress(self) -> s.Progress:
        return self.state.progress[self.tx.id]

    @property
    def listing(self) -> s.Record[Any]:
        listing = self.state.listings.get(self.tx.one("listing") or uuid.UUID(int=0))
        if listing is None:
            raise ApiFailure(409, "transaction-listing-not-found", "The listing is gone")
        return listing

    def param(self, name: str, hint: Any) -> Any:
        value = self.params.get(name)
        if value is None:
            return None
        try:
            return from_body(value, hint)
        except Invalid as exc:
            raise invalid("body", f"params.{name}", str(exc)) from exc

    def required(self, name: str, hint: Any) -> Any:
        value = self.param(name, hint)
        if value is None:
            raise ApiFailure(
                400,
                "validation-missing-key",
                f"Missing required key: params.{name}",
                ["body", "params", name],
            )
        return value

    def other(self, stored_type: str, rid: uuid.UUID | None) -> s.Record[Any] | None:
        return self.state.table(stored_type).get(rid) if rid is not None else None


@contextmanager
def atomic(state: s.State) -> Generator[None]:
    """All of a transition or none of it: its actions undone when one fails, as the API's
    transitions are."""
    saved = state.fork()
    try:
        yield
    except BaseException:
        state.restore(saved)
        raise


def process_of(state: s.State, alias: str) -> _processes.Process:
    process = state.processes.get(alias)
    if process is None:
        raise invalid("body", "processAlias", f"no transaction process {alias!r}")
    return process


def initiate(
    ctx: Context,
    customer: s.Record[Any],
    alias: str,
    name: str,
    params: Mapping[str, Any],
    *,
    trusted: bool,
) -> Transaction:
    """Start a transaction of process `alias` with its first transition."""
    if customer.attributes.permissions.get("initiateTransactions") == "permission/deny":
        raise ApiFailure(
            403, "permission-denied-initiate-transactions", "The user may not start transactions"
        )
    process = process_of(ctx.state, alias)
    transition = process.transition(name)
    if transition is None or transition.start is not None:
        raise _invalid_transition(f"{name} does not start a transaction of {alias}")
    if transition.actor != "customer":
        raise forbidden(f"{name} is not for the customer to take")
    if transition.privileged and not trusted:
        raise forbidden(f"{name} is privileged: take it from a trusted context")
    listing_id = params.get("listingId")
    if listing_id is None:
        raise missing("body", "params.listingId")
    try:
        listing_id = from_body(listing_id, uuid.UUID)
    except Invalid as exc:
        raise invalid("body", "params.listingId", "not a UUID") from exc
    listing = ctx.state.listings.get(listing_id)
    if listing is None or listing.attributes.deleted or listing.attributes.state != "published":
        raise ApiFailure(404, "transaction-listing-not-found", "Listing not found")
    if listing.one("author") == customer.id:
        raise forbidden("You cannot start a transaction on your own listing")
    at = ctx.state.time()
    tx = s.new(
        "transaction",
        TransactionAttributes,
        {
            "created_at": at,
            "process_name": process.name,
            "process_version": process.version,
            "last_transitioned_at": at,
        },
    )
    tx.link("marketplace", "marketplace", s.MARKETPLACE_ID)
    tx.link("listing", "listing", listing.id)
    tx.link("provider", "user", listing.one("author"))
    tx.link("customer", "user", customer.id)
    with atomic(ctx.state):
        ctx.state.transactions[tx.id] = tx
        ctx.state.progress[tx.id] = s.Progress(process.alias, timepoints={"tx-initiated": at})
        _take(Step(ctx.as_source(TRANSACTION), tx, dict(params), "customer", transition), None)
    return tx


def transition(
    ctx: Context,
    tx: Transaction,
    name: str,
    params: Mapping[str, Any],
    *,
    by: Actor,
    trusted: bool,
) -> None:
    """Take transition `name` of a transaction, as `by`."""
    progress = ctx.state.progress[tx.id]
    process = process_of(ctx.state, progress.alias)
    found = process.transition(name)
    if found is None:
        raise _invalid_transition(f"{progress.alias} has no transition {name}")
    if found.start != progress.state:
        raise _invalid_transition(f"{name} cannot be taken from {progress.state}")
    if by != "system" and found.actor != by:
        raise forbidden(f"{name} is not for the {by} to take")
    if found.privileged and not trusted:
        raise forbidden(f"{name} is privileged: take it from a trusted context")
    before = ctx.snapshot(tx)
    with atomic(ctx.state):
        _take(Step(ctx.as_source(TRANSACTION), tx, dict(params), by, found), before)


def _invalid_transition(why: str) -> ApiFailure:
    return ApiFailure(409, "transaction-invalid-transition", why)


def _take(step: Step, before: dict[str, Any] | None) -> None:
    t = step.transition
    required, optional = transition_params(t)
    for key in step.params:
        if key not in required and key not in optional:
            raise ApiFailure(
                400,
                "validation-disallowed-key",
                f"Disallowed key: params.{key}",
                ["body", "params", key],
            )
    for key in required:
        if key != "listingId":
            step.required(key, Any)
    for action in t.actions:
        ACTIONS.get(action.name, _no_effect)(step, action.config)
    at = step.state.time()
    progress = step.progress
    progress.state = t.to
    progress.timepoints.setdefault(t.to, at)
    progress.timepoints.setdefault(t.name, at)
    entry = {"transition": t.name, "createdAt": at, "by": step.by}
    step.tx.set(
        last_transition=t.name,
        last_transitioned_at=at,
        transitions=[*step.tx.attributes.transitions, entry],
    )
    kind = "transaction/initiated" if before is None else "transaction/transitioned"
    step.ctx.emit(kind, step.tx, before)


def run_due(ctx: Context) -> None:
    """Take every delayed transition whose time has come, as the system, in time order."""
    system = ctx.as_source(TRANSACTION)
    while True:
        due = _next_due(ctx.state)
        if due is None or due[0] > ctx.state.time():
            return
        _at, tx, found = due
        before = system.snapshot(tx)
        try:
            with atomic(ctx.state):
                _take(Step(system, tx, {}, "system", found), before)
        except ApiFailure:
            # A failed automatic transition is not tried again, and none after it.
            ctx.state.progress[tx.id].stuck = True


def _next_due(state: s.State) -> tuple[Any, Transaction, _processes.Transition] | None:
    best: tuple[Any, Transaction, _processes.Transition] | None = None
    for tx_id, progress in state.progress.items():
        if progress.stuck or progress.state is None:
            continue
        process = state.processes.get(progress.alias)
        if process is None:
            continue
        for t in process.next_from(progress.state):
            if t.at is None:
                continue
            when = _processes.due(t.at, progress.timepoints)
            if when is not None and (best is None or when < best[0]):
                best = (when, state.transactions[tx_id], t)
    return best


# --- actions -----------------------------------------------------------------------------------


def _no_effect(step: Step, config: Mapping[str, Any]) -> None:
    """Actions whose effect is outside the marketplace's data (emails, payouts' timing)."""


def _merge(current: Mapping[str, Any] | None, update: Mapping[str, Any]) -> dict[str, Any]:
    merged = {**(current or {}), **update}
    return {k: v for k, v in merged.items() if v is not None}


def update_protected_data(step: Step, config: Mapping[str, Any]) -> None:
    data = step.param("protectedData", Mapping[str, Any])
    if data:
        step.tx.set(protected_data=_merge(step.tx.attributes.protected_data, data))


def update_metadata(step: Step, config: Mapping[str, Any]) -> None:
    data = step.param("metadata", Mapping[str, Any])
    if data:
        step.tx.set(metadata=_merge(step.tx.attributes.metadata, data))


def _number(value: Any, where: list[str]) -> decimal.Decimal:
    if isinstance(value, bool) or not isinstance(value, int | float | decimal.Decimal | str):
        raise ApiFailure(400, "validation-invalid-value", "expected a number", where)
    try:
        return decimal.Decimal(str(value))
    except decimal.InvalidOperation as exc:
        raise ApiFailure(400, "validation-invalid-value", "expected a number", where) from exc


def _minor_units(amount: decimal.Decimal) -> int:
    return int(amount.quantize(decimal.Decimal(1), rounding=decimal.ROUND_HALF_UP))


def line_items(raw: object) -> list[dict[str, Any]]:
    """Line items as the caller gave them, with each line total computed: unit price times
    quantity, times percentage / 100, or times seats times units (which also give the
    quantity). A line total given must match. One currency throughout."""
    if not is_array(raw) or len(raw) > 50:
        raise ApiFailure(
            400,
            "validation-invalid-value",
            "lineItems: a list of at most 50",
            ["body", "params", "lineItems"],
        )
    items: list[dict[str, Any]] = []
    currencies: set[str] = set()
    for i, item in enumerate(raw):
        where = ["body", "params", "lineItems", str(i)]
        if not is_mapping(item):
            raise ApiFailure(400, "validation-invalid-value", "a line item is a map", where)
        code = item.get("code")
        if not isinstance(code, str) or not code or len(code) > 64:
            raise ApiFailure(
                400,
                "validation-invalid-value",
                "code: text of 1 to 64 characters",
                [*where, "code"],
            )
        try:
            unit = from_body(item.get("unitPrice"), Money)
        except Invalid as exc:
            raise ApiFailure(
                400, "validation-invalid-value", "unitPrice: money", [*where, "unitPrice"]
            ) from exc
        out: dict[str, Any] = {"code": code, "unitPrice": unit}
        if item.get("seats") is not None and item.get("units") is not None:
            seats = _number(item["seats"], [*where, "seats"])
            units = _number(item["units"], [*where, "units"])
            out.update(seats=int(seats), units=units, quantity=seats * units)
            factor = seats * units
        elif item.get("quantity") is not None:
            factor = out["quantity"] = _number(item["quantity"], [*where, "quantity"])
        elif item.get("percentage") is not None:
            out["percentage"] = _number(item["percentage"], [*where, "percentage"])
            factor = out["percentage"] / 100
        else:
            raise ApiFailure(
                400,
                "validation-invalid-value",
                "a line item needs quantity, percentage, or seats and units",
                where,
            )
        total = Money(_minor_units(unit.amount * factor), unit.currency)
        given = item.get("lineTotal")
        if given is not None and _money_or_none(given) != total:
            raise ApiFailure(
                400,
                "validation-invalid-value",
                f"lineTotal should be {total}",
                [*where, "lineTotal"],
            )
        include_for = item.get("includeFor", list(PARTIES))
        if not is_array(include_for) or not set(include_for) <= set(PARTIES):
            raise ApiFailure(
                400,
                "validation-invalid-value",
                "includeFor: customer and/or provider",
                [*where, "includeFor"],
            )
        out.update(lineTotal=total, reversal=False, includeFor=list(include_for))
        currencies.add(unit.currency)
        items.append(out)
    if len(currencies) > 1:
        raise ApiFailure(
            400,
            "validation-invalid-value",
            "one currency for all line items",
            ["body", "params", "lineItems"],
        )
    return items


def _money_or_none(value: Any) -> Money | None:
    try:
        found: Money = from_body(value, Money)
        return found
    except Invalid:
        return None


def totals(items: Sequence[Mapping[str, Any]], currency: str) -> dict[str, Money]:
    """What the customer pays in and the provider gets out: the line totals of the items
    included for each."""
    payin = sum(i["lineTotal"].amount for i in items if "customer" in i["includeFor"])
    payout = sum(i["lineTotal"].amount for i in items if "provider" in i["includeFor"])
    return {"payin_total": Money(payin, currency), "payout_total": Money(payout, currency)}


def set_line_items(step: Step, config: Mapping[str, Any]) -> None:
    items = line_items(step.required("lineItems", Any))
    currency = items[0]["unitPrice"].currency if items else "USD"
    sums = totals(items, currency)
    if sums["payin_total"].amount < 0 or sums["payout_total"].amount < 0:
        raise ApiFailure(
            400,
            "validation-invalid-value",
            "payin and payout cannot be negative",
            ["body", "params", "lineItems"],
        )
    step.tx.set(line_items=items, **sums)


def full_refund(step: Step, config: Mapping[str, Any]) -> None:
    """Reverse every line item: payin and payout become zero."""
    items: list[dict[str, Any]] = wire(step.tx.attributes.line_items)
    reversals: list[dict[str, Any]] = []
    for item in items:
        if item.get("reversal"):
            continue
        back: dict[str, Any] = {**item, "reversal": True, "lineTotal": _negated(item["lineTotal"])}
        for key in ("quantity", "percentage"):
            if back.get(key) is not None:
                back[key] = -back[key]
        reversals.append(back)
    all_items = [*items, *reversals]
    currency = items[0]["lineTotal"].currency if items else "USD"
    step.tx.set(line_items=all_items, **totals(all_items, currency))


def _negated(money: Money) -> Money:
    return Money(-money.amount, money.currency)


# --- bookings


def _booking_times(step: Step, kind: str) -> dict[str, Any]:
    start = step.required("bookingStart", dt.datetime)
    end = step.required("bookingEnd", dt.datetime)
    if kind == "day":
        start, end = _availability.whole_days(start, end)
    if end <= start:
        raise invalid("body", "params.bookingEnd", "must be after bookingStart")
    display_start = step.param("bookingDisplayStart", dt.datetime) or start
    display_end = step.param("bookingDisplayEnd", dt.datetime) or end
    return {"start": start, "end": end, "display_start": display_start, "display_end": display_end}


def create_booking(step: Step, config: Mapping[str, Any], *, state: str) -> None:
    if step.tx.one("booking") is not None:
        raise ApiFailure(409, "conflict", "The transaction already has a booking")
    times = _booking_times(step, str(config.get("type", "day")))
    seats = step.param("seats", int) or 1
    listing = step.listing
    if not _availability.has_room(step.state, listing, times["start"], times["end"], seats):
        raise ApiFailure(
            409, "transaction-booking-time-not-available", "The booking time is not available"
        )
    booking = _new(step.state, "booking", {**times, "seats": seats, "state": state})
    booking.link("transaction", "transaction", step.tx.id)
    step.tx.link("booking", "booking", booking.id)
    _booking_timepoints(step, booking)
    step.ctx.emit("booking/created", booking, None)


def _booking_timepoints(step: Step, booking: s.Record[Any]) -> None:
    a = booking.attributes
    step.progress.timepoints.update(
        {
            "booking-start": a.start,
            "booking-end": a.end,
            "booking-display-start": a.display_start,
            "booking-display-end": a.display_end,
        }
    )


def _booking(step: Step) -> s.Record[Any]:
    booking = step.other("booking", step.tx.one("booking"))
    if booking is None:
        raise ApiFailure(409, "conflict", "The transaction has no booking")
    return booking


def _move_booking(
    step: Step, config: Mapping[str, Any], *, allowed: tuple[str, ...], to: str
) -> None:
    booking = _booking(step)
    if booking.attributes.state not in allowed:
        raise ApiFailure(409, "conflict", f"A {booking.attributes.state} booking cannot be {to}")
    if booking.attributes.state == "proposed" and to == "accepted":
        a = booking.attributes
        if not _availability.has_room(step.state, step.listing, a.start, a.end, a.seats or 1):
            raise ApiFailure(
                409,
                "transaction-booking-time-not-available",
                "The booking time is no longer available",
            )
    before = step.ctx.snapshot(booking)
    booking.set(state=to)
    step.ctx.emit("booking/updated", booking, before)


def update_booking(step: Step, config: Mapping[str, Any]) -> None:
    booking = _booking(step)
    before = step.ctx.snapshot(booking)
    values: dict[str, Any] = {}
    if step.params.get("bookingStart") is not None or step.params.get("bookingEnd") is not None:
        times = _booking_times(step, str(config.get("type", "day")))
        values.update(start=times["start"], end=times["end"])
    for key, name in (
        ("bookingDisplayStart", "display_start"),
        ("bookingDisplayEnd", "display_end"),
    ):
        if step.params.get(key) is not None:
            values[name] = step.param(key, dt.datetime)
    if step.params.get("seats") is not None:
        values["seats"] = step.param("seats", int)
    merged = {**current(booking.attributes), **values}
    if booking.attributes.state in _availability.HOLDING and not _availability.has_room(
        step.state,
        step.listing,
        merged["start"],
        merged["end"],
        merged["seats"] or 1,
        ignore_booking=booking.id,
    ):
        raise ApiFailure(
            409, "transaction-booking-time-not-available", "The booking time is not available"
        )
    booking.set(**values)
    _booking_timepoints(step, booking)
    step.ctx.emit("booking/updated", booking, before)


# --- stock reservations


def create_reservation(step: Step, config: Mapping[str, Any], *, state: str) -> None:
    if step.tx.one("stockReservation") is not None:
        raise ApiFailure(409, "conflict", "The transaction already has a stock reservation")
    wanted = step.required("stockReservationQuantity", int)
    if wanted < 1:
        raise invalid("body", "params.stockReservationQuantity", "a positive integer")
    listing = step.listing
    if (quantity(step.state, listing.id) or 0) < wanted:
        raise ApiFailure(
            409,
            "transaction-listing-insufficient-stock",
            "The listing does not have that much stock",
        )
    reservation = _new(step.state, "stockReservation", {"quantity": wanted, "state": state})
    reservation.link("listing", "listing", listing.id)
    reservation.link("transaction", "transaction", step.tx.id)
    reservation.link_many("stockAdjustments", "stockAdjustment", [])
    step.tx.link("stockReservation", "stockReservation", reservation.id)
    step.ctx.emit("stockReservation/created", reservation, None)
    if state == "pending":
        _reserve(step, reservation, -wanted)


def _reserve(step: Step, reservation: s.Record[Any], change: int) -> None:
    made = adjust(step.state, step.listing, change)
    made.link("stockReservation", "stockReservation", reservation.id)
    reservation.link_many(
        "stockAdjustments", "stockAdjustment", [*reservation.many("stockAdjustments"), made.id]
    )
    step.ctx.emit("stockAdjustment/created", made, None)


def _move_reservation(
    step: Step, config: Mapping[str, Any], *, allowed: tuple[str, ...], to: str
) -> None:
    reservation = step.other("stockReservation", step.tx.one("stockReservation"))
    if reservation is None:
        raise ApiFailure(409, "conflict", "The transaction has no stock reservation")
    was = reservation.attributes.state
    if was not in allowed:
        raise ApiFailure(409, "conflict", f"A {was} stock reservation cannot be {to}")
    amount = reservation.attributes.quantity or 0
    before = step.ctx.snapshot(reservation)
    if to == "accepted" and was == "proposed":
        if (quantity(step.state, step.listing.id) or 0) < amount:
            raise ApiFailure(
                409,
                "transaction-listing-insufficient-stock",
                "The listing does not have that much stock",
            )
        _reserve(step, reservation, -amount)
    elif to in ("declined", "cancelled") and was in ("pending", "accepted"):
        _reserve(step, reservation, amount)  # the stock comes back
    reservation.set(state=to)
    step.ctx.emit("stockReservation/updated", reservation, before)


# --- reviews


def post_review(step: Step, config: Mapping[str, Any], *, author_role: str) -> None:
    subject_role = "provider" if author_role == "customer" else "customer"
    for review in _reviews(step):
        if review.one("author") == step.tx.one(author_role):
            raise ApiFailure(
                409,
                f"transaction-already-reviewed-by-{author_role}",
                f"The {author_role} has already reviewed",
            )
    rating = step.required("reviewRating", int)
    if not 1 <= rating <= 5:
        raise invalid("body", "params.reviewRating", "1 to 5")
    content = step.required("reviewContent", str)
    values = {
        "type": f"of{subject_role.capitalize()}",
        "state": "pending",
        "rating": rating,
        "content": content,
        "created_at": step.state.time(),
    }
    review = _new(step.state, "review", values)
    review.link("author", "user", step.tx.one(author_role))
    review.link("subject", "user", step.tx.one(subject_role))
    review.link("listing", "listing", step.tx.one("listing"))
    review.link("transaction", "transaction", step.tx.id)
    step.tx.link_many("reviews", "review", [*step.tx.many("reviews"), review.id])
    step.ctx.emit("review/created", review, None)


def _reviews(step: Step) -> list[s.Record[Any]]:
    table = step.state.table("review")
    return [table[r] for r in step.tx.many("reviews") if r in table]


def publish_reviews(step: Step, config: Mapping[str, Any]) -> None:
    for review in _reviews(step):
        if review.attributes.state != "public":
            before = step.ctx.snapshot(review)
            review.set(state="public")
            step.ctx.emit("review/updated", review, before)


# --- payments (Stripe, simulated)


def create_payment_intent(step: Step, config: Mapping[str, Any]) -> None:
    payin, payout = step.tx.attributes.payin_total, step.tx.attributes.payout_total
    if payin is None or payin.amount <= 0:
        raise ApiFailure(409, "transaction-charge-zero-payin", "Nothing to charge")
    if payout is not None and payout.amount > payin.amount:
        raise ApiFailure(409, "transaction-charge-zero-payout", "The payout exceeds the payin")
    if account_of(step.state, step.tx.one("provider")) is None:
        raise ApiFailure(
            409, "transaction-missing-stripe-account", "The provider has no Stripe account"
        )
    method = step.param("paymentMethod", str)
    if method is not None and payment_method_fails(method):
        raise ApiFailure(402, "transaction-payment-failed", "The card was declined")
    intent = f"pi_{secrets.token_hex(12)}"
    intents = {
        "default": {
            "stripePaymentIntentId": intent,
            "stripePaymentIntentClientSecret": f"{intent}_secret_{secrets.token_hex(12)}",
        }
    }
    data = {**(step.tx.attributes.protected_data or {}), "stripePaymentIntents": intents}
    step.tx.set(protected_data=data)
    step.progress.payment = "created"


def _payment(step: Step, allowed: tuple[str | None, ...], to: str) -> None:
    if step.progress.payment not in allowed:
        raise ApiFailure(409, "conflict", f"No payment to {to.removesuffix('ed')}")
    step.progress.payment = to


def confirm_payment(step: Step, config: Mapping[str, Any]) -> None:
    _payment(step, ("created",), "confirmed")
    data = dict(step.tx.attributes.protected_data or {})
    data.pop("stripePaymentIntents", None)
    step.tx.set(protected_data=data)


def capture_payment(step: Step, config: Mapping[str, Any]) -> None:
    _payment(step, ("confirmed", "captured"), "captured")


def refund_payment(step: Step, config: Mapping[str, Any]) -> None:
    if step.progress.paid_out:
        raise ApiFailure(409, "conflict", "The payment was already paid out")
    _payment(step, ("created", "confirmed", "captured", None), "refunded")


def create_payout(step: Step, config: Mapping[str, Any]) -> None:
    if step.progress.payment not in ("captured", None):
        raise ApiFailure(409, "conflict", "No captured payment to pay out")
    step.progress.paid_out = True


def _new(state: s.State, stored_type: str, values: Mapping[str, Any]) -> s.Record[Any]:
    return s.add(state, stored_type, values)


Action = Callable[[Step, Mapping[str, Any]], None]
ACTIONS: dict[str, Action] = {
    "action/update-protected-data": update_protected_data,
    "action/privileged-update-metadata": update_metadata,
    "action/privileged-set-line-items": set_line_items,
    "action/calculate-full-refund": full_refund,
    "action/create-pending-booking": partial(create_booking, state="pending"),
    "action/create-proposed-booking": partial(create_booking, state="proposed"),
    "action/accept-booking": partial(_move_booking, allowed=("pending", "proposed"), to="accepted"),
    "action/decline-booking": partial(
        _move_booking, allowed=("pending", "proposed"), to="declined"
    ),
    "action/cancel-booking": partial(_move_booking, allowed=("accepted",), to="cancelled"),
    "action/update-booking": update_booking,
    "action/create-pending-stock-reservation": partial(create_reservation, state="pending"),
    "action/create-proposed-stock-reservation": partial(create_reservation, state="proposed"),
    "action/accept-stock-reservation": partial(
        _move_reservation, allowed=("pending", "proposed"), to="accepted"
    ),
    "action/decline-stock-reservation": partial(
        _move_reservation, allowed=("pending", "proposed"), to="declined"
    ),
    "action/cancel-stock-reservation": partial(
        _move_reservation, allowed=("accepted",), to="cancelled"
    ),
    "action/post-review-by-customer": partial(post_review, author_role="customer"),
    "action/post-review-by-provider": partial(post_review, author_role="provider"),
    "action/publish-reviews": publish_reviews,
    "action/stripe-create-payment-intent": create_payment_intent,
    "action/stripe-confirm-payment-intent": confirm_payment,
    "action/stripe-capture-payment-intent": capture_payment,
    "action/stripe-refund-payment": refund_payment,
    "action/stripe-create-payout": create_payout,
}
