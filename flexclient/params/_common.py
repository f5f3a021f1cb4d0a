"""Value types and the parameters every endpoint shares: `include`, sparse `fields.*`,
relationship `limit.*`, paging, and the query parameters of commands (`expand`)."""

import os
import uuid
from collections.abc import Mapping, Sequence
from typing import Annotated, Any, Protocol, Required, TypedDict

Id = uuid.UUID | str
"""A resource ID: a `uuid.UUID` or its text (checked before sending)."""

Ids = Sequence[Id] | Id
"""Several resource IDs: a list, or one ID (or several, comma-joined, as text)."""

Include = Sequence[str] | str
"""Include paths: a list (`["author", "author.profileImage"]`) or a comma-joined string."""

Fields = Sequence[str] | str
"""Sparse attributes: attribute names (`["title", "publicData.category"]`), or `"none"`."""

INTEGER_TEXT = "integer text"
"""The mark of `IntegerText`, by which the fake marketplace reads such text as its integer."""

IntegerText = Annotated[str, INTEGER_TEXT]
"""An integer written as decimal text (`"3"`), as a form field gives it: the API reads it as
the integer, where a key says so (`newTotal` of `stock.compare_and_set`)."""

ExtendedData = Mapping[str, Any]
"""Extended data (`publicData`, `protectedData`, `privateData`, `metadata`): any JSON map."""


class Readable(Protocol):
    """A binary stream: an open file, `io.BytesIO`, or anything with `read`."""

    def read(self, size: int = ..., /) -> bytes | None: ...


ImageFile = str | os.PathLike[str] | bytes | Readable
"""An image to upload: a path, bytes, or a binary file object."""

# The resource types of both APIs, for `fields.<type>`, and their to-many relationships, for
# `limit.<relationship>`. Other names of these families go in `custom=`.
_Sparse = TypedDict(
    "_Sparse",
    {
        "fields.asset": Fields,
        "fields.availabilityException": Fields,
        "fields.booking": Fields,
        "fields.currentUser": Fields,
        "fields.event": Fields,
        "fields.file": Fields,
        "fields.fileAttachment": Fields,
        "fields.fileDownload": Fields,
        "fields.fileUpload": Fields,
        "fields.image": Fields,
        "fields.listing": Fields,
        "fields.marketplace": Fields,
        "fields.message": Fields,
        "fields.ownFile": Fields,
        "fields.ownFileDownload": Fields,
        "fields.ownListing": Fields,
        "fields.passwordReset": Fields,
        "fields.permissionSet": Fields,
        "fields.processTransition": Fields,
        "fields.review": Fields,
        "fields.stock": Fields,
        "fields.stockAdjustment": Fields,
        "fields.stockReservation": Fields,
        "fields.stripeAccount": Fields,
        "fields.stripeAccountLink": Fields,
        "fields.stripeCustomer": Fields,
        "fields.stripePaymentMethod": Fields,
        "fields.stripePerson": Fields,
        "fields.stripeSetupIntent": Fields,
        "fields.timeSlot": Fields,
        "fields.transaction": Fields,
        "fields.user": Fields,
        "limit.images": int,
        "limit.messages": int,
        "limit.privateFileAttachments": int,
        "limit.protectedFileAttachments": int,
        "limit.publicFileAttachments": int,
        "limit.reviews": int,
        "limit.stockAdjustments": int,
    },
    total=False,
)


class QueryOptions(_Sparse, total=False):
    """What every endpoint that answers resources takes in its query: `include`, sparse
    `fields.<type>` and `limit.<relationship>`."""

    include: Include


class PageOptions(QueryOptions, total=False):
    """The query options of a paginated query: `page` (from 1) and `perPage`."""

    page: int
    perPage: int


class ShowParams(QueryOptions, total=False):
    """The parameters of a `show` endpoint: the ID and what to include."""

    id: Required[Id]


class IdParams(TypedDict):
    """The body of a command on one resource: its ID."""

    id: Id


class CommandQueryParams(QueryOptions, total=False):
    """The query parameters of every command: `expand=True` answers the whole resource
    rather than its `{id, type}` only."""

    expand: bool


class FileAttachmentRef(TypedDict):
    """A file to attach, by the ID of the file (`ownFile`)."""

    fileId: Id


FileAttachments = Sequence[FileAttachmentRef | Id]
"""Files to attach: `[{"fileId": id}]`; the bare IDs (`[id]`) of the docs' older examples
are accepted too (documented both ways)."""
