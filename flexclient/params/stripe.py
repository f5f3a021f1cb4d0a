"""Parameters of the Stripe endpoints of the Marketplace API. Tokens and IDs are Stripe's
(`tok_...`, `pm_...`), made with Stripe's own client libraries."""

from collections.abc import Sequence
from typing import Required, TypedDict

from flexclient.params._common import QueryOptions


class _StripeAccountFields(TypedDict, total=False):
    accountToken: str
    bankAccountToken: str
    businessProfileMCC: str
    businessProfileURL: str
    businessProfileProductDescription: str
    requestedCapabilities: Sequence[str]


class StripeAccountCreateParams(_StripeAccountFields, total=False):
    """`stripe_account.create`: a Stripe Connect account in `country` (`"US"`);
    `requestedCapabilities` such as `card_payments`, `transfers`."""

    country: Required[str]


class StripeAccountFetchParams(QueryOptions, total=False):
    """`stripe_account.fetch`: no parameters of its own."""


class StripeAccountUpdateParams(_StripeAccountFields, total=False):
    """`stripe_account.update`."""


class StripeAccountLinksCreateParams(TypedDict, total=False):
    """`stripe_account_links.create`: a Stripe page to fill in the account. `type` is
    Stripe's (`account_onboarding`, `account_update`); what to collect is given as `collect`
    (`currently_due`, `eventually_due`) or, in newer versions of the API, as
    `collectionOptions` (Stripe's `{"fields": ..., "future_requirements": ...}`)."""

    failureURL: Required[str]
    successURL: Required[str]
    type: Required[str]
    collect: str
    collectionOptions: dict[str, object]


class StripePersonsCreateParams(TypedDict):
    """`stripe_persons.create`: a person of the account's company, from a Stripe person
    token."""

    personToken: str


class StripeSetupIntentsCreateParams(TypedDict, total=False):
    """`stripe_setup_intents.create`: no parameters."""


class StripeCustomerCreateParams(TypedDict, total=False):
    """`stripe_customer.create`: the logged-in user as a Stripe customer, optionally with a
    payment method and an email for Stripe."""

    stripePaymentMethodId: str
    stripeCustomerEmail: str


class StripeCustomerAddPaymentMethodParams(TypedDict):
    """`stripe_customer.add_payment_method`: the customer's default payment method."""

    stripePaymentMethodId: str


class StripeCustomerDeletePaymentMethodParams(TypedDict, total=False):
    """`stripe_customer.delete_payment_method`: no parameters."""


class StripeCustomerDeleteParams(TypedDict, total=False):
    """`stripe_customer.delete`: no parameters. The endpoint is in Sharetribe's API credit
    usage reference (a Standard write) but its parameters are documented nowhere we could
    read: none are assumed, as for `delete_payment_method`."""
