"""Reviews left by the parties of a transaction."""

from __future__ import annotations

import datetime as dt
from typing import TYPE_CHECKING, ClassVar

from pydantic import Field

from flexclient.models._relations import ToOne
from flexclient.models._resource import Attributes, Resource

if TYPE_CHECKING:
    from flexclient.models.listings import Listing

    # Models of the relationships, for the checkers: at run time each is looked up by name.
    from flexclient.models.transactions import Transaction
    from flexclient.models.users import User


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

    author: ClassVar[ToOne[User]] = ToOne("author")
    subject: ClassVar[ToOne[User]] = ToOne("subject")
    listing: ClassVar[ToOne[Listing]] = ToOne("listing")
    transaction: ClassVar[ToOne[Transaction]] = ToOne("transaction")
