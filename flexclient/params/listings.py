"""Parameters of the listings, own listings and images endpoints."""

import datetime as dt
from collections.abc import Sequence
from typing import Required, TypedDict

from flexclient._wire.value_types import LatLng, LatLngBounds, Money
from flexclient.params._common import (
    ExtendedData,
    FileAttachments,
    Id,
    IdParams,
    Ids,
    ImageFile,
    PageOptions,
    ShowParams,
)
from flexclient.params._values import (
    Availability,
    AvailabilityPlanType,
    DayOfWeek,
    ListingCreateState,
    ListingSortKey,
    ListingState,
    Sort,
    StockMode,
)


class AvailabilityPlanEntry(TypedDict, total=False):
    """One entry of an availability plan: a day of the week (`mon` ... `sun`) and its
    seats; time plans add `startTime` and `endTime` (`"09:00"`)."""

    dayOfWeek: Required[DayOfWeek]
    seats: Required[int]
    startTime: str
    endTime: str


class AvailabilityPlan(TypedDict, total=False):
    """A listing's availability plan: `type` is `availability-plan/day` or
    `availability-plan/time`; `timezone` an IANA name (`Europe/Helsinki`)."""

    type: Required[AvailabilityPlanType]
    timezone: str
    entries: Required[Sequence[AvailabilityPlanEntry]]


class ListingsShowParams(ShowParams, total=False):
    """`listings.show` (both APIs)."""


class ListingsQueryParams(PageOptions, total=False):
    """`listings.query` of the Marketplace API. Filters on extended data (`pub_category`,
    `meta_rank`, with `has_any:`/`has_all:` values) go in `custom=`; `sort` takes them too.
    `price` is `"min,max"` with either end open, or one amount."""

    ids: Ids
    authorId: Id
    keywords: str
    origin: LatLng
    bounds: LatLngBounds
    price: str | int
    start: dt.datetime
    end: dt.datetime
    seats: int
    availability: Availability
    minDuration: int
    minStock: int
    stockMode: StockMode
    sort: ListingSortKey | Sequence[ListingSortKey] | Sort


class ListingsSearchParams(ListingsQueryParams, total=False):
    """`listings.search`: the older name of `listings.query`, with its parameters."""


class IntegrationListingsQueryParams(ListingsQueryParams, total=False):
    """Integration `listings.query`: the Marketplace API's parameters, any listing `states`
    (`draft`, `pendingApproval`, `published`, `closed`), and the time of creation.
    `priv_*` filters go in `custom=` too."""

    states: Sequence[ListingState] | ListingState
    createdAtStart: dt.datetime
    createdAtEnd: dt.datetime


class _ListingFields(TypedDict, total=False):
    description: str
    geolocation: LatLng | None
    price: Money | None
    availabilityPlan: AvailabilityPlan | None
    publicData: ExtendedData
    privateData: ExtendedData
    images: Sequence[Id]
    protectedFileAttachments: FileAttachments


class OwnListingsShowParams(ShowParams, total=False):
    """`own_listings.show`."""


class OwnListingsQueryParams(PageOptions, total=False):
    """`own_listings.query`: the logged-in user's listings, of the given `states` (`draft`,
    `pendingApproval`, `published`, `closed`; all of them when left out), as the web
    template asks for its profile page (`{"states": ["published"]}`)."""

    states: Sequence[ListingState] | ListingState


class OwnListingsCreateParams(_ListingFields, total=False):
    """`own_listings.create`."""

    title: Required[str]


class OwnListingsCreateDraftParams(_ListingFields, total=False):
    """`own_listings.create_draft`."""

    title: Required[str]


class OwnListingsUpdateParams(_ListingFields, total=False):
    """`own_listings.update`."""

    id: Required[Id]
    title: str


class OwnListingsPublishDraftParams(IdParams):
    """`own_listings.publish_draft`."""


class OwnListingsDiscardDraftParams(IdParams):
    """`own_listings.discard_draft`."""


class OwnListingsOpenParams(IdParams):
    """`own_listings.open`."""


class OwnListingsCloseParams(IdParams):
    """`own_listings.close`."""


class OwnListingsAddImageParams(TypedDict):
    """`own_listings.add_image`: an uploaded image (`images.upload`) to the listing."""

    id: Id
    imageId: Id


class IntegrationListingsCreateParams(_ListingFields, total=False):
    """Integration `listings.create`: `state` is `published` or `pendingApproval`; not
    required here, as its documentation is unclear (the typed community SDK requires it)."""

    title: Required[str]
    authorId: Required[Id]
    state: ListingCreateState
    metadata: ExtendedData


class IntegrationListingsUpdateParams(_ListingFields, total=False):
    """Integration `listings.update`."""

    id: Required[Id]
    title: str
    metadata: ExtendedData


class ListingsApproveParams(IdParams):
    """Integration `listings.approve`: a listing pending approval."""


class ListingsOpenParams(IdParams):
    """Integration `listings.open`."""


class ListingsCloseParams(IdParams):
    """Integration `listings.close`."""


class ImagesUploadParams(TypedDict):
    """`images.upload` (both APIs): the image file, sent as multipart."""

    image: ImageFile


# The names of earlier versions, kept for the code written with them.
OwnListingCreateParams = OwnListingsCreateParams
OwnListingUpdateParams = OwnListingsUpdateParams
ListingCreateParams = IntegrationListingsCreateParams
ListingUpdateParams = IntegrationListingsUpdateParams
