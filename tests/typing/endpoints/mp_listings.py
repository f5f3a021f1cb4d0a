"""`listings` endpoints of the Marketplace API: typed parameters and answers."""

import datetime as dt
import uuid

from flexclient import LatLng, LatLngBounds, MarketplaceClient
from flexclient.models import Listing

sdk = MarketplaceClient("id")
ID = uuid.uuid4()
NOW = dt.datetime.now(dt.UTC)

# Calls that pass, with the group's TypedDicts.
found: list[Listing] = sdk.listings.query(
    {"keywords": "bike", "origin": LatLng(60.1, 24.9), "perPage": 5}, custom={"pub_gears": "21"}
).data.data
sdk.listings.query(
    {
        "bounds": LatLngBounds(ne=LatLng(1, 1), sw=LatLng(0, 0)),
        "price": "1000,5000",
        "start": NOW,
        "end": NOW,
        "availability": "day-full",
        "seats": 2,
    }
)
sdk.listings.search(
    {"ids": [ID, str(ID)], "authorId": ID, "minStock": 1, "stockMode": "strict", "sort": "-price"}
)
one: Listing = sdk.listings.show(
    {"id": ID, "include": ["author.profileImage"], "fields.image": ["variants.square-small"]}
).data.data

# A misspelled key, a value of the wrong type, a missing required key.
# [mypy] Extra key "per_page" for TypedDict "ListingsQueryParams"
# [pyright] "per_page" is an undefined item in type "ListingsQueryParams"
sdk.listings.query({"per_page": 5})
# [mypy] TypedDict item "perPage" has type "int")
# [pyright] "Literal['5']" is not assignable to "int"
sdk.listings.query({"perPage": "5"})
# [mypy] TypedDict item "origin" has type "LatLng")
# [pyright] "Literal['60.1,24.9']" is not assignable to "LatLng"
sdk.listings.search({"origin": "60.1,24.9"})
# [mypy] Missing key "id" for TypedDict "ListingsShowParams"
# [pyright] "id" is required in "ListingsShowParams"
sdk.listings.show({"include": ["author"]})
