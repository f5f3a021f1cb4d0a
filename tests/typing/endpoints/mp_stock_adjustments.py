"""`stock_adjustments` endpoints of the Marketplace API: typed parameters and answers."""

import datetime as dt
import uuid

from flexclient import MarketplaceClient
from flexclient.models import StockAdjustment

sdk = MarketplaceClient("id")
ID = uuid.uuid4()
NOW = dt.datetime.now(dt.UTC)

# Calls that pass, with the group's TypedDicts.
adjustments: list[StockAdjustment] = sdk.stock_adjustments.query(
    {"listingId": ID, "start": NOW, "end": NOW}
).data.data
sdk.stock_adjustments.create({"listingId": ID, "quantity": -2}, {"expand": True})

# A misspelled key, a value of the wrong type, a missing required key.
# [mypy] Missing key "quantity" for TypedDict "StockAdjustmentsCreateParams"
# [mypy] Extra key "amount" for TypedDict "StockAdjustmentsCreateParams"
# [pyright] "amount" is an undefined item in type "StockAdjustmentsCreateParams"
sdk.stock_adjustments.create({"listingId": ID, "amount": 2})
# [mypy] TypedDict item "quantity" has type "int")
# [pyright] "Literal['2']" is not assignable to "int"
sdk.stock_adjustments.create({"listingId": ID, "quantity": "2"})
# [mypy] Missing key "end" for TypedDict "StockAdjustmentsQueryParams"
# [pyright] "end" is required in "StockAdjustmentsQueryParams"
sdk.stock_adjustments.query({"listingId": ID, "start": NOW})
