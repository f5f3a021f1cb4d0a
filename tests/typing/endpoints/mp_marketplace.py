"""`marketplace` endpoints of the Marketplace API: typed parameters and answers."""

from flexclient import MarketplaceClient
from flexclient.models import Marketplace

sdk = MarketplaceClient("id")

# Calls that pass, with the group's TypedDicts.
m: Marketplace = sdk.marketplace.show().data.data
sdk.marketplace.show({"fields.marketplace": ["name"]})

# A misspelled key, a value of the wrong type, a missing required key.
# [mypy] Extra key "fields.marketplaces" for TypedDict "MarketplaceShowParams"
# [pyright] "fields.marketplaces" is an undefined item in type "MarketplaceShowParams"
sdk.marketplace.show({"fields.marketplaces": ["name"]})
# [mypy] TypedDict item "include" has type "Sequence[str] | str")
# [pyright] Type "Literal[5]" is not assignable to type "Include"
sdk.marketplace.show({"include": 5})
