"""Stock of listings: the current quantity, adjustments and reservations."""

from __future__ import annotations

import datetime as dt
from typing import TYPE_CHECKING, ClassVar

from pydantic import Field

from flexclient.models._resource import Attributes, Resource

if TYPE_CHECKING:
    from flexclient.models.listings import Listing
    from flexclient.models.transactions import Transaction


class StockAttributes(Attributes):
    quantity: int | None = None


class Stock(Resource):
    """The available quantity of a listing (`currentStock`)."""

    resource_type: ClassVar[str | None] = "stock"
    attributes: StockAttributes = Field(default_factory=StockAttributes)


class StockAdjustmentAttributes(Attributes):
    at: dt.datetime | None = None
    quantity: int | None = None


class StockAdjustment(Resource):
    """A change in a listing's stock."""

    resource_type: ClassVar[str | None] = "stockAdjustment"
    attributes: StockAdjustmentAttributes = Field(default_factory=StockAdjustmentAttributes)

    @property
    def stock_reservation(self) -> StockReservation | None:
        return self._one("stockReservation", StockReservation)


class StockReservationAttributes(Attributes):
    """`state` is open-ended: `pending`, `proposed`, `accepted`, `declined`, `cancelled`, ..."""

    quantity: int | None = None
    state: str | None = None


class StockReservation(Resource):
    """Stock held for a transaction."""

    resource_type: ClassVar[str | None] = "stockReservation"
    attributes: StockReservationAttributes = Field(default_factory=StockReservationAttributes)

    @property
    def listing(self) -> Listing:
        from flexclient.models.listings import Listing  # a cycle: listings refer to stock

        return self._required("listing", Listing)

    @property
    def transaction(self) -> Transaction | None:
        from flexclient.models.transactions import Transaction

        return self._one("transaction", Transaction)

    @property
    def stock_adjustments(self) -> list[StockAdjustment]:
        return self._many("stockAdjustments", StockAdjustment)
