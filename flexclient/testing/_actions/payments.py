"""The Stripe actions: a PaymentIntent made for the payin, confirmed (by the browser first,
with Stripe.js), captured, refunded, and the provider paid out. See
`flexclient.testing._stripe.payment_intents` for the intents themselves."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from flexclient.testing import _state as s
from flexclient.testing._call import ApiFailure, invalid
from flexclient.testing._step import Step, conflict
from flexclient.testing._stripe import payment_intents as pi
from flexclient.testing._stripe.accounts import account_of, customer_of

INVALID_STATUS = "stripe-invalid-payment-intent-status"


def _provider_account(step: Step) -> s.Record[Any]:
    account = account_of(step.state, step.tx.one("provider"))
    if account is None:
        raise conflict("The provider has no Stripe account", "transaction-missing-stripe-account")
    return account


def _payment_failed(error: Mapping[str, Any]) -> ApiFailure:
    """402, with Stripe's message in `meta`, as the web template reads it."""
    meta = {"stripeMessage": error.get("message"), "stripeCode": error.get("code")}
    if error.get("decline_code"):
        meta["stripeDeclineCode"] = error["decline_code"]
    return ApiFailure(402, "transaction-payment-failed", "The payment failed", meta=meta)


def _intent(step: Step) -> pi.PaymentIntent:
    intent = pi.of_transaction(step.state, step.tx.id)
    if intent is None:
        raise conflict("The transaction has no payment intent", "stripe-payment-intent-not-found")
    return intent


def create_intent(step: Step, config: Mapping[str, Any], *, push: bool = False) -> None:
    """`stripe-create-payment-intent` (a card or a wallet, preauthorised) and
    `stripe-create-payment-intent-push` (iDEAL and the like, paid at once); with
    `use-customer-default-payment-method?`, the customer's saved card is charged off-session
    at once."""
    if pi.of_transaction(step.state, step.tx.id) is not None:
        raise conflict("The transaction has a payment intent already")
    payin, payout = step.tx.attributes.payin_total, step.tx.attributes.payout_total
    if payin is None or payin.amount <= 0:
        raise conflict("There is nothing to charge", "transaction-charge-zero-payin")
    if payout is not None and payout.amount > payin.amount:
        raise conflict("The payout exceeds the payin", "transaction-charge-zero-payout")
    account: Mapping[str, Any] = _provider_account(step).attributes.stripe_account_data or {}
    if not account.get("charges_enabled", True):
        raise conflict(
            "The provider's Stripe account cannot take charges",
            "transaction-stripe-account-disabled-charges",
        )
    method: str | None = step.param("paymentMethod", str)
    types: tuple[str, ...] = pi.CARD
    if push:
        given: list[str] = step.required("paymentMethodTypes", list[str])
        unknown = [t for t in given if t not in pi.PUSH_METHODS]
        if not given or unknown:
            raise invalid("body", "params.paymentMethodTypes", f"one or more of {pi.PUSH_METHODS}")
        types = tuple(given)
    off_session = bool(config.get("use-customer-default-payment-method?", False))
    if off_session:
        method = _default_payment_method(step)
    intent = pi.create(step.state, step.tx.id, payin, payment_method=method, method_types=types)
    step.progress.payment_intent = intent.id
    step.progress.payment = "created"
    if off_session:
        if not step.speculative:
            try:
                pi.confirm(intent, method, by="off-session")
            except pi.CardError as failed:
                raise _payment_failed(failed.error) from None
            step.progress.payment = "confirmed"
        return  # confirmed already: its secret is nobody's business
    secrets = {
        "default": {
            "stripePaymentIntentId": intent.id,
            "stripePaymentIntentClientSecret": intent.client_secret,
        }
    }
    data = {**(step.tx.attributes.protected_data or {}), "stripePaymentIntents": secrets}
    step.tx.set(protected_data=data)


def _default_payment_method(step: Step) -> str:
    customer_id = step.tx.one("customer")
    customer = customer_of(step.state, customer_id) if customer_id is not None else None
    if customer is None:
        raise conflict("The customer has no Stripe customer", "stripe-customer-not-found")
    method = step.other("stripePaymentMethod", customer.one("defaultPaymentMethod"))
    if method is None:
        raise conflict(
            "The customer has no default payment method", "stripe-payment-method-not-found"
        )
    found: str = method.attributes.stripe_payment_method_id
    return found


def confirm_intent(step: Step, config: Mapping[str, Any]) -> None:
    """`stripe-confirm-payment-intent`: the intent must have been confirmed by the browser
    (Stripe.js): a card preauthorised, a push payment paid. A declined card's intent fails
    with 402. The intent's secret leaves the protected data."""
    intent = _intent(step)
    if not step.speculative and intent.status not in ("requires_capture", "succeeded"):
        if intent.last_payment_error is not None:
            raise _payment_failed(intent.last_payment_error)
        raise conflict(
            f"The payment intent is {intent.status}: the customer confirms it with Stripe.js "
            "first (in tests, fake.stripe.confirm_payment_intent)",
            INVALID_STATUS,
        )
    step.progress.payment = "confirmed"
    data = dict(step.tx.attributes.protected_data or {})
    data.pop("stripePaymentIntents", None)
    step.tx.set(protected_data=data)


def capture_intent(step: Step, config: Mapping[str, Any]) -> None:
    """`stripe-capture-payment-intent`: a preauthorised card charged (a push payment is paid
    already: nothing to do)."""
    intent = _intent(step)
    _provider_account(step)
    if intent.status != "succeeded":
        if intent.status != "requires_capture" and not step.speculative:
            raise conflict(f"A {intent.status} payment intent cannot be captured", INVALID_STATUS)
        intent.status = "succeeded"
    step.progress.payment = "captured"


def refund(step: Step, config: Mapping[str, Any]) -> None:
    """`stripe-refund-payment` (and `stripe-refund-charge`): an uncaptured intent cancelled, a
    captured one refunded; not after a payout."""
    intent = _intent(step)
    if step.progress.paid_out:
        raise conflict("The provider has been paid out already")
    if intent.status == "succeeded":
        intent.refunded = True
    else:
        intent.status = "canceled"
    step.progress.payment = "refunded"


def payout(step: Step, config: Mapping[str, Any]) -> None:
    """`stripe-create-payout`: the provider paid what the payment left for them."""
    if step.tx.attributes.payout_total is None:
        raise conflict("The transaction has no payout total")
    intent = _intent(step)
    if intent.status != "succeeded" and not step.speculative:
        raise conflict("The payment has not been captured", INVALID_STATUS)
    account: Mapping[str, Any] = _provider_account(step).attributes.stripe_account_data or {}
    requirements: Mapping[str, Any] = account.get("requirements") or {}
    if not account.get("payouts_enabled", True) and requirements.get("disabled_reason"):
        raise conflict(
            "The provider's Stripe account cannot take payouts",
            "transaction-stripe-account-disabled-payouts",
        )
    step.progress.paid_out = True
