"""Parameters of the availability exceptions, time slots and bookings endpoints."""

import datetime as dt
from typing import Required, TypedDict

from flexclient.params._common import Id, IdParams, PageOptions
from flexclient.params._values import BookingState


class AvailabilityExceptionsQueryParams(PageOptions, total=False):
    """`availability_exceptions.query` (both APIs): a listing's exceptions in a period."""

    listingId: Required[Id]
    start: Required[dt.datetime]
    end: Required[dt.datetime]


class AvailabilityExceptionsCreateParams(TypedDict):
    """`availability_exceptions.create` (both APIs): `seats` available from `start` to
    `end` (0 for none), instead of what the availability plan says."""

    listingId: Id
    start: dt.datetime
    end: dt.datetime
    seats: int


class AvailabilityExceptionsDeleteParams(IdParams):
    """`availability_exceptions.delete` (both APIs)."""


class TimeslotsQueryParams(PageOptions, total=False):
    """`timeslots.query`: the free time of a listing from `start` to `end`. Optionally cut
    into intervals: `intervalDuration` (ISO 8601, `"P1D"`), at most `maxPerInterval` slots
    each, of at least `minDurationStartingInInterval` minutes, from `intervalAlign`."""

    listingId: Required[Id]
    start: Required[dt.datetime]
    end: Required[dt.datetime]
    intervalDuration: str
    intervalAlign: dt.datetime
    maxPerInterval: int
    minDurationStartingInInterval: int


class BookingsQueryParams(PageOptions, total=False):
    """`bookings.query`: a listing's bookings in a period, optionally in one `state`."""

    listingId: Required[Id]
    start: Required[dt.datetime]
    end: Required[dt.datetime]
    state: BookingState
