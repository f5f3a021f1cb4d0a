"""`transactions` endpoints of the Marketplace API: typed parameters and answers."""

import datetime as dt
import uuid

from flexclient import MarketplaceClient
from flexclient.models import Transaction

sdk = MarketplaceClient("id")
ID = uuid.uuid4()
NOW = dt.datetime.now(dt.UTC)

# Calls that pass, with the group's TypedDicts.
tx: Transaction = sdk.transactions.initiate(
    {
        "processAlias": "default-booking/release-1",
        "transition": "transition/request-payment",
        "params": {"listingId": ID, "bookingStart": NOW},
    },
    {"expand": True},
).data.data
sdk.transactions.initiate_speculative(
    {"processAlias": "p/1", "transition": "t", "params": {"listingId": ID}}
)
sdk.transactions.transition({"id": tx.id, "transition": "transition/accept"})
sdk.transactions.transition_speculative({"id": tx.id, "transition": "t", "params": {}})
sdk.transactions.query(
    {"only": "sale", "lastTransitions": ["transition/accept"], "hasBooking": True},
    custom={"meta_tag": "x"},
)
sdk.transactions.show({"id": tx.id, "include": ["listing", "provider", "customer"]})

# A misspelled key, a value of the wrong type, a missing required key.
# [mypy] Missing key "transition" for TypedDict "TransactionsTransitionParams"
# [mypy] Extra key "transtion" for TypedDict "TransactionsTransitionParams"
# [pyright] "transtion" is an undefined item in type "TransactionsTransitionParams"
sdk.transactions.transition({"id": ID, "transtion": "t"})
# [mypy] TypedDict item "only" has type "Literal['sale', 'order']")
# [pyright] Type "Literal['purchases']" is not assignable to type "Literal['sale', 'order']"
sdk.transactions.query({"only": "purchases"})
# [mypy] Missing key "transition" for TypedDict "TransactionsInitiateParams"
# [pyright] "transition" is required in "TransactionsInitiateParams"
sdk.transactions.initiate({"processAlias": "p/1"})
