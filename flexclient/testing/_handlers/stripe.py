"""The Stripe endpoints: accounts, account links, persons, setup intents, customers and their
payment methods, simulated from Stripe's test tokens (see `flexclient.testing._stripe`)."""

from __future__ import annotations

import datetime as dt
from typing import Any

from flexclient._endpoints.table import MarketplaceEndpoints as Market
from flexclient.models import CurrentUserAttributes
from flexclient.testing import _state as s
from flexclient.testing._call import ApiFailure, Call, invalid, not_found
from flexclient.testing._routes import handles
from flexclient.testing._stripe import accounts

LINK_LIFETIME = dt.timedelta(minutes=5)
User = s.Record[CurrentUserAttributes]


def _token(c: Call, name: str, prefixes: tuple[str, ...], *, required: bool = False) -> str | None:
    token = c.body_value(name, str, required=required)
    if token is not None and not token.startswith(prefixes):
        raise invalid("body", name, f"not a Stripe token ({' or '.join(prefixes)}...)")
    return token


def _business(c: Call, current: dict[str, Any] | None = None) -> dict[str, Any]:
    business = dict(current or {})
    for key, field in (
        ("businessProfileMCC", "mcc"),
        ("businessProfileURL", "url"),
        ("businessProfileProductDescription", "product_description"),
    ):
        if key in c.body:
            business[field] = c.body[key]
    return business


def _own_account(c: Call) -> s.Record[Any]:
    account = accounts.account_of(c.state, c.user().id)
    if account is None:
        raise not_found("Stripe account")
    return account


def _connect(c: Call, me: User, *, required: bool) -> s.Record[Any]:
    if accounts.account_of(c.state, me.id) is not None:
        raise ApiFailure(409, "stripe-account-already-exists", "The user has a Stripe account")
    country = c.body_value("country", str, required=True) or ""
    _token(c, "accountToken", accounts.ACCOUNT_TOKEN_PREFIXES, required=required)
    bank = _token(c, "bankAccountToken", accounts.BANK_TOKEN_PREFIXES)
    account_id = accounts.stripe_id("acct")
    data = accounts.account_data(account_id, country, _business(c), bank is not None)
    account = s.add(
        c.state, "stripeAccount", {"stripeAccountId": account_id, "stripeAccountData": data}
    )
    before = c.snapshot(me)
    me.link("stripeAccount", "stripeAccount", account.id)
    _enabled(me, data)
    c.emit("user/updated", me, before)
    return account


def _enabled(me: User, data: dict[str, Any] | None) -> None:
    me.set(
        stripe_connected=data is not None,
        stripe_charges_enabled=bool(data and data["charges_enabled"]),
        stripe_payouts_enabled=bool(data and data["payouts_enabled"]),
    )


def _update(c: Call, account: s.Record[Any], me: User) -> None:
    data = dict(account.attributes.stripe_account_data or {})
    _token(c, "accountToken", accounts.ACCOUNT_TOKEN_PREFIXES)
    if _token(c, "bankAccountToken", accounts.BANK_TOKEN_PREFIXES) is not None:
        fresh = accounts.account_data(data["id"], data["country"], {}, True)
        data.update(payouts_enabled=True, external_accounts=fresh["external_accounts"])
        data["requirements"] = fresh["requirements"]
    data["business_profile"] = _business(c, data.get("business_profile"))
    account.set(stripe_account_data=data)
    _enabled(me, data)


@handles(Market.stripe_account.cls.create)
def account_create(c: Call) -> dict[str, Any]:
    return c.one(_connect(c, c.user(), required=True))


@handles(Market.stripe_account.cls.fetch)
def account_fetch(c: Call) -> dict[str, Any]:
    return c.one(_own_account(c))


@handles(Market.stripe_account.cls.update)
def account_update(c: Call) -> dict[str, Any]:
    account = _own_account(c)
    _update(c, account, c.user())
    return c.one(account)


# The older endpoints that do the same through the current user (and answer it).


@handles(Market.current_user.cls.create_stripe_account)
def current_user_create_stripe_account(c: Call) -> dict[str, Any]:
    me = c.user()
    _connect(c, me, required=False)
    return c.one(me)


@handles(Market.current_user.cls.update_stripe_account)
def current_user_update_stripe_account(c: Call) -> dict[str, Any]:
    me = c.user()
    _update(c, _own_account(c), me)
    return c.one(me)


