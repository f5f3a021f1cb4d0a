"""Stock of listings: the current quantity, adjustments and reservations."""

from __future__ import annotations

import datetime as dt
from typing import TYPE_CHECKING, ClassVar

from pydantic import Field

from flexclient.models._relations import ToMany, ToOne, ToOneOrNone
from flexclient.models._resource import Attributes, Resource

if TYPE_CHECKING:
    # Models of the relationships, for the checkers: at run time each is looked up by name.
    from flexclient.models.listings import Listing, OwnListing
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

    own_listing: ClassVar[ToOne[OwnListing]] = ToOne("ownListing")
    stock_reservation: ClassVar[ToOneOrNone[StockReservation]] = ToOneOrNone("stockReservation")


class StockReservationAttributes(Attributes):
    """`state` is open-ended: `pending`, `proposed`, `accepted`, `declined`, `cancelled`, ..."""

    quantity: int | None = None
    state: str | None = None


class StockReservation(Resource):
    """Stock held for a transaction."""

    resource_type: ClassVar[str | None] = "stockReservation"
    attributes: StockReservationAttributes = Field(default_factory=StockReservationAttributes)

    listing: ClassVar[ToOne[Listing]] = ToOne("listing")
    transaction: ClassVar[ToOneOrNone[Transaction]] = ToOneOrNone("transaction")
    stock_adjustments: ClassVar[ToMany[StockAdjustment]] = ToMany("stockAdjustments")
