"""Files: uploaded files (`file`, and `ownFile` as their uploader sees them), their
attachments to other resources, and the short-lived upload and download targets.

`state` is open-ended: `pendingUpload`, `pendingVerification`, `available` and
`verificationFailed` are known. Download targets are only made for `available` files.
"""

from __future__ import annotations

import datetime as dt
import uuid
from typing import TYPE_CHECKING, Any, ClassVar

from pydantic import Field

from flexclient.models._relations import ToOne, ToOneOrNone
from flexclient.models._resource import Attributes, Resource, no_items

# Models of the relationships, for the checkers: at run time each is looked up by name.
if TYPE_CHECKING:
    from flexclient.models.listings import Listing
    from flexclient.models.marketplace import Marketplace
    from flexclient.models.messages import Message
    from flexclient.models.transactions import Transaction
    from flexclient.models.users import User


class FileAttributes(Attributes):
    """A file as others see it. The Integration API adds the timestamps and the
    verification checks (each a dict, as the API sends it)."""

    name: str | None = None
    mime_type: str | None = None
    size: int | None = None
    state: str | None = None
    deleted: bool | None = None
    created_at: dt.datetime | None = None
    state_updated_at: dt.datetime | None = None
    verification_checks: list[dict[str, Any]] = Field(default_factory=no_items)
    required_verification_checks: list[str] = Field(default_factory=no_items)


class File(Resource):
    """A file attached to a resource (`files.show`; Integration `files.query`, which can
    include `owner` and `marketplace`)."""

    resource_type: ClassVar[str | None] = "file"
    attributes: FileAttributes = Field(default_factory=FileAttributes)

    owner: ClassVar[ToOne[User]] = ToOne("owner")
    marketplace: ClassVar[ToOne[Marketplace]] = ToOne("marketplace")


class OwnFileAttributes(Attributes):
    name: str | None = None
    mime_type: str | None = None
    size: int | None = None
    state: str | None = None
    created_at: dt.datetime | None = None
    state_updated_at: dt.datetime | None = None


class OwnFile(Resource):
    """A file as its uploader sees it (`own_files.create`, `own_files.show`)."""

    resource_type: ClassVar[str | None] = "ownFile"
    attributes: OwnFileAttributes = Field(default_factory=OwnFileAttributes)


class FileAttachmentAttributes(Attributes):
    """`scope` is open-ended: `public`, `protected`, `private`."""

    scope: str | None = None
    deleted: bool | None = None


class FileAttachment(Resource):
    """A file attached to another resource (a message, a listing, a transaction, a user);
    include `file` (e.g. `publicFileAttachments.file` from a message) to read the file."""

    resource_type: ClassVar[str | None] = "fileAttachment"
    attributes: FileAttachmentAttributes = Field(default_factory=FileAttachmentAttributes)

    file: ClassVar[ToOne[File]] = ToOne("file")
    message: ClassVar[ToOneOrNone[Message]] = ToOneOrNone("message")
    listing: ClassVar[ToOneOrNone[Listing]] = ToOneOrNone("listing")
    transaction: ClassVar[ToOneOrNone[Transaction]] = ToOneOrNone("transaction")


class FileUploadAttributes(Attributes):
    """Where to send the file: `method` (PUT) to `url` with `headers`, before `expires_at`."""

    file_id: uuid.UUID | None = None
    method: str | None = None
    url: str | None = None
    headers: dict[str, str] = Field(default_factory=dict)
    expires_at: dt.datetime | None = None


class FileUpload(Resource):
    """The target of a direct upload of a file to storage (`file_uploads.create`)."""

    resource_type: ClassVar[str | None] = "fileUpload"
    attributes: FileUploadAttributes = Field(default_factory=FileUploadAttributes)


class FileDownloadAttributes(Attributes):
    file_id: uuid.UUID | None = None
    url: str | None = None
    expires_at: dt.datetime | None = None


class FileDownload(Resource):
    """A short-lived download URL of a file (`file_downloads.create`)."""

    resource_type: ClassVar[str | None] = "fileDownload"
    attributes: FileDownloadAttributes = Field(default_factory=FileDownloadAttributes)


class OwnFileDownload(Resource):
    """A short-lived download URL of a file of the logged-in user
    (`own_file_downloads.create`)."""

    resource_type: ClassVar[str | None] = "ownFileDownload"
    attributes: FileDownloadAttributes = Field(default_factory=FileDownloadAttributes)
