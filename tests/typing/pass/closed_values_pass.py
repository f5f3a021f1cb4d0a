"""Every value of the API's closed value sets passes both checkers, one value or several;
names a marketplace defines (transitions, processes, transaction states) stay open."""

import datetime as dt
import uuid

from flexclient import IntegrationClient, MarketplaceClient
from flexclient.params import (
    EventType,
    ListingsQueryParams,
    ListingState,
    Sort,
)

sdk = MarketplaceClient("id")
integ = IntegrationClient("id", "secret")
ID = uuid.uuid4()
NOW = dt.datetime.now(dt.UTC)

integ.listings.query({"states": ["draft", "pendingApproval", "published", "closed"]})
integ.listings.query({"states": "published"})
integ.listings.create({"title": "T", "authorId": ID, "state": "published"})
integ.listings.create({"title": "T", "authorId": ID, "state": "pendingApproval"})
for availability in ("day-full", "day-partial", "time-full", "time-partial"):
    params: ListingsQueryParams = {"start": NOW, "end": NOW, "availability": availability}
    sdk.listings.query(params)
sdk.listings.query({"minStock": 1, "stockMode": "strict"})
sdk.listings.query({"minStock": 1, "stockMode": "match-undefined"})
sdk.listings.query({"sort": "createdAt"})
sdk.listings.query({"sort": ["-price", "-createdAt"]})
sdk.listings.query({"sort": ["price", "createdAt"]})
# Keys of extended data, and several keys in one text, as the API reads them.
sdk.listings.query({"sort": Sort("pub_rank,-createdAt")})
sdk.own_listings.create(
    {
        "title": "T",
        "availabilityPlan": {
            "type": "availability-plan/time",
            "timezone": "Europe/Helsinki",
            "entries": [
                {"dayOfWeek": day, "seats": 1, "startTime": "09:00", "endTime": "17:00"}
                for day in ("mon", "tue", "wed", "thu", "fri", "sat", "sun")
            ],
        },
    }
)
sdk.own_listings.update(
    {"id": ID, "availabilityPlan": {"type": "availability-plan/day", "entries": []}}
)
sdk.transactions.query(
    {
        "bookingStates": ["pending", "proposed", "accepted", "declined", "cancelled"],
        "stockReservationStates": ["pending", "proposed", "accepted", "declined", "cancelled"],
        "sort": [
            "createdAt",
            "-createdAt",
            "lastTransitionedAt",
            "-lastTransitionedAt",
            "lastMessageAt",
            "-lastMessageAt",
        ],
        # The process's own names stay open strings.
        "states": ["state/preauthorized", "state/my-own-state"],
        "lastTransitions": "transition/my-own-transition",
        "processNames": ["my-process"],
    }
)
integ.transactions.query({"sort": ["bookingStart", "-bookingStart", "bookingEnd", "-bookingEnd"]})
integ.transactions.query({"bookingStates": "accepted", "stockReservationStates": "pending"})
sdk.transactions.initiate({"processAlias": "my-process/release-1", "transition": "transition/go"})
sdk.bookings.query({"listingId": ID, "start": NOW, "end": NOW, "state": "proposed"})
sdk.reviews.query({"listingId": ID, "type": "ofProvider", "state": "public"})
sdk.reviews.query({"listingId": ID, "type": "ofCustomer", "state": "pending"})
integ.users.query({"sort": "-createdAt"})
every_event_type: list[EventType] = [
    "listing/created",
    "listing/updated",
    "listing/deleted",
    "user/created",
    "user/updated",
    "user/deleted",
    "availabilityException/created",
    "availabilityException/updated",
    "availabilityException/deleted",
    "message/created",
    "message/updated",
    "message/deleted",
    "transaction/initiated",
    "transaction/transitioned",
    "transaction/updated",
    "transaction/deleted",
    "booking/created",
    "booking/updated",
    "booking/deleted",
    "review/created",
    "review/updated",
    "review/deleted",
    "stockAdjustment/created",
    "stockAdjustment/updated",
    "stockAdjustment/deleted",
    "stockReservation/created",
    "stockReservation/updated",
    "stockReservation/deleted",
]
integ.events.query({"eventTypes": every_event_type})
integ.events.query({"eventTypes": "transaction/transitioned"})
integ.events_feed(event_types=["listing/created", "user/deleted"])
# A value typed as its set, from a variable.
state: ListingState = "closed"
integ.listings.query({"states": [state]})
