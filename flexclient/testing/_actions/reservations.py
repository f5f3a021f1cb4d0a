"""Actions on a transaction's stock reservation: made pending (taking the stock at once) or
proposed (not yet), accepted, declined or cancelled (giving the stock back)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from flexclient.testing import _state as s
from flexclient.testing._call import invalid
from flexclient.testing._step import Step, conflict
from flexclient.testing._stock import adjust, quantity

INSUFFICIENT = "transaction-listing-insufficient-stock"


def create(step: Step, config: Mapping[str, Any], *, state: str) -> None:
    if step.tx.one("stockReservation") is not None:
        raise conflict("The transaction already has a stock reservation")
    wanted: int = step.required("stockReservationQuantity", int)
    if wanted < 1:
        raise invalid("body", "params.stockReservationQuantity", "a positive integer")
    listing = step.listing
    if (quantity(step.state, listing.id) or 0) < wanted:
        raise conflict("The listing does not have that much stock", INSUFFICIENT)
    reservation = step.new("stockReservation", {"quantity": wanted, "state": state})
    reservation.link("listing", "listing", listing.id)
    reservation.link("transaction", "transaction", step.tx.id)
    reservation.link_many("stockAdjustments", "stockAdjustment", [])
    step.tx.link("stockReservation", "stockReservation", reservation.id)
    step.ctx.emit("stockReservation/created", reservation, None)
    if state == "pending":
        _adjust(step, reservation, -wanted)


def _adjust(step: Step, reservation: s.Record[Any], change: int) -> None:
    made = adjust(step.state, step.listing, change)
    made.link("stockReservation", "stockReservation", reservation.id)
    reservation.link_many(
        "stockAdjustments", "stockAdjustment", [*reservation.many("stockAdjustments"), made.id]
    )
    step.ctx.emit("stockAdjustment/created", made, None)


def move(step: Step, config: Mapping[str, Any], *, allowed: tuple[str, ...], to: str) -> None:
    """`accept-`, `decline-` and `cancel-stock-reservation`: the stock follows."""
    reservation = step.other("stockReservation", step.tx.one("stockReservation"))
    if reservation is None:
        raise conflict("The transaction has no stock reservation")
    was = reservation.attributes.state
    if was not in allowed:
        raise conflict(f"A {was} stock reservation cannot be {to}")
    amount = reservation.attributes.quantity or 0
    before = step.ctx.snapshot(reservation)
    if to == "accepted" and was == "proposed":
        if (quantity(step.state, step.listing.id) or 0) < amount:
            raise conflict("The listing does not have that much stock", INSUFFICIENT)
        _adjust(step, reservation, -amount)
    elif to in ("declined", "cancelled") and was in ("pending", "accepted"):
        _adjust(step, reservation, amount)  # the stock comes back
    reservation.set(state=to)
    step.ctx.emit("stockReservation/updated", reservation, before)
