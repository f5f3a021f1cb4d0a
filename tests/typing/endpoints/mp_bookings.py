"""`bookings` endpoints of the Marketplace API: typed parameters and answers."""

import datetime as dt
import uuid

from flexclient import MarketplaceClient
from flexclient.models import Booking

sdk = MarketplaceClient("id")
ID = uuid.uuid4()
NOW = dt.datetime.now(dt.UTC)

# Calls that pass, with the group's TypedDicts.
bookings: list[Booking] = sdk.bookings.query(
    {"listingId": ID, "start": NOW, "end": NOW, "state": "accepted"}
).data.data

# A misspelled key, a value of the wrong type, a missing required key.
# [mypy] Extra key "states" for TypedDict "BookingsQueryParams"
# [pyright] "states" is an undefined item in type "BookingsQueryParams"
sdk.bookings.query({"listingId": ID, "start": NOW, "end": NOW, "states": "accepted"})
# [mypy] TypedDict item "end" has type "datetime")
# [pyright] "Literal['tomorrow']" is not assignable to "datetime"
sdk.bookings.query({"listingId": ID, "start": NOW, "end": "tomorrow"})
# [mypy] Missing key "listingId" for TypedDict "BookingsQueryParams"
# [pyright] "listingId" is required in "BookingsQueryParams"
sdk.bookings.query({"start": NOW, "end": NOW})
