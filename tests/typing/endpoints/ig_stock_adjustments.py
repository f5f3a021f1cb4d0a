"""`stock_adjustments` endpoints of the Integration API: typed parameters and answers."""

import datetime as dt
import uuid

from flexclient import IntegrationClient
from flexclient.models import StockAdjustment

integ = IntegrationClient("id", "secret")
ID = uuid.uuid4()
NOW = dt.datetime.now(dt.UTC)

# Calls that pass, with the group's TypedDicts.
adjustments: list[StockAdjustment] = integ.stock_adjustments.query(
    {"listingId": ID, "start": NOW, "end": NOW}
).data.data
integ.stock_adjustments.create({"listingId": ID, "quantity": 5})

# A misspelled key, a value of the wrong type, a missing required key.
# [mypy] Missing key "listingId" for TypedDict "StockAdjustmentsQueryParams"
# [mypy] Extra key "listing" for TypedDict "StockAdjustmentsQueryParams"
# [pyright] "listing" is an undefined item in type "StockAdjustmentsQueryParams"
integ.stock_adjustments.query({"listing": ID, "start": NOW, "end": NOW})
# [mypy] TypedDict item "quantity" has type "int")
# [pyright] "None" is not assignable to "int"
integ.stock_adjustments.create({"listingId": ID, "quantity": None})
# [mypy] Missing key "listingId" for TypedDict "StockAdjustmentsCreateParams"
# [pyright] "listingId" is required in "StockAdjustmentsCreateParams"
integ.stock_adjustments.create({"quantity": 5})
