"""Transactions, their line items and transitions, bookings and process transitions."""

from __future__ import annotations

import datetime as dt
import decimal
from typing import Any, ClassVar

from pydantic import Field

from flexclient._types import Money
from flexclient.models._resource import Attributes, Resource, WireModel
from flexclient.models.listings import Listing
from flexclient.models.marketplace import Marketplace
from flexclient.models.messages import Message
from flexclient.models.reviews import Review
from flexclient.models.stock import StockReservation
from flexclient.models.users import User


class LineItem(WireModel):
    """One line of a transaction's price breakdown.

    `quantity`, `units` and `percentage` are exact decimals; `include_for` lists the parties
    (`customer`, `provider`) the line applies to.
    """

    code: str | None = None
    unit_price: Money | None = None
    quantity: decimal.Decimal | None = None
    units: decimal.Decimal | None = None
    seats: int | None = None
    percentage: decimal.Decimal | None = None
    line_total: Money | None = None
    reversal: bool | None = None
    include_for: list[str] = Field(default_factory=list)


class TransactionTransition(WireModel):
    """A transition the transaction went through: its name, when, and by whom (`by`)."""

    transition: str | None = None
    created_at: dt.datetime | None = None
    by: str | None = None


class TransactionAttributes(Attributes):
    """A transaction's attributes; absent ones (sparse `fields.transaction`) are None.

    Extended data too: `protected_data` or `metadata` left out is None, sent and empty is `{}`.
    """

    created_at: dt.datetime | None = None
    process_name: str | None = None
    process_version: int | None = None
    last_transition: str | None = None
    last_transitioned_at: dt.datetime | None = None
    payin_total: Money | None = None
    payout_total: Money | None = None
    line_items: list[LineItem] = Field(default_factory=list)
    protected_data: dict[str, Any] | None = None
    metadata: dict[str, Any] | None = None
    transitions: list[TransactionTransition] = Field(default_factory=list)


class BookingAttributes(Attributes):
    """`state` is open-ended: `pending`, `proposed`, `accepted`, `declined`, `cancelled`."""

    seats: int | None = None
    start: dt.datetime | None = None
    end: dt.datetime | None = None
    display_start: dt.datetime | None = None
    display_end: dt.datetime | None = None
    state: str | None = None


class Booking(Resource):
    """A booking made by a transaction."""

    resource_type: ClassVar[str | None] = "booking"
    attributes: BookingAttributes = Field(default_factory=BookingAttributes)

    @property
    def transaction(self) -> Transaction:
        return self._required("transaction", Transaction)


class Transaction(Resource):
    """A transaction between a customer and a provider about a listing."""

    resource_type: ClassVar[str | None] = "transaction"
    attributes: TransactionAttributes = Field(default_factory=TransactionAttributes)

    @property
    def listing(self) -> Listing:
        return self._required("listing", Listing)

    @property
    def provider(self) -> User:
        return self._required("provider", User)

    @property
    def customer(self) -> User:
        return self._required("customer", User)

    @property
    def booking(self) -> Booking | None:
        return self._one("booking", Booking)

    @property
    def stock_reservation(self) -> StockReservation | None:
        return self._one("stockReservation", StockReservation)

    @property
    def reviews(self) -> list[Review]:
        return self._many("reviews", Review)

    @property
    def messages(self) -> list[Message]:
        return self._many("messages", Message)

    @property
    def marketplace(self) -> Marketplace:
        return self._required("marketplace", Marketplace)


class ProcessTransitionAttributes(Attributes):
    name: str | None = None
    actor: list[str] = Field(default_factory=list)
    actions: list[Any] = Field(default_factory=list)
    params: dict[str, Any] = Field(default_factory=dict)


class ProcessTransition(Resource):
    """A transition a transaction can take next (`process_transitions.query`)."""

    resource_type: ClassVar[str | None] = "processTransition"
    attributes: ProcessTransitionAttributes = Field(default_factory=ProcessTransitionAttributes)
