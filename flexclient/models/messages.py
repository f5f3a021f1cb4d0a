"""Messages sent within transactions."""

from __future__ import annotations

import datetime as dt
from typing import TYPE_CHECKING, ClassVar

from pydantic import Field

from flexclient.models._resource import Attributes, Resource
from flexclient.models.users import User

if TYPE_CHECKING:
    from flexclient.models.transactions import Transaction


class MessageAttributes(Attributes):
    content: str | None = None
    created_at: dt.datetime | None = None


class Message(Resource):
    """A message; include `sender` to read who sent it."""

    resource_type: ClassVar[str | None] = "message"
    attributes: MessageAttributes = Field(default_factory=MessageAttributes)

    @property
    def sender(self) -> User:
        return self._required("sender", User)

    @property
    def transaction(self) -> Transaction:
        from flexclient.models.transactions import Transaction  # a cycle: it lists messages

        return self._required("transaction", Transaction)
