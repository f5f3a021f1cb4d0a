"""Transactions, their line items and transitions, bookings and process transitions."""

from __future__ import annotations

import datetime as dt
import decimal
from typing import TYPE_CHECKING, Any, ClassVar

from pydantic import Field

from flexclient._wire.value_types import Money
from flexclient.models._relations import ToMany, ToOne, ToOneOrNone
from flexclient.models._resource import Attributes, Resource, WireModel, no_items

if TYPE_CHECKING:
    # Models of the relationships, for the checkers: at run time each is looked up by name.
    from flexclient.models.files import FileAttachment
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
    include_for: list[str] = Field(default_factory=no_items)

    def __str__(self) -> str:
        """`line-item/day 3 x 49.00 EUR = 147.00 EUR for customer/provider`: the line as a
        price breakdown reads, in table cells and `print()`."""
        if self.percentage is not None:
            basis = f"{self.percentage}% of {self.unit_price}"
        else:
            count = self.quantity if self.quantity is not None else self.units
            seats = f" x {self.seats} seats" if self.seats is not None else ""
            basis = f"{count} x {self.unit_price}{seats}"
        text = f"{self.code} {basis} = {self.line_total}"
        if self.reversal:
            text += " (reversal)"
        if self.include_for:
            text += f" for {'/'.join(self.include_for)}"
        return text


class TransactionTransition(WireModel):
    """A transition the transaction went through: its name, when, and by whom (`by`)."""

    transition: str | None = None
    created_at: dt.datetime | None = None
    by: str | None = None


class TransactionAttributes(Attributes):
    """A transaction's attributes; absent ones (sparse `fields.transaction`) are None.

    Extended data too: `protected_data` or `metadata` left out is None, sent and empty is `{}`.
    `state` (open-ended) is the state of the transaction in its process.
    """

    created_at: dt.datetime | None = None
    state: str | None = None
    process_name: str | None = None
    process_version: int | None = None
    last_transition: str | None = None
    last_transitioned_at: dt.datetime | None = None
    payin_total: Money | None = None
    payout_total: Money | None = None
    line_items: list[LineItem] = Field(default_factory=no_items)
    protected_data: dict[str, Any] | None = None
    metadata: dict[str, Any] | None = None
    transitions: list[TransactionTransition] = Field(default_factory=no_items)


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

    transaction: ClassVar[ToOne[Transaction]] = ToOne("transaction")


class Transaction(Resource):
    """A transaction between a customer and a provider about a listing; the files its
    parties may download (a digital product's, the web template's download process) are
    its `protectedFileAttachments`."""

    resource_type: ClassVar[str | None] = "transaction"
    attributes: TransactionAttributes = Field(default_factory=TransactionAttributes)

    listing: ClassVar[ToOne[Listing]] = ToOne("listing")
    provider: ClassVar[ToOne[User]] = ToOne("provider")
    customer: ClassVar[ToOne[User]] = ToOne("customer")
    booking: ClassVar[ToOneOrNone[Booking]] = ToOneOrNone("booking")
    stock_reservation: ClassVar[ToOneOrNone[StockReservation]] = ToOneOrNone("stockReservation")
    reviews: ClassVar[ToMany[Review]] = ToMany("reviews")
    messages: ClassVar[ToMany[Message]] = ToMany("messages")
    protected_file_attachments: ClassVar[ToMany[FileAttachment]] = ToMany(
        "protectedFileAttachments"
    )
    marketplace: ClassVar[ToOne[Marketplace]] = ToOne("marketplace")


class ProcessTransitionAttributes(Attributes):
    name: str | None = None
    actor: list[str] = Field(default_factory=no_items)
    actions: list[Any] = Field(default_factory=no_items)
    params: dict[str, Any] = Field(default_factory=dict)


class ProcessTransition(Resource):
    """A transition a transaction can take next (`process_transitions.query`)."""

    resource_type: ClassVar[str | None] = "processTransition"
    attributes: ProcessTransitionAttributes = Field(default_factory=ProcessTransitionAttributes)
