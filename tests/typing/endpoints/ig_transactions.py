"""`transactions` endpoints of the Integration API: typed parameters and answers."""

import uuid

from flexclient import IntegrationClient
from flexclient.models import Transaction

integ = IntegrationClient("id", "secret")
ID = uuid.uuid4()

# Calls that pass, with the group's TypedDicts.
txs: list[Transaction] = integ.transactions.query(
    {"customerId": ID, "providerId": ID, "processNames": ["default-booking"]}
).data.data
integ.transactions.show({"id": ID})
integ.transactions.transition({"id": ID, "transition": "transition/operator-cancel"})
integ.transactions.transition_speculative({"id": ID, "transition": "t"})
integ.transactions.update_metadata({"id": ID, "metadata": {"flagged": True}})

# A misspelled key, a value of the wrong type, a missing required key.
# [mypy] Extra key "meta" for TypedDict "TransactionsUpdateMetadataParams"
# [pyright] "meta" is an undefined item in type "TransactionsUpdateMetadataParams"
integ.transactions.update_metadata({"id": ID, "meta": {}})
# [mypy] TypedDict item "hasBooking" has type "bool")
# [pyright] "Literal['yes']" is not assignable to "bool"
integ.transactions.query({"hasBooking": "yes"})
# [mypy] Missing key "transition" for TypedDict "TransactionsTransitionParams"
# [pyright] "transition" is required in "TransactionsTransitionParams"
integ.transactions.transition({"id": ID})
