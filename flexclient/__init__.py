"""flexclient: a typed Python client for the Sharetribe Marketplace API and Integration API.

>>> from flexclient import MarketplaceClient
>>> sdk = MarketplaceClient("CLIENT_ID")
>>> res = sdk.listings.query({"perPage": 5, "include": ["author"]})  # doctest: +SKIP
"""

from flexclient._assets import (
    AssetReferenceError,
    AssetResource,
    AssetSet,
    ImageAsset,
    ImageAssetAttributes,
    ImageAssetVariant,
    JsonAsset,
)
from flexclient._clients import IntegrationClient, MarketplaceClient
from flexclient._cookies import CookieTokenStore, TokenCookie
from flexclient._deadline import DeadlineAdapter
from flexclient._endpoint_kinds import RequestOptions, Response
from flexclient._errors import (
    ApiError,
    AuthError,
    BadRequestError,
    ClientError,
    ConflictError,
    ErrorEnvelope,
    ErrorItem,
    ErrorSource,
    FlexError,
    ForbiddenError,
    MissingExtraError,
    NotFoundError,
    ParameterError,
    PayloadTooLargeError,
    PaymentRequiredError,
    RateLimitError,
    RedirectError,
    RelationshipNotIncludedError,
    RelationshipTypeError,
    RequestTimeoutError,
    ResponseTooLargeError,
    ServerError,
    TokenStoreError,
    TransportError,
    UnauthorizedError,
    UnexpectedResponseError,
    UnknownParameterWarning,
)
from flexclient._events import (
    EventFeed,
    FeedOptions,
    FilePositionStore,
    MemoryPositionStore,
    PositionStore,
)
from flexclient._file_transfer import (
    FileMetadata,
    FileTransfer,
    UploadedFile,
    UploadTarget,
    file_metadata,
)
from flexclient._limits import Bucket, RateLimits
from flexclient._multipart import UploadProgress
from flexclient._options import ClientOptions, Options
from flexclient._pages import PaginationLimitWarning
from flexclient._query import object_query
from flexclient._tokens import (
    AuthInfo,
    FileTokenStore,
    LockingTokenStore,
    MemoryTokenStore,
    Token,
    TokenStore,
)
from flexclient._transport import RetryPolicy
from flexclient._types import LatLng, LatLngBounds, Money
from flexclient._variants import ImageFit, ImageVariant, image_variants
from flexclient.models import Envelope, Meta, Resource

__version__ = "0.1.0"

__all__ = [
    "ApiError",
    "AssetReferenceError",
    "AssetResource",
    "AssetSet",
    "AuthError",
    "AuthInfo",
    "BadRequestError",
    "Bucket",
    "ClientError",
    "ClientOptions",
    "ConflictError",
    "CookieTokenStore",
    "DeadlineAdapter",
    "Envelope",
    "ErrorEnvelope",
    "ErrorItem",
    "ErrorSource",
    "EventFeed",
    "FeedOptions",
    "FileMetadata",
    "FilePositionStore",
    "FileTokenStore",
    "FileTransfer",
    "FlexError",
    "ForbiddenError",
    "ImageAsset",
    "ImageAssetAttributes",
    "ImageAssetVariant",
    "ImageFit",
    "ImageVariant",
    "IntegrationClient",
    "JsonAsset",
    "LatLng",
    "LatLngBounds",
    "LockingTokenStore",
    "MarketplaceClient",
    "MemoryPositionStore",
    "MemoryTokenStore",
    "Meta",
    "MissingExtraError",
    "Money",
    "NotFoundError",
    "Options",
    "PaginationLimitWarning",
    "ParameterError",
    "PayloadTooLargeError",
    "PaymentRequiredError",
    "PositionStore",
    "RateLimitError",
    "RateLimits",
    "RedirectError",
    "RelationshipNotIncludedError",
    "RelationshipTypeError",
    "RequestOptions",
    "RequestTimeoutError",
    "Resource",
    "Response",
    "ResponseTooLargeError",
    "RetryPolicy",
    "ServerError",
    "Token",
    "TokenCookie",
    "TokenStore",
    "TokenStoreError",
    "TransportError",
    "UnauthorizedError",
    "UnexpectedResponseError",
    "UnknownParameterWarning",
    "UploadProgress",
    "UploadTarget",
    "UploadedFile",
    "__version__",
    "file_metadata",
    "image_variants",
    "object_query",
]
