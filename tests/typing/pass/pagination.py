from collections.abc import Iterator

from flexclient import IntegrationClient, MarketplaceClient, Response
from flexclient.models import Envelope, Event, Listing, User

sdk = MarketplaceClient("id")
walk: Iterator[Listing] = sdk.listings.query.iter(
    {"perPage": 100, "pub_color": "red"}, max_items=10
)
for listing in walk:
    author: User = listing.author
pages: Iterator[Response[Envelope[list[Listing]]]] = sdk.listings.query.pages({"perPage": 50})
events: Iterator[Event] = IntegrationClient("id", "secret").events.query.iter(
    {"startAfterSequenceId": 1}
)
