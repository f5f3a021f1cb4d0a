"""Parameters of the stock, stock adjustments and stock reservations endpoints."""

import datetime as dt
from typing import Required, TypedDict

from flexclient.params._common import Id, IntegerText, PageOptions, ShowParams


class StockAdjustmentsQueryParams(PageOptions, total=False):
    """`stock_adjustments.query` (both APIs): a listing's adjustments in a period."""

    listingId: Required[Id]
    start: Required[dt.datetime]
    end: Required[dt.datetime]


class StockAdjustmentsCreateParams(TypedDict):
    """`stock_adjustments.create` (both APIs): add (or, negative, remove) `quantity`."""

    listingId: Id
    quantity: int


class StockCompareAndSetParams(TypedDict):
    """`stock.compare_and_set` (both APIs): set the total to `newTotal` if it is still
    `oldTotal` (None: the listing has no stock yet). Either total may be an integer's text
    (`"3"`), as the web template sends its form's value: the API reads it as the integer."""

    listingId: Id
    oldTotal: int | IntegerText | None
    newTotal: int | IntegerText


class StockReservationsShowParams(ShowParams, total=False):
    """Integration `stock_reservations.show`."""
