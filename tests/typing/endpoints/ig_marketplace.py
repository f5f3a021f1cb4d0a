"""`marketplace` endpoints of the Integration API: typed parameters and answers."""

from flexclient import IntegrationClient
from flexclient.models import Marketplace

integ = IntegrationClient("id", "secret")

# Calls that pass, with the group's TypedDicts.
m: Marketplace = integ.marketplace.show().data.data

# A misspelled key, a value of the wrong type, a missing required key.
# [mypy] Extra key "field.marketplace" for TypedDict "MarketplaceShowParams"
# [pyright] "field.marketplace" is an undefined item in type "MarketplaceShowParams"
integ.marketplace.show({"field.marketplace": "name"})
# [mypy] TypedDict item "fields.marketplace" has type "Sequence[str] | str")
# [pyright] Type "Literal[1]" is not assignable to type "Fields"
integ.marketplace.show({"fields.marketplace": 1})
