"""The endpoint table: every endpoint of both APIs, grouped as the API groups them.

This is data. Each line names an endpoint's kind (Query: GET of one resource, ListQuery: GET
of a list, page by page, Command: POST, Upload: multipart POST), the parameters it takes and
the resource type of what it returns, and its path
below the API's prefix (`/v1/api/` or `/v1/integration_api/`). Both clients are these groups
plus the shared machinery in `flexclient._client`; `tests/test_endpoint_table.py` checks this
table against the API's list of endpoints.
"""

from __future__ import annotations

from flexclient._endpoint import Command, Group, ListQuery, Params, Query, Upload, group
from flexclient.models import (
    AvailabilityException,
    Booking,
    CurrentUser,
    Event,
    Image,
    Listing,
    Marketplace,
    Message,
    OwnListing,
    ProcessTransition,
    Resource,
    Review,
    Stock,
    StockAdjustment,
    StockReservation,
    TimeSlot,
    Transaction,
    User,
)
from flexclient.params import (
    CurrentUserCreateParams,
    CurrentUserUpdateProfileParams,
    EventsQueryParams,
    ListingCreateParams,
    ListingsQueryParams,
    ListingUpdateParams,
    OwnListingCreateParams,
    OwnListingUpdateParams,
    ShowParams,
    TransactionInitiateParams,
    TransactionsQueryParams,
    TransactionTransitionParams,
    UsersQueryParams,
    UserUpdateProfileParams,
)

# Marketplace API (/v1/api/)


class MarketplaceMarketplace(Group):
    """`marketplace` endpoints of the Marketplace API."""

    show = Query[Params, Marketplace]("marketplace/show")


class MarketplaceUsers(Group):
    """`users` endpoints of the Marketplace API."""

    show = Query[ShowParams, User]("users/show")


class MarketplaceCurrentUser(Group):
    """`current_user` endpoints of the Marketplace API."""

    show = Query[Params, CurrentUser]("current_user/show")
    create = Command[CurrentUserCreateParams, CurrentUser]("current_user/create")
    create_with_idp = Command[Params, CurrentUser]("current_user/create_with_idp")
    update_profile = Command[CurrentUserUpdateProfileParams, CurrentUser](
        "current_user/update_profile"
    )
    change_email = Command[Params, CurrentUser]("current_user/change_email")
    change_password = Command[Params, CurrentUser]("current_user/change_password")
    delete = Command[Params, CurrentUser]("current_user/delete")
    verify_email = Command[Params, CurrentUser]("current_user/verify_email")
    send_verification_email = Command[Params, CurrentUser]("current_user/send_verification_email")
    create_stripe_account = Command[Params, CurrentUser]("current_user/create_stripe_account")
    update_stripe_account = Command[Params, CurrentUser]("current_user/update_stripe_account")
    delete_stripe_account = Command[Params, CurrentUser]("current_user/delete_stripe_account")


class MarketplacePasswordReset(Group):
    """`password_reset` endpoints of the Marketplace API."""

    request = Command[Params, Resource]("password_reset/request")
    reset = Command[Params, Resource]("password_reset/reset")


class MarketplaceListings(Group):
    """`listings` endpoints of the Marketplace API."""

    show = Query[ShowParams, Listing]("listings/show")
    query = ListQuery[ListingsQueryParams, Listing]("listings/query")
    search = ListQuery[ListingsQueryParams, Listing]("listings/search")


class MarketplaceOwnListings(Group):
    """`own_listings` endpoints of the Marketplace API."""

    show = Query[ShowParams, OwnListing]("own_listings/show")
    query = ListQuery[ListingsQueryParams, OwnListing]("own_listings/query")
    create = Command[OwnListingCreateParams, OwnListing]("own_listings/create")
    create_draft = Command[OwnListingCreateParams, OwnListing]("own_listings/create_draft")
    publish_draft = Command[Params, OwnListing]("own_listings/publish_draft")
    discard_draft = Command[Params, OwnListing]("own_listings/discard_draft")
    update = Command[OwnListingUpdateParams, OwnListing]("own_listings/update")
    open = Command[Params, OwnListing]("own_listings/open")
    close = Command[Params, OwnListing]("own_listings/close")
    add_image = Command[Params, OwnListing]("own_listings/add_image")


class MarketplaceAvailabilityExceptions(Group):
    """`availability_exceptions` endpoints of the Marketplace API."""

    create = Command[Params, AvailabilityException]("availability_exceptions/create")
    delete = Command[Params, AvailabilityException]("availability_exceptions/delete")
    query = ListQuery[Params, AvailabilityException]("availability_exceptions/query")


class MarketplaceImages(Group):
    """`images` endpoints of the Marketplace API."""

    upload = Upload[Params, Image]("images/upload")


