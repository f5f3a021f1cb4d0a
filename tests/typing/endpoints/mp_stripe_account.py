"""`stripe_account` endpoints of the Marketplace API: typed parameters and answers."""

from flexclient import MarketplaceClient
from flexclient.models import StripeAccount

sdk = MarketplaceClient("id")

# Calls that pass, with the group's TypedDicts.
account: StripeAccount = sdk.stripe_account.create(
    {
        "country": "FI",
        "accountToken": "ct_1",
        "requestedCapabilities": ["card_payments", "transfers"],
    },
    {"expand": True},
).data.data
sdk.stripe_account.fetch()
sdk.stripe_account.update({"bankAccountToken": "btok_1"})

# A misspelled key, a value of the wrong type, a missing required key.
# [mypy] Extra key "bankToken" for TypedDict "StripeAccountUpdateParams"
# [pyright] "bankToken" is an undefined item in type "StripeAccountUpdateParams"
sdk.stripe_account.update({"bankToken": "btok_1"})
# [mypy] TypedDict item "requestedCapabilities" has type "Sequence[str]")
# [pyright] "Literal[5]" is not assignable to "Sequence[str]"
sdk.stripe_account.create({"country": "FI", "requestedCapabilities": 5})
# [mypy] Missing key "country" for TypedDict "StripeAccountCreateParams"
# [pyright] "country" is required in "StripeAccountCreateParams"
sdk.stripe_account.create({"accountToken": "ct_1"})
