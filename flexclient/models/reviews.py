"""Reviews left by the parties of a transaction."""

from __future__ import annotations

import datetime as dt
from typing import TYPE_CHECKING, ClassVar

from pydantic import Field

from flexclient.models._relations import ToOne
from flexclient.models._resource import Attributes, Resource
from flexclient.models.listings import Listing
from flexclient.models.users import User

if TYPE_CHECKING:
    # Models named in string type arguments (`ToOne["Transaction"]`): they refer back here.
    from flexclient.models.transactions import Transaction  # noqa: F401


class ReviewAttributes(Attributes):
    """`type` (`ofProvider`, `ofCustomer`) and `state` (`public`, `pending`) are open-ended."""

    type: str | None = None
    state: str | None = None
    rating: int | None = None
    content: str | None = None
    created_at: dt.datetime | None = None
    deleted: bool | None = None


class Review(Resource):
    """A review of a user (`subject`), written by `author` about a transaction."""

    resource_type: ClassVar[str | None] = "review"
    attributes: ReviewAttributes = Field(default_factory=ReviewAttributes)

    author = ToOne[User]("author")
    subject = ToOne[User]("subject")
    listing = ToOne[Listing]("listing")
    transaction = ToOne["Transaction"]("transaction")
