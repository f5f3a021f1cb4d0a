"""`availability_exceptions`: periods when a listing's availability differs from its plan."""

from __future__ import annotations

import uuid
from typing import Any

from flexclient._endpoints.table import IntegrationEndpoints as Integ
from flexclient._endpoints.table import MarketplaceEndpoints as Market
from flexclient.models import AvailabilityExceptionAttributes
from flexclient.testing import _state as s
from flexclient.testing._call import Call, invalid, not_found
from flexclient.testing._handlers._lookup import own_or_any_listing, time
from flexclient.testing._routes import handles


@handles(Market.availability_exceptions.cls.create, Integ.availability_exceptions.cls.create)
def create(c: Call) -> dict[str, Any]:
    target = own_or_any_listing(c, c.body_id("listingId"))
    start, end = c.body_time("start"), c.body_time("end")
    if end <= start:
        raise invalid("body", "end", "must be after start")
    seats = c.body_value("seats", int, required=True) or 0
    values = {"seats": seats, "start": start, "end": end}
    made = s.new("availabilityException", AvailabilityExceptionAttributes, values)
    made.link("listing", "listing", target.id)
    c.state.exceptions[made.id] = made
    c.emit("availabilityException/created", made, None)
    return c.one(made)


@handles(Market.availability_exceptions.cls.query, Integ.availability_exceptions.cls.query)
def query(c: Call) -> dict[str, Any]:
    target = own_or_any_listing(
        c, c.query_value("listingId", uuid.UUID, required=True) or uuid.UUID(int=0)
    )
    start = c.query_value("start", time, required=True)
    end = c.query_value("end", time, required=True)
    assert start is not None and end is not None
    found = [
        e
        for e in c.state.exceptions.values()
        if e.one("listing") == target.id and _end(e) > start and _start(e) < end
    ]
    found.sort(key=_start)
    return c.page(found)


def _start(e: s.Record[AvailabilityExceptionAttributes]) -> Any:
    return e.attributes.start


def _end(e: s.Record[AvailabilityExceptionAttributes]) -> Any:
    return e.attributes.end


@handles(Market.availability_exceptions.cls.delete, Integ.availability_exceptions.cls.delete)
def delete(c: Call) -> dict[str, Any]:
    found = c.state.exceptions.get(c.body_id())
    if found is None:
        raise not_found("Availability exception")
    own_or_any_listing(c, found.one("listing") or uuid.UUID(int=0))
    answer = c.one(found)
    del c.state.exceptions[found.id]
    c.emit_deleted("availabilityException/deleted", found)
    return answer