class MarketplaceTransactions(Group):
    """`transactions` endpoints of the Marketplace API."""

    initiate = Command[TransactionInitiateParams, Transaction]("transactions/initiate")
    initiate_speculative = Command[TransactionInitiateParams, Transaction](
        "transactions/initiate_speculative"
    )
    transition = Command[TransactionTransitionParams, Transaction]("transactions/transition")
    transition_speculative = Command[TransactionTransitionParams, Transaction](
        "transactions/transition_speculative"
    )
    query = ListQuery[TransactionsQueryParams, Transaction]("transactions/query")
    show = Query[ShowParams, Transaction]("transactions/show")


class MarketplaceProcessTransitions(Group):
    """`process_transitions` endpoints of the Marketplace API."""

    query = ListQuery[Params, ProcessTransition]("process_transitions/query")


class MarketplaceBookings(Group):
    """`bookings` endpoints of the Marketplace API."""

    query = ListQuery[Params, Booking]("bookings/query")


class MarketplaceMessages(Group):
    """`messages` endpoints of the Marketplace API."""

    query = ListQuery[Params, Message]("messages/query")
    send = Command[Params, Message]("messages/send")


class MarketplaceReviews(Group):
    """`reviews` endpoints of the Marketplace API."""

    query = ListQuery[Params, Review]("reviews/query")
    show = Query[ShowParams, Review]("reviews/show")


class MarketplaceTimeslots(Group):
    """`timeslots` endpoints of the Marketplace API."""

    query = ListQuery[Params, TimeSlot]("timeslots/query")


class MarketplaceStripeAccount(Group):
    """`stripe_account` endpoints of the Marketplace API."""

    create = Command[Params, Resource]("stripe_account/create")
    fetch = Query[Params, Resource]("stripe_account/fetch")
    update = Command[Params, Resource]("stripe_account/update")


class MarketplaceStripeAccountLinks(Group):
    """`stripe_account_links` endpoints of the Marketplace API."""

    create = Command[Params, Resource]("stripe_account_links/create")


class MarketplaceStripePersons(Group):
    """`stripe_persons` endpoints of the Marketplace API."""

    create = Command[Params, Resource]("stripe_persons/create")


class MarketplaceStripeSetupIntents(Group):
    """`stripe_setup_intents` endpoints of the Marketplace API."""

    create = Command[Params, Resource]("stripe_setup_intents/create")


class MarketplaceStripeCustomer(Group):
    """`stripe_customer` endpoints of the Marketplace API."""

    create = Command[Params, Resource]("stripe_customer/create")
    add_payment_method = Command[Params, Resource]("stripe_customer/add_payment_method")
    delete_payment_method = Command[Params, Resource]("stripe_customer/delete_payment_method")


class MarketplaceStockAdjustments(Group):
    """`stock_adjustments` endpoints of the Marketplace API."""

    query = ListQuery[Params, StockAdjustment]("stock_adjustments/query")
    create = Command[Params, StockAdjustment]("stock_adjustments/create")


class MarketplaceStock(Group):
    """`stock` endpoints of the Marketplace API."""

    compare_and_set = Command[Params, Stock]("stock/compare_and_set")


class MarketplaceSitemapData(Group):
    """`sitemap_data` endpoints of the Marketplace API."""

    query_listings = ListQuery[Params, Resource]("sitemap_data/query_listings")
    query_assets = ListQuery[Params, Resource]("sitemap_data/query_assets")


class MarketplaceOwnFiles(Group):
    """`own_files` endpoints of the Marketplace API."""

    create = Command[Params, Resource]("own_files/create")
    show = Query[ShowParams, Resource]("own_files/show")


class MarketplaceFileUploads(Group):
    """`file_uploads` endpoints of the Marketplace API."""

    create = Command[Params, Resource]("file_uploads/create")


class MarketplaceOwnFileDownloads(Group):
    """`own_file_downloads` endpoints of the Marketplace API."""

    create = Command[Params, Resource]("own_file_downloads/create")


class MarketplaceFileDownloads(Group):
    """`file_downloads` endpoints of the Marketplace API."""

    create = Command[Params, Resource]("file_downloads/create")


class MarketplaceFiles(Group):
    """`files` endpoints of the Marketplace API."""

    show = Query[ShowParams, Resource]("files/show")


class MarketplaceEndpoints:
    """Every group of the Marketplace API, as client attributes."""

    marketplace = group(MarketplaceMarketplace)
    users = group(MarketplaceUsers)
    current_user = group(MarketplaceCurrentUser)
    password_reset = group(MarketplacePasswordReset)
    listings = group(MarketplaceListings)
    own_listings = group(MarketplaceOwnListings)
    availability_exceptions = group(MarketplaceAvailabilityExceptions)
    images = group(MarketplaceImages)
    transactions = group(MarketplaceTransactions)
    process_transitions = group(MarketplaceProcessTransitions)
    bookings = group(MarketplaceBookings)
    messages = group(MarketplaceMessages)
    reviews = group(MarketplaceReviews)
    timeslots = group(MarketplaceTimeslots)
    stripe_account = group(MarketplaceStripeAccount)
    stripe_account_links = group(MarketplaceStripeAccountLinks)
    stripe_persons = group(MarketplaceStripePersons)
    stripe_setup_intents = group(MarketplaceStripeSetupIntents)
    stripe_customer = group(MarketplaceStripeCustomer)
    stock_adjustments = group(MarketplaceStockAdjustments)
    stock = group(MarketplaceStock)
    sitemap_data = group(MarketplaceSitemapData)
    own_files = group(MarketplaceOwnFiles)
    file_uploads = group(MarketplaceFileUploads)
    own_file_downloads = group(MarketplaceOwnFileDownloads)
    file_downloads = group(MarketplaceFileDownloads)
    files = group(MarketplaceFiles)


