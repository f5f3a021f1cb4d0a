"""Typed parameters of every endpoint, keys as the API spells them.


Each endpoint takes a TypedDict named after it (`listings.query` takes `ListingsQueryParams`,
Integration `listings.create` takes `IntegrationListingsCreateParams`), so mypy and pyright
check its documented keys, the types of their values and the keys it needs. Keys of the API's
open families (`pub_*`, `meta_*`, `priv_*`, `prot_*`, `imageVariant.*`, and `fields.*` or
`limit.*` of names not listed here) go in the `custom=` argument of the call; see
docs/typing.md. `object_query` writes the value of an object parameter (`imageVariant.*`) as
the official SDK's `util.objectQueryString` does.

>>> from flexclient.params import ListingsQueryParams
>>> params: ListingsQueryParams = {"perPage": 5, "include": ["author", "images"]}
"""

from typing import TYPE_CHECKING

from flexclient._support.lazy import lazy_exports

# The public names, listed once. mypy and pyright read these imports; at run time the block
# does not run, and each name's module is imported when the name is first used, from this
# same block read from the source (flexclient._support.lazy). A new public name goes here.
if TYPE_CHECKING:
    from flexclient._wire.query import object_query as object_query
    from flexclient.params._common import (
        CommandQueryParams as CommandQueryParams,
        ExtendedData as ExtendedData,
        Fields as Fields,
        FileAttachmentRef as FileAttachmentRef,
        FileAttachments as FileAttachments,
        Id as Id,
        IdParams as IdParams,
        Ids as Ids,
        ImageFile as ImageFile,
        Include as Include,
        IntegerText as IntegerText,
        PageOptions as PageOptions,
        QueryOptions as QueryOptions,
        Readable as Readable,
        ShowParams as ShowParams,
    )
    from flexclient.params._values import (
        Availability as Availability,
        AvailabilityPlanType as AvailabilityPlanType,
        BookingState as BookingState,
        DayOfWeek as DayOfWeek,
        EventType as EventType,
        ListingCreateState as ListingCreateState,
        ListingSortKey as ListingSortKey,
        ListingState as ListingState,
        ReviewState as ReviewState,
        ReviewType as ReviewType,
        Sort as Sort,
        StockMode as StockMode,
        StockReservationState as StockReservationState,
        TransactionSortKey as TransactionSortKey,
        UserSortKey as UserSortKey,
    )
    from flexclient.params.availability import (
        AvailabilityExceptionsCreateParams as AvailabilityExceptionsCreateParams,
        AvailabilityExceptionsDeleteParams as AvailabilityExceptionsDeleteParams,
        AvailabilityExceptionsQueryParams as AvailabilityExceptionsQueryParams,
        BookingsQueryParams as BookingsQueryParams,
        TimeslotsQueryParams as TimeslotsQueryParams,
    )
    from flexclient.params.events import EventsQueryParams as EventsQueryParams
    from flexclient.params.files import (
        FileAttachmentsQueryParams as FileAttachmentsQueryParams,
        FileDownloadsCreateParams as FileDownloadsCreateParams,
        FilesCreateParams as FilesCreateParams,
        FilesQueryParams as FilesQueryParams,
        FilesShowParams as FilesShowParams,
        FileUploadsCreateParams as FileUploadsCreateParams,
        OwnFileDownloadsCreateParams as OwnFileDownloadsCreateParams,
        OwnFilesCreateParams as OwnFilesCreateParams,
        OwnFilesShowParams as OwnFilesShowParams,
    )
    from flexclient.params.listings import (
        AvailabilityPlan as AvailabilityPlan,
        AvailabilityPlanEntry as AvailabilityPlanEntry,
        ImagesUploadParams as ImagesUploadParams,
        IntegrationListingsCreateParams as IntegrationListingsCreateParams,
        IntegrationListingsQueryParams as IntegrationListingsQueryParams,
        IntegrationListingsUpdateParams as IntegrationListingsUpdateParams,
        ListingCreateParams as ListingCreateParams,
        ListingsApproveParams as ListingsApproveParams,
        ListingsCloseParams as ListingsCloseParams,
        ListingsOpenParams as ListingsOpenParams,
        ListingsQueryParams as ListingsQueryParams,
        ListingsSearchParams as ListingsSearchParams,
        ListingsShowParams as ListingsShowParams,
        ListingUpdateParams as ListingUpdateParams,
        OwnListingCreateParams as OwnListingCreateParams,
        OwnListingsAddImageParams as OwnListingsAddImageParams,
        OwnListingsCloseParams as OwnListingsCloseParams,
        OwnListingsCreateDraftParams as OwnListingsCreateDraftParams,
        OwnListingsCreateParams as OwnListingsCreateParams,
        OwnListingsDiscardDraftParams as OwnListingsDiscardDraftParams,
        OwnListingsOpenParams as OwnListingsOpenParams,
        OwnListingsPublishDraftParams as OwnListingsPublishDraftParams,
        OwnListingsQueryParams as OwnListingsQueryParams,
        OwnListingsShowParams as OwnListingsShowParams,
        OwnListingsUpdateParams as OwnListingsUpdateParams,
        OwnListingUpdateParams as OwnListingUpdateParams,
    )
    from flexclient.params.messages import (
        MessagesQueryParams as MessagesQueryParams,
        MessagesSendParams as MessagesSendParams,
        ReviewsQueryParams as ReviewsQueryParams,
        ReviewsShowParams as ReviewsShowParams,
    )
    from flexclient.params.sitemap import (
        SitemapDataQueryAssetsParams as SitemapDataQueryAssetsParams,
        SitemapDataQueryListingsParams as SitemapDataQueryListingsParams,
    )
    from flexclient.params.stock import (
        StockAdjustmentsCreateParams as StockAdjustmentsCreateParams,
        StockAdjustmentsQueryParams as StockAdjustmentsQueryParams,
        StockCompareAndSetParams as StockCompareAndSetParams,
        StockReservationsShowParams as StockReservationsShowParams,
    )
    from flexclient.params.stripe import (
        StripeAccountCreateParams as StripeAccountCreateParams,
        StripeAccountFetchParams as StripeAccountFetchParams,
        StripeAccountLinksCreateParams as StripeAccountLinksCreateParams,
        StripeAccountUpdateParams as StripeAccountUpdateParams,
        StripeCustomerAddPaymentMethodParams as StripeCustomerAddPaymentMethodParams,
        StripeCustomerCreateParams as StripeCustomerCreateParams,
        StripeCustomerDeleteParams as StripeCustomerDeleteParams,
        StripeCustomerDeletePaymentMethodParams as StripeCustomerDeletePaymentMethodParams,
        StripePersonsCreateParams as StripePersonsCreateParams,
        StripeSetupIntentsCreateParams as StripeSetupIntentsCreateParams,
    )
    from flexclient.params.transactions import (
        IntegrationTransactionsQueryParams as IntegrationTransactionsQueryParams,
        ProcessTransitionsQueryParams as ProcessTransitionsQueryParams,
        TransactionInitiateParams as TransactionInitiateParams,
        TransactionsInitiateParams as TransactionsInitiateParams,
        TransactionsInitiateSpeculativeParams as TransactionsInitiateSpeculativeParams,
        TransactionsQueryParams as TransactionsQueryParams,
        TransactionsShowParams as TransactionsShowParams,
        TransactionsTransitionParams as TransactionsTransitionParams,
        TransactionsTransitionSpeculativeParams as TransactionsTransitionSpeculativeParams,
        TransactionsUpdateMetadataParams as TransactionsUpdateMetadataParams,
        TransactionTransitionParams as TransactionTransitionParams,
        TransitionParams as TransitionParams,
    )
    from flexclient.params.users import (
        CurrentUserChangeEmailParams as CurrentUserChangeEmailParams,
        CurrentUserChangePasswordParams as CurrentUserChangePasswordParams,
        CurrentUserCreateParams as CurrentUserCreateParams,
        CurrentUserCreateStripeAccountParams as CurrentUserCreateStripeAccountParams,
        CurrentUserCreateWithIdpParams as CurrentUserCreateWithIdpParams,
        CurrentUserDeleteParams as CurrentUserDeleteParams,
        CurrentUserDeleteStripeAccountParams as CurrentUserDeleteStripeAccountParams,
        CurrentUserSendVerificationEmailParams as CurrentUserSendVerificationEmailParams,
        CurrentUserShowParams as CurrentUserShowParams,
        CurrentUserUpdateProfileParams as CurrentUserUpdateProfileParams,
        CurrentUserUpdateStripeAccountParams as CurrentUserUpdateStripeAccountParams,
        CurrentUserVerifyEmailParams as CurrentUserVerifyEmailParams,
        IntegrationUsersShowParams as IntegrationUsersShowParams,
        IntegrationUsersUpdateProfileParams as IntegrationUsersUpdateProfileParams,
        MarketplaceShowParams as MarketplaceShowParams,
        PasswordResetRequestParams as PasswordResetRequestParams,
        PasswordResetResetParams as PasswordResetResetParams,
        Permission as Permission,
        UsersApproveParams as UsersApproveParams,
        UsersQueryParams as UsersQueryParams,
        UsersShowParams as UsersShowParams,
        UsersUpdatePermissionsParams as UsersUpdatePermissionsParams,
        UsersVerifyEmailParams as UsersVerifyEmailParams,
        UserUpdateProfileParams as UserUpdateProfileParams,
    )

# For the checkers only the imports above exist: a misspelled name stays an error.
if not TYPE_CHECKING:
    __getattr__, __dir__ = lazy_exports(__name__)
