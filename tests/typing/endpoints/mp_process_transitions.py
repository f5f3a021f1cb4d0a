"""`process_transitions` endpoints of the Marketplace API: typed parameters and answers."""

import uuid

from flexclient import MarketplaceClient
from flexclient.models import ProcessTransition

sdk = MarketplaceClient("id")
ID = uuid.uuid4()

# Calls that pass, with the group's TypedDicts.
steps: list[ProcessTransition] = sdk.process_transitions.query({"transactionId": ID}).data.data
sdk.process_transitions.query({"processAlias": "p/1", "lastTransition": "t"})

# A misspelled key, a value of the wrong type, a missing required key.
# [mypy] Extra key "transaction_id" for TypedDict "ProcessTransitionsQueryParams"
# [pyright] "transaction_id" is an undefined item in type "ProcessTransitionsQueryParams"
sdk.process_transitions.query({"transaction_id": ID})
# [mypy] TypedDict item "processAlias" has type "str")
# [pyright] "Literal[1]" is not assignable to "str"
sdk.process_transitions.query({"processAlias": 1})
