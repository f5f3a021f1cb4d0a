"""Every action of Sharetribe's transaction process actions reference, as a table: what each
does (a function of the step and the action's `:config`), the parameters it takes, the
configuration it accepts, and whether it needs a trusted context.

A process naming an action not in this table is refused when it is loaded. The two
initializers are implicit: the engine runs one when a transaction starts (the normal flow's
when the customer starts it, the reverse flow's when the provider does), and a process may not
name them.
"""

from __future__ import annotations

import decimal
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from functools import partial
from typing import Any

from flexclient._support.narrow import is_dict
from flexclient._wire.value_types import Money
from flexclient.testing._actions import bookings, data, payments, pricing, reservations, reviews
from flexclient.testing._edn import Keyword
from flexclient.testing._step import Step, conflict

Run = Callable[[Step, Mapping[str, Any]], None]
Convert = Callable[[object], object]  # a `:config` value as the action uses it; ValueError if bad


# --- reading `:config` values ------------------------------------------------------------------


def booking_type(value: object) -> object:
    if value in ("day", "time") and isinstance(value, Keyword):
        return str(value)
    raise ValueError("is :day or :time")


def boolean(value: object) -> object:
    # Sharetribe's own automatic-off-session-payment writes the keyword `:true`.
    if isinstance(value, bool):
        return value
    if isinstance(value, Keyword) and value in ("true", "false"):
        return value == "true"
    raise ValueError("is true or false")


def number(value: object) -> object:
    if isinstance(value, bool) or not isinstance(value, int | float | decimal.Decimal):
        raise ValueError("is a number, such as 0.1M")
    return decimal.Decimal(str(value))


def money(value: object) -> object:
    if is_dict(value):
        amount, currency = value.get(Keyword("amount")), value.get(Keyword("currency"))
        if isinstance(amount, int) and not isinstance(amount, bool) and isinstance(currency, str):
            return Money(amount, currency)
    raise ValueError('is money, {:amount 500 :currency "EUR"}')


def key_mapping(value: object) -> object:
    if is_dict(value) and all(
        isinstance(k, Keyword) and isinstance(v, Keyword) for k, v in value.items()
    ):
        return {str(k): str(v) for k, v in value.items()}
    raise ValueError("maps keywords to keywords, {:phoneNumber :customerPhoneNumber}")


# --- the table ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class Action:
    """An action: `run` does it; `required` and `optional` are the parameters it takes (by
    their type as `process_transitions` shows it); `config` the `:config` keys it accepts."""

    run: Run
    required: Mapping[str, Any] = field(default_factory=lambda: {})
    optional: Mapping[str, Any] = field(default_factory=lambda: {})
    config: Mapping[str, Convert] = field(default_factory=lambda: {})
    required_config: tuple[str, ...] = ()
    privileged: bool = False  # it needs a trusted context
    implicit: bool = False  # an initializer: the engine runs it, a process may not name it


def _initializer(step: Step, config: Mapping[str, Any]) -> None:
    """The engine links the listing and the parties when it starts a transaction."""


def fail(step: Step, config: Mapping[str, Any]) -> None:
    """`fail`: always fails, to test a process's failure paths."""
    raise conflict("The transition failed: it runs action/fail")


_BOOKING_TIMES = {"bookingStart": "timestamp", "bookingEnd": "timestamp"}
_BOOKING_MORE = {
    "bookingDisplayStart": "timestamp",
    "bookingDisplayEnd": "timestamp",
    "seats": "integer",
}
_REVIEW = {"reviewRating": "integer", "reviewContent": "string"}
_COMMISSION = {"commission": number, "min": money, "max": money}
_STOCK = {"stockReservationQuantity": "integer"}
_BOOKING = {"type": booking_type}


def _booking(state: str) -> Action:
    run = partial(bookings.create, state=state)
    return Action(run, _BOOKING_TIMES, _BOOKING_MORE, _BOOKING)


