"""The endpoint table: every endpoint of both APIs, grouped as the API groups them.

This is data. Each line names an endpoint's kind, the TypedDict of the parameters it takes
(`flexclient.params`), the model of what it returns (`flexclient.models`) and its path below
the API's prefix (`/v1/api/` or `/v1/integration_api/`). The kinds (`flexclient._endpoints.kinds`):
`Query` (GET of one resource), `ListQuery` (GET of a list, page by page), `Command` (POST),
`Upload` (multipart POST); `RequiredQuery`, `RequiredListQuery` and `RequiredCommand` are
those whose endpoint needs parameters, so that the method cannot be called without them.

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
    Query,
    RequiredCommand,
    RequiredListQuery,
    RequiredQuery,
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

    show: Query[MarketplaceShowParams, Marketplace] = Query("marketplace/show")


class MarketplaceUsers(Group):
    """`users` endpoints of the Marketplace API."""

    show: RequiredQuery[UsersShowParams, User] = RequiredQuery("users/show")


class MarketplaceCurrentUser(Group):
    """`current_user` endpoints of the Marketplace API."""

    show: Query[CurrentUserShowParams, CurrentUser] = Query("current_user/show")
    create: RequiredCommand[CurrentUserCreateParams, CurrentUser] = RequiredCommand(
        "current_user/create"
    )
    create_with_idp: RequiredCommand[CurrentUserCreateWithIdpParams, CurrentUser] = RequiredCommand(
        "current_user/create_with_idp"
    )
    update_profile: Command[CurrentUserUpdateProfileParams, CurrentUser] = Command(
        "current_user/update_profile"
    )
    change_email: RequiredCommand[CurrentUserChangeEmailParams, CurrentUser] = RequiredCommand(
        "current_user/change_email"
    )
    change_password: RequiredCommand[CurrentUserChangePasswordParams, CurrentUser] = (
        RequiredCommand("current_user/change_password")
    )
    delete: RequiredCommand[CurrentUserDeleteParams, CurrentUser] = RequiredCommand(
        "current_user/delete"
    )
    verify_email: RequiredCommand[CurrentUserVerifyEmailParams, CurrentUser] = RequiredCommand(
        "current_user/verify_email"
    )
    send_verification_email: Command[CurrentUserSendVerificationEmailParams, CurrentUser] = Command(
        "current_user/send_verification_email"
    )
    create_stripe_account: Command[CurrentUserCreateStripeAccountParams, CurrentUser] = Command(
        "current_user/create_stripe_account"
    )
    update_stripe_account: Command[CurrentUserUpdateStripeAccountParams, CurrentUser] = Command(
        "current_user/update_stripe_account"
    )
    delete_stripe_account: Command[CurrentUserDeleteStripeAccountParams, CurrentUser] = Command(
        "current_user/delete_stripe_account"
    )


class MarketplacePasswordReset(Group):
    """`password_reset` endpoints of the Marketplace API."""

    request: RequiredCommand[PasswordResetRequestParams, PasswordReset] = RequiredCommand(
        "password_reset/request"
    )
    reset: RequiredCommand[PasswordResetResetParams, PasswordReset] = RequiredCommand(
        "password_reset/reset"
    )


class MarketplaceListings(Group):
    """`listings` endpoints of the Marketplace API."""

    show: RequiredQuery[ListingsShowParams, Listing] = RequiredQuery("listings/show")
    query: ListQuery[ListingsQueryParams, Listing] = ListQuery("listings/query")
    search: ListQuery[ListingsSearchParams, Listing] = ListQuery("listings/search")


class MarketplaceOwnListings(Group):
    """`own_listings` endpoints of the Marketplace API."""

    show: RequiredQuery[OwnListingsShowParams, OwnListing] = RequiredQuery("own_listings/show")
    query: ListQuery[OwnListingsQueryParams, OwnListing] = ListQuery("own_listings/query")
    create: RequiredCommand[OwnListingsCreateParams, OwnListing] = RequiredCommand(
        "own_listings/create"
    )
    create_draft: RequiredCommand[OwnListingsCreateDraftParams, OwnListing] = RequiredCommand(
        "own_listings/create_draft"
    )
    publish_draft: RequiredCommand[OwnListingsPublishDraftParams, OwnListing] = RequiredCommand(
        "own_listings/publish_draft"
    )
    discard_draft: RequiredCommand[OwnListingsDiscardDraftParams, OwnListing] = RequiredCommand(
        "own_listings/discard_draft"
    )
    update: RequiredCommand[OwnListingsUpdateParams, OwnListing] = RequiredCommand(
        "own_listings/update"
    )
    open: RequiredCommand[OwnListingsOpenParams, OwnListing] = RequiredCommand("own_listings/open")
    close: RequiredCommand[OwnListingsCloseParams, OwnListing] = RequiredCommand(
        "own_listings/close"
    )
    add_image: RequiredCommand[OwnListingsAddImageParams, OwnListing] = RequiredCommand(
        "own_listings/add_image"
    )


class MarketplaceAvailabilityExceptions(Group):
    """`availability_exceptions` endpoints of the Marketplace API."""

    create: RequiredCommand[AvailabilityExceptionsCreateParams, AvailabilityException] = (
        RequiredCommand("availability_exceptions/create")
    )
    delete: RequiredCommand[AvailabilityExceptionsDeleteParams, AvailabilityException] = (
        RequiredCommand("availability_exceptions/delete")
    )
    query: RequiredListQuery[AvailabilityExceptionsQueryParams, AvailabilityException] = (
        RequiredListQuery("availability_exceptions/query")
    )


class MarketplaceImages(Group):
    """`images` endpoints of the Marketplace API."""

    upload: Upload[ImagesUploadParams, Image] = Upload("images/upload")


class MarketplaceTransactions(Group):
    """`transactions` endpoints of the Marketplace API."""

    initiate: RequiredCommand[TransactionsInitiateParams, Transaction] = RequiredCommand(
        "transactions/initiate"
    )
    initiate_speculative: RequiredCommand[TransactionsInitiateSpeculativeParams, Transaction] = (
        RequiredCommand("transactions/initiate_speculative")
    )
    transition: RequiredCommand[TransactionsTransitionParams, Transaction] = RequiredCommand(
        "transactions/transition"
    )
    transition_speculative: RequiredCommand[
        TransactionsTransitionSpeculativeParams, Transaction
    ] = RequiredCommand("transactions/transition_speculative")
    query: ListQuery[TransactionsQueryParams, Transaction] = ListQuery("transactions/query")
    show: RequiredQuery[TransactionsShowParams, Transaction] = RequiredQuery("transactions/show")


class MarketplaceProcessTransitions(Group):
    """`process_transitions` endpoints of the Marketplace API."""

    query: ListQuery[ProcessTransitionsQueryParams, ProcessTransition] = ListQuery(
        "process_transitions/query"
    )


class MarketplaceBookings(Group):
    """`bookings` endpoints of the Marketplace API."""

    query: RequiredListQuery[BookingsQueryParams, Booking] = RequiredListQuery("bookings/query")


class MarketplaceMessages(Group):
    """`messages` endpoints of the Marketplace API."""

    query: ListQuery[MessagesQueryParams, Message] = ListQuery("messages/query")
    send: RequiredCommand[MessagesSendParams, Message] = RequiredCommand("messages/send")


class MarketplaceReviews(Group):
    """`reviews` endpoints of the Marketplace API."""

    query: ListQuery[ReviewsQueryParams, Review] = ListQuery("reviews/query")
    show: RequiredQuery[ReviewsShowParams, Review] = RequiredQuery("reviews/show")


class MarketplaceTimeslots(Group):
    """`timeslots` endpoints of the Marketplace API."""

    query: RequiredListQuery[TimeslotsQueryParams, TimeSlot] = RequiredListQuery("timeslots/query")


class MarketplaceStripeAccount(Group):
    """`stripe_account` endpoints of the Marketplace API."""

    create: RequiredCommand[StripeAccountCreateParams, StripeAccount] = RequiredCommand(
        "stripe_account/create"
    )
    fetch: Query[StripeAccountFetchParams, StripeAccount] = Query("stripe_account/fetch")
    update: Command[StripeAccountUpdateParams, StripeAccount] = Command("stripe_account/update")


class MarketplaceStripeAccountLinks(Group):
    """`stripe_account_links` endpoints of the Marketplace API."""

    create: RequiredCommand[StripeAccountLinksCreateParams, StripeAccountLink] = RequiredCommand(
        "stripe_account_links/create"
    )


class MarketplaceStripePersons(Group):
    """`stripe_persons` endpoints of the Marketplace API."""

    create: RequiredCommand[StripePersonsCreateParams, StripePerson] = RequiredCommand(
        "stripe_persons/create"
    )


class MarketplaceStripeSetupIntents(Group):
    """`stripe_setup_intents` endpoints of the Marketplace API."""

    create: Command[StripeSetupIntentsCreateParams, StripeSetupIntent] = Command(
        "stripe_setup_intents/create"
    )


class MarketplaceStripeCustomer(Group):
    """`stripe_customer` endpoints of the Marketplace API."""

    create: Command[StripeCustomerCreateParams, StripeCustomer] = Command("stripe_customer/create")
    add_payment_method: RequiredCommand[StripeCustomerAddPaymentMethodParams, StripeCustomer] = (
        RequiredCommand("stripe_customer/add_payment_method")
    )
    delete_payment_method: Command[StripeCustomerDeletePaymentMethodParams, StripeCustomer] = (
        Command("stripe_customer/delete_payment_method")
    )


class MarketplaceStockAdjustments(Group):
    """`stock_adjustments` endpoints of the Marketplace API."""

    query: RequiredListQuery[StockAdjustmentsQueryParams, StockAdjustment] = RequiredListQuery(
        "stock_adjustments/query"
    )
    create: RequiredCommand[StockAdjustmentsCreateParams, StockAdjustment] = RequiredCommand(
        "stock_adjustments/create"
    )


class MarketplaceStock(Group):
    """`stock` endpoints of the Marketplace API."""

    compare_and_set: RequiredCommand[StockCompareAndSetParams, Stock] = RequiredCommand(
        "stock/compare_and_set"
    )


class MarketplaceSitemapData(Group):
    """`sitemap_data` endpoints of the Marketplace API."""

    query_listings: ListQuery[SitemapDataQueryListingsParams, Listing] = ListQuery(
        "sitemap_data/query_listings"
    )
    query_assets: ListQuery[SitemapDataQueryAssetsParams, Asset] = ListQuery(
        "sitemap_data/query_assets"
    )


class MarketplaceOwnFiles(Group):
    """`own_files` endpoints of the Marketplace API."""

    create: RequiredCommand[OwnFilesCreateParams, OwnFile] = RequiredCommand("own_files/create")
    show: RequiredQuery[OwnFilesShowParams, OwnFile] = RequiredQuery("own_files/show")


class MarketplaceFileUploads(Group):
    """`file_uploads` endpoints of the Marketplace API."""

    create: Command[FileUploadsCreateParams, FileUpload] = Command("file_uploads/create")


class MarketplaceOwnFileDownloads(Group):
    """`own_file_downloads` endpoints of the Marketplace API."""

    create: RequiredCommand[OwnFileDownloadsCreateParams, OwnFileDownload] = RequiredCommand(
        "own_file_downloads/create"
    )


class MarketplaceFileDownloads(Group):
    """`file_downloads` endpoints of the Marketplace API."""

    create: Command[FileDownloadsCreateParams, FileDownload] = Command("file_downloads/create")


class MarketplaceFiles(Group):
    """`files` endpoints of the Marketplace API."""

    show: RequiredQuery[FilesShowParams, File] = RequiredQuery("files/show")


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

    show: Query[MarketplaceShowParams, Marketplace] = Query("marketplace/show")


class IntegrationUsers(Group):
    """`users` endpoints of the Integration API."""

    show: Query[IntegrationUsersShowParams, User] = Query("users/show")
    query: ListQuery[UsersQueryParams, User] = ListQuery("users/query")
    update_profile: RequiredCommand[IntegrationUsersUpdateProfileParams, User] = RequiredCommand(
        "users/update_profile"
    )
    approve: RequiredCommand[UsersApproveParams, User] = RequiredCommand("users/approve")
    update_permissions: RequiredCommand[UsersUpdatePermissionsParams, User] = RequiredCommand(
        "users/update_permissions"
    )
    verify_email: RequiredCommand[UsersVerifyEmailParams, User] = RequiredCommand(
        "users/verify_email"
    )


class IntegrationListings(Group):
    """`listings` endpoints of the Integration API."""

    show: RequiredQuery[ListingsShowParams, Listing] = RequiredQuery("listings/show")
    query: ListQuery[IntegrationListingsQueryParams, Listing] = ListQuery("listings/query")
    update: RequiredCommand[IntegrationListingsUpdateParams, Listing] = RequiredCommand(
        "listings/update"
    )
    approve: RequiredCommand[ListingsApproveParams, Listing] = RequiredCommand("listings/approve")
    open: RequiredCommand[ListingsOpenParams, Listing] = RequiredCommand("listings/open")
    create: RequiredCommand[IntegrationListingsCreateParams, Listing] = RequiredCommand(
        "listings/create"
    )
    close: RequiredCommand[ListingsCloseParams, Listing] = RequiredCommand("listings/close")


class IntegrationTransactions(Group):
    """`transactions` endpoints of the Integration API."""

    query: ListQuery[IntegrationTransactionsQueryParams, Transaction] = ListQuery(
        "transactions/query"
    )
    show: RequiredQuery[TransactionsShowParams, Transaction] = RequiredQuery("transactions/show")
    transition: RequiredCommand[TransactionsTransitionParams, Transaction] = RequiredCommand(
        "transactions/transition"
    )
    transition_speculative: RequiredCommand[
        TransactionsTransitionSpeculativeParams, Transaction
    ] = RequiredCommand("transactions/transition_speculative")
    update_metadata: RequiredCommand[TransactionsUpdateMetadataParams, Transaction] = (
        RequiredCommand("transactions/update_metadata")
    )


class IntegrationImages(Group):
    """`images` endpoints of the Integration API."""

    upload: Upload[ImagesUploadParams, Image] = Upload("images/upload")


class IntegrationFiles(Group):
    """`files` endpoints of the Integration API."""

    create: RequiredCommand[FilesCreateParams, File] = RequiredCommand("files/create")
    query: ListQuery[FilesQueryParams, File] = ListQuery("files/query")


class IntegrationFileUploads(Group):
    """`file_uploads` endpoints of the Integration API."""

    create: Command[FileUploadsCreateParams, FileUpload] = Command("file_uploads/create")


class IntegrationFileDownloads(Group):
    """`file_downloads` endpoints of the Integration API."""

    create: Command[FileDownloadsCreateParams, FileDownload] = Command("file_downloads/create")


class IntegrationFileAttachments(Group):
    """`file_attachments` endpoints of the Integration API."""

    query: ListQuery[FileAttachmentsQueryParams, FileAttachment] = ListQuery(
        "file_attachments/query"
    )


class IntegrationAvailabilityExceptions(Group):
    """`availability_exceptions` endpoints of the Integration API."""

    query: RequiredListQuery[AvailabilityExceptionsQueryParams, AvailabilityException] = (
        RequiredListQuery("availability_exceptions/query")
    )
    create: RequiredCommand[AvailabilityExceptionsCreateParams, AvailabilityException] = (
        RequiredCommand("availability_exceptions/create")
    )
    delete: RequiredCommand[AvailabilityExceptionsDeleteParams, AvailabilityException] = (
        RequiredCommand("availability_exceptions/delete")
    )


class IntegrationEvents(Group):
    """`events` endpoints of the Integration API."""

    query: ListQuery[EventsQueryParams, Event] = ListQuery("events/query")


class IntegrationStockAdjustments(Group):
    """`stock_adjustments` endpoints of the Integration API."""

    query: RequiredListQuery[StockAdjustmentsQueryParams, StockAdjustment] = RequiredListQuery(
        "stock_adjustments/query"
    )
    create: RequiredCommand[StockAdjustmentsCreateParams, StockAdjustment] = RequiredCommand(
        "stock_adjustments/create"
    )


class IntegrationStock(Group):
    """`stock` endpoints of the Integration API."""

    compare_and_set: RequiredCommand[StockCompareAndSetParams, Stock] = RequiredCommand(
        "stock/compare_and_set"
    )


class IntegrationStockReservations(Group):
    """`stock_reservations` endpoints of the Integration API."""

    show: RequiredQuery[StockReservationsShowParams, StockReservation] = RequiredQuery(
        "stock_reservations/show"
    )


class IntegrationMessages(Group):
    """`messages` endpoints of the Integration API."""

    query: ListQuery[MessagesQueryParams, Message] = ListQuery("messages/query")


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
