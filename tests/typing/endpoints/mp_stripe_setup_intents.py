"""`stripe_setup_intents` endpoints of the Marketplace API: typed parameters and answers."""

from flexclient import MarketplaceClient
from flexclient.models import StripeSetupIntent

sdk = MarketplaceClient("id")

# Calls that pass, with the group's TypedDicts.
intent: StripeSetupIntent = sdk.stripe_setup_intents.create({}, {"expand": True}).data.data
secret: str | None = sdk.stripe_setup_intents.create().data.data.attributes.client_secret

# A misspelled key, a value of the wrong type, a missing required key.
# [mypy] Extra key "customer" for TypedDict "StripeSetupIntentsCreateParams"
# [pyright] "customer" is an undefined item in type "StripeSetupIntentsCreateParams"
sdk.stripe_setup_intents.create({"customer": "cus_1"})
# [mypy] TypedDict item "expand" has type "bool")
# [pyright] "Literal['true']" is not assignable to "bool"
sdk.stripe_setup_intents.create({}, {"expand": "true"})
