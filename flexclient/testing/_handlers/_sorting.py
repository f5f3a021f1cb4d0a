"""The order a query answers in, and its time-of-creation window, as the API reads them.

`sort` is up to three keys separated by commas. A plain key sorts in DESCENDING order and a
key with a `-` in front in ASCENDING order: the web template offers `createdAt` as "Newest"
and `-createdAt` as "Oldest", `price` as "Highest price" and `-price` as "Lowest price"
(Sharetribe's listing search guide says the same). Without `sort` a query answers newest
first. A resource without a value for a key (a transaction without messages, sorted by
`lastMessageAt`) comes after those with one, in either direction (the API's order for them is
not documented: this is the fake's assumption, in docs/testing.md).

`createdAtStart` is inclusive and `createdAtEnd` exclusive (also an assumption).
"""

from __future__ import annotations

import bisect
import datetime as dt
import uuid
from collections.abc import Callable, Mapping
from collections.abc import Set as AbstractSet
from typing import Any, Generic, TypeVar

from flexclient.testing import _state as s
from flexclient.testing._call import Call, invalid
from flexclient.testing._handlers._lookup import extended_data, time

R = TypeVar("R", bound=s.Record[Any])
SortKey = Callable[[s.Record[Any]], Any]  # the value to sort by, None for none
MAX_SORT_KEYS = 3
# Extended data a listing query sorts by, numeric values only: `pub_rank`, `meta_weight`.
SORTABLE_EXTENDED_DATA = {"pub_": "publicData", "meta_": "metadata"}


_NONE = uuid.UUID(int=0)


def created_at(record: s.Record[Any]) -> Any:
    return record.attributes.created_at


def transaction_keys(state: s.State) -> dict[str, SortKey]:
    """What transactions sort by: their own times, their latest message's and their
    booking's (both APIs, as of the API's changelog of 2025-04-10)."""
    messages, bookings = state.table("message"), state.table("booking")

    def last_message_at(tx: s.Record[Any]) -> Any:
        times = [messages[m].attributes.created_at for m in tx.many("messages") if m in messages]
        return max(times, default=None)

    def booking_time(name: str) -> SortKey:
        def value(tx: s.Record[Any]) -> Any:
            booking = bookings.get(tx.one("booking") or _NONE)
            return getattr(booking.attributes, name) if booking is not None else None

        return value

    return {
        "createdAt": created_at,
        "lastTransitionedAt": lambda tx: tx.attributes.last_transitioned_at,
        "lastMessageAt": last_message_at,
        "bookingStart": booking_time("start"),
        "bookingEnd": booking_time("end"),
    }


def ordered(
    c: Call,
    records: list[R],
    keys: Mapping[str, SortKey],
    *,
    extended_data: bool = False,
    oldest_first: bool = False,
) -> list[R]:
    """`records` in the order of the call's `sort` (newest first without one); `keys` are
    the sort keys the endpoint takes, `extended_data` whether `pub_*`/`meta_*` keys too.
    `oldest_first`: the records are already in `-createdAt` order (`created_window`)."""
    wanted = c.params.get("sort", "createdAt").split(",")
    if len(wanted) > MAX_SORT_KEYS:
        raise invalid("query", "sort", f"at most {MAX_SORT_KEYS} sort keys")
    sorts = [_sort_key(name, keys, extended_data) for name in wanted]
    if oldest_first and wanted == ["-createdAt"]:
        return records
    result = list(records)
    # The last key first: each stable sort keeps the order of the keys after it among ties.
    for key, descending in reversed(sorts):
        values = [(key(r), r) for r in result]
        having = [(v, r) for v, r in values if v is not None]
        having.sort(key=lambda pair: pair[0], reverse=descending)
        result = [r for _, r in having] + [r for v, r in values if v is None]
    return result


def _sort_key(name: str, keys: Mapping[str, SortKey], extended: bool) -> tuple[SortKey, bool]:
    descending = not name.startswith("-")
    bare = name.removeprefix("-")
    key = keys.get(bare)
    if key is None and extended:
        prefix = next((p for p in SORTABLE_EXTENDED_DATA if bare.startswith(p)), None)
        if prefix is not None and len(bare) > len(prefix):
            key = _numeric_extended_data(SORTABLE_EXTENDED_DATA[prefix], bare[len(prefix) :])
    if key is None:
        known = ", ".join(keys) + (", pub_* or meta_*" if extended else "")
        raise invalid("query", "sort", f"cannot sort by {bare or name!r}: sort by {known}")
    return key, descending


def _numeric_extended_data(wire_name: str, name: str) -> SortKey:
    def value(record: s.Record[Any]) -> Any:
        found = (extended_data(record, wire_name) or {}).get(name)
        numeric = isinstance(found, int | float) and not isinstance(found, bool)
        return found if numeric else None

    return value


class CreatedOrder(Generic[R]):
    """A table's records oldest first, kept until the table gains or loses a record: a query
    windowed by `createdAtStart` (as the mirror's snapshot reads every table) then costs the
    window, not the whole table. Records of one millisecond keep the table's own order."""

    def __init__(self) -> None:
        self._ids: set[uuid.UUID] = set()
        self._order: list[uuid.UUID] = []
        self._times: list[dt.datetime] = []

    def window(
        self, table: Mapping[uuid.UUID, R], start: dt.datetime | None, end: dt.datetime | None
    ) -> list[R]:
        """The records created from `start` (inclusive) until `end` (exclusive), oldest
        first, as they are now in `table`."""
        if not _same_keys(table, self._ids):
            timed = [(r.attributes.created_at, r.id) for r in table.values()]
            timed = sorted((pair for pair in timed if pair[0] is not None), key=_first)
            self._ids = set(table)
            self._order = [rid for _, rid in timed]
            self._times = [at for at, _ in timed]
        low = bisect.bisect_left(self._times, start) if start is not None else 0
        high = bisect.bisect_left(self._times, end) if end is not None else len(self._times)
        return [table[rid] for rid in self._order[low:high]]


def _same_keys(table: Mapping[uuid.UUID, object], ids: AbstractSet[uuid.UUID]) -> bool:
    # A keys view compares with a set as a set does (in C, no copy).
    keys: AbstractSet[uuid.UUID] = table.keys()
    return keys == ids


def _first(pair: tuple[dt.datetime, uuid.UUID]) -> dt.datetime:
    return pair[0]


def created_window(c: Call, name: str, table: Mapping[uuid.UUID, R]) -> list[R]:
    """The records of `table` (the state's table `name`) within the call's
    `createdAtStart`/`createdAtEnd`, oldest first (see `has_window`); all of them, in the
    table's order, when the call gives neither."""
    start, end = c.query_value("createdAtStart", time), c.query_value("createdAtEnd", time)
    if start is None and end is None:
        return list(table.values())
    order: CreatedOrder[R] = c.state.query_indexes.setdefault(name, CreatedOrder())
    return order.window(table, start, end)


def has_window(c: Call) -> bool:
    """Whether the call gives `createdAtStart` or `createdAtEnd`."""
    return "createdAtStart" in c.params or "createdAtEnd" in c.params


def created_within(c: Call, records: list[R]) -> list[R]:
    """The records created from `createdAtStart` (inclusive) until `createdAtEnd`
    (exclusive), where the call gives them."""
    start, end = c.query_value("createdAtStart", time), c.query_value("createdAtEnd", time)
    if start is None and end is None:
        return records
    return [r for r in records if _within(created_at(r), start, end)]


def _within(at: dt.datetime | None, start: dt.datetime | None, end: dt.datetime | None) -> bool:
    return at is not None and (start is None or at >= start) and (end is None or at < end)