# Integration API (/v1/integration_api/)


class IntegrationMarketplace(Group):
    """`marketplace` endpoints of the Integration API."""

    show = Query[Params, Marketplace]("marketplace/show")


class IntegrationUsers(Group):
    """`users` endpoints of the Integration API."""

    show = Query[ShowParams, User]("users/show")
    query = ListQuery[UsersQueryParams, User]("users/query")
    update_profile = Command[UserUpdateProfileParams, User]("users/update_profile")
    approve = Command[Params, User]("users/approve")
    update_permissions = Command[Params, User]("users/update_permissions")
    verify_email = Command[Params, User]("users/verify_email")


class IntegrationListings(Group):
    """`listings` endpoints of the Integration API."""

    show = Query[ShowParams, Listing]("listings/show")
    query = ListQuery[ListingsQueryParams, Listing]("listings/query")
    update = Command[ListingUpdateParams, Listing]("listings/update")
    approve = Command[Params, Listing]("listings/approve")
    open = Command[Params, Listing]("listings/open")
    create = Command[ListingCreateParams, Listing]("listings/create")
    close = Command[Params, Listing]("listings/close")


class IntegrationTransactions(Group):
    """`transactions` endpoints of the Integration API."""

    query = ListQuery[TransactionsQueryParams, Transaction]("transactions/query")
    show = Query[ShowParams, Transaction]("transactions/show")
    transition = Command[TransactionTransitionParams, Transaction]("transactions/transition")
    transition_speculative = Command[TransactionTransitionParams, Transaction](
        "transactions/transition_speculative"
    )
    update_metadata = Command[Params, Transaction]("transactions/update_metadata")


class IntegrationImages(Group):
    """`images` endpoints of the Integration API."""

    upload = Upload[Params, Image]("images/upload")


class IntegrationFiles(Group):
    """`files` endpoints of the Integration API."""

    create = Command[Params, Resource]("files/create")
    query = ListQuery[Params, Resource]("files/query")


class IntegrationFileUploads(Group):
    """`file_uploads` endpoints of the Integration API."""

    create = Command[Params, Resource]("file_uploads/create")


class IntegrationFileDownloads(Group):
    """`file_downloads` endpoints of the Integration API."""

    create = Command[Params, Resource]("file_downloads/create")


class IntegrationFileAttachments(Group):
    """`file_attachments` endpoints of the Integration API."""

    query = ListQuery[Params, Resource]("file_attachments/query")


class IntegrationAvailabilityExceptions(Group):
    """`availability_exceptions` endpoints of the Integration API."""

    query = ListQuery[Params, AvailabilityException]("availability_exceptions/query")
    create = Command[Params, AvailabilityException]("availability_exceptions/create")
    delete = Command[Params, AvailabilityException]("availability_exceptions/delete")


class IntegrationEvents(Group):
    """`events` endpoints of the Integration API."""

    query = ListQuery[EventsQueryParams, Event]("events/query")


class IntegrationStockAdjustments(Group):
    """`stock_adjustments` endpoints of the Integration API."""

    query = ListQuery[Params, StockAdjustment]("stock_adjustments/query")
    create = Command[Params, StockAdjustment]("stock_adjustments/create")


class IntegrationStock(Group):
    """`stock` endpoints of the Integration API."""

    compare_and_set = Command[Params, Stock]("stock/compare_and_set")


class IntegrationStockReservations(Group):
    """`stock_reservations` endpoints of the Integration API."""

    show = Query[ShowParams, StockReservation]("stock_reservations/show")


class IntegrationMessages(Group):
    """`messages` endpoints of the Integration API."""

    query = ListQuery[Params, Message]("messages/query")


class IntegrationEndpoints:
    """Every group of the Integration API, as client attributes."""

    marketplace = group(IntegrationMarketplace)
    users = group(IntegrationUsers)
    listings = group(IntegrationListings)
    transactions = group(IntegrationTransactions)
    images = group(IntegrationImages)
    files = group(IntegrationFiles)
    file_uploads = group(IntegrationFileUploads)
    file_downloads = group(IntegrationFileDownloads)
    file_attachments = group(IntegrationFileAttachments)
    availability_exceptions = group(IntegrationAvailabilityExceptions)
    events = group(IntegrationEvents)
    stock_adjustments = group(IntegrationStockAdjustments)
    stock = group(IntegrationStock)
    stock_reservations = group(IntegrationStockReservations)
    messages = group(IntegrationMessages)
