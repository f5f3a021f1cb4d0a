"""`reviews` endpoints of the Marketplace API: typed parameters and answers."""

import uuid

from flexclient import MarketplaceClient
from flexclient.models import Review

sdk = MarketplaceClient("id")
ID = uuid.uuid4()

# Calls that pass, with the group's TypedDicts.
reviews: list[Review] = sdk.reviews.query(
    {"listingId": ID, "type": "ofProvider", "state": "public"}
).data.data
review: Review = sdk.reviews.show({"id": ID, "include": ["author"]}).data.data

# A misspelled key, a value of the wrong type, a missing required key.
# [mypy] Extra key "subject" for TypedDict "ReviewsQueryParams"
# [pyright] "subject" is an undefined item in type "ReviewsQueryParams"
sdk.reviews.query({"subject": ID})
# [mypy] TypedDict item "perPage" has type "int")
# [pyright] "float" is not assignable to "int"
sdk.reviews.query({"perPage": 1.5})
# [mypy] Missing key "id" for TypedDict "ReviewsShowParams"
# [pyright] "id" is required in "ReviewsShowParams"
sdk.reviews.show({"include": ["author"]})
