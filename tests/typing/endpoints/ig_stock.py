"""`stock` endpoints of the Integration API: typed parameters and answers."""

import uuid

from flexclient import IntegrationClient
from flexclient.models import Stock

integ = IntegrationClient("id", "secret")
ID = uuid.uuid4()

# Calls that pass, with the group's TypedDicts.
stock: Stock = integ.stock.compare_and_set(
    {"listingId": ID, "oldTotal": 3, "newTotal": 5}
).data.data

# A misspelled key, a value of the wrong type, a missing required key.
# [mypy] Missing key "oldTotal" for TypedDict "StockCompareAndSetParams"
# [mypy] Extra key "old" for TypedDict "StockCompareAndSetParams"
# [pyright] "old" is an undefined item in type "StockCompareAndSetParams"
integ.stock.compare_and_set({"listingId": ID, "old": 3, "newTotal": 5})
# [mypy] TypedDict item "oldTotal" has type "int | str | None")
# [pyright] Type "list[int]" is not assignable to type "int | IntegerText | None"
integ.stock.compare_and_set({"listingId": ID, "oldTotal": [3], "newTotal": 5})
# [mypy] Missing key "listingId" for TypedDict "StockCompareAndSetParams"
# [pyright] "listingId" is required in "StockCompareAndSetParams"
integ.stock.compare_and_set({"oldTotal": 3, "newTotal": 5})
