"""The README's tour, as it type-checks: custom keys in `custom=`."""

import uuid

from flexclient import IntegrationClient, LatLng, MarketplaceClient, Money, NotFoundError
from flexclient.models import Image, Listing, User

sdk = MarketplaceClient("CLIENT_ID")
res = sdk.listings.query(
    {"perPage": 5, "include": ["author", "images"]}, custom={"pub_category": "road"}
)
status: int = res.status
page = res.data
total: int | None = page.meta.total_items
listing: Listing = page.data[0]
title: str | None = listing.attributes.title
price: Money | None = listing.attributes.price
name: str | None = listing.author.attributes.profile.display_name
url: str | None = listing.images[0].attributes.variants["square-small"].url
anything = listing.related("author")

sdk.login(username="jane@example.com", password="...")
created = sdk.own_listings.create(
    {"title": "Bike", "price": Money(5000, "USD"), "geolocation": LatLng(60.16, 24.93)},
    {"expand": True},
)
sdk.images.upload(
    {"image": "photo.jpg"}, {}, {"on_upload_progress": lambda p: print(p.loaded, p.total)}
)
try:
    sdk.listings.show({"id": uuid.uuid4()})
except NotFoundError as e:
    code = e.status, e.data.errors[0].code

integ = IntegrationClient("CLIENT_ID", "CLIENT_SECRET")
integ.listings.update({"id": listing.id, "title": "New title"}, {"expand": True})
events = integ.events.query({"startAfterSequenceId": 0}).data.data
for each in sdk.listings.query.iter({"perPage": 100, "include": ["author"]}):
    author: User = each.author
    avatar: Image | None = author.profile_image
