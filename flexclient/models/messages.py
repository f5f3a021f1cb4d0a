"""Messages sent within transactions."""

from __future__ import annotations

import datetime as dt
from typing import TYPE_CHECKING, ClassVar

from pydantic import Field

from flexclient.models._relations import ToMany, ToOne
from flexclient.models._resource import Attributes, Resource
from flexclient.models.users import User

if TYPE_CHECKING:
    # Models named in string type arguments (`ToOne["Transaction"]`): they refer back here.
    from flexclient.models.files import FileAttachment  # noqa: F401
    from flexclient.models.transactions import Transaction  # noqa: F401


class MessageAttributes(Attributes):
    content: str | None = None
    created_at: dt.datetime | None = None
    deleted: bool | None = None


class Message(Resource):
    """A message; include `sender` to read who sent it, `publicFileAttachments` (and
    `publicFileAttachments.file`) for the files attached to it."""

    resource_type: ClassVar[str | None] = "message"
    attributes: MessageAttributes = Field(default_factory=MessageAttributes)

    sender = ToOne[User]("sender")
    transaction = ToOne["Transaction"]("transaction")
    public_file_attachments = ToMany["FileAttachment"]("publicFileAttachments")
