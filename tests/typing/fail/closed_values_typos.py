"""A misspelled value of a closed set fails both checkers."""

import datetime as dt
import uuid

from flexclient import IntegrationClient, MarketplaceClient
from flexclient.params import AvailabilityPlan, AvailabilityPlanEntry

sdk = MarketplaceClient("id")
integ = IntegrationClient("id", "secret")
ID = uuid.uuid4()
NOW = dt.datetime.now(dt.UTC)

# [mypy] "Literal['stats']"
# [pyright] "Literal['stats']" is not assignable
integ.listings.query({"states": ["stats"]})
# [mypy] "Literal['pubished']"
# [pyright] "Literal['pubished']" is not assignable
integ.listings.query({"states": "pubished"})
# [mypy] "Literal['draft']"
# [pyright] "Literal['draft']" is not assignable
integ.listings.create({"title": "T", "authorId": ID, "state": "draft"})
# [mypy] "Literal['full-day']"
# [pyright] "Literal['full-day']" is not assignable
sdk.listings.query({"start": NOW, "end": NOW, "availability": "full-day"})
# [mypy] "Literal['match_undefined']"
# [pyright] "Literal['match_undefined']" is not assignable
sdk.listings.query({"minStock": 1, "stockMode": "match_undefined"})
# [mypy] "Literal['-title']"
# [pyright] "Literal['-title']" is not assignable
sdk.listings.query({"sort": "-title"})
# [mypy] "Literal['created']"
# [pyright] "Literal['created']" is not assignable
sdk.listings.query({"sort": ["price", "created"]})
# [mypy] "Literal['pub_rank,-createdAt']"
# [pyright] "Literal['pub_rank,-createdAt']" is not assignable
sdk.listings.query({"sort": "pub_rank,-createdAt"})
# [mypy] "Literal['acepted']"
# [pyright] "Literal['acepted']" is not assignable
sdk.transactions.query({"bookingStates": ["acepted"]})
# [mypy] "Literal['lastMessage']"
# [pyright] "Literal['lastMessage']" is not assignable
sdk.transactions.query({"sort": "lastMessage"})
# [mypy] "Literal['canceled']"
# [pyright] "Literal['canceled']" is not assignable
sdk.bookings.query({"listingId": ID, "start": NOW, "end": NOW, "state": "canceled"})
# [mypy] "Literal['ofSeller']"
# [pyright] "Literal['ofSeller']" is not assignable
sdk.reviews.query({"type": "ofSeller"})
# [mypy] "Literal['published']"
# [pyright] "Literal['published']" is not assignable
sdk.reviews.query({"state": "published"})
# [mypy] "Literal['email']"
# [pyright] "Literal['email']" is not assignable
integ.users.query({"sort": "email"})
# [mypy] "Literal['listing/create']"
# [pyright] "Literal['listing/create']" is not assignable
integ.events.query({"eventTypes": ["listing/create"]})
# [mypy] "Literal['transaction/transition']"
# [pyright] "Literal['transaction/transition']" is not assignable
integ.events_feed(event_types=["transaction/transition"])
# An availability plan of an unknown kind, or on a day that is none.
# [mypy] "Literal['availability-plan/week']"
# [pyright] "Literal['availability-plan/week']" is not assignable
weekly: AvailabilityPlan = {"type": "availability-plan/week", "entries": []}
# [mypy] "Literal['monday']"
# [pyright] "Literal['monday']" is not assignable
monday: AvailabilityPlanEntry = {"dayOfWeek": "monday", "seats": 1}
