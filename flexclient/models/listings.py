"""Listings, as anyone sees them (`listing`) and as their author does (`ownListing`)."""

from __future__ import annotations

import datetime as dt
from typing import TYPE_CHECKING, Any, ClassVar

from pydantic import Field

from flexclient._wire.value_types import LatLng, Money
from flexclient.models._relations import ToMany, ToOne, ToOneOrNone
from flexclient.models._resource import Attributes, Resource

if TYPE_CHECKING:
    # Models of the relationships, for the checkers: at run time each is looked up by name.
    from flexclient.models.files import FileAttachment
    from flexclient.models.images import Image
    from flexclient.models.marketplace import Marketplace
    from flexclient.models.stock import Stock
    from flexclient.models.users import User


class ListingAttributes(Attributes):
    """A listing's attributes; absent ones (sparse `fields.listing`) are None.

    Extended data follows the same rule, so None (not sent: left out by `fields.listing`, or
    `private_data` on a listing seen by others) differs from `{}` (sent, and empty).

    `state` is open-ended: known values are `draft`, `pendingApproval`, `published`, `closed`.
    """

    title: str | None = None
    description: str | None = None
    geolocation: LatLng | None = None
    price: Money | None = None
    state: str | None = None
    deleted: bool | None = None
    created_at: dt.datetime | None = None
    availability_plan: dict[str, Any] | None = None
    public_data: dict[str, Any] | None = None
    private_data: dict[str, Any] | None = None
    metadata: dict[str, Any] | None = None


class Listing(Resource):
    """A listing; include `author`, `images`, `currentStock` or `marketplace` to read them.

    >>> res = sdk.listings.query({"include": ["author", "images"]})  # doctest: +SKIP
    >>> res.data.data[0].author.attributes.profile.display_name  # doctest: +SKIP
    """

    resource_type: ClassVar[str | None] = "listing"
    attributes: ListingAttributes = Field(default_factory=ListingAttributes)

    author: ClassVar[ToOne[User]] = ToOne("author")
    images: ClassVar[ToMany[Image]] = ToMany("images")
    current_stock: ClassVar[ToOneOrNone[Stock]] = ToOneOrNone("currentStock")
    marketplace: ClassVar[ToOne[Marketplace]] = ToOne("marketplace")


class OwnListing(Listing):
    """A listing of the logged-in user (`own_listings.*`), with its private data and the
    files attached for its author (`protectedFileAttachments`)."""

    resource_type: ClassVar[str | None] = "ownListing"

    protected_file_attachments: ClassVar[ToMany[FileAttachment]] = ToMany(
        "protectedFileAttachments"
    )
