"""Listings, as anyone sees them (`listing`) and as their author does (`ownListing`)."""

from __future__ import annotations

import datetime as dt
from typing import Any, ClassVar

from pydantic import Field

from flexclient._types import LatLng, Money
from flexclient.models._resource import Attributes, Resource
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
    """A listing.

    >>> res = sdk.listings.query({"include": ["author", "images"]})  # doctest: +SKIP
    >>> res.data.data[0].author.attributes.profile.display_name  # doctest: +SKIP
    """

    resource_type: ClassVar[str | None] = "listing"
    attributes: ListingAttributes = Field(default_factory=ListingAttributes)

    @property
    def author(self) -> User:
        """The author; include `author`."""
        return self._required("author", User)

    @property
    def images(self) -> list[Image]:
        """The images in order; include `images`."""
        return self._many("images", Image)

    @property
    def current_stock(self) -> Stock | None:
        """The stock, None when the listing has none; include `currentStock`."""
        return self._one("currentStock", Stock)

    @property
    def marketplace(self) -> Marketplace:
        return self._required("marketplace", Marketplace)


class OwnListing(Listing):
    """A listing of the logged-in user (`own_listings.*`), with its private data."""

    resource_type: ClassVar[str | None] = "ownListing"
