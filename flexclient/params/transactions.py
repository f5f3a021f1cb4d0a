"""Parameters of the transactions and process transitions endpoints."""

import datetime as dt
from collections.abc import Mapping, Sequence
from typing import Any, Literal, NotRequired, TypedDict

from flexclient.params._common import ExtendedData, Id, PageOptions, ShowParams
from flexclient.params._values import (
    BookingState,
    Sort,
    StockReservationState,
    TransactionSortKey,
)

TransitionParams = Mapping[str, Any]
"""The parameters of a transition: which keys it takes is defined by the marketplace's
transaction process (`listingId`, `bookingStart`, `protectedData`, ...), so any map."""

_States = Sequence[str] | str


class _TransactionFilters(PageOptions, total=False):
    lastTransitions: _States
    processNames: _States
    states: _States
    createdAtStart: dt.datetime
    createdAtEnd: dt.datetime
    lastTransitionedAtStart: dt.datetime
    listingId: Id
    hasBooking: bool
    hasMessage: bool
    hasPayin: bool
    hasStockReservation: bool
    bookingStates: Sequence[BookingState] | BookingState
    bookingStart: dt.datetime
    bookingEnd: dt.datetime
    stockReservationStates: Sequence[StockReservationState] | StockReservationState
    sort: TransactionSortKey | Sequence[TransactionSortKey] | Sort


class TransactionsQueryParams(_TransactionFilters, total=False):
    """`transactions.query` of the Marketplace API: `only` the logged-in user's sales or
    orders. Filters on `meta_*` and `prot_*` extended data go in `custom=`."""

    only: Literal["sale", "order"]


class IntegrationTransactionsQueryParams(_TransactionFilters, total=False):
    """Integration `transactions.query`: any user's transactions. Filters on `meta_*` and
    `prot_*` extended data go in `custom=`."""

    userId: Id
    customerId: Id
    providerId: Id


class TransactionsShowParams(ShowParams, total=False):
    """`transactions.show` (both APIs)."""


class TransactionsInitiateParams(TypedDict):
    """`transactions.initiate`: start a transaction of process `processAlias`
    (`"default-booking/release-1"`) with its first `transition`."""

    processAlias: str
    transition: str
    params: NotRequired[TransitionParams]


class TransactionsInitiateSpeculativeParams(TransactionsInitiateParams):
    """`transactions.initiate_speculative`: what `initiate` would do, without doing it."""


class TransactionsTransitionParams(TypedDict):
    """`transactions.transition` (both APIs)."""

    id: Id
    transition: str
    params: NotRequired[TransitionParams]


class TransactionsTransitionSpeculativeParams(TransactionsTransitionParams):
    """`transactions.transition_speculative` (both APIs): without doing it."""


class TransactionsUpdateMetadataParams(TypedDict):
    """Integration `transactions.update_metadata`: keys of `metadata` set to null are
    removed."""

    id: Id
    metadata: NotRequired[ExtendedData]


class ProcessTransitionsQueryParams(TypedDict, total=False):
    """`process_transitions.query`: the transitions a transaction can take next
    (`transactionId`), or those of a process after a transition (`processAlias` and
    `lastTransition`). The API needs one of the two ways, which a TypedDict cannot say."""

    transactionId: Id
    processAlias: str
    lastTransition: str


# The names of earlier versions, kept for the code written with them.
TransactionInitiateParams = TransactionsInitiateParams
TransactionTransitionParams = TransactionsTransitionParams
