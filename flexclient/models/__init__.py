"""Response models: the envelope, the generic resource, one typed model per resource type, and
the models of an error body (`ErrorEnvelope`, the type of `ApiError.data`, its `ErrorItem`s and
their `ErrorSource`)."""

from typing import TYPE_CHECKING

from flexclient._support.lazy import lazy_exports

# The public names. mypy and pyright read these imports; at run time the block does not run,
# and each name's module is imported when the name is first used, as the table given to
# `lazy_exports` below says (flexclient._support.lazy). A new public name goes in both
# (tests/test_public_api.py checks that they list the same names, in the same order).
if TYPE_CHECKING:
    from flexclient._errors.body import (
        ErrorEnvelope as ErrorEnvelope,
        ErrorItem as ErrorItem,
        ErrorSource as ErrorSource,
    )
    from flexclient.models._decoding import (
        CollectorPause as CollectorPause,
        pause_collector_while_decoding as pause_collector_while_decoding,
    )
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
        register_model as register_model,
        registered as registered,
        registered_models as registered_models,
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

# For the checkers only the imports above exist: a misspelled name stays an error. At run time,
# the same names as data (no source file is read: bytecode alone, or a zip, is enough).
if not TYPE_CHECKING:
    __getattr__, __dir__ = lazy_exports(
        __name__,
        {
            "flexclient._errors.body": (
                "ErrorEnvelope",
                "ErrorItem",
                "ErrorSource",
            ),
            "flexclient.models._decoding": (
                "CollectorPause",
                "pause_collector_while_decoding",
            ),
            "flexclient.models._envelope": (
                "Envelope",
                "Meta",
            ),
            "flexclient.models._relations": (
                "ToMany",
                "ToOne",
                "ToOneOrNone",
            ),
            "flexclient.models._resource": (
                "Attributes",
                "Ref",
                "Relationship",
                "Resource",
                "WireModel",
                "register_model",
                "registered",
                "registered_models",
                "resource_from",
            ),
            "flexclient.models.assets": (
                "Asset",
                "AssetAttributes",
            ),
            "flexclient.models.availability": (
                "AvailabilityException",
                "AvailabilityExceptionAttributes",
                "TimeSlot",
                "TimeSlotAttributes",
            ),
            "flexclient.models.events": (
                "AuditData",
                "Event",
                "EventAttributes",
            ),
            "flexclient.models.files": (
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
            "flexclient.models.images": (
                "Image",
                "ImageAttributes",
                "ImageVariant",
            ),
            "flexclient.models.listings": (
                "Listing",
                "ListingAttributes",
                "OwnListing",
            ),
            "flexclient.models.marketplace": (
                "Marketplace",
                "MarketplaceAttributes",
            ),
            "flexclient.models.messages": (
                "Message",
                "MessageAttributes",
            ),
            "flexclient.models.reviews": (
                "Review",
                "ReviewAttributes",
            ),
            "flexclient.models.stock": (
                "Stock",
                "StockAdjustment",
                "StockAdjustmentAttributes",
                "StockAttributes",
                "StockReservation",
                "StockReservationAttributes",
            ),
            "flexclient.models.stripe": (
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
            "flexclient.models.transactions": (
                "Booking",
                "BookingAttributes",
                "LineItem",
                "ProcessTransition",
                "ProcessTransitionAttributes",
                "Transaction",
                "TransactionAttributes",
                "TransactionTransition",
            ),
            "flexclient.models.users": (
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
