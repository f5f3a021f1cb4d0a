"""`timeslots` endpoints of the Marketplace API: typed parameters and answers."""

import datetime as dt
import uuid

from flexclient import MarketplaceClient
from flexclient.models import TimeSlot

sdk = MarketplaceClient("id")
ID = uuid.uuid4()
NOW = dt.datetime.now(dt.UTC)

# Calls that pass, with the group's TypedDicts.
slots: list[TimeSlot] = sdk.timeslots.query(
    {"listingId": ID, "start": NOW, "end": NOW, "intervalDuration": "P1D", "maxPerInterval": 1}
).data.data

# A misspelled key, a value of the wrong type, a missing required key.
# [mypy] Extra key "interval" for TypedDict "TimeslotsQueryParams"
# [pyright] "interval" is an undefined item in type "TimeslotsQueryParams"
sdk.timeslots.query({"listingId": ID, "start": NOW, "end": NOW, "interval": "P1D"})
# [mypy] TypedDict item "maxPerInterval" has type "int")
# [pyright] "Literal['1']" is not assignable to "int"
sdk.timeslots.query({"listingId": ID, "start": NOW, "end": NOW, "maxPerInterval": "1"})
# [mypy] Missing key "start" for TypedDict "TimeslotsQueryParams"
# [pyright] "start" is required in "TimeslotsQueryParams"
sdk.timeslots.query({"listingId": ID, "end": NOW})
