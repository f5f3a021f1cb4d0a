"""A listing's stock: its current quantity (a `stock` resource of its own) and the
adjustments that change it, kept by the stock endpoints and by transactions' reservations."""

from __future__ import annotations

import uuid

from flexclient.models import ListingAttributes, StockAdjustmentAttributes, StockAttributes
from flexclient.testing import _state as s


def quantity(state: s.State, listing_id: uuid.UUID) -> int | None:
    """A listing's stock, None when it has none."""
    stock = state.stocks.get(s.stock_id(listing_id))
    return stock.attributes.quantity if stock is not None else None


def set_quantity(
    state: s.State, listing: s.Record[ListingAttributes], total: int
) -> s.Record[StockAttributes]:
    sid = s.stock_id(listing.id)
    stock = state.stocks.get(sid)
    if stock is None:
        stock = state.stocks[sid] = s.new("stock", StockAttributes, rid=sid)
        listing.link("currentStock", "stock", sid)
    stock.set(quantity=total)
    return stock


def adjust(
    state: s.State, listing: s.Record[ListingAttributes], change: int
) -> s.Record[StockAdjustmentAttributes]:
    """Record a change of stock and apply it."""
    made = s.new(
        "stockAdjustment", StockAdjustmentAttributes, {"at": state.time(), "quantity": change}
    )
    made.link("listing", "listing", listing.id)
    state.adjustments[made.id] = made
    set_quantity(state, listing, (quantity(state, listing.id) or 0) + change)
    return made
