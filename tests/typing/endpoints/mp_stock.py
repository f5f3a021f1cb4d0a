"""`stock` endpoints of the Marketplace API: typed parameters and answers."""

import uuid

from flexclient import MarketplaceClient
from flexclient.models import Stock

sdk = MarketplaceClient("id")
ID = uuid.uuid4()

# Calls that pass, with the group's TypedDicts.
stock: Stock = sdk.stock.compare_and_set(
    {"listingId": ID, "oldTotal": None, "newTotal": 3}, {"expand": True}
).data.data
# A total as an integer's text, as the web template sends its form's value.
sdk.stock.compare_and_set({"listingId": ID, "oldTotal": "2", "newTotal": "3"})

# A misspelled key, a value of the wrong type, a missing required key.
# [mypy] Missing key "newTotal" for TypedDict "StockCompareAndSetParams"
# [mypy] Extra key "newtotal" for TypedDict "StockCompareAndSetParams"
# [pyright] "newtotal" is an undefined item in type "StockCompareAndSetParams"
sdk.stock.compare_and_set({"listingId": ID, "oldTotal": 1, "newtotal": 3})
# [mypy] TypedDict item "newTotal" has type "int | str")
# [pyright] "float" is not assignable to "int"
sdk.stock.compare_and_set({"listingId": ID, "oldTotal": 1, "newTotal": 3.5})
# [mypy] Missing key "oldTotal" for TypedDict "StockCompareAndSetParams"
# [pyright] "oldTotal" is required in "StockCompareAndSetParams"
sdk.stock.compare_and_set({"listingId": ID, "newTotal": 3})
