import uuid

from flexclient import IntegrationClient, MarketplaceClient, Money
from flexclient.models import Image, Listing, OwnListing, User

sdk = MarketplaceClient("id")
res = sdk.listings.query({"perPage": 5, "pub_color": "red", "include": ["author"]})
listing: Listing = res.data.data[0]
author: User = listing.author
image: Image | None = author.profile_image
images: list[Image] = listing.images
show = sdk.listings.show({"id": uuid.uuid4(), "fields.listing": "title", "imageVariant.x": "w:1"})
one: Listing = show.data.data
created = sdk.own_listings.create({"title": "Bike", "price": Money(5000, "USD")}, {"expand": True})
own: OwnListing = created.data.data
integ = IntegrationClient("id", "secret")
integ.listings.update({"id": uuid.uuid4(), "title": "New"}, {"expand": True})
integ.events.query({"startAfterSequenceId": 3, "eventTypes": ["listing/created"]})
sdk.timeslots.query({"listingId": uuid.uuid4(), "anything": 1})
