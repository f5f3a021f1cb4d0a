"""`fake.stripe`: what a browser and Stripe itself do in a test, beside the marketplace's API.

- `confirm_payment_intent(tx_id)` is the browser's step between `request-payment` and
  `confirm-payment`: Stripe.js confirming the transaction's PaymentIntent with a card. It
  answers as Stripe.js's `confirmCardPayment` resolves: `{"paymentIntent": {...}}`, or
  `{"error": {...}}` for a declined card (`pm_card_chargeDeclined`, 4000000000000002, ...).
- The same is served over HTTP for code that runs in a browser or in node, as Stripe.js sends
  it: `POST {fake.url}/stripe/v1/payment_intents/<id>/confirm` with the form fields
  `client_secret` and `payment_method` (`GET .../payment_intents/<id>?client_secret=...`
  shows the intent).
- `GET {fake.url}/stripe/js/v3/` is a stand-in for Stripe.js for browser tests that cannot
  load the real one: `Stripe(key)` with a card element (a text input), `confirmCardPayment`
  through the call above, `retrievePaymentIntent`, `createToken`.
- `disable_account(user_id)` is Stripe disabling a provider's account, so that charging or
  paying them out fails as the API then answers.
"""

from __future__ import annotations

import re
import uuid
from importlib import resources
from typing import Any

from flexclient.testing import _state as s
from flexclient.testing._stripe import payment_intents as pi
from flexclient.testing._stripe.accounts import account_of

_PATH = re.compile(r"/stripe/v1/payment_intents/(pi_[0-9a-f]+)(/confirm)?")
STRIPE_JS_PATH = "/stripe/js/v3/"
"""Where the fake serves its stand-in for Stripe.js (`stripe_js/v3.js`)."""


def stripe_js(fake_url: str) -> str:
    """The stand-in for Stripe.js, confirming payments with the fake at `fake_url`: for a
    browser test to load in the place of https://js.stripe.com/v3/, which it cannot reach."""
    script = resources.files("flexclient.testing._stripe") / "stripe_js" / "v3.js"
    return script.read_text(encoding="utf-8").replace("__FAKE_URL__", fake_url)


def _intent(state: s.State, which: uuid.UUID | str) -> pi.PaymentIntent:
    if isinstance(which, uuid.UUID):
        found = pi.of_transaction(state, which)
        if found is None:
            raise KeyError(f"transaction {which} has no payment intent")
        return found
    intent_id = which.split("_secret_")[0]
    found = state.payment_intents.get(intent_id)
    if found is None:
        raise KeyError(f"no payment intent {which}")
    return found


def _confirm(intent: pi.PaymentIntent, payment_method: str | None) -> dict[str, Any]:
    try:
        pi.confirm(intent, payment_method, by="stripe.js")
    except pi.CardError as failed:
        return {"error": failed.error}
    return {"paymentIntent": intent.as_stripe()}


class FakeStripe:
    """Stripe's side of the fake marketplace's payments (see the module's docstring)."""

    def __init__(self, state: s.State) -> None:
        self._state = state

    def payment_intent(self, transaction_or_intent: uuid.UUID | str) -> dict[str, Any]:
        """A transaction's PaymentIntent (or one by its ID or client secret), as Stripe shows
        it: `id`, `status`, `amount`, `currency`, `client_secret`, `payment_method`, ..."""
        with self._state.lock:
            return _intent(self._state, transaction_or_intent).as_stripe()

    def confirm_payment_intent(
        self, transaction_or_intent: uuid.UUID | str, payment_method: str = "pm_card_visa"
    ) -> dict[str, Any]:
        """Confirm a transaction's PaymentIntent (or one by its ID or client secret) as
        Stripe.js does in the customer's browser, with a test payment method or card number:
        `{"paymentIntent": {...}}` when the card is authorised (a push payment: paid), or
        `{"error": {...}}` (Stripe's `card_declined`) when it is declined.

        >>> fake.stripe.confirm_payment_intent(tx.id)["paymentIntent"]["status"]  # doctest: +SKIP
        'requires_capture'
        """
        with self._state.lock:
            return _confirm(_intent(self._state, transaction_or_intent), payment_method)

    def disable_account(
        self,
        user_id: uuid.UUID,
        *,
        charges: bool = True,
        payouts: bool = True,
        reason: str = "requirements.past_due",
    ) -> None:
        """Disable charges to and payouts from a user's Stripe account (those named; the
        other is enabled), as Stripe does when its requirements are not met: starting a
        payment for their listing then fails with `transaction-stripe-account-disabled-charges`,
        and paying them out with `transaction-stripe-account-disabled-payouts`."""
        with self._state.lock:
            account = account_of(self._state, user_id)
            if account is None:
                raise KeyError(f"user {user_id} has no Stripe account")
            data = dict(account.attributes.stripe_account_data or {})
            data["charges_enabled"] = not charges
            data["payouts_enabled"] = not payouts
            disabled = reason if charges or payouts else None
            data["requirements"] = {**data.get("requirements", {}), "disabled_reason": disabled}
            account.set(stripe_account_data=data)
            user = self._state.users[user_id]
            user.set(
                stripe_charges_enabled=data["charges_enabled"],
                stripe_payouts_enabled=data["payouts_enabled"],
            )


def serve(
    state: s.State, method: str, path: str, form: dict[str, str]
) -> tuple[int, dict[str, Any]]:
    """Stripe's API, the two calls of Stripe.js the web template's payment makes: the
    status and JSON body of the answer."""
    match = _PATH.fullmatch(path)
    intent = state.payment_intents.get(match[1]) if match is not None else None
    if match is None or intent is None:
        return 404, _error("invalid_request_error", "resource_missing", "No such payment_intent")
    if form.get("client_secret") != intent.client_secret:
        return 401, _error(
            "invalid_request_error", "payment_intent_invalid_parameter", "Wrong client secret"
        )
    if match[2] is None:
        if method != "GET":
            return 405, _error("invalid_request_error", "method_not_allowed", "GET only")
        return 200, intent.as_stripe()
    if method != "POST":
        return 405, _error("invalid_request_error", "method_not_allowed", "POST only")
    result = _confirm(intent, form.get("payment_method"))
    if "error" in result:
        return 402, {"error": result["error"]}
    return 200, result["paymentIntent"]


def _error(kind: str, code: str, message: str) -> dict[str, Any]:
    return {"error": {"type": kind, "code": code, "message": message}}
