"""`stock` and `stock_adjustments`: a listing's quantity, and every change to it."""

from __future__ import annotations

import uuid
from typing import Any

from flexclient._endpoints.table import IntegrationEndpoints as Integ
from flexclient._endpoints.table import MarketplaceEndpoints as Market
from flexclient.models import StockAdjustmentAttributes
from flexclient.testing import _state as s
from flexclient.testing._call import ApiFailure, Call, invalid, not_found
from flexclient.testing._handlers._lookup import own_or_any_listing, time
from flexclient.testing._routes import handles
from flexclient.testing._stock import adjust, quantity, set_quantity


@handles(Market.stock.cls.compare_and_set, Integ.stock.cls.compare_and_set)
def compare_and_set(c: Call) -> dict[str, Any]:
    target = own_or_any_listing(c, c.body_id("listingId"))
    old = c.body.get("oldTotal")
    new = c.body_value("newTotal", int, required=True)
    assert new is not None
    if new < 0:
        raise invalid("body", "newTotal", "must not be negative")
    if old != quantity(c.state, target.id):
        raise ApiFailure(409, "old-total-mismatch", "oldTotal does not match the current stock")
    before = c.snapshot(target)
    made = adjust(c.state, target, new - (quantity(c.state, target.id) or 0))
    c.emit("stockAdjustment/created", made, None)
    c.emit("listing/updated", target, before)
    return c.one(set_quantity(c.state, target, new))


@handles(Market.stock_adjustments.cls.create, Integ.stock_adjustments.cls.create)
def adjustments_create(c: Call) -> dict[str, Any]:
    target = own_or_any_listing(c, c.body_id("listingId"))
    change = c.body_value("quantity", int, required=True)
    assert change is not None
    if (quantity(c.state, target.id) or 0) + change < 0:
        raise ApiFailure(409, "conflict", "Stock cannot go below zero")
    before = c.snapshot(target)
    made = adjust(c.state, target, change)
    c.emit("stockAdjustment/created", made, None)
    c.emit("listing/updated", target, before)
    return c.one(made)


@handles(Market.stock_adjustments.cls.query, Integ.stock_adjustments.cls.query)
def adjustments_query(c: Call) -> dict[str, Any]:
    target = own_or_any_listing(
        c, c.query_value("listingId", uuid.UUID, required=True) or uuid.UUID(int=0)
    )
    start, end = (
        c.query_value("start", time, required=True),
        c.query_value("end", time, required=True),
    )
    assert start is not None and end is not None
    found = [
        a
        for a in c.state.adjustments.values()
        if a.one("listing") == target.id and start <= _at(a) < end
    ]
    found.sort(key=_at)
    return c.page(found)


def _at(a: s.Record[StockAdjustmentAttributes]) -> Any:
    return a.attributes.at


@handles(Integ.stock_reservations.cls.show)
def reservations_show(c: Call) -> dict[str, Any]:
    reservation = c.state.table("stockReservation").get(c.query_id())
    if reservation is None:
        raise not_found("Stock reservation")
    return c.one(reservation)
