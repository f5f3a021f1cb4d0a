"""`timeslots` and `bookings`: when a listing can be booked, and what is booked."""

from __future__ import annotations

import datetime as dt
import uuid
from typing import Any

from flexclient._endpoints.table import MarketplaceEndpoints as Market
from flexclient.testing import _availability
from flexclient.testing import _state as s
from flexclient.testing._call import Call, invalid, not_found
from flexclient.testing._handlers._lookup import listing, time, words
from flexclient.testing._routes import handles
from flexclient.testing._schema import attributes_model, by_field_name
from flexclient.testing._time_expressions import duration

MAX_RANGE = dt.timedelta(days=90)
MAX_SLOTS_PER_PAGE = 500


def _range(c: Call) -> tuple[dt.datetime, dt.datetime]:
    start = c.query_value("start", time, required=True)
    end = c.query_value("end", time, required=True)
    assert start is not None and end is not None
    if end <= start:
        raise invalid("query", "end", "must be after start")
    if end - start > MAX_RANGE:
        raise invalid("query", "end", "at most 90 days after start")
    return start, end


@handles(Market.timeslots.cls.query)
def timeslots(c: Call) -> dict[str, Any]:
    found = listing(c, c.query_value("listingId", uuid.UUID, required=True) or uuid.UUID(int=0))
    published = found.attributes.state == "published"
    if not published and found.one("author") != c.grant.user_id:
        raise not_found("Listing")
    start, end = _range(c)
    kind = "time-slot/day" if _availability.is_day_plan(found) else "time-slot/time"
    model = attributes_model("timeSlot")
    slots: list[s.Record[Any]] = []
    for span in _by_interval(c, _availability.free(c.state, found, start, end), start, end):
        values = {"type": kind, "seats": span.seats, "start": span.start, "end": span.end}
        rid = uuid.uuid5(found.id, f"{span.start.isoformat()}/{span.end.isoformat()}")
        slots.append(s.new("timeSlot", model, by_field_name(model, values), rid))
    return c.page(slots, max_per_page=MAX_SLOTS_PER_PAGE)


def _by_interval(
    c: Call, spans: list[_availability.Span], start: dt.datetime, end: dt.datetime
) -> list[_availability.Span]:
    """Interval filtering: the period cut into `intervalDuration` intervals (from
    `intervalAlign`), and in each at most `maxPerInterval` slots that last at least
    `minDurationStartingInInterval` minutes from the interval's start on. Without
    `intervalDuration`, every slot."""
    size = c.query_value("intervalDuration", duration)
    if size is None:
        return spans
    if size <= dt.timedelta(0):
        raise invalid("query", "intervalDuration", "a positive duration")
    most = c.query_value("maxPerInterval", int)
    shortest = dt.timedelta(minutes=c.query_value("minDurationStartingInInterval", int) or 0)
    at = c.query_value("intervalAlign", time) or start
    while at > start:
        at -= size
    kept: list[_availability.Span] = []
    while at < end:
        after = at + size
        fits = [sp for sp in spans if sp.start < after and sp.end - max(sp.start, at) >= shortest]
        fits = [sp for sp in fits if sp.end > at]
        for span in fits[:most] if most is not None else fits:
            if span not in kept:
                kept.append(span)
        at = after
    return sorted(kept, key=lambda sp: sp.start)


@handles(Market.bookings.cls.query)
def bookings(c: Call) -> dict[str, Any]:
    # A provider's view of the bookings of a listing of theirs.
    found = listing(
        c, c.query_value("listingId", uuid.UUID, required=True) or uuid.UUID(int=0), own=True
    )
    start, end = _range(c)
    states = c.query_value("states", words) or c.query_value("state", words)
    result = [
        b
        for b in _availability.bookings_of(c.state, found.id)
        if b.attributes.start < end
        and b.attributes.end > start
        and (states is None or b.attributes.state in states)
    ]
    result.sort(key=lambda b: b.attributes.start)
    return c.page(result)