ACTIONS: dict[str, Action] = {
    "action.initializer/init-listing-tx": Action(
        _initializer, {"listingId": "uuid"}, implicit=True
    ),
    "action.initializer/init-reverse-listing-tx": Action(
        _initializer, {"listingId": "uuid"}, implicit=True
    ),
    # Pricing
    "action/privileged-set-line-items": Action(
        pricing.set_line_items, {"lineItems": ["lineItem"]}, privileged=True
    ),
    "action/set-line-items-and-total": Action(
        pricing.set_line_items_and_total, {"lineItems": ["lineItem"]}
    ),
    "action/set-negotiated-total-price": Action(
        pricing.set_negotiated_total, {"negotiatedTotal": "money"}
    ),
    "action/calculate-tx-customer-commission": Action(
        pricing.customer_commission, config=_COMMISSION, required_config=("commission",)
    ),
    "action/calculate-tx-provider-commission": Action(
        pricing.provider_commission, config=_COMMISSION, required_config=("commission",)
    ),
    "action/calculate-tx-customer-fixed-commission": Action(
        pricing.customer_fixed_commission,
        config={"commission": money},
        required_config=("commission",),
    ),
    "action/calculate-tx-provider-fixed-commission": Action(
        pricing.provider_fixed_commission,
        config={"commission": money},
        required_config=("commission",),
    ),
    "action/calculate-tx-nightly-total": Action(
        pricing.nightly_total, config={"commission": number}
    ),
    "action/calculate-tx-total": Action(pricing.nightly_total, config={"commission": number}),
    "action/calculate-tx-daily-total": Action(pricing.daily_total, config={"commission": number}),
    "action/calculate-tx-daily-total-price": Action(pricing.daily_total_price),
    "action/calculate-tx-nightly-total-price": Action(pricing.nightly_total_price),
    "action/calculate-tx-total-daily-booking-exclude-start": Action(
        pricing.daily_total_exclude_start
    ),
    "action/calculate-tx-two-units-total-price": Action(
        pricing.two_units_total_price,
        {"quantity1": "integer", "quantity2": "integer"},
        config={"quantity1-price-multiplier": number, "quantity2-price-multiplier": number},
    ),
    "action/calculate-tx-unit-total-price": Action(
        pricing.unit_total_price, {"quantity": "integer"}
    ),
    "action/calculate-full-refund": Action(pricing.full_refund),
    # Bookings
    "action/create-pending-booking": _booking("pending"),
    "action/create-proposed-booking": _booking("proposed"),
    "action/create-booking": Action(
        partial(bookings.create, state="pending", observe=False),
        _BOOKING_TIMES,
        _BOOKING_MORE,
        {**_BOOKING, "observe-availability?": boolean},
    ),
    "action/accept-booking": Action(
        partial(bookings.move, allowed=("pending", "proposed"), to="accepted")
    ),
    "action/decline-booking": Action(
        partial(bookings.move, allowed=("pending", "proposed"), to="declined")
    ),
    "action/cancel-booking": Action(partial(bookings.move, allowed=("accepted",), to="cancelled")),
    "action/update-booking": Action(
        bookings.update, {}, {**_BOOKING_TIMES, **_BOOKING_MORE}, _BOOKING
    ),
    # Stock reservations
    "action/create-pending-stock-reservation": Action(
        partial(reservations.create, state="pending"), _STOCK
    ),
    "action/create-proposed-stock-reservation": Action(
        partial(reservations.create, state="proposed"), _STOCK
    ),
    "action/accept-stock-reservation": Action(
        partial(reservations.move, allowed=("pending", "proposed"), to="accepted")
    ),
    "action/decline-stock-reservation": Action(
        partial(reservations.move, allowed=("pending", "proposed"), to="declined")
    ),
    "action/cancel-stock-reservation": Action(
        partial(reservations.move, allowed=("accepted",), to="cancelled")
    ),
    # Reviews
    "action/post-review-by-customer": Action(
        partial(reviews.post, author_role="customer"), _REVIEW
    ),
    "action/post-review-by-provider": Action(
        partial(reviews.post, author_role="provider"), _REVIEW
    ),
    "action/publish-reviews": Action(reviews.publish),
    # Extended data and files
    "action/reveal-customer-protected-data": Action(
        partial(data.reveal_protected_data, role="customer"), config={"key-mapping": key_mapping}
    ),
    "action/reveal-provider-protected-data": Action(
        partial(data.reveal_protected_data, role="provider"), config={"key-mapping": key_mapping}
    ),
    "action/update-protected-data": Action(
        data.update_protected_data, optional={"protectedData": "object"}
    ),
    "action/privileged-update-metadata": Action(
        data.update_metadata, optional={"metadata": "object"}, privileged=True
    ),
    "action/reveal-listing-protected-files": Action(data.reveal_listing_files),
    # Payments
    "action/stripe-create-payment-intent": Action(
        payments.create_intent,
        optional={"paymentMethod": "string", "setupPaymentMethodForSaving": "boolean"},
        config={"use-customer-default-payment-method?": boolean},
    ),
    "action/stripe-create-payment-intent-push": Action(
        partial(payments.create_intent, push=True),
        {"paymentMethodTypes": ["string"]},
        {"paymentMethod": "string"},
    ),
    "action/stripe-confirm-payment-intent": Action(payments.confirm_intent),
    "action/stripe-capture-payment-intent": Action(payments.capture_intent),
    "action/stripe-create-payout": Action(payments.payout),
    "action/stripe-refund-charge": Action(payments.refund),
    "action/stripe-refund-payment": Action(payments.refund),
    # Testing
    "action/fail": Action(fail),
}


def check_config(name: str, given: Mapping[str, object]) -> dict[str, object]:
    """The `:config` of action `name` as its function reads it; ValueError saying what is
    wrong with it."""
    action = ACTIONS[name]
    missing = [k for k in action.required_config if k not in given]
    if missing:
        raise ValueError(f"needs :config {' and '.join(':' + k for k in missing)}")
    out: dict[str, object] = {}
    for key, value in given.items():
        convert = action.config.get(key)
        if convert is None:
            known = ", ".join(f":{k}" for k in action.config) or "none"
            raise ValueError(f"takes no :config :{key} (it takes: {known})")
        try:
            out[key] = convert(value)
        except ValueError as exc:
            raise ValueError(f":config :{key} {exc}") from None
    return out
