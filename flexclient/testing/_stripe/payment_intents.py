"""Stripe's PaymentIntents, simulated: what the payment actions of a process make and move, and
the step a browser takes between them with Stripe.js.

The flow is the web template's. A transition with `stripe-create-payment-intent` makes an
intent (its ID and client secret in the transaction's protected data); the browser confirms it
with Stripe.js (`stripe.confirmCardPayment(clientSecret, ...)`), which is where a card is
charged or declined; then the `confirm-payment` transition (`stripe-confirm-payment-intent`)
finds it confirmed, or fails. Here the browser's step is `FakeStripe.confirm_payment_intent`,
or a request to `{fake.url}/stripe/v1/payment_intents/<id>/confirm` as Stripe.js sends it.

Statuses are Stripe's: `requires_payment_method`, `requires_confirmation`, `requires_capture`
(a card's preauthorisation), `succeeded` (captured, or a push payment paid) and `canceled`.
"""

from __future__ import annotations

import datetime as dt
import secrets
import uuid
from dataclasses import dataclass, field
from typing import Any

from flexclient._wire.value_types import Money
from flexclient.testing import _state as s
from flexclient.testing._stripe import accounts

CARD = ("card",)
PUSH_METHODS = ("alipay", "bancontact", "eps", "giropay", "ideal", "p24")


@dataclass
class PaymentIntent:
    """One PaymentIntent of a transaction's."""

    id: str
    client_secret: str
    transaction_id: uuid.UUID
    amount: Money
    created_at: dt.datetime
    method_types: tuple[str, ...] = CARD
    payment_method: str | None = None
    status: str = "requires_payment_method"
    refunded: bool = False
    last_payment_error: dict[str, Any] | None = None
    # Whether Stripe.js (or an off-session charge) confirmed it: a browser's step.
    confirmed_by: str | None = None
    metadata: dict[str, str] = field(default_factory=lambda: {})

    @property
    def push(self) -> bool:
        return self.method_types != CARD

    def as_stripe(self) -> dict[str, Any]:
        """The intent as Stripe's API (and Stripe.js) shows it."""
        return {
            "id": self.id,
            "object": "payment_intent",
            "amount": self.amount.amount,
            "currency": self.amount.currency.lower(),
            "status": self.status,
            "client_secret": self.client_secret,
            "capture_method": "automatic" if self.push else "manual",
            "payment_method": self.payment_method,
            "payment_method_types": list(self.method_types),
            "created": int(self.created_at.timestamp()),
            "last_payment_error": self.last_payment_error,
            "livemode": False,
        }


def create(
    state: s.State,
    tx_id: uuid.UUID,
    amount: Money,
    *,
    payment_method: str | None = None,
    method_types: tuple[str, ...] = CARD,
) -> PaymentIntent:
    intent_id = f"pi_{secrets.token_hex(12)}"
    intent = PaymentIntent(
        intent_id,
        f"{intent_id}_secret_{secrets.token_hex(12)}",
        tx_id,
        amount,
        state.time(),
        method_types,
        payment_method,
        "requires_confirmation" if payment_method else "requires_payment_method",
    )
    state.payment_intents[intent_id] = intent
    return intent


def of_transaction(state: s.State, tx_id: uuid.UUID) -> PaymentIntent | None:
    intent_id = state.progress[tx_id].payment_intent if tx_id in state.progress else None
    return state.payment_intents.get(intent_id or "")


class CardError(Exception):
    """Stripe's answer to a payment that failed: `error` is Stripe's error object."""

    def __init__(self, error: dict[str, Any]) -> None:
        super().__init__(error["message"])
        self.error = error


def confirm(intent: PaymentIntent, payment_method: str | None, *, by: str) -> None:
    """Confirm the intent as Stripe does: a card is preauthorised (`requires_capture`), a push
    payment paid (`succeeded`); a declined card raises CardError and leaves the intent
    waiting for another payment method."""
    if intent.status not in ("requires_payment_method", "requires_confirmation"):
        raise CardError(
            {
                "type": "invalid_request_error",
                "code": "payment_intent_unexpected_state",
                "message": f"This PaymentIntent's status is {intent.status}: it cannot be "
                "confirmed again",
            }
        )
    method = payment_method or intent.payment_method
    if method is None:
        raise CardError(
            {
                "type": "invalid_request_error",
                "code": "payment_intent_unexpected_state",
                "message": "You cannot confirm this PaymentIntent: it has no payment method",
            }
        )
    intent.payment_method = method
    decline = accounts.decline_of(method)
    if decline is not None and not intent.push:
        code, message = decline
        intent.status = "requires_payment_method"
        intent.last_payment_error = {
            "type": "card_error",
            "code": "card_declined",
            "decline_code": code,
            "message": message,
            "payment_method": {"id": method},
        }
        raise CardError({**intent.last_payment_error, "payment_intent": intent.as_stripe()})
    intent.last_payment_error = None
    intent.status = "succeeded" if intent.push else "requires_capture"
    intent.confirmed_by = by
