"""`availability_exceptions` endpoints of the Marketplace API: typed parameters and answers."""

import datetime as dt
import uuid

from flexclient import MarketplaceClient
from flexclient.models import AvailabilityException

sdk = MarketplaceClient("id")
ID = uuid.uuid4()
NOW = dt.datetime.now(dt.UTC)

# Calls that pass, with the group's TypedDicts.
made: AvailabilityException = sdk.availability_exceptions.create(
    {"listingId": ID, "start": NOW, "end": NOW, "seats": 0}, {"expand": True}
).data.data
sdk.availability_exceptions.delete({"id": made.id})
sdk.availability_exceptions.query({"listingId": ID, "start": NOW, "end": NOW, "perPage": 10})

# A misspelled key, a value of the wrong type, a missing required key.
# [mypy] Extra key "per_page" for TypedDict "AvailabilityExceptionsQueryParams"
# [pyright] "per_page" is an undefined item in type "AvailabilityExceptionsQueryParams"
sdk.availability_exceptions.query({"listingId": ID, "start": NOW, "end": NOW, "per_page": 10})
# [mypy] TypedDict item "start" has type "datetime")
# [pyright] "Literal['2024-01-01']" is not assignable to "datetime"
sdk.availability_exceptions.create({"listingId": ID, "start": "2024-01-01", "end": NOW, "seats": 0})
# [mypy] Missing key "end" for TypedDict "AvailabilityExceptionsQueryParams"
# [pyright] "end" is required in "AvailabilityExceptionsQueryParams"
sdk.availability_exceptions.query({"listingId": ID, "start": NOW})
