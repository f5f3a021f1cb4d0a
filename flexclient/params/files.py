"""Parameters of the files endpoints: own files, uploads, downloads, attachments.

A file is registered first (`own_files.create`, Integration `files.create`), then sent to
the URL `file_uploads.create` gives; it is read through a short-lived URL from
`own_file_downloads.create` (your own file, by its ID) or `file_downloads.create` (a file
attached to something, by the attachment's ID).
"""

import datetime as dt
from typing import Required, TypedDict

from flexclient.params._common import Id, Ids, PageOptions, QueryOptions, ShowParams


class _FileMetadata(TypedDict):
    name: str
    mimeType: str
    size: int


class OwnFilesCreateParams(_FileMetadata):
    """`own_files.create`: the file's name, MIME type and size in bytes."""


class OwnFilesShowParams(ShowParams, total=False):
    """`own_files.show`: by the file's ID."""


class FilesShowParams(QueryOptions, total=False):
    """`files.show`: a file attached to something, by the ID of the attachment."""

    fileAttachmentId: Required[Id]


class FileUploadsCreateParams(TypedDict, total=False):
    """`file_uploads.create` (both APIs): where to upload the file `fileId`. The docs also
    describe an upload before the file is registered, without saying its keys: `fileId` is
    not required here."""

    fileId: Id


class OwnFileDownloadsCreateParams(TypedDict):
    """`own_file_downloads.create`: a download URL of your own file."""

    fileId: Id


class FileDownloadsCreateParams(TypedDict, total=False):
    """`file_downloads.create` (both APIs): a download URL of an attached file. The docs
    name its key `fileAttachmentId` in the API reference and `fileId` in the SDK's guide:
    both are accepted, neither is required here."""

    fileAttachmentId: Id
    fileId: Id


class FilesCreateParams(_FileMetadata, total=False):
    """Integration `files.create`: the file's name, MIME type and size in bytes, and
    `ownerId`, the user who owns it."""

    ownerId: Id


class FilesQueryParams(PageOptions, total=False):
    """Integration `files.query`: files, filtered by owner, message, IDs and creation time;
    include `owner`, `marketplace`."""

    ownerId: Id
    messageId: Id
    ids: Ids
    createdAtStart: dt.datetime
    createdAtEnd: dt.datetime


class FileAttachmentsQueryParams(PageOptions, total=False):
    """Integration `file_attachments.query`: attachments, filtered by what they are
    attached to (a message, a listing, a transaction) or by their files; include `file`,
    `message`, `listing`, `transaction`."""

    messageId: Id
    listingId: Id
    transactionId: Id
    fileIds: Ids
