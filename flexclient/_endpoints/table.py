"""The endpoint table: every endpoint of both APIs, grouped as the API groups them.

This is data. Each line names an endpoint's kind, the TypedDict of the parameters it takes
(`flexclient.params`), the model of what it returns (`flexclient.models`), its path below
the API's prefix (`/v1/api/` or `/v1/integration_api/`) and what it does, in a sentence that
`help()` shows. The kinds (`flexclient._endpoints.kinds`): `Query` (GET of one resource),
`ListQuery` (GET of a list, page by page), `Command` (POST), `Upload` (multipart POST);
`OptionalQuery`, `OptionalListQuery` and `OptionalCommand` are those whose parameters have no
required keys, so that the method can be called without them.

Every endpoint returns a typed model; the least documented ones say so in their model
(`PasswordReset`: no attributes documented). Both clients are these groups plus the shared
machinery in `flexclient._base_client`; `tests/test_endpoint_table.py` checks this table against
the API's list of endpoints, and that its kinds agree with the TypedDicts' required keys.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

from flexclient._endpoints.kinds import (
    Command,
    Group,
    GroupSlot,
    ListQuery,
    OptionalCommand,
    OptionalListQuery,
    OptionalQuery,
    Query,
    Upload,
    group,
)

# Read by the checkers; at run time each endpoint reads its types when first needed.
if TYPE_CHECKING:
    from flexclient.models import (
        Asset,
        AvailabilityException,
        Booking,
        CurrentUser,
        Event,
        File,
        FileAttachment,
        FileDownload,
        FileUpload,
        Image,
        Listing,
        Marketplace,
        Message,
        OwnFile,
        OwnFileDownload,
        OwnListing,
        PasswordReset,
        ProcessTransition,
        Review,
        Stock,
        StockAdjustment,
        StockReservation,
        StripeAccount,
        StripeAccountLink,
        StripeCustomer,
        StripePerson,
        StripeSetupIntent,
        TimeSlot,
        Transaction,
        User,
    )
    from flexclient.params import (
        AvailabilityExceptionsCreateParams,
        AvailabilityExceptionsDeleteParams,
        AvailabilityExceptionsQueryParams,
        BookingsQueryParams,
        CurrentUserChangeEmailParams,
        CurrentUserChangePasswordParams,
        CurrentUserCreateParams,
        CurrentUserCreateStripeAccountParams,
        CurrentUserCreateWithIdpParams,
        CurrentUserDeleteParams,
        CurrentUserDeleteStripeAccountParams,
        CurrentUserSendVerificationEmailParams,
        CurrentUserShowParams,
        CurrentUserUpdateProfileParams,
        CurrentUserUpdateStripeAccountParams,
        CurrentUserVerifyEmailParams,
        EventsQueryParams,
        FileAttachmentsQueryParams,
        FileDownloadsCreateParams,
        FilesCreateParams,
        FilesQueryParams,
        FilesShowParams,
        FileUploadsCreateParams,
        ImagesUploadParams,
        IntegrationListingsCreateParams,
        IntegrationListingsQueryParams,
        IntegrationListingsUpdateParams,
        IntegrationTransactionsQueryParams,
        IntegrationUsersShowParams,
        IntegrationUsersUpdateProfileParams,
        ListingsApproveParams,
        ListingsCloseParams,
        ListingsOpenParams,
        ListingsQueryParams,
        ListingsSearchParams,
        ListingsShowParams,
        MarketplaceShowParams,
        MessagesQueryParams,
        MessagesSendParams,
        OwnFileDownloadsCreateParams,
        OwnFilesCreateParams,
        OwnFilesShowParams,
        OwnListingsAddImageParams,
        OwnListingsCloseParams,
        OwnListingsCreateDraftParams,
        OwnListingsCreateParams,
        OwnListingsDiscardDraftParams,
        OwnListingsOpenParams,
        OwnListingsPublishDraftParams,
        OwnListingsQueryParams,
        OwnListingsShowParams,
        OwnListingsUpdateParams,
        PasswordResetRequestParams,
        PasswordResetResetParams,
        ProcessTransitionsQueryParams,
        ReviewsQueryParams,
        ReviewsShowParams,
        SitemapDataQueryAssetsParams,
        SitemapDataQueryListingsParams,
        StockAdjustmentsCreateParams,
        StockAdjustmentsQueryParams,
        StockCompareAndSetParams,
        StockReservationsShowParams,
        StripeAccountCreateParams,
        StripeAccountFetchParams,
        StripeAccountLinksCreateParams,
        StripeAccountUpdateParams,
        StripeCustomerAddPaymentMethodParams,
        StripeCustomerCreateParams,
        StripeCustomerDeleteParams,
        StripeCustomerDeletePaymentMethodParams,
        StripePersonsCreateParams,
        StripeSetupIntentsCreateParams,
        TimeslotsQueryParams,
        TransactionsInitiateParams,
        TransactionsInitiateSpeculativeParams,
        TransactionsQueryParams,
        TransactionsShowParams,
        TransactionsTransitionParams,
        TransactionsTransitionSpeculativeParams,
        TransactionsUpdateMetadataParams,
        UsersApproveParams,
        UsersQueryParams,
        UsersShowParams,
        UsersUpdatePermissionsParams,
        UsersVerifyEmailParams,
    )

# Marketplace API (/v1/api/)


class MarketplaceMarketplace(Group):
    """`marketplace` endpoints of the Marketplace API."""

    show: OptionalQuery[MarketplaceShowParams, Marketplace] = OptionalQuery(
        "marketplace/show", "The marketplace itself: its name and description."
    )


class MarketplaceUsers(Group):
    """`users` endpoints of the Marketplace API."""

    show: Query[UsersShowParams, User] = Query("users/show", "A user's public profile.")


class MarketplaceCurrentUser(Group):
    """`current_user` endpoints of the Marketplace API."""

    show: OptionalQuery[CurrentUserShowParams, CurrentUser] = OptionalQuery(
        "current_user/show", "The logged-in user, with their private data."
    )
    create: Command[CurrentUserCreateParams, CurrentUser] = Command(
        "current_user/create", "Sign up: create a user, who can then log in."
    )
    create_with_idp: Command[CurrentUserCreateWithIdpParams, CurrentUser] = Command(
        "current_user/create_with_idp",
        "Sign up with an identity provider's token (Facebook, Google, OpenID Connect).",
    )
    update_profile: OptionalCommand[CurrentUserUpdateProfileParams, CurrentUser] = OptionalCommand(
        "current_user/update_profile",
        "Change the logged-in user's profile: names, bio, image, extended data.",
    )
    change_email: Command[CurrentUserChangeEmailParams, CurrentUser] = Command(
        "current_user/change_email",
        "Change the logged-in user's email address, given their password.",
    )
    change_password: Command[CurrentUserChangePasswordParams, CurrentUser] = Command(
        "current_user/change_password",
        "Change the logged-in user's password, given the current one.",
    )
    delete: Command[CurrentUserDeleteParams, CurrentUser] = Command(
        "current_user/delete", "Delete the logged-in user's account, given their password."
    )
    verify_email: Command[CurrentUserVerifyEmailParams, CurrentUser] = Command(
        "current_user/verify_email",
        "Verify the logged-in user's email address with the token the email sent.",
    )
    send_verification_email: OptionalCommand[
        CurrentUserSendVerificationEmailParams, CurrentUser
    ] = OptionalCommand(
        "current_user/send_verification_email",
        "Send the logged-in user the email that verifies their address again.",
    )
    create_stripe_account: OptionalCommand[CurrentUserCreateStripeAccountParams, CurrentUser] = (
        OptionalCommand(
            "current_user/create_stripe_account",
            "Deprecated: create the logged-in user's Stripe account; use `stripe_account.create`.",
        )
    )
    update_stripe_account: OptionalCommand[CurrentUserUpdateStripeAccountParams, CurrentUser] = (
        OptionalCommand(
            "current_user/update_stripe_account",
            "Deprecated: change the logged-in user's Stripe account; use `stripe_account.update`.",
        )
    )
    delete_stripe_account: OptionalCommand[CurrentUserDeleteStripeAccountParams, CurrentUser] = (
        OptionalCommand(
            "current_user/delete_stripe_account",
            "Delete the logged-in user's Stripe account.",
            deprecated="the API reference no longer lists it",
        )
    )


class MarketplacePasswordReset(Group):
    """`password_reset` endpoints of the Marketplace API."""

    request: Command[PasswordResetRequestParams, PasswordReset] = Command(
        "password_reset/request", "Send a user an email with a token to reset their password."
    )
    reset: Command[PasswordResetResetParams, PasswordReset] = Command(
        "password_reset/reset", "Set a new password with the token of a password reset email."
    )


class MarketplaceListings(Group):
    """`listings` endpoints of the Marketplace API."""

    show: Query[ListingsShowParams, Listing] = Query("listings/show", "A published listing.")
    query: OptionalListQuery[ListingsQueryParams, Listing] = OptionalListQuery(
        "listings/query", "The marketplace's published listings: searched, filtered and sorted."
    )
    search: OptionalListQuery[ListingsSearchParams, Listing] = OptionalListQuery(
        "listings/search",
        "The older name of `listings.query`: the published listings, searched.",
        deprecated="the API reference no longer lists it; use `listings.query`",
    )


class MarketplaceOwnListings(Group):
    """`own_listings` endpoints of the Marketplace API."""

    show: Query[OwnListingsShowParams, OwnListing] = Query(
        "own_listings/show", "A listing of the logged-in user, in any state."
    )
    query: OptionalListQuery[OwnListingsQueryParams, OwnListing] = OptionalListQuery(
        "own_listings/query", "The logged-in user's listings, in any state."
    )
    create: Command[OwnListingsCreateParams, OwnListing] = Command(
        "own_listings/create",
        "Create a listing of the logged-in user, published at once (or pending approval).",
    )
    create_draft: Command[OwnListingsCreateDraftParams, OwnListing] = Command(
        "own_listings/create_draft",
        "Create a draft listing of the logged-in user, to publish later.",
    )
    publish_draft: Command[OwnListingsPublishDraftParams, OwnListing] = Command(
        "own_listings/publish_draft", "Publish a draft listing (or send it for approval)."
    )
    discard_draft: Command[OwnListingsDiscardDraftParams, OwnListing] = Command(
        "own_listings/discard_draft", "Delete a draft listing."
    )
    update: Command[OwnListingsUpdateParams, OwnListing] = Command(
        "own_listings/update", "Change a listing of the logged-in user."
    )
    open: Command[OwnListingsOpenParams, OwnListing] = Command(
        "own_listings/open", "Open a closed listing of the logged-in user again."
    )
    close: Command[OwnListingsCloseParams, OwnListing] = Command(
        "own_listings/close",
        "Close a listing of the logged-in user: it is no longer shown or bookable.",
    )
    add_image: Command[OwnListingsAddImageParams, OwnListing] = Command(
        "own_listings/add_image",
        "Add an uploaded image (`images.upload`) to a listing of the logged-in user.",
    )


class MarketplaceAvailabilityExceptions(Group):
    """`availability_exceptions` endpoints of the Marketplace API."""

    create: Command[AvailabilityExceptionsCreateParams, AvailabilityException] = Command(
        "availability_exceptions/create",
        "Set a listing's available seats for a period, instead of what its plan says.",
    )
    delete: Command[AvailabilityExceptionsDeleteParams, AvailabilityException] = Command(
        "availability_exceptions/delete", "Delete an availability exception of a listing."
    )
    query: ListQuery[AvailabilityExceptionsQueryParams, AvailabilityException] = ListQuery(
        "availability_exceptions/query", "A listing's availability exceptions in a period."
    )


class MarketplaceImages(Group):
    """`images` endpoints of the Marketplace API."""

    upload: Upload[ImagesUploadParams, Image] = Upload(
        "images/upload", "Upload an image, to add to a listing or a profile by its ID."
    )


class MarketplaceTransactions(Group):
    """`transactions` endpoints of the Marketplace API."""

    initiate: Command[TransactionsInitiateParams, Transaction] = Command(
        "transactions/initiate", "Start a transaction of a process with its first transition."
    )
    initiate_speculative: Command[TransactionsInitiateSpeculativeParams, Transaction] = Command(
        "transactions/initiate_speculative",
        "What `transactions.initiate` would do, without doing it: the line items and price.",
    )
    transition: Command[TransactionsTransitionParams, Transaction] = Command(
        "transactions/transition", "Take a transition of a transaction of the logged-in user."
    )
    transition_speculative: Command[TransactionsTransitionSpeculativeParams, Transaction] = Command(
        "transactions/transition_speculative",
        "What `transactions.transition` would do, without doing it.",
    )
    query: OptionalListQuery[TransactionsQueryParams, Transaction] = OptionalListQuery(
        "transactions/query", "The logged-in user's transactions: their sales or orders."
    )
    show: Query[TransactionsShowParams, Transaction] = Query(
        "transactions/show", "A transaction of the logged-in user."
    )


class MarketplaceProcessTransitions(Group):
    """`process_transitions` endpoints of the Marketplace API."""

    query: OptionalListQuery[ProcessTransitionsQueryParams, ProcessTransition] = OptionalListQuery(
        "process_transitions/query",
        "The transitions a transaction can take next, or those of a process.",
    )


class MarketplaceBookings(Group):
    """`bookings` endpoints of the Marketplace API."""

    query: ListQuery[BookingsQueryParams, Booking] = ListQuery(
        "bookings/query", "The bookings of a listing of the logged-in user, in a period."
    )


class MarketplaceMessages(Group):
    """`messages` endpoints of the Marketplace API."""

    query: OptionalListQuery[MessagesQueryParams, Message] = OptionalListQuery(
        "messages/query", "The messages of a transaction."
    )
    send: Command[MessagesSendParams, Message] = Command(
        "messages/send", "Send a message in a transaction."
    )


class MarketplaceReviews(Group):
    """`reviews` endpoints of the Marketplace API."""

    query: OptionalListQuery[ReviewsQueryParams, Review] = OptionalListQuery(
        "reviews/query", "Reviews of a listing, a user or a transaction."
    )
    show: Query[ReviewsShowParams, Review] = Query("reviews/show", "A review.")


class MarketplaceTimeslots(Group):
    """`timeslots` endpoints of the Marketplace API."""

    query: ListQuery[TimeslotsQueryParams, TimeSlot] = ListQuery(
        "timeslots/query", "The free time of a listing in a period, as time slots."
    )


class MarketplaceStripeAccount(Group):
    """`stripe_account` endpoints of the Marketplace API."""

    create: Command[StripeAccountCreateParams, StripeAccount] = Command(
        "stripe_account/create", "Create the logged-in user's Stripe Connect account, to be paid."
    )
    fetch: OptionalQuery[StripeAccountFetchParams, StripeAccount] = OptionalQuery(
        "stripe_account/fetch", "The logged-in user's Stripe Connect account."
    )
    update: OptionalCommand[StripeAccountUpdateParams, StripeAccount] = OptionalCommand(
        "stripe_account/update", "Change the logged-in user's Stripe Connect account."
    )


class MarketplaceStripeAccountLinks(Group):
    """`stripe_account_links` endpoints of the Marketplace API."""

    create: Command[StripeAccountLinksCreateParams, StripeAccountLink] = Command(
        "stripe_account_links/create",
        "A link to a Stripe page where the user fills in their account.",
    )


class MarketplaceStripePersons(Group):
    """`stripe_persons` endpoints of the Marketplace API."""

    create: Command[StripePersonsCreateParams, StripePerson] = Command(
        "stripe_persons/create",
        "Add a person (owner, director, ...) to the company of a Stripe account.",
    )


class MarketplaceStripeSetupIntents(Group):
    """`stripe_setup_intents` endpoints of the Marketplace API."""

    create: OptionalCommand[StripeSetupIntentsCreateParams, StripeSetupIntent] = OptionalCommand(
        "stripe_setup_intents/create", "A Stripe SetupIntent, to save a payment method for later."
    )


class MarketplaceStripeCustomer(Group):
    """`stripe_customer` endpoints of the Marketplace API."""

    create: OptionalCommand[StripeCustomerCreateParams, StripeCustomer] = OptionalCommand(
        "stripe_customer/create",
        "Make the logged-in user a Stripe customer, optionally with a payment method.",
    )
    add_payment_method: Command[StripeCustomerAddPaymentMethodParams, StripeCustomer] = Command(
        "stripe_customer/add_payment_method",
        "Set the default payment method of the logged-in user's Stripe customer.",
    )
    delete_payment_method: OptionalCommand[
        StripeCustomerDeletePaymentMethodParams, StripeCustomer
    ] = OptionalCommand(
        "stripe_customer/delete_payment_method",
        "Remove the default payment method of the logged-in user's Stripe customer.",
    )
    delete: OptionalCommand[StripeCustomerDeleteParams, StripeCustomer] = OptionalCommand(
        "stripe_customer/delete",
        "Delete the logged-in user's Stripe customer (answering it, by assumption).",
    )


class MarketplaceStockAdjustments(Group):
    """`stock_adjustments` endpoints of the Marketplace API."""

    query: ListQuery[StockAdjustmentsQueryParams, StockAdjustment] = ListQuery(
        "stock_adjustments/query", "The stock adjustments of a listing in a period."
    )
    create: Command[StockAdjustmentsCreateParams, StockAdjustment] = Command(
        "stock_adjustments/create", "Add to (or take from) a listing's stock."
    )


class MarketplaceStock(Group):
    """`stock` endpoints of the Marketplace API."""

    compare_and_set: Command[StockCompareAndSetParams, Stock] = Command(
        "stock/compare_and_set", "Set a listing's stock, if it is still what the caller last saw."
    )


class MarketplaceSitemapData(Group):
    """`sitemap_data` endpoints of the Marketplace API."""

    query_listings: OptionalListQuery[SitemapDataQueryListingsParams, Listing] = OptionalListQuery(
        "sitemap_data/query_listings", "The IDs of the newest public listings, for a sitemap."
    )
    query_assets: OptionalListQuery[SitemapDataQueryAssetsParams, Asset] = OptionalListQuery(
        "sitemap_data/query_assets", "The content pages made in Console, for a sitemap."
    )


class MarketplaceOwnFiles(Group):
    """`own_files` endpoints of the Marketplace API."""

    create: Command[OwnFilesCreateParams, OwnFile] = Command(
        "own_files/create",
        "Register a file of the logged-in user (name, type, size), to upload next.",
    )
    show: Query[OwnFilesShowParams, OwnFile] = Query(
        "own_files/show", "A file of the logged-in user."
    )


class MarketplaceFileUploads(Group):
    """`file_uploads` endpoints of the Marketplace API."""

    create: OptionalCommand[FileUploadsCreateParams, FileUpload] = OptionalCommand(
        "file_uploads/create", "Where to upload the bytes of a registered file: a short-lived URL."
    )


class MarketplaceOwnFileDownloads(Group):
    """`own_file_downloads` endpoints of the Marketplace API."""

    create: Command[OwnFileDownloadsCreateParams, OwnFileDownload] = Command(
        "own_file_downloads/create", "A short-lived URL to download a file of the logged-in user."
    )


class MarketplaceFileDownloads(Group):
    """`file_downloads` endpoints of the Marketplace API."""

    create: OptionalCommand[FileDownloadsCreateParams, FileDownload] = OptionalCommand(
        "file_downloads/create", "A short-lived URL to download an attached file."
    )


class MarketplaceFiles(Group):
    """`files` endpoints of the Marketplace API."""

    show: Query[FilesShowParams, File] = Query(
        "files/show", "A file attached to something, by the ID of the attachment."
    )


class MarketplaceEndpoints:
    """Every group of the Marketplace API, as client attributes."""

    marketplace: ClassVar[GroupSlot[MarketplaceMarketplace]] = group(MarketplaceMarketplace)
    users: ClassVar[GroupSlot[MarketplaceUsers]] = group(MarketplaceUsers)
    current_user: ClassVar[GroupSlot[MarketplaceCurrentUser]] = group(MarketplaceCurrentUser)
    password_reset: ClassVar[GroupSlot[MarketplacePasswordReset]] = group(MarketplacePasswordReset)
    listings: ClassVar[GroupSlot[MarketplaceListings]] = group(MarketplaceListings)
    own_listings: ClassVar[GroupSlot[MarketplaceOwnListings]] = group(MarketplaceOwnListings)
    availability_exceptions: ClassVar[GroupSlot[MarketplaceAvailabilityExceptions]] = group(
        MarketplaceAvailabilityExceptions
    )
    images: ClassVar[GroupSlot[MarketplaceImages]] = group(MarketplaceImages)
    transactions: ClassVar[GroupSlot[MarketplaceTransactions]] = group(MarketplaceTransactions)
    process_transitions: ClassVar[GroupSlot[MarketplaceProcessTransitions]] = group(
        MarketplaceProcessTransitions
    )
    bookings: ClassVar[GroupSlot[MarketplaceBookings]] = group(MarketplaceBookings)
    messages: ClassVar[GroupSlot[MarketplaceMessages]] = group(MarketplaceMessages)
    reviews: ClassVar[GroupSlot[MarketplaceReviews]] = group(MarketplaceReviews)
    timeslots: ClassVar[GroupSlot[MarketplaceTimeslots]] = group(MarketplaceTimeslots)
    stripe_account: ClassVar[GroupSlot[MarketplaceStripeAccount]] = group(MarketplaceStripeAccount)
    stripe_account_links: ClassVar[GroupSlot[MarketplaceStripeAccountLinks]] = group(
        MarketplaceStripeAccountLinks
    )
    stripe_persons: ClassVar[GroupSlot[MarketplaceStripePersons]] = group(MarketplaceStripePersons)
    stripe_setup_intents: ClassVar[GroupSlot[MarketplaceStripeSetupIntents]] = group(
        MarketplaceStripeSetupIntents
    )
    stripe_customer: ClassVar[GroupSlot[MarketplaceStripeCustomer]] = group(
        MarketplaceStripeCustomer
    )
    stock_adjustments: ClassVar[GroupSlot[MarketplaceStockAdjustments]] = group(
        MarketplaceStockAdjustments
    )
    stock: ClassVar[GroupSlot[MarketplaceStock]] = group(MarketplaceStock)
    sitemap_data: ClassVar[GroupSlot[MarketplaceSitemapData]] = group(MarketplaceSitemapData)
    own_files: ClassVar[GroupSlot[MarketplaceOwnFiles]] = group(MarketplaceOwnFiles)
    file_uploads: ClassVar[GroupSlot[MarketplaceFileUploads]] = group(MarketplaceFileUploads)
    own_file_downloads: ClassVar[GroupSlot[MarketplaceOwnFileDownloads]] = group(
        MarketplaceOwnFileDownloads
    )
    file_downloads: ClassVar[GroupSlot[MarketplaceFileDownloads]] = group(MarketplaceFileDownloads)
    files: ClassVar[GroupSlot[MarketplaceFiles]] = group(MarketplaceFiles)


# Integration API (/v1/integration_api/)


class IntegrationMarketplace(Group):
    """`marketplace` endpoints of the Integration API."""

    show: OptionalQuery[MarketplaceShowParams, Marketplace] = OptionalQuery(
        "marketplace/show", "The marketplace itself: its name and description."
    )


class IntegrationUsers(Group):
    """`users` endpoints of the Integration API."""

    show: OptionalQuery[IntegrationUsersShowParams, User] = OptionalQuery(
        "users/show", "Any user, by ID or by email address, with their private data."
    )
    query: OptionalListQuery[UsersQueryParams, User] = OptionalListQuery(
        "users/query", "The marketplace's users: filtered and sorted."
    )
    update_profile: Command[IntegrationUsersUpdateProfileParams, User] = Command(
        "users/update_profile", "Change a user's profile: names, bio, image, extended data."
    )
    approve: Command[UsersApproveParams, User] = Command(
        "users/approve", "Approve a user pending approval."
    )
    update_permissions: Command[UsersUpdatePermissionsParams, User] = Command(
        "users/update_permissions",
        "Change what a user may do: post listings, initiate transactions, read.",
    )
    verify_email: Command[UsersVerifyEmailParams, User] = Command(
        "users/verify_email", "Mark a user's email address verified."
    )


class IntegrationListings(Group):
    """`listings` endpoints of the Integration API."""

    show: Query[ListingsShowParams, Listing] = Query("listings/show", "Any listing, in any state.")
    query: OptionalListQuery[IntegrationListingsQueryParams, Listing] = OptionalListQuery(
        "listings/query", "The marketplace's listings, in any state: filtered and sorted."
    )
    update: Command[IntegrationListingsUpdateParams, Listing] = Command(
        "listings/update", "Change a listing."
    )
    approve: Command[ListingsApproveParams, Listing] = Command(
        "listings/approve", "Approve a listing pending approval."
    )
    open: Command[ListingsOpenParams, Listing] = Command(
        "listings/open", "Open a closed listing again."
    )
    create: Command[IntegrationListingsCreateParams, Listing] = Command(
        "listings/create", "Create a listing for a user."
    )
    close: Command[ListingsCloseParams, Listing] = Command(
        "listings/close", "Close a listing: it is no longer shown or bookable."
    )


class IntegrationTransactions(Group):
    """`transactions` endpoints of the Integration API."""

    query: OptionalListQuery[IntegrationTransactionsQueryParams, Transaction] = OptionalListQuery(
        "transactions/query", "The marketplace's transactions: filtered and sorted."
    )
    show: Query[TransactionsShowParams, Transaction] = Query(
        "transactions/show", "Any transaction."
    )
    transition: Command[TransactionsTransitionParams, Transaction] = Command(
        "transactions/transition", "Take a transition of a transaction, as the operator."
    )
    transition_speculative: Command[TransactionsTransitionSpeculativeParams, Transaction] = Command(
        "transactions/transition_speculative",
        "What `transactions.transition` would do, without doing it.",
    )
    update_metadata: Command[TransactionsUpdateMetadataParams, Transaction] = Command(
        "transactions/update_metadata", "Change a transaction's metadata."
    )


class IntegrationImages(Group):
    """`images` endpoints of the Integration API."""

    upload: Upload[ImagesUploadParams, Image] = Upload(
        "images/upload", "Upload an image, to add to a listing or a profile by its ID."
    )


class IntegrationFiles(Group):
    """`files` endpoints of the Integration API."""

    create: Command[FilesCreateParams, File] = Command(
        "files/create", "Register a file (name, type, size), to upload next."
    )
    query: OptionalListQuery[FilesQueryParams, File] = OptionalListQuery(
        "files/query", "The marketplace's files, optionally of one owner."
    )


class IntegrationFileUploads(Group):
    """`file_uploads` endpoints of the Integration API."""

    create: OptionalCommand[FileUploadsCreateParams, FileUpload] = OptionalCommand(
        "file_uploads/create", "Where to upload the bytes of a registered file: a short-lived URL."
    )


class IntegrationFileDownloads(Group):
    """`file_downloads` endpoints of the Integration API."""

    create: OptionalCommand[FileDownloadsCreateParams, FileDownload] = OptionalCommand(
        "file_downloads/create", "A short-lived URL to download an attached file."
    )


class IntegrationFileAttachments(Group):
    """`file_attachments` endpoints of the Integration API."""

    query: OptionalListQuery[FileAttachmentsQueryParams, FileAttachment] = OptionalListQuery(
        "file_attachments/query", "File attachments, optionally those of one message."
    )


class IntegrationAvailabilityExceptions(Group):
    """`availability_exceptions` endpoints of the Integration API."""

    query: ListQuery[AvailabilityExceptionsQueryParams, AvailabilityException] = ListQuery(
        "availability_exceptions/query", "A listing's availability exceptions in a period."
    )
    create: Command[AvailabilityExceptionsCreateParams, AvailabilityException] = Command(
        "availability_exceptions/create",
        "Set a listing's available seats for a period, instead of what its plan says.",
    )
    delete: Command[AvailabilityExceptionsDeleteParams, AvailabilityException] = Command(
        "availability_exceptions/delete", "Delete an availability exception of a listing."
    )


class IntegrationEvents(Group):
    """`events` endpoints of the Integration API."""

    query: OptionalListQuery[EventsQueryParams, Event] = OptionalListQuery(
        "events/query",
        "The marketplace's events (a listing created, a transaction transitioned, ...), in order.",
    )


class IntegrationStockAdjustments(Group):
    """`stock_adjustments` endpoints of the Integration API."""

    query: ListQuery[StockAdjustmentsQueryParams, StockAdjustment] = ListQuery(
        "stock_adjustments/query", "The stock adjustments of a listing in a period."
    )
    create: Command[StockAdjustmentsCreateParams, StockAdjustment] = Command(
        "stock_adjustments/create", "Add to (or take from) a listing's stock."
    )


class IntegrationStock(Group):
    """`stock` endpoints of the Integration API."""

    compare_and_set: Command[StockCompareAndSetParams, Stock] = Command(
        "stock/compare_and_set", "Set a listing's stock, if it is still what the caller last saw."
    )


class IntegrationStockReservations(Group):
    """`stock_reservations` endpoints of the Integration API."""

    show: Query[StockReservationsShowParams, StockReservation] = Query(
        "stock_reservations/show", "A stock reservation: the stock a transaction holds."
    )


class IntegrationMessages(Group):
    """`messages` endpoints of the Integration API."""

    query: OptionalListQuery[MessagesQueryParams, Message] = OptionalListQuery(
        "messages/query", "The messages of a transaction."
    )


class IntegrationEndpoints:
    """Every group of the Integration API, as client attributes."""

    marketplace: ClassVar[GroupSlot[IntegrationMarketplace]] = group(IntegrationMarketplace)
    users: ClassVar[GroupSlot[IntegrationUsers]] = group(IntegrationUsers)
    listings: ClassVar[GroupSlot[IntegrationListings]] = group(IntegrationListings)
    transactions: ClassVar[GroupSlot[IntegrationTransactions]] = group(IntegrationTransactions)
    images: ClassVar[GroupSlot[IntegrationImages]] = group(IntegrationImages)
    files: ClassVar[GroupSlot[IntegrationFiles]] = group(IntegrationFiles)
    file_uploads: ClassVar[GroupSlot[IntegrationFileUploads]] = group(IntegrationFileUploads)
    file_downloads: ClassVar[GroupSlot[IntegrationFileDownloads]] = group(IntegrationFileDownloads)
    file_attachments: ClassVar[GroupSlot[IntegrationFileAttachments]] = group(
        IntegrationFileAttachments
    )
    availability_exceptions: ClassVar[GroupSlot[IntegrationAvailabilityExceptions]] = group(
        IntegrationAvailabilityExceptions
    )
    events: ClassVar[GroupSlot[IntegrationEvents]] = group(IntegrationEvents)
    stock_adjustments: ClassVar[GroupSlot[IntegrationStockAdjustments]] = group(
        IntegrationStockAdjustments
    )
    stock: ClassVar[GroupSlot[IntegrationStock]] = group(IntegrationStock)
    stock_reservations: ClassVar[GroupSlot[IntegrationStockReservations]] = group(
        IntegrationStockReservations
    )
    messages: ClassVar[GroupSlot[IntegrationMessages]] = group(IntegrationMessages)
