"""Messages sent within transactions."""

from __future__ import annotations

import datetime as dt
from typing import TYPE_CHECKING, ClassVar

from pydantic import Field

from flexclient.models._relations import ToMany, ToOne
from flexclient.models._resource import Attributes, Resource

if TYPE_CHECKING:
    # Models of the relationships, for the checkers: at run time each is looked up by name.
    from flexclient.models.files import FileAttachment
    from flexclient.models.transactions import Transaction
    from flexclient.models.users import User


class MessageAttributes(Attributes):
    content: str | None = None
    created_at: dt.datetime | None = None
    deleted: bool | None = None


class Message(Resource):
    """A message; include `sender` to read who sent it, `publicFileAttachments` (and
    `publicFileAttachments.file`) for the files attached to it."""

    resource_type: ClassVar[str | None] = "message"
    attributes: MessageAttributes = Field(default_factory=MessageAttributes)

    sender: ClassVar[ToOne[User]] = ToOne("sender")
    transaction: ClassVar[ToOne[Transaction]] = ToOne("transaction")
    public_file_attachments: ClassVar[ToMany[FileAttachment]] = ToMany("publicFileAttachments")
