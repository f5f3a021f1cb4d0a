"""Availability: time slots and availability exceptions."""

from __future__ import annotations

import datetime as dt
from typing import TYPE_CHECKING, ClassVar

from pydantic import Field

from flexclient.models._relations import ToOne
from flexclient.models._resource import Attributes, Resource

if TYPE_CHECKING:
    # Models of the relationships, for the checkers: at run time each is looked up by name.
    from flexclient.models.listings import OwnListing


class TimeSlotAttributes(Attributes):
    """`type` is open-ended; `time-slot/day` and `time-slot/time` are known."""

    type: str | None = None
    seats: int | None = None
    start: dt.datetime | None = None
    end: dt.datetime | None = None


class TimeSlot(Resource):
    """A period when a listing can be booked (`timeslots.query`)."""

    resource_type: ClassVar[str | None] = "timeSlot"
    attributes: TimeSlotAttributes = Field(default_factory=TimeSlotAttributes)


class AvailabilityExceptionAttributes(Attributes):
    seats: int | None = None
    start: dt.datetime | None = None
    end: dt.datetime | None = None


class AvailabilityException(Resource):
    """An override of a listing's availability plan for a period."""

    resource_type: ClassVar[str | None] = "availabilityException"
    attributes: AvailabilityExceptionAttributes = Field(
        default_factory=AvailabilityExceptionAttributes
    )

    own_listing: ClassVar[ToOne[OwnListing]] = ToOne("ownListing")
