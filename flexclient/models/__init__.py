"""Response models: the envelope, the generic resource, and one typed model per resource type."""

from typing import TYPE_CHECKING

from flexclient._support.lazy import lazy_exports

# What mypy and pyright read; at run time each name's module is imported when the name is
# first used (flexclient._support.lazy), from the table below. tests/test_public_api.py checks both.
if TYPE_CHECKING:
    from flexclient.models._envelope import (
        Envelope as Envelope,
        Meta as Meta,
    )
    from flexclient.models._relations import (
        ToMany as ToMany,
        ToOne as ToOne,
        ToOneOrNone as ToOneOrNone,
    )
    from flexclient.models._resource import (
        Attributes as Attributes,
        Ref as Ref,
        Relationship as Relationship,
        Resource as Resource,
        WireModel as WireModel,
        resource_from as resource_from,
    )
    from flexclient.models.assets import (
        Asset as Asset,
        AssetAttributes as AssetAttributes,
    )
    from flexclient.models.availability import (
        AvailabilityException as AvailabilityException,
        AvailabilityExceptionAttributes as AvailabilityExceptionAttributes,
        TimeSlot as TimeSlot,
        TimeSlotAttributes as TimeSlotAttributes,
    )
    from flexclient.models.events import (
        AuditData as AuditData,
        Event as Event,
        EventAttributes as EventAttributes,
    )
    from flexclient.models.files import (
        File as File,
        FileAttachment as FileAttachment,
        FileAttachmentAttributes as FileAttachmentAttributes,
        FileAttributes as FileAttributes,
        FileDownload as FileDownload,
        FileDownloadAttributes as FileDownloadAttributes,
        FileUpload as FileUpload,
        FileUploadAttributes as FileUploadAttributes,
        OwnFile as OwnFile,
        OwnFileAttributes as OwnFileAttributes,
        OwnFileDownload as OwnFileDownload,
    )
    from flexclient.models.images import (
        Image as Image,
        ImageAttributes as ImageAttributes,
        ImageVariant as ImageVariant,
    )
    from flexclient.models.listings import (
        Listing as Listing,
        ListingAttributes as ListingAttributes,
        OwnListing as OwnListing,
    )
    from flexclient.models.marketplace import (
        Marketplace as Marketplace,
        MarketplaceAttributes as MarketplaceAttributes,
    )
    from flexclient.models.messages import (
        Message as Message,
        MessageAttributes as MessageAttributes,
    )
    from flexclient.models.reviews import (
        Review as Review,
        ReviewAttributes as ReviewAttributes,
    )
    from flexclient.models.stock import (
        Stock as Stock,
        StockAdjustment as StockAdjustment,
        StockAdjustmentAttributes as StockAdjustmentAttributes,
        StockAttributes as StockAttributes,
        StockReservation as StockReservation,
        StockReservationAttributes as StockReservationAttributes,
    )
    from flexclient.models.stripe import (
        StripeAccount as StripeAccount,
        StripeAccountAttributes as StripeAccountAttributes,
        StripeAccountLink as StripeAccountLink,
        StripeAccountLinkAttributes as StripeAccountLinkAttributes,
        StripeCard as StripeCard,
        StripeCustomer as StripeCustomer,
        StripeCustomerAttributes as StripeCustomerAttributes,
        StripePaymentMethod as StripePaymentMethod,
        StripePaymentMethodAttributes as StripePaymentMethodAttributes,
        StripePerson as StripePerson,
        StripePersonAttributes as StripePersonAttributes,
        StripeSetupIntent as StripeSetupIntent,
        StripeSetupIntentAttributes as StripeSetupIntentAttributes,
    )
    from flexclient.models.transactions import (
        Booking as Booking,
        BookingAttributes as BookingAttributes,
        LineItem as LineItem,
        ProcessTransition as ProcessTransition,
        ProcessTransitionAttributes as ProcessTransitionAttributes,
        Transaction as Transaction,
        TransactionAttributes as TransactionAttributes,
        TransactionTransition as TransactionTransition,
    )
    from flexclient.models.users import (
        CurrentUser as CurrentUser,
        CurrentUserAttributes as CurrentUserAttributes,
        PasswordReset as PasswordReset,
        PermissionSet as PermissionSet,
        PermissionSetAttributes as PermissionSetAttributes,
        User as User,
        UserAttributes as UserAttributes,
        UserProfile as UserProfile,
    )

# For the checkers only the imports above exist: a misspelled name stays an error.
if not TYPE_CHECKING:
    __all__, __getattr__, __dir__ = lazy_exports(
        __name__,
        {
            "._envelope": (
                "Envelope",
                "Meta",
            ),
            "._relations": (
                "ToMany",
                "ToOne",
                "ToOneOrNone",
            ),
            "._resource": (
                "Attributes",
                "Ref",
                "Relationship",
                "Resource",
                "WireModel",
                "resource_from",
            ),
            ".assets": (
                "Asset",
                "AssetAttributes",
            ),
            ".availability": (
                "AvailabilityException",
                "AvailabilityExceptionAttributes",
                "TimeSlot",
                "TimeSlotAttributes",
            ),
            ".events": (
                "AuditData",
                "Event",
                "EventAttributes",
            ),
            ".files": (
                "File",
                "FileAttachment",
                "FileAttachmentAttributes",
                "FileAttributes",
                "FileDownload",
                "FileDownloadAttributes",
                "FileUpload",
                "FileUploadAttributes",
                "OwnFile",
                "OwnFileAttributes",
                "OwnFileDownload",
            ),
            ".images": (
                "Image",
                "ImageAttributes",
                "ImageVariant",
            ),
            ".listings": (
                "Listing",
                "ListingAttributes",
                "OwnListing",
            ),
            ".marketplace": (
                "Marketplace",
                "MarketplaceAttributes",
            ),
            ".messages": (
                "Message",
                "MessageAttributes",
            ),
            ".reviews": (
                "Review",
                "ReviewAttributes",
            ),
            ".stock": (
                "Stock",
                "StockAdjustment",
                "StockAdjustmentAttributes",
                "StockAttributes",
                "StockReservation",
                "StockReservationAttributes",
            ),
            ".stripe": (
                "StripeAccount",
                "StripeAccountAttributes",
                "StripeAccountLink",
                "StripeAccountLinkAttributes",
                "StripeCard",
                "StripeCustomer",
                "StripeCustomerAttributes",
                "StripePaymentMethod",
                "StripePaymentMethodAttributes",
                "StripePerson",
                "StripePersonAttributes",
                "StripeSetupIntent",
                "StripeSetupIntentAttributes",
            ),
            ".transactions": (
                "Booking",
                "BookingAttributes",
                "LineItem",
                "ProcessTransition",
                "ProcessTransitionAttributes",
                "Transaction",
                "TransactionAttributes",
                "TransactionTransition",
            ),
            ".users": (
                "CurrentUser",
                "CurrentUserAttributes",
                "PasswordReset",
                "PermissionSet",
                "PermissionSetAttributes",
                "User",
                "UserAttributes",
                "UserProfile",
            ),
        },
    )
