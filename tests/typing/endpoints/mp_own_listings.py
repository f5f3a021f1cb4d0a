"""`own_listings` endpoints of the Marketplace API: typed parameters and answers."""

import uuid

from flexclient import LatLng, MarketplaceClient, Money
from flexclient.models import OwnListing

sdk = MarketplaceClient("id")
ID = uuid.uuid4()

# Calls that pass, with the group's TypedDicts.
mine: OwnListing = sdk.own_listings.show({"id": ID}).data.data
sdk.own_listings.query({"perPage": 10, "include": ["images"]})
sdk.own_listings.query({"states": ["published", "closed"]})
sdk.own_listings.query({"states": "draft"})
sdk.own_listings.create(
    {
        "title": "Bike",
        "price": Money(5000, "EUR"),
        "geolocation": LatLng(1, 2),
        "images": [ID],
        "publicData": {"gears": 21},
    },
    {"expand": True},
)
sdk.own_listings.create({"title": "Bike", "protectedFileAttachments": [{"fileId": ID}]})
sdk.own_listings.create_draft(
    {
        "title": "Draft",
        "availabilityPlan": {
            "type": "availability-plan/day",
            "entries": [{"dayOfWeek": "mon", "seats": 1}],
        },
    }
)
sdk.own_listings.publish_draft({"id": ID}, {"expand": True})
sdk.own_listings.discard_draft({"id": ID})
sdk.own_listings.update({"id": ID, "title": "New", "price": None})
sdk.own_listings.update({"id": ID, "protectedFileAttachments": [{"fileId": ID}]})
sdk.own_listings.open({"id": ID})
sdk.own_listings.close({"id": str(ID)})
sdk.own_listings.add_image({"id": ID, "imageId": ID})

# A misspelled key, a value of the wrong type, a missing required key.
# [mypy] Extra key "privateDate" for TypedDict "OwnListingsCreateParams"
# [pyright] "privateDate" is an undefined item in type "OwnListingsCreateParams"
sdk.own_listings.create({"title": "Bike", "privateDate": {}})
# [mypy] TypedDict item "price" has type "Money | None")
# [pyright] Type "Literal[5000]" is not assignable to type "Money | None"
sdk.own_listings.create({"title": "Bike", "price": 5000})
# [mypy] Missing key "title" for TypedDict "OwnListingsCreateParams"
# [pyright] "title" is required in "OwnListingsCreateParams"
sdk.own_listings.create({"description": "no title"})
# [mypy] TypedDict item "states" has type "Sequence[Literal['draft', 'pendingApproval',
# [pyright] "Literal['pubished']" is not assignable to "Sequence[ListingState]"
sdk.own_listings.query({"states": "pubished"})
# [mypy] Missing key "imageId" for TypedDict "OwnListingsAddImageParams"
# [pyright] "imageId" is required in "OwnListingsAddImageParams"
sdk.own_listings.add_image({"id": ID})
