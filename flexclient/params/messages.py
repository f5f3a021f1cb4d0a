"""Parameters of the messages and reviews endpoints."""

from typing import Required, TypedDict

from flexclient.params._common import FileAttachments, Id, Ids, PageOptions, ShowParams
from flexclient.params._values import ReviewState, ReviewType


class MessagesQueryParams(PageOptions, total=False):
    """`messages.query` (both APIs): the messages of a transaction, or messages by `ids`.
    The Integration API's own reference is not public yet; it takes these keys as the
    official SDK calls it."""

    transactionId: Id
    ids: Ids


class MessagesSendParams(TypedDict, total=False):
    """`messages.send`: a message in a transaction, with files attached if any."""

    transactionId: Required[Id]
    content: Required[str]
    publicFileAttachments: FileAttachments


class ReviewsQueryParams(PageOptions, total=False):
    """`reviews.query`: reviews of a transaction, a listing or a user (`subjectId`), of one
    `type` (`ofProvider`, `ofCustomer`) and `state` (`public`, `pending`)."""

    transactionId: Id
    listingId: Id
    subjectId: Id
    type: ReviewType
    state: ReviewState


class ReviewsShowParams(ShowParams, total=False):
    """`reviews.show`."""
