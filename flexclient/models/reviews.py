"""Reviews left by the parties of a transaction."""

from __future__ import annotations

import datetime as dt
from typing import TYPE_CHECKING, ClassVar

from pydantic import Field

from flexclient.models._resource import Attributes, Resource
from flexclient.models.listings import Listing
from flexclient.models.users import User

if TYPE_CHECKING:
    from flexclient.models.transactions import Transaction


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

    @property
    def author(self) -> User:
        return self._required("author", User)

    @property
    def subject(self) -> User:
        return self._required("subject", User)

    @property
    def listing(self) -> Listing:
        return self._required("listing", Listing)

    @property
    def transaction(self) -> Transaction:
        from flexclient.models.transactions import Transaction  # a cycle: it lists reviews

        return self._required("transaction", Transaction)
