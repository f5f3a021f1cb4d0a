"""flexclient: a typed Python client for the Sharetribe Marketplace API and Integration API.

>>> from flexclient import MarketplaceClient
>>> sdk = MarketplaceClient("CLIENT_ID")
>>> res = sdk.listings.query({"perPage": 5, "include": ["author"]})  # doctest: +SKIP
"""

from typing import TYPE_CHECKING

from flexclient._support.lazy import lazy_exports

__version__ = "0.1.0"

# What mypy and pyright read; at run time each name's module is imported when the name is
# first used (flexclient._support.lazy), from the table below. tests/test_public_api.py checks both.
if TYPE_CHECKING:
    from flexclient._assets import (
        AssetReferenceError as AssetReferenceError,
        AssetResource as AssetResource,
        AssetSet as AssetSet,
        ImageAsset as ImageAsset,
        ImageAssetAttributes as ImageAssetAttributes,
        ImageAssetVariant as ImageAssetVariant,
        JsonAsset as JsonAsset,
    )
    from flexclient._auth.info import AuthInfo as AuthInfo
    from flexclient._clients import (
        IntegrationClient as IntegrationClient,
        MarketplaceClient as MarketplaceClient,
    )
    from flexclient._auth.cookies import (
        CookieTokenStore as CookieTokenStore,
        TokenCookie as TokenCookie,
    )
    from flexclient._http.deadline import DeadlineAdapter as DeadlineAdapter
    from flexclient._endpoints.kinds import (
        RequestOptions as RequestOptions,
        Response as Response,
    )
    from flexclient._errors.body import (
        ErrorEnvelope as ErrorEnvelope,
        ErrorItem as ErrorItem,
        ErrorSource as ErrorSource,
    )
    from flexclient._errors import (
        ApiError as ApiError,
        AuthError as AuthError,
        BadRequestError as BadRequestError,
        ClientError as ClientError,
        ConflictError as ConflictError,
        CreditBudgetExceededError as CreditBudgetExceededError,
        FlexError as FlexError,
        ForbiddenError as ForbiddenError,
        MissingExtraError as MissingExtraError,
        NotFoundError as NotFoundError,
        ParameterError as ParameterError,
        PayloadTooLargeError as PayloadTooLargeError,
        PaymentRequiredError as PaymentRequiredError,
        PositionStoreError as PositionStoreError,
        RateLimitError as RateLimitError,
        RedirectError as RedirectError,
        RelationshipNotIncludedError as RelationshipNotIncludedError,
        RelationshipTypeError as RelationshipTypeError,
        RequestTimeoutError as RequestTimeoutError,
        ResponseTooLargeError as ResponseTooLargeError,
        ServerError as ServerError,
        TokenStoreError as TokenStoreError,
        TransportError as TransportError,
        UnauthorizedError as UnauthorizedError,
        UnexpectedResponseError as UnexpectedResponseError,
        UnknownParameterWarning as UnknownParameterWarning,
    )
    from flexclient._events import (
        EventFeed as EventFeed,
        FeedOptions as FeedOptions,
        FilePositionStore as FilePositionStore,
        MemoryPositionStore as MemoryPositionStore,
        PositionStore as PositionStore,
    )
    from flexclient._file_transfer import (
        FileMetadata as FileMetadata,
        FileTransfer as FileTransfer,
        UploadedFile as UploadedFile,
        UploadTarget as UploadTarget,
        file_metadata as file_metadata,
    )
    from flexclient._http.limits import (
        Bucket as Bucket,
        RateLimits as RateLimits,
    )
    from flexclient._http.multipart import UploadProgress as UploadProgress
    from flexclient._options import (
        ClientOptions as ClientOptions,
        Options as Options,
    )
    from flexclient._endpoints.pages import PaginationLimitWarning as PaginationLimitWarning
    from flexclient._wire.query import object_query as object_query
    from flexclient._auth.tokens import (
        FileTokenStore as FileTokenStore,
        LockingTokenStore as LockingTokenStore,
        MemoryTokenStore as MemoryTokenStore,
        Token as Token,
        TokenStore as TokenStore,
    )
    from flexclient._http.transport import RetryPolicy as RetryPolicy
    from flexclient._wire.value_types import (
        LatLng as LatLng,
        LatLngBounds as LatLngBounds,
        Money as Money,
    )
    from flexclient._wire.variants import (
        ImageFit as ImageFit,
        ImageVariant as ImageVariant,
        image_variants as image_variants,
    )
    from flexclient.models import (
        Envelope as Envelope,
        Meta as Meta,
        Resource as Resource,
    )

# For the checkers only the imports above exist: a misspelled name stays an error.
if not TYPE_CHECKING:
    __all__, __getattr__, __dir__ = lazy_exports(
        __name__,
        {
            "._assets": (
                "AssetReferenceError",
                "AssetResource",
                "AssetSet",
                "ImageAsset",
                "ImageAssetAttributes",
                "ImageAssetVariant",
                "JsonAsset",
            ),
            "._auth.info": ("AuthInfo",),
            "._clients": (
                "IntegrationClient",
                "MarketplaceClient",
            ),
            "._auth.cookies": (
                "CookieTokenStore",
                "TokenCookie",
            ),
            "._http.deadline": ("DeadlineAdapter",),
            "._endpoints.kinds": (
                "RequestOptions",
                "Response",
            ),
            "._errors.body": ("ErrorEnvelope", "ErrorItem", "ErrorSource"),
            "._errors": (
                "ApiError",
                "AuthError",
                "BadRequestError",
                "ClientError",
                "ConflictError",
                "CreditBudgetExceededError",
                "FlexError",
                "ForbiddenError",
                "MissingExtraError",
                "NotFoundError",
                "ParameterError",
                "PayloadTooLargeError",
                "PaymentRequiredError",
                "PositionStoreError",
                "RateLimitError",
                "RedirectError",
                "RelationshipNotIncludedError",
                "RelationshipTypeError",
                "RequestTimeoutError",
                "ResponseTooLargeError",
                "ServerError",
                "TokenStoreError",
                "TransportError",
                "UnauthorizedError",
                "UnexpectedResponseError",
                "UnknownParameterWarning",
            ),
            "._events": (
                "EventFeed",
                "FeedOptions",
                "FilePositionStore",
                "MemoryPositionStore",
                "PositionStore",
            ),
            "._file_transfer": (
                "FileMetadata",
                "FileTransfer",
                "UploadedFile",
                "UploadTarget",
                "file_metadata",
            ),
            "._http.limits": (
                "Bucket",
                "RateLimits",
            ),
            "._http.multipart": ("UploadProgress",),
            "._options": (
                "ClientOptions",
                "Options",
            ),
            "._endpoints.pages": ("PaginationLimitWarning",),
            "._wire.query": ("object_query",),
            "._auth.tokens": (
                "FileTokenStore",
                "LockingTokenStore",
                "MemoryTokenStore",
                "Token",
                "TokenStore",
            ),
            "._http.transport": ("RetryPolicy",),
            "._wire.value_types": (
                "LatLng",
                "LatLngBounds",
                "Money",
            ),
            "._wire.variants": (
                "ImageFit",
                "ImageVariant",
                "image_variants",
            ),
            ".models": (
                "Envelope",
                "Meta",
                "Resource",
            ),
        },
    )
    __all__ = sorted([*__all__, "__version__"])
