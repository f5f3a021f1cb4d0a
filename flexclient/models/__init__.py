"""Response models: the envelope, the generic resource, and one typed model per resource type."""

from flexclient.models._envelope import Envelope, Meta
from flexclient.models._resource import (
    Attributes,
    Ref,
    Relationship,
    Resource,
    WireModel,
    resource_from,
)
from flexclient.models.availability import (
    AvailabilityException,
    AvailabilityExceptionAttributes,
    TimeSlot,
    TimeSlotAttributes,
)
from flexclient.models.events import AuditData, Event, EventAttributes
from flexclient.models.images import Image, ImageAttributes, ImageVariant
from flexclient.models.listings import Listing, ListingAttributes, OwnListing
from flexclient.models.marketplace import Marketplace, MarketplaceAttributes
from flexclient.models.messages import Message, MessageAttributes
from flexclient.models.reviews import Review, ReviewAttributes
from flexclient.models.stock import (
    Stock,
    StockAdjustment,
    StockAdjustmentAttributes,
    StockAttributes,
    StockReservation,
    StockReservationAttributes,
)
from flexclient.models.transactions import (
    Booking,
    BookingAttributes,
    LineItem,
    ProcessTransition,
    ProcessTransitionAttributes,
    Transaction,
    TransactionAttributes,
    TransactionTransition,
)
from flexclient.models.users import (
    CurrentUser,
    CurrentUserAttributes,
    User,
    UserAttributes,
    UserProfile,
)

__all__ = [
    "Attributes",
    "AuditData",
    "AvailabilityException",
    "AvailabilityExceptionAttributes",
    "Booking",
    "BookingAttributes",
    "CurrentUser",
    "CurrentUserAttributes",
    "Envelope",
    "Event",
    "EventAttributes",
    "Image",
    "ImageAttributes",
    "ImageVariant",
    "LineItem",
    "Listing",
    "ListingAttributes",
    "Marketplace",
    "MarketplaceAttributes",
    "Message",
    "MessageAttributes",
    "Meta",
    "OwnListing",
    "ProcessTransition",
    "ProcessTransitionAttributes",
    "Ref",
    "Relationship",
    "Resource",
    "Review",
    "ReviewAttributes",
    "Stock",
    "StockAdjustment",
    "StockAdjustmentAttributes",
    "StockAttributes",
    "StockReservation",
    "StockReservationAttributes",
    "TimeSlot",
    "TimeSlotAttributes",
    "Transaction",
    "TransactionAttributes",
    "TransactionTransition",
    "User",
    "UserAttributes",
    "UserProfile",
    "WireModel",
    "resource_from",
]
