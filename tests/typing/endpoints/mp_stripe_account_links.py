"""`stripe_account_links` endpoints of the Marketplace API: typed parameters and answers."""

from flexclient import MarketplaceClient
from flexclient.models import StripeAccountLink

sdk = MarketplaceClient("id")

# Calls that pass, with the group's TypedDicts.
link: StripeAccountLink = sdk.stripe_account_links.create(
    {
        "failureURL": "https://a.test/f",
        "successURL": "https://a.test/s",
        "type": "account_onboarding",
        "collect": "currently_due",
    },
    {"expand": True},
).data.data

# A misspelled key, a value of the wrong type, a missing required key.
# [mypy] Missing key "failureURL" for TypedDict "StripeAccountLinksCreateParams"
# [mypy] Extra key "failureUrl" for TypedDict "StripeAccountLinksCreateParams"
# [pyright] "failureUrl" is an undefined item in type "StripeAccountLinksCreateParams"
sdk.stripe_account_links.create({"failureUrl": "f", "successURL": "s", "type": "account_update"})
# [mypy] TypedDict item "type" has type "str")
# [pyright] "Literal[1]" is not assignable to "str"
sdk.stripe_account_links.create({"failureURL": "f", "successURL": "s", "type": 1})
# [mypy] Missing key "type" for TypedDict "StripeAccountLinksCreateParams"
# [pyright] "type" is required in "StripeAccountLinksCreateParams"
sdk.stripe_account_links.create({"failureURL": "f", "successURL": "s"})
