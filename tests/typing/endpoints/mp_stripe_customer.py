"""`stripe_customer` endpoints of the Marketplace API: typed parameters and answers."""

import uuid

from flexclient import MarketplaceClient
from flexclient.models import StripeCustomer

sdk = MarketplaceClient("id")
ID = uuid.uuid4()

# Calls that pass, with the group's TypedDicts.
customer: StripeCustomer = sdk.stripe_customer.create(
    {"stripePaymentMethodId": "pm_1", "stripeCustomerEmail": "a@b.test"},
    {"expand": True, "include": ["defaultPaymentMethod"]},
).data.data
sdk.stripe_customer.add_payment_method({"stripePaymentMethodId": "pm_2"})
sdk.stripe_customer.delete_payment_method()
sdk.stripe_customer.delete()  # deletes the customer (parameters undocumented: none assumed)

# A misspelled key, a value of the wrong type, a missing required key.
# [mypy] Extra key "paymentMethodId" for TypedDict "StripeCustomerCreateParams"
# [pyright] "paymentMethodId" is an undefined item in type "StripeCustomerCreateParams"
sdk.stripe_customer.create({"paymentMethodId": "pm_1"})
# [mypy] TypedDict item "stripePaymentMethodId" has type "str")
# [pyright] "UUID" is not assignable to "str"
sdk.stripe_customer.add_payment_method({"stripePaymentMethodId": ID})
# [mypy] Missing key "stripePaymentMethodId" for TypedDict "StripeCustomerAddPaymentMethodParams"
# [pyright] "stripePaymentMethodId" is required in "StripeCustomerAddPaymentMethodParams"
sdk.stripe_customer.add_payment_method({})
