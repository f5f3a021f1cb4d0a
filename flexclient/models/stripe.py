"""Stripe resources of the Marketplace API: accounts and their links and persons, setup
intents, customers and their payment methods.

The Stripe objects themselves stay Stripe's: `stripe_account_data` is Stripe's Account object
as the API passes it on, kept as a dict.
"""

from __future__ import annotations

import datetime as dt
from typing import Any, ClassVar

from pydantic import Field

from flexclient.models._relations import ToOneOrNone
from flexclient.models._resource import Attributes, Resource, WireModel


class StripeAccountAttributes(Attributes):
    stripe_account_id: str | None = None
    stripe_account_data: dict[str, Any] | None = None


class StripeAccount(Resource):
    """The logged-in user's Stripe Connect account (`stripe_account.*`)."""

    resource_type: ClassVar[str | None] = "stripeAccount"
    attributes: StripeAccountAttributes = Field(default_factory=StripeAccountAttributes)


class StripeAccountLinkAttributes(Attributes):
    url: str | None = None
    expires_at: dt.datetime | None = None


class StripeAccountLink(Resource):
    """A Stripe onboarding or update page for the account (`stripe_account_links.create`)."""

    resource_type: ClassVar[str | None] = "stripeAccountLink"
    attributes: StripeAccountLinkAttributes = Field(default_factory=StripeAccountLinkAttributes)


class StripePersonAttributes(Attributes):
    stripe_person_id: str | None = None


class StripePerson(Resource):
    """A person of a company's Stripe account (`stripe_persons.create`)."""

    resource_type: ClassVar[str | None] = "stripePerson"
    attributes: StripePersonAttributes = Field(default_factory=StripePersonAttributes)


class StripeSetupIntentAttributes(Attributes):
    stripe_setup_intent_id: str | None = None
    client_secret: str | None = None


class StripeSetupIntent(Resource):
    """A Stripe SetupIntent, to save a card for later (`stripe_setup_intents.create`)."""

    resource_type: ClassVar[str | None] = "stripeSetupIntent"
    attributes: StripeSetupIntentAttributes = Field(default_factory=StripeSetupIntentAttributes)


class StripeCard(WireModel):
    """The card of a payment method, as much of it as the API shows."""

    brand: str | None = None
    expiration_month: int | None = None
    expiration_year: int | None = None
    last4_digits: str | None = None


class StripePaymentMethodAttributes(Attributes):
    """`type` is open-ended; `stripe-payment-method/card` is known."""

    type: str | None = None
    stripe_payment_method_id: str | None = None
    card: StripeCard | None = None


class StripePaymentMethod(Resource):
    """A saved payment method (`defaultPaymentMethod` of a Stripe customer)."""

    resource_type: ClassVar[str | None] = "stripePaymentMethod"
    attributes: StripePaymentMethodAttributes = Field(default_factory=StripePaymentMethodAttributes)


class StripeCustomerAttributes(Attributes):
    stripe_customer_id: str | None = None


class StripeCustomer(Resource):
    """The logged-in user as a Stripe customer (`stripe_customer.*`); include
    `defaultPaymentMethod` to read its saved payment method."""

    resource_type: ClassVar[str | None] = "stripeCustomer"
    attributes: StripeCustomerAttributes = Field(default_factory=StripeCustomerAttributes)

    default_payment_method: ClassVar[ToOneOrNone[StripePaymentMethod]] = ToOneOrNone(
        "defaultPaymentMethod"
    )
