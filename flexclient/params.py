"""Typed parameters of the main endpoints, keys as the API spells them.

They let mypy check documented keys and their value types. Keys for custom data, such as
`pub_color`, `meta_rank`, `fields.listing` or `imageVariant.my-variant`, are accepted too when
the `flexclient.mypy_plugin` plugin is enabled (see docs/typing.md); without it, mypy reports
them as unknown keys.

>>> params: ListingsQueryParams = {"perPage": 5, "include": ["author", "images"]}
"""

from __future__ import annotations

import datetime as dt
import uuid
from collections.abc import Sequence
from typing import Any, NotRequired, Required, TypedDict

from flexclient._types import LatLng, LatLngBounds, Money

Id = uuid.UUID | str
"""A resource ID: a `uuid.UUID` or its string."""

Include = Sequence[str] | str
"""Include paths: a list (`["author", "author.profileImage"]`) or a comma-joined string."""

ExtendedData = dict[str, Any]


class QueryOptions(TypedDict, total=False):
    """Parameters every endpoint that returns resources understands."""

    include: Include


class PageOptions(QueryOptions, total=False):
    page: int
    perPage: int


class ShowParams(QueryOptions, total=False):
    """The parameters of a `show` endpoint: the ID and what to include."""

    id: Required[Id]


class ListingsQueryParams(PageOptions, total=False):
    """`listings.query` (both APIs) and `own_listings.query`.

    Extended-data filters (`pub_category`, `meta_rank`, with `has_any:`/`has_all:` values) are
    custom keys.
    """

    ids: Sequence[Id] | Id
    authorId: Id
    keywords: str
    origin: LatLng
    bounds: LatLngBounds
    price: str | int
    start: dt.datetime
    end: dt.datetime
    seats: int
    availability: str
    minDuration: int
    minStock: int
    stockMode: str
    states: Sequence[str] | str
    sort: str
    createdAtStart: dt.datetime
    createdAtEnd: dt.datetime


class _ListingFields(TypedDict, total=False):
    description: str
    geolocation: LatLng | None
    price: Money | None
    availabilityPlan: dict[str, Any]
    publicData: ExtendedData
    privateData: ExtendedData
    images: Sequence[Id]


class OwnListingCreateParams(_ListingFields, total=False):
    """`own_listings.create` and `own_listings.create_draft`."""

    title: Required[str]


class OwnListingUpdateParams(_ListingFields, total=False):
    """`own_listings.update`."""

    id: Required[Id]
    title: str


class ListingCreateParams(_ListingFields, total=False):
    """Integration `listings.create`."""

    title: Required[str]
    authorId: Required[Id]
    state: str
    metadata: ExtendedData


class ListingUpdateParams(_ListingFields, total=False):
    """Integration `listings.update`."""

    id: Required[Id]
    title: str
    metadata: ExtendedData


class _ProfileFields(TypedDict, total=False):
    displayName: str | None
    bio: str | None
    publicData: ExtendedData
    protectedData: ExtendedData
    privateData: ExtendedData
    profileImageId: Id | None


class CurrentUserCreateParams(_ProfileFields, total=False):
    """`current_user.create`."""

    email: Required[str]
    password: Required[str]
    firstName: Required[str]
    lastName: Required[str]


class CurrentUserUpdateProfileParams(_ProfileFields, total=False):
    """`current_user.update_profile`."""

    firstName: str
    lastName: str


class UserUpdateProfileParams(_ProfileFields, total=False):
    """Integration `users.update_profile`."""

    id: Required[Id]
    firstName: str
    lastName: str
    metadata: ExtendedData


class UsersQueryParams(PageOptions, total=False):
    """Integration `users.query`; `pub_*`, `meta_*`, `priv_*`, `prot_*` filters are custom keys."""

    createdAtStart: dt.datetime
    createdAtEnd: dt.datetime
    sort: str


class TransactionsQueryParams(PageOptions, total=False):
    """`transactions.query` (both APIs)."""

    only: str
    lastTransitions: Sequence[str] | str
    createdAtStart: dt.datetime
    createdAtEnd: dt.datetime
    userId: Id
    customerId: Id
    providerId: Id
    listingId: Id
    sort: str


class TransactionInitiateParams(TypedDict):
    """`transactions.initiate` and `transactions.initiate_speculative`."""

    processAlias: str
    transition: str
    params: NotRequired[dict[str, Any]]


class TransactionTransitionParams(TypedDict):
    """`transactions.transition` and `transactions.transition_speculative` (both APIs)."""

    id: Id
    transition: str
    params: NotRequired[dict[str, Any]]


class EventsQueryParams(TypedDict, total=False):
    """Integration `events.query`: from a sequence ID or a time, optionally filtered."""

    startAfterSequenceId: int
    createdAtStart: dt.datetime
    eventTypes: Sequence[str] | str
    resourceId: Id
    relatedResourceId: Id
    perPage: int


__all__ = [
    "CurrentUserCreateParams",
    "CurrentUserUpdateProfileParams",
    "EventsQueryParams",
    "ExtendedData",
    "Id",
    "Include",
    "ListingCreateParams",
    "ListingUpdateParams",
    "ListingsQueryParams",
    "OwnListingCreateParams",
    "OwnListingUpdateParams",
    "PageOptions",
    "QueryOptions",
    "ShowParams",
    "TransactionInitiateParams",
    "TransactionTransitionParams",
    "TransactionsQueryParams",
    "UserUpdateProfileParams",
    "UsersQueryParams",
]