@handles(Market.current_user.cls.delete_stripe_account)
def current_user_delete_stripe_account(c: Call) -> dict[str, Any]:
    me = c.user()
    account = _own_account(c)
    before = c.snapshot(me)
    del c.state.table("stripeAccount")[account.id]
    me.link("stripeAccount", "stripeAccount", None)
    _enabled(me, None)
    c.emit("user/updated", me, before)
    return c.one(me)


@handles(Market.stripe_account_links.cls.create)
def account_link_create(c: Call) -> dict[str, Any]:
    account = _own_account(c)
    for key in ("failureURL", "successURL", "type"):
        c.body_value(key, str, required=True)
    url = f"https://connect.stripe.com/setup/c/{account.attributes.stripe_account_id}/fake"
    expires = c.state.time() + LINK_LIFETIME
    return c.one(
        s.add(c.state, "stripeAccountLink", {"url": url, "expiresAt": expires}), whole=True
    )


@handles(Market.stripe_persons.cls.create)
def person_create(c: Call) -> dict[str, Any]:
    _own_account(c)
    _token(c, "personToken", accounts.PERSON_TOKEN_PREFIXES, required=True)
    return c.one(s.add(c.state, "stripePerson", {"stripePersonId": accounts.stripe_id("person")}))


@handles(Market.stripe_setup_intents.cls.create)
def setup_intent_create(c: Call) -> dict[str, Any]:
    c.user()
    intent = accounts.stripe_id("seti")
    secret = f"{intent}_secret_{accounts.stripe_id('s')[2:]}"
    values = {"stripeSetupIntentId": intent, "clientSecret": secret}
    return c.one(s.add(c.state, "stripeSetupIntent", values), whole=True)


def _payment_method(c: Call, customer: s.Record[Any], method: str) -> None:
    if not method.startswith("pm_"):
        raise invalid("body", "stripePaymentMethodId", "not a Stripe payment method (pm_...)")
    values = {
        "type": "stripe-payment-method/card",
        "stripePaymentMethodId": method,
        "card": accounts.card(method),
    }
    made = s.add(c.state, "stripePaymentMethod", values)
    old = customer.one("defaultPaymentMethod")
    if old is not None:
        c.state.table("stripePaymentMethod").pop(old, None)
    customer.link("defaultPaymentMethod", "stripePaymentMethod", made.id)


@handles(Market.stripe_customer.cls.create)
def customer_create(c: Call) -> dict[str, Any]:
    me = c.user()
    if accounts.customer_of(c.state, me.id) is not None:
        raise ApiFailure(409, "stripe-customer-already-exists", "The user has a Stripe customer")
    c.body_value("stripeCustomerEmail", str)
    customer = s.add(c.state, "stripeCustomer", {"stripeCustomerId": accounts.stripe_id("cus")})
    customer.link("defaultPaymentMethod", "stripePaymentMethod", None)
    method = c.body_value("stripePaymentMethodId", str)
    if method is not None:
        _payment_method(c, customer, method)
    me.link("stripeCustomer", "stripeCustomer", customer.id)
    return c.one(customer)


def _own_customer(c: Call) -> s.Record[Any]:
    customer = accounts.customer_of(c.state, c.user().id)
    if customer is None:
        raise not_found("Stripe customer")
    return customer


@handles(Market.stripe_customer.cls.add_payment_method)
def customer_add_payment_method(c: Call) -> dict[str, Any]:
    customer = _own_customer(c)
    _payment_method(c, customer, c.body_value("stripePaymentMethodId", str, required=True) or "")
    return c.one(customer)


@handles(Market.stripe_customer.cls.delete_payment_method)
def customer_delete_payment_method(c: Call) -> dict[str, Any]:
    customer = _own_customer(c)
    old = customer.one("defaultPaymentMethod")
    if old is not None:
        c.state.table("stripePaymentMethod").pop(old, None)
    customer.link("defaultPaymentMethod", "stripePaymentMethod", None)
    return c.one(customer)


@handles(Market.stripe_customer.cls.delete)
def customer_delete(c: Call) -> dict[str, Any]:
    # Undocumented: assumed to remove the customer and its payment method and to answer the
    # customer, as `delete_payment_method` answers it.
    me = c.user()
    customer = _own_customer(c)
    answer = c.one(customer)
    old = customer.one("defaultPaymentMethod")
    if old is not None:
        c.state.table("stripePaymentMethod").pop(old, None)
    del c.state.table("stripeCustomer")[customer.id]
    me.link("stripeCustomer", "stripeCustomer", None)
    return answer
