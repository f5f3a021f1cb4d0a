"""Stripe, simulated: the accounts, persons, customers, payment methods and setup intents the
API keeps for users, made from Stripe's test tokens with no network.

Tokens are what Stripe.js would give a browser: an account token (`ct_...`), a bank account
token (`btok_...`), a person token (`cpt_...`) and payment method IDs. The payment methods of
Stripe's test cards are known by their IDs (`pm_card_visa`, `pm_card_mastercard`, ...); a
payment with `pm_card_chargeDeclined` (or another declined test card, also by its number,
4000000000000002) is declined as Stripe declines it. Payment intents: `payment_intents`.
"""

from __future__ import annotations

import secrets
import uuid
from typing import Any

from flexclient.testing import _state as s

ACCOUNT_TOKEN_PREFIXES = ("ct_", "tok_")
BANK_TOKEN_PREFIXES = ("btok_", "tok_")
PERSON_TOKEN_PREFIXES = ("cpt_", "tok_")
# Stripe's test payment methods: brand and last four digits.
TEST_CARDS: dict[str, tuple[str, str]] = {
    "pm_card_visa": ("visa", "4242"),
    "pm_card_visa_debit": ("visa", "5556"),
    "pm_card_mastercard": ("mastercard", "4444"),
    "pm_card_amex": ("amex", "8431"),
    "pm_card_discover": ("discover", "1117"),
    "pm_card_chargeDeclined": ("visa", "0002"),
    "pm_card_chargeDeclinedInsufficientFunds": ("visa", "9995"),
    "pm_card_chargeDeclinedExpiredCard": ("visa", "0069"),
}


def stripe_id(prefix: str) -> str:
    return f"{prefix}_{secrets.token_hex(12)}"


def account_of(state: s.State, user_id: uuid.UUID | None) -> s.Record[Any] | None:
    user = state.users.get(user_id) if user_id is not None else None
    if user is None:
        return None
    return state.table("stripeAccount").get(user.one("stripeAccount") or uuid.UUID(int=0))


def customer_of(state: s.State, user_id: uuid.UUID) -> s.Record[Any] | None:
    user = state.users.get(user_id)
    if user is None:
        return None
    return state.table("stripeCustomer").get(user.one("stripeCustomer") or uuid.UUID(int=0))


# Stripe's declining test cards, by payment method and by card number: the decline code and
# the message Stripe gives.
_DECLINES: dict[str, tuple[str, str]] = {
    "pm_card_chargeDeclined": ("generic_decline", "Your card was declined."),
    "4000000000000002": ("generic_decline", "Your card was declined."),
    "pm_card_chargeDeclinedInsufficientFunds": (
        "insufficient_funds",
        "Your card has insufficient funds.",
    ),
    "4000000000009995": ("insufficient_funds", "Your card has insufficient funds."),
    "pm_card_chargeDeclinedExpiredCard": ("expired_card", "Your card has expired."),
    "4000000000000069": ("expired_card", "Your card has expired."),
}


def decline_of(method: str) -> tuple[str, str] | None:
    """The decline code and message of a payment method (or test card number) that Stripe
    declines, None for one it charges."""
    found = _DECLINES.get(method.replace(" ", ""))
    if found is None and method.startswith("pm_card_chargeDeclined"):
        return "generic_decline", "Your card was declined."
    return found


def card(method: str) -> dict[str, Any]:
    """The card of a payment method, as the API's `stripePaymentMethod` describes it."""
    brand, last4 = TEST_CARDS.get(method, ("visa", "4242"))
    return {"brand": brand, "last4Digits": last4, "expirationMonth": 12, "expirationYear": 2034}


def account_data(
    account_id: str, country: str, business: dict[str, Any], has_bank_account: bool
) -> dict[str, Any]:
    """What the API's `stripeAccountData` holds: Stripe's Account object, in part."""
    return {
        "id": account_id,
        "object": "account",
        "country": country,
        "type": "custom",
        "charges_enabled": True,
        "payouts_enabled": has_bank_account,
        "details_submitted": True,
        "business_profile": business,
        "capabilities": {"card_payments": "active", "transfers": "active"},
        "requirements": {
            "currently_due": [] if has_bank_account else ["external_account"],
            "eventually_due": [],
            "past_due": [],
            "disabled_reason": None,
        },
        "external_accounts": {
            "object": "list",
            "data": [{"object": "bank_account", "last4": "6789", "country": country}]
            if has_bank_account
            else [],
        },
    }
