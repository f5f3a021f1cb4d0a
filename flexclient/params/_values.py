"""The closed value sets of parameters: the values the API itself defines, as `Literal`s, so
that a misspelled one (`"stats"`, `"pubished"`) fails the type check.

Names a marketplace defines stay open strings: transitions, process names and aliases,
transaction states (`state/preauthorized` is the process's), extended-data keys. A list of
several values is a sequence (`["draft", "published"]`), sent comma-joined as the API takes it.
The checks at run time do not read these sets: a value a later API adds is sent all the same
(`typing.cast` lets the checkers take it).

Sources: the Marketplace and Integration API references and the official web template, as
recorded in docs/typing.md.
"""

from typing import Literal, NewType

ListingState = Literal["draft", "pendingApproval", "published", "closed"]
"""A listing's state (`states` of the Integration API's `listings.query` and of
`own_listings.query`)."""

ListingCreateState = Literal["published", "pendingApproval"]
"""The state an Integration API `listings.create` gives the new listing."""

BookingState = Literal["pending", "proposed", "accepted", "declined", "cancelled"]
"""A booking's state (`bookingStates` of `transactions.query`, `state` of `bookings.query`)."""

StockReservationState = Literal["pending", "proposed", "accepted", "declined", "cancelled"]
"""A stock reservation's state (`stockReservationStates` of `transactions.query`)."""

ReviewType = Literal["ofProvider", "ofCustomer"]
"""Whom a review is of: the provider or the customer (`type` of `reviews.query`)."""

ReviewState = Literal["public", "pending"]
"""A review's state: public, or pending until the other party reviews or the period ends."""

EventType = Literal[
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
"""An event type of the Integration API (`eventTypes` of `events.query`, `event_types` of
`events_feed`). The events that come back may be of types added later: `Event` keeps any."""

Availability = Literal["day-full", "day-partial", "time-full", "time-partial"]
"""How a listing search reads `start`..`end`: whole days or times, free for all of it
(`-full`) or some of it (`-partial`, with `minDuration`)."""

StockMode = Literal["strict", "match-undefined"]
"""How `minStock` treats listings without stock: left out (`strict`, the default) or kept
(`match-undefined`, as the web template searches)."""

AvailabilityPlanType = Literal["availability-plan/day", "availability-plan/time"]
"""An availability plan by whole days, or by times of day."""

DayOfWeek = Literal["mon", "tue", "wed", "thu", "fri", "sat", "sun"]
"""A day of an availability plan's week."""

ListingSortKey = Literal["createdAt", "-createdAt", "price", "-price"]
"""A built-in sort key of `listings.query` (a `-` in front reverses it); extended-data keys
(`pub_rank`) and several keys in one text go in a `Sort`."""

TransactionSortKey = Literal[
    "createdAt",
    "-createdAt",
    "lastTransitionedAt",
    "-lastTransitionedAt",
    "lastMessageAt",
    "-lastMessageAt",
    "bookingStart",
    "-bookingStart",
    "bookingEnd",
    "-bookingEnd",
]
"""A built-in sort key of `transactions.query` (both APIs); others go in a `Sort`."""

UserSortKey = Literal["createdAt", "-createdAt"]
"""A built-in sort key of the Integration API's `users.query`; others go in a `Sort`."""

Sort = NewType("Sort", str)
"""A `sort` value as the API reads it, for what the sort-key `Literal`s leave out: keys of
extended data, several keys in one text. `{"sort": Sort("pub_rank,-createdAt")}`; built-in
keys are checked as a list (`["-price", "createdAt"]`) or one key (`"-price"`)."""
