"""`listings` endpoints of the Integration API: typed parameters and answers."""

import datetime as dt
import uuid

from flexclient import IntegrationClient
from flexclient.models import Listing

integ = IntegrationClient("id", "secret")
ID = uuid.uuid4()
NOW = dt.datetime.now(dt.UTC)

# Calls that pass, with the group's TypedDicts.
made: Listing = integ.listings.create(
    {"title": "Cabin", "authorId": ID, "state": "published", "metadata": {"rank": 1}},
    {"expand": True},
).data.data
integ.listings.update({"id": made.id, "title": "New", "metadata": {}})
integ.listings.update({"id": made.id, "protectedFileAttachments": [ID]})
integ.listings.show({"id": made.id})
integ.listings.query(
    {"states": ["draft", "published"], "createdAtStart": NOW}, custom={"meta_rank": "1"}
)
integ.listings.approve({"id": made.id})
integ.listings.open({"id": made.id})
integ.listings.close({"id": made.id})

# A misspelled key, a value of the wrong type, a missing required key.
# [mypy] Missing key "authorId" for TypedDict "IntegrationListingsCreateParams"
# [mypy] Extra key "author" for TypedDict "IntegrationListingsCreateParams"
# [pyright] "author" is an undefined item in type "IntegrationListingsCreateParams"
integ.listings.create({"title": "Cabin", "author": ID})
# [mypy] TypedDict item "metadata" has type "Mapping[str, Any]")
# [pyright] "Literal['rank=1']" is not assignable to "Mapping[str, Any]"
integ.listings.update({"id": ID, "metadata": "rank=1"})
# [mypy] Missing key "authorId" for TypedDict "IntegrationListingsCreateParams"
# [pyright] "authorId" is required in "IntegrationListingsCreateParams"
integ.listings.create({"title": "Cabin"})
