"""`stripe_persons` endpoints of the Marketplace API: typed parameters and answers."""

from flexclient import MarketplaceClient
from flexclient.models import StripePerson

sdk = MarketplaceClient("id")

# Calls that pass, with the group's TypedDicts.
person: StripePerson = sdk.stripe_persons.create(
    {"personToken": "cpt_1"}, {"expand": True}
).data.data

# A misspelled key, a value of the wrong type, a missing required key.
# [mypy] Extra key "token" for TypedDict "StripePersonsCreateParams"
# [pyright] "token" is an undefined item in type "StripePersonsCreateParams"
sdk.stripe_persons.create({"personToken": "cpt_1", "token": "x"})
# [mypy] TypedDict item "personToken" has type "str")
# [pyright] "None" is not assignable to "str"
sdk.stripe_persons.create({"personToken": None})
# [mypy] Missing key "personToken" for TypedDict "StripePersonsCreateParams"
# [pyright] "personToken" is required in "StripePersonsCreateParams"
sdk.stripe_persons.create({})
