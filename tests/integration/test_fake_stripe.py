"""The Stripe endpoints of the fake, simulated from Stripe's test tokens with no network."""

from __future__ import annotations

import pytest

from flexclient import BadRequestError, MarketplaceClient, NotFoundError
from flexclient.testing import FakeMarketplace
from tests.integration.conftest import login


@pytest.fixture
def seller(fake_marketplace: FakeMarketplace) -> MarketplaceClient:
    return login(fake_marketplace, "seller@example.com")


def test_a_connected_account(seller: MarketplaceClient) -> None:
    with pytest.raises(NotFoundError):
        seller.stripe_account.fetch()
    with pytest.raises(BadRequestError):
        seller.stripe_account.create({"country": "FI", "accountToken": "not-a-token"})
    made = seller.stripe_account.create(
        {"country": "FI", "accountToken": "ct_123", "businessProfileMCC": "5734"},
        {"expand": True},
    ).data.data
    data = made.attributes.stripe_account_data or {}
    assert made.attributes.stripe_account_id and made.attributes.stripe_account_id.startswith(
        "acct_"
    )
    assert data["country"] == "FI" and data["business_profile"] == {"mcc": "5734"}
    assert data["requirements"]["currently_due"] == ["external_account"]
    me = seller.current_user.show({"include": ["stripeAccount"]}).data.data
    assert me.attributes.stripe_connected and not me.attributes.stripe_payouts_enabled
    assert me.stripe_account is not None and me.stripe_account.id == made.id
    seller.stripe_account.update({"bankAccountToken": "btok_123"})
    fetched = seller.stripe_account.fetch().data.data.attributes.stripe_account_data or {}
    assert fetched["payouts_enabled"] and fetched["requirements"]["currently_due"] == []
    link = seller.stripe_account_links.create(
        {
            "failureURL": "https://example.com/fail",
            "successURL": "https://example.com/ok",
            "type": "account_onboarding",
            "collectionOptions": {"fields": "currently_due"},
        }
    ).data.data
    assert link.attributes.url and link.attributes.expires_at is not None
    person = seller.stripe_persons.create({"personToken": "cpt_123"}, {"expand": True}).data.data
    assert (person.attributes.stripe_person_id or "").startswith("person_")
    with pytest.deprecated_call(match="current_user/delete_stripe_account is deprecated"):
        seller.current_user.delete_stripe_account()
    assert not seller.current_user.show().data.data.attributes.stripe_connected


def test_a_customer_and_payment_methods(seller: MarketplaceClient) -> None:
    intent = seller.stripe_setup_intents.create().data.data
    assert (intent.attributes.client_secret or "").startswith(
        intent.attributes.stripe_setup_intent_id or "-"
    )
    customer = seller.stripe_customer.create(
        {"stripePaymentMethodId": "pm_card_mastercard"},
        {"expand": True, "include": ["defaultPaymentMethod"]},
    ).data.data
    method = customer.default_payment_method
    assert method is not None and method.attributes.type == "stripe-payment-method/card"
    assert method.attributes.card is not None
    assert (method.attributes.card.brand, method.attributes.card.last4_digits) == (
        "mastercard",
        "4444",
    )
    swapped = seller.stripe_customer.add_payment_method(
        {"stripePaymentMethodId": "pm_card_visa"},
        {"expand": True, "include": ["defaultPaymentMethod"]},
    ).data.data
    assert swapped.default_payment_method is not None
    me = seller.current_user.show({"include": ["stripeCustomer"]}).data.data
    assert me.stripe_customer is not None and me.stripe_customer.id == customer.id
    emptied = seller.stripe_customer.delete_payment_method(
        {}, {"expand": True, "include": ["defaultPaymentMethod"]}
    ).data.data
    assert emptied.default_payment_method is None
    deleted = seller.stripe_customer.delete({}, {"expand": True}).data.data
    assert deleted.id == customer.id
    me = seller.current_user.show({"include": ["stripeCustomer"]}).data.data
    assert me.stripe_customer is None
    with pytest.raises(NotFoundError):
        seller.stripe_customer.delete()
    again = seller.stripe_customer.create({}, {"expand": True}).data.data
    assert again.id != customer.id
