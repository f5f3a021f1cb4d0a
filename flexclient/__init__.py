"""flexclient: a typed Python client for the Sharetribe Marketplace API and Integration API.

>>> from flexclient import MarketplaceClient
>>> sdk = MarketplaceClient("CLIENT_ID")
>>> res = sdk.listings.query({"perPage": 5, "include": ["author"]})  # doctest: +SKIP

Here: the clients (`MultitenantClient` too), their options, `Response`, the value types, the
token and position stores, the files, assets and events features, and every exception and
warning. Response
models (and the error body's) are in `flexclient.models`, parameter types (and
`object_query`) in `flexclient.params`.
"""

from typing import TYPE_CHECKING

from flexclient._support.lazy import lazy_exports

__version__ = "0.1.0"

# The public names. mypy and pyright read these imports; at run time the block does not run,
# and each name's module is imported when the name is first used, as the table given to
# `lazy_exports` below says (flexclient._support.lazy). A new public name goes in both
# (tests/test_public_api.py checks that they list the same names, in the same order).
# `ImageVariant` is deprecated (`deprecated=` below): it is `ImageVariantSpec`'s old name.
if TYPE_CHECKING:
    from flexclient._assets import (
        AssetResource as AssetResource,
        AssetSet as AssetSet,
        ImageAsset as ImageAsset,
        ImageAssetAttributes as ImageAssetAttributes,
        ImageAssetVariant as ImageAssetVariant,
        JsonAsset as JsonAsset,
    )
    from flexclient._auth.cookies import (
        CookieTokenStore as CookieTokenStore,
        TokenCookie as TokenCookie,
    )
    from flexclient._auth.info import AuthInfo as AuthInfo
    from flexclient._auth.tokens import (
        FileTokenStore as FileTokenStore,
        LockingTokenStore as LockingTokenStore,
        MemoryTokenStore as MemoryTokenStore,
        Token as Token,
        TokenStore as TokenStore,
    )
    from flexclient._clients import (
        IntegrationClient as IntegrationClient,
        MarketplaceClient as MarketplaceClient,
    )
    from flexclient._endpoints.kinds import (
        RequestOptions as RequestOptions,
        Response as Response,
    )
    from flexclient._errors import (
        ApiError as ApiError,
        AssetReferenceError as AssetReferenceError,
        AuthError as AuthError,
        BadRequestError as BadRequestError,
        ClientError as ClientError,
        ConflictError as ConflictError,
        CreditBudgetExceededError as CreditBudgetExceededError,
        FlexError as FlexError,
        ForbiddenError as ForbiddenError,
        MirrorError as MirrorError,
        MissingExtraError as MissingExtraError,
        NotFoundError as NotFoundError,
        PaginationLimitWarning as PaginationLimitWarning,
        ParameterError as ParameterError,
        PayloadTooLargeError as PayloadTooLargeError,
        PaymentRequiredError as PaymentRequiredError,
        PositionStoreError as PositionStoreError,
        ProcessFileError as ProcessFileError,
        RateLimitError as RateLimitError,
        RedirectError as RedirectError,
        RelationshipNotIncludedError as RelationshipNotIncludedError,
        RelationshipTypeError as RelationshipTypeError,
        RequestTimeoutError as RequestTimeoutError,
        ResponseTooLargeError as ResponseTooLargeError,
        ServerError as ServerError,
        SessionAuthWarning as SessionAuthWarning,
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
    from flexclient._http.deadline import DeadlineAdapter as DeadlineAdapter
    from flexclient._http.limits import (
        Bucket as Bucket,
        RateLimits as RateLimits,
    )
    from flexclient._http.multipart import UploadProgress as UploadProgress
    from flexclient._http.transport import RetryPolicy as RetryPolicy
    from flexclient._multitenant import (
        ClientData as ClientData,
        MultitenantClient as MultitenantClient,
    )
    from flexclient._options import (
        ClientOptions as ClientOptions,
        Options as Options,
    )
    from flexclient._wire.value_types import (
        LatLng as LatLng,
        LatLngBounds as LatLngBounds,
        Money as Money,
    )
    from flexclient._wire.variants import (
        ImageFit as ImageFit,
        ImageVariant as ImageVariant,
        ImageVariantSpec as ImageVariantSpec,
        image_variants as image_variants,
    )

# For the checkers only the imports above exist: a misspelled name stays an error. At run time,
# the same names as data (no source file is read: bytecode alone, or a zip, is enough).
if not TYPE_CHECKING:
    __getattr__, __dir__ = lazy_exports(
        __name__,
        {
            "flexclient._assets": (
                "AssetResource",
                "AssetSet",
                "ImageAsset",
                "ImageAssetAttributes",
                "ImageAssetVariant",
                "JsonAsset",
            ),
            "flexclient._auth.cookies": (
                "CookieTokenStore",
                "TokenCookie",
            ),
            "flexclient._auth.info": ("AuthInfo",),
            "flexclient._auth.tokens": (
                "FileTokenStore",
                "LockingTokenStore",
                "MemoryTokenStore",
                "Token",
                "TokenStore",
            ),
            "flexclient._clients": (
                "IntegrationClient",
                "MarketplaceClient",
            ),
            "flexclient._endpoints.kinds": (
                "RequestOptions",
                "Response",
            ),
            "flexclient._errors": (
                "ApiError",
                "AssetReferenceError",
                "AuthError",
                "BadRequestError",
                "ClientError",
                "ConflictError",
                "CreditBudgetExceededError",
                "FlexError",
                "ForbiddenError",
                "MirrorError",
                "MissingExtraError",
                "NotFoundError",
                "PaginationLimitWarning",
                "ParameterError",
                "PayloadTooLargeError",
                "PaymentRequiredError",
                "PositionStoreError",
                "ProcessFileError",
                "RateLimitError",
                "RedirectError",
                "RelationshipNotIncludedError",
                "RelationshipTypeError",
                "RequestTimeoutError",
                "ResponseTooLargeError",
                "ServerError",
                "SessionAuthWarning",
                "TokenStoreError",
                "TransportError",
                "UnauthorizedError",
                "UnexpectedResponseError",
                "UnknownParameterWarning",
            ),
            "flexclient._events": (
                "EventFeed",
                "FeedOptions",
                "FilePositionStore",
                "MemoryPositionStore",
                "PositionStore",
            ),
            "flexclient._file_transfer": (
                "FileMetadata",
                "FileTransfer",
                "UploadedFile",
                "UploadTarget",
                "file_metadata",
            ),
            "flexclient._http.deadline": ("DeadlineAdapter",),
            "flexclient._http.limits": (
                "Bucket",
                "RateLimits",
            ),
            "flexclient._http.multipart": ("UploadProgress",),
            "flexclient._http.transport": ("RetryPolicy",),
            "flexclient._multitenant": (
                "ClientData",
                "MultitenantClient",
            ),
            "flexclient._options": (
                "ClientOptions",
                "Options",
            ),
            "flexclient._wire.value_types": (
                "LatLng",
                "LatLngBounds",
                "Money",
            ),
            "flexclient._wire.variants": (
                "ImageFit",
                "ImageVariant",
                "ImageVariantSpec",
                "image_variants",
            ),
        },
        deprecated={"ImageVariant": "ImageVariantSpec"},
    )
