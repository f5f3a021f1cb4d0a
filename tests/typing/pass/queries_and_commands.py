import datetime as dt
import uuid
from collections.abc import Iterator
from decimal import Decimal

from flexclient import IntegrationClient, MarketplaceClient, Money, Response
from flexclient.models import Envelope, Event, Listing, OwnListing
from flexclient.params import ListingsQueryParams, StockAdjustmentsQueryParams

sdk = MarketplaceClient("id")
integ = IntegrationClient("id", "secret")
# The contract's calls.
sdk.listings.query({"perPage": 5, "include": ["author", "images"]})
sdk.listings.query()
sdk.listings.show({"id": uuid.uuid4(), "fields.listing": ["title", "price"]})
created = sdk.own_listings.create({"title": "Bike", "price": Money(5000, "USD")}, {"expand": True})
own: OwnListing = created.data.data
bare: bool = own.has_attributes
integ.listings.update({"id": uuid.uuid4(), "title": "New"}, {"expand": True})
# Per-call options, as keywords or in opts.
sdk.listings.query({"perPage": 100}, timeout=10, deadline=30)
sdk.own_listings.close({"id": uuid.uuid4()}, {}, {"timeout": 10})
sdk.own_listings.close({"id": str(uuid.uuid4())}, timeout=(3, 10))
sdk.images.upload({"image": b"..."}, progress_bar=True)
# Open key families: in custom=, next to the documented keys.
sdk.listings.query(
    {"perPage": 5, "keywords": "bike"},
    custom={"pub_category": "road", "meta_rank": "has_any:1,2", "imageVariant.x": "w:1"},
)
sdk.own_listings.create({"title": "T"}, {"expand": True}, custom={"fields.ownListing": "title"})
# A dict built first: annotated with the endpoint's TypedDict.
params: ListingsQueryParams = {"perPage": 10}
if True:
    params["keywords"] = "tent"
sdk.listings.query(params)
now = dt.datetime.now(dt.UTC)
window: StockAdjustmentsQueryParams = {"listingId": uuid.uuid4(), "start": now, "end": now}
sdk.stock_adjustments.query(window)
# Pagination.
walk: Iterator[Listing] = sdk.listings.query.iter({"perPage": 100}, custom={"pub_a": "b"})
pages: Iterator[Response[Envelope[list[Listing]]]] = sdk.listings.query.pages(max_pages=2)
events: Iterator[Event] = integ.events.query.iter({"startAfterSequenceId": 1})
slots = sdk.timeslots.query.iter({"listingId": uuid.uuid4(), "start": now, "end": now})
# What a method tells of itself.
cost: Decimal = sdk.listings.query.credits
billed: str | None = sdk.own_listings.create.usage_type
where: str = integ.images.upload.url_path
sdk.images.upload({"image": b"..."}, on_upload_progress=lambda e: print(e.loaded), timeout=30)
