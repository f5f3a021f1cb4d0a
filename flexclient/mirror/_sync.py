"""Copying a marketplace into the mirror's database, and keeping it current from the events.

A sync has two phases. The *snapshot* first notes the time (the mark), then reads each table
in `createdAt` order, in windows that each fit in one page, committing each page with the
place it got to. *Catching up* then replays the events from the mark: every event carries the
resource as it was after the change, so replaying an event the snapshot already saw does no
harm, and the rows end as the last event left them, even for changes made while the snapshot
ran. Each batch of events is committed with the position of its last event.
"""

from __future__ import annotations

import datetime as dt
import sys
import threading
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from decimal import Decimal
from typing import TYPE_CHECKING, Any, TextIO

from flexclient._errors import NotFoundError, ParameterError
from flexclient._events import FASTEST_POLL_INTERVAL, credits_per_day
from flexclient.mirror._database import DEFAULT_LOCK_TIMEOUT
from flexclient.mirror._names import DEFAULT_POLL_INTERVAL, OPTIONAL_TABLES
from flexclient.mirror._store import Store
from flexclient.mirror.schema import (
    BOOKINGS,
    BY_RESOURCE_TYPE,
    EVENTS,
    IMAGES,
    LISTINGS,
    REVIEWS,
    STOCK_RESERVATIONS,
    TABLES,
    TRANSACTIONS,
    USERS,
    Table,
    related_ids,
    timestamp,
)
from flexclient.models import Event, Resource

if TYPE_CHECKING:
    from flexclient._clients import IntegrationClient

_PAGE = 100
# Sharetribe keeps events 7 days on Dev and Test (90 on Live). A mirror not synced for longer
# than this checks, with one more events query, that the events since are all still kept.
STALE_AFTER = dt.timedelta(days=6)
# The mark is taken this far before the clock's time, so that a server clock a little behind
# ours loses no event: events replayed twice do no harm.
_MARK_MARGIN = dt.timedelta(minutes=10)
# Availability exceptions and stock adjustments are queried by a listing and a time range of
# at most 366 days: the mirror reads the year before and the year after the sync.
_CHILD_YEAR = dt.timedelta(days=365)

_TRANSACTION_INCLUDES = [
    "listing",
    "provider",
    "customer",
    "booking",
    "stockReservation",
    "reviews",
    "reviews.author",
    "reviews.subject",
]


def _utcnow() -> dt.datetime:
    return dt.datetime.now(dt.UTC)


@dataclass
class SyncReport:
    """What a sync did: rows written and deleted by table, requests and credits spent, the
    position reached, and whether it took a snapshot (and why).

    >>> print(mirror.sync())  # doctest: +SKIP
    snapshot (first sync): 120 requests, 124 credits, position 5817
      listings: 1,204 upserted, 0 deleted
    """

    upserted: dict[str, int] = field(default_factory=dict[str, int])
    deleted: dict[str, int] = field(default_factory=dict[str, int])
    requests: int = 0
    credits: Decimal = Decimal(0)
    position: int | None = None
    snapshot: str | None = None  # why a snapshot was taken, if one was
    events: int = 0

    @property
    def changed(self) -> bool:
        """Whether the sync wrote or deleted any row."""
        return any(self.upserted.values()) or any(self.deleted.values())

    def __str__(self) -> str:
        what = f"snapshot ({self.snapshot})" if self.snapshot else "caught up"
        lines = [
            f"{what}: {self.events:,} events, {self.requests:,} requests,"
            f" {self.credits:,} credits, position {self.position}"
        ]
        for table in sorted({*self.upserted, *self.deleted}):
            lines.append(
                f"  {table}: {self.upserted.get(table, 0):,} upserted,"
                f" {self.deleted.get(table, 0):,} deleted"
            )
        return "\n".join(lines)


@dataclass(frozen=True)
class MirrorStatus:
    """Where a mirror stands: its position, how far behind the events it may be, rows per
    table, and the credits a day that following costs."""

    database: str
    phase: str  # "empty", "snapshot" (under way) or "live"
    position: int | None
    last_event_at: str | None
    last_synced_at: str | None
    lag: dt.timedelta | None
    rows: Mapping[str, int]
    poll_interval: float
    credits_per_day: int

    def __str__(self) -> str:
        lag = "unknown" if self.lag is None else _duration(self.lag)
        lines = [
            f"mirror {self.database}: {self.phase}, position {self.position}",
            f"last event {self.last_event_at or '-'}; last synced {self.last_synced_at or '-'}"
            f" (lag {lag})",
            f"following every {self.poll_interval:g} s costs {self.credits_per_day:,}"
            " credits a day",
        ]
        lines.extend(f"  {name}: {n:,} rows" for name, n in self.rows.items())
        return "\n".join(lines)


def _duration(span: dt.timedelta) -> str:
    seconds = int(span.total_seconds())
    if seconds < 120:
        return f"{seconds} s"
    if seconds < 7200:
        return f"{seconds // 60} min"
    if seconds < 2 * 86_400:
        return f"{seconds // 3600} h"
    return f"{seconds // 86_400} days"


def status(
    database: str,
    *,
    schema: str | None = None,
    clock: Callable[[], dt.datetime] = _utcnow,
) -> MirrorStatus:
    """Where the mirror in `database` stands, read from the database alone (no request, and
    nothing written: a read-only copy will do).

    >>> print(status("sqlite:///market.db"))  # doctest: +SKIP
    """
    store = Store(database, create=False, read_only=True, schema=schema)
    try:
        return _status_of(store, clock)
    finally:
        store.close()


def _status_of(store: Store, clock: Callable[[], dt.datetime]) -> MirrorStatus:
    synced = store.text("synced_at")
    lag = clock() - dt.datetime.fromisoformat(synced) if synced else None
    interval = store.get("poll_interval")
    interval = float(interval) if isinstance(interval, int | float) else DEFAULT_POLL_INTERVAL
    return MirrorStatus(
        database=store.url,
        phase=store.text("phase") or "empty",
        position=store.number("position"),
        last_event_at=store.text("last_event_at"),
        last_synced_at=synced,
        lag=lag,
        rows={name: store.count(name) for name in store.table_names()},
        poll_interval=interval,
        credits_per_day=credits_per_day(interval),
    )


class _Stopped(Exception):
    """Following was asked to stop."""


class Mirror:
    """A copy of a marketplace in SQL, brought up to date from the events feed.

    >>> from flexclient.mirror import Mirror
    >>> with Mirror(integ, "sqlite:///market.db") as mirror:  # doctest: +SKIP
    ...     report = mirror.sync()  # a snapshot the first time, then the events since
    >>> print(report)  # doctest: +SKIP

    `messages`, `availability_exceptions` and `stock_adjustments` add their tables: each costs
    a request (two for availability exceptions) per transaction or listing at the snapshot.
    `poll_interval` is how often `follow()` asks for new events (60 s; under 10 s only with
    `allow_fast_polling=True`). `progress` draws the snapshot's progress on `stream` (by
    default only when it is a terminal). `clock` tells the time (tests move it).

    `database` is `sqlite:///path` or `postgresql://user@host/database` (the `postgres`
    extra); a PostgreSQL mirror's tables go in the schema `schema` ("sharetribe" unless
    told). A write waits at most `lock_timeout` seconds for another sync of the same mirror.
    """

    def __init__(
        self,
        client: IntegrationClient,
        database: str,
        *,
        messages: bool = False,
        availability_exceptions: bool = False,
        stock_adjustments: bool = False,
        poll_interval: float = DEFAULT_POLL_INTERVAL,
        allow_fast_polling: bool = False,
        progress: bool | None = None,
        stream: TextIO | None = None,
        clock: Callable[[], dt.datetime] = _utcnow,
        schema: str | None = None,
        lock_timeout: float = DEFAULT_LOCK_TIMEOUT,
    ) -> None:
        if poll_interval < FASTEST_POLL_INTERVAL and not allow_fast_polling:
            raise ParameterError(
                "poll_interval",
                f"under {FASTEST_POLL_INTERVAL:g} s only with allow_fast_polling=True"
                f" ({credits_per_day(poll_interval):,} credits a day)",
            )
        self._client = client
        self._options = {
            "messages": messages,
            "availability_exceptions": availability_exceptions,
            "stock_adjustments": stock_adjustments,
        }
        self._tables = tuple(t for t in TABLES if not t.optional or self._options[t.name])
        self._poll = poll_interval
        self._allow_fast = allow_fast_polling
        self._stream = stream if stream is not None else sys.stderr
        self._progress = self._stream.isatty() if progress is None else progress
        self._clock = clock
        self.store: Store = Store(database, schema=schema, lock_timeout=lock_timeout)
        self._report = SyncReport()
        self._resnapshot = False  # whether the snapshot under way deletes what it misses

    def __repr__(self) -> str:
        return f"<Mirror {self.store.url} at position {self.store.number('position')}>"

    def close(self) -> None:
        """Close the database (a file this mirror made, and no sync got anywhere in, is
        deleted)."""
        self.store.discard_if_new()

    def __enter__(self) -> Mirror:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @property
    def tables(self) -> tuple[Table, ...]:
        """The tables this mirror keeps (the optional ones it was asked for included)."""
        return self._tables

    @property
    def credits_per_day(self) -> int:
        """What following costs a day in polls (more while there are many new events)."""
        return credits_per_day(self._poll)

    def status(self) -> MirrorStatus:
        """Where this mirror stands (see `flexclient.mirror.status`)."""
        return _status_of(self.store, self._clock)

    def sync(self) -> SyncReport:
        """Bring the database up to date: a snapshot if it has none (or its position is
        older than the events Sharetribe keeps), then the events since; returns what it did."""
        return self._run(follow=None)

    def follow(self, stop: threading.Event | None = None) -> SyncReport:
        """`sync()`, then keep following the events, polling every `poll_interval`, until
        `stop` is set (or Ctrl-C); each batch of events is committed before waiting."""
        return self._run(follow=stop if stop is not None else threading.Event())

    # The phases.

    def _run(self, follow: threading.Event | None) -> SyncReport:
        self._report = report = SyncReport()
        before = self._client.usage.snapshot()
        with self.store.transaction():
            self.store.set("poll_interval", self._poll)
            enabled = self.store.flags("options")
            for name in OPTIONAL_TABLES:
                if self._options[name] and not enabled.get(name) and self.store.text("phase"):
                    # A table turned on later is read by a new snapshot, which deletes what
                    # it does not see: the events before it are not replayed.
                    self._restart("resnapshot", f"{name} added")
                elif not self._options[name] and enabled.get(name):
                    # A table no longer kept current would silently go stale: emptied.
                    self.store.clear(name)
            self.store.set("options", self._options)
        try:
            phase = self.store.text("phase")
            if phase is None:
                self._restart("snapshot", "first sync")
            elif phase == "live" and self._is_stale():
                self._restart("resnapshot", "position older than the events kept")
            self._resnapshot = self.store.text("phase") == "resnapshot"
            if self.store.text("phase") in ("snapshot", "resnapshot"):
                report.snapshot = report.snapshot or self.store.text("reason")
                self._snapshot()
            self._catch_up(follow)
        except _Stopped:
            pass
        except KeyboardInterrupt:
            # Ctrl-C ends following (what was read is committed, or read again next time).
            if follow is None:
                raise
        finally:
            spent = self._client.usage.snapshot()
            report.requests = spent.requests - before.requests
            report.credits = spent.credits - before.credits
            report.position = self.store.number("position")
        return report

    def _restart(self, phase: str, reason: str) -> None:
        """Begin a snapshot; a re-snapshot also deletes what it does not see."""
        with self.store.transaction():
            self.store.delete_state("snapshot:")
            self.store.forget_seen()
            self.store.set("phase", phase)
            self.store.set("reason", reason)
            self.store.set("mark", timestamp(self._clock() - _MARK_MARGIN))
            self.store.set("position", None)
        self._report.snapshot = reason

    def _is_stale(self) -> bool:
        """Whether events after the saved position may be gone: the API answers from the
        oldest event it keeps, without an error, however old the position.

        Every event after the position was made after the later of the position's event and
        the last time the mirror caught up (or, before any event, the mark): if the oldest
        event kept is no newer than that, none of them is gone."""
        times = [self.store.text(k) for k in ("last_event_at", "caught_up_at", "mark")]
        known = [dt.datetime.fromisoformat(t) for t in times if t]
        if not known:
            return True
        since = max(known)
        if self._clock() - since < STALE_AFTER:
            return False
        res = self._client.events.query({"perPage": 1})
        oldest = res.data.data[0].attributes if res.data.data else None
        if oldest is None or oldest.created_at is None:
            # Nothing kept at all: whatever came after the position is gone with the rest.
            return True
        position = self.store.number("position")
        if (
            position is not None
            and oldest.sequence_id is not None
            and oldest.sequence_id <= position
        ):
            return False
        return oldest.created_at > since

    # The snapshot.

    def _snapshot(self) -> None:
        readers: list[tuple[Table, Callable[[], None]]] = [
            (USERS, lambda: self._windows(USERS, self._client.users.query, ["profileImage"])),
            (
                LISTINGS,
                lambda: self._windows(LISTINGS, self._client.listings.query, ["author", "images"]),
            ),
            (
                TRANSACTIONS,
                lambda: self._windows(
                    TRANSACTIONS, self._client.transactions.query, _TRANSACTION_INCLUDES
                ),
            ),
        ]
        by_name = {t.name: t for t in self._tables}
        if "messages" in by_name:
            readers.append((by_name["messages"], self._messages))
        if "availability_exceptions" in by_name:
            readers.append((by_name["availability_exceptions"], self._exceptions))
        if "stock_adjustments" in by_name:
            readers.append((by_name["stock_adjustments"], self._adjustments))
        for table, read in readers:
            if self.store.get(f"snapshot:{table.name}:done") is not True:
                read()
                self._end_progress(table)
        with self.store.transaction():
            if self.store.text("phase") == "resnapshot":
                for table in self._tables:
                    for rid in self.store.unseen(table):
                        _count(self._report.deleted, table.name, self.store.delete(table, rid))
            _count(self._report.deleted, IMAGES.name, self.store.delete_unreferenced_images())
            self.store.forget_seen()
            self.store.delete_state("snapshot:")
            self.store.set("phase", "live")

    def _windows(self, table: Table, query: Any, include: list[str]) -> None:
        """Read `table` oldest first, each request a first page from the newest `createdAt`
        read so far: no deep offsets, and no limit on how many rows a table may have."""
        key = f"snapshot:{table.name}"
        cursor = _Cursor.load(self.store.json_object(key))
        while True:
            params: dict[str, Any] = {"include": include, "perPage": _PAGE, "sort": "-createdAt"}
            if cursor.at is not None:
                params["createdAtStart"] = dt.datetime.fromisoformat(cursor.at)
            page = query(params).data
            resources: list[Resource] = page.data
            fresh = [r for r in resources if str(r.id) not in cursor.ids]
            if cursor.at is not None and not fresh and len(resources) == _PAGE:
                # A whole page created in the same millisecond: read that millisecond by pages.
                fresh = self._same_millisecond(query, params, cursor.at)
                cursor = _Cursor(_next_ms(cursor.at), [])
            else:
                cursor = cursor.advanced(fresh)
            brought = _by_key(page.included)
            with self.store.transaction():
                for resource in fresh:
                    self._store_resource(table, resource, brought)
                if len(resources) < _PAGE:
                    self.store.set(f"{key}:done", True)
                self.store.set(key, {"at": cursor.at, "ids": cursor.ids})
            self._show_progress(table)
            if len(resources) < _PAGE:
                return

    def _same_millisecond(self, query: Any, params: dict[str, Any], at: str) -> list[Resource]:
        start = dt.datetime.fromisoformat(at)
        end = start + dt.timedelta(milliseconds=1)
        return self._paged(query, {**params, "createdAtStart": start, "createdAtEnd": end})

    def _store_resource(
        self, table: Table, resource: Resource, by_id: Mapping[tuple[str, str], Resource]
    ) -> None:
        """Write `resource` and what it brought along (images, and a transaction's booking,
        reviews and stock reservation), found in `by_id` (the page's included resources)."""
        self._upsert(table, resource)
        if table is TRANSACTIONS:
            parent = {"transaction_id": str(resource.id)}
            listing = _ref(resource, "listing")
            if listing is not None:
                parent["listing_id"] = listing
            for child_table, wire in (
                (BOOKINGS, "booking"),
                (STOCK_RESERVATIONS, "stockReservation"),
                (REVIEWS, "reviews"),
            ):
                for rid in _refs(resource, wire):
                    child = by_id.get((child_table.resource_type, rid))
                    if child is not None:
                        self._upsert(child_table, child, parent)
        for wire in ("images", "profileImage"):
            for rid in _refs(resource, wire):
                image = by_id.get(("image", rid))
                if image is not None:
                    self._upsert(IMAGES, image)

    def _upsert(
        self, table: Table, resource: Resource, parent: Mapping[str, str] | None = None
    ) -> None:
        changed = self.store.upsert(table, table.row(resource, parent))
        for link in table.links:
            ids = table.linked(link, resource)
            if ids is not None:
                self.store.set_links(table, str(resource.id), link.relationship, ids)
        if self._resnapshot:
            self.store.mark_seen(table, [str(resource.id)])
        _count(self._report.upserted, table.name, int(changed))

    def _parents(self, table: Table, after_key: str) -> Iterator[str]:
        """The IDs of `table`, in order, from where a killed run left off."""
        after = self.store.text(after_key) or ""
        while True:
            found = self.store.ids_after(table, after, 500)
            if not found:
                return
            for rid in found:
                yield rid
                after = rid

    def _children(
        self,
        table: Table,
        parents: Table,
        read: Callable[[str], list[Resource]],
        parent_column: str,
    ) -> None:
        key = f"snapshot:{table.name}:after"
        for parent_id in self._parents(parents, key):
            children = read(parent_id)
            with self.store.transaction():
                for child in children:
                    self._upsert(table, child, {parent_column: parent_id})
                self.store.set(key, parent_id)
            self._show_progress(table)
        with self.store.transaction():
            self.store.set(f"snapshot:{table.name}:done", True)

    def _paged(self, query: Any, params: dict[str, Any]) -> list[Resource]:
        found: list[Resource] = []
        number = 1
        while True:
            page = query({**params, "perPage": _PAGE, "page": number}).data
            found.extend(page.data)
            if len(page.data) < _PAGE:
                return found
            number += 1

    def _messages(self) -> None:
        table = BY_RESOURCE_TYPE["message"]
        self._children(
            table,
            TRANSACTIONS,
            lambda tx: self._paged(
                self._client.messages.query, {"transactionId": tx, "include": ["sender"]}
            ),
            "transaction_id",
        )

    def _exceptions(self) -> None:
        table = BY_RESOURCE_TYPE["availabilityException"]
        now = self._clock()

        def read(listing: str) -> list[Resource]:
            found: list[Resource] = []
            for start in (now - _CHILD_YEAR, now):
                found.extend(
                    self._paged(
                        self._client.availability_exceptions.query,
                        {"listingId": listing, "start": start, "end": start + _CHILD_YEAR},
                    )
                )
            return found

        self._children(table, LISTINGS, read, "listing_id")

    def _adjustments(self) -> None:
        table = BY_RESOURCE_TYPE["stockAdjustment"]
        now = self._clock()
        self._children(
            table,
            LISTINGS,
            lambda listing: self._paged(
                self._client.stock_adjustments.query,
                {
                    "listingId": listing,
                    "start": now - _CHILD_YEAR,
                    "end": now + dt.timedelta(days=1),
                },
            ),
            "listing_id",
        )

    # Catching up from the events.

    def _catch_up(self, follow: threading.Event | None) -> None:
        position = self.store.number("position")
        mark = self.store.text("mark")
        batch: list[Event] = []

        def flush() -> None:
            self._apply(batch, caught_up=True)
            batch.clear()

        def wait(seconds: float) -> None:
            # Caught up: what was read is committed before waiting for more.
            flush()
            if follow is None or follow.wait(seconds):
                raise _Stopped

        feed = self._client.events_feed(
            start_after_sequence_id=position,
            created_at_start=dt.datetime.fromisoformat(mark) if position is None and mark else None,
            poll_interval=self._poll,
            max_poll_interval=self._poll,
            allow_fast_polling=self._allow_fast,
            stop_when_caught_up=follow is None,
            sleep=wait,
        )
        # A batch is written when it is a page long, and when the feed has caught up (before
        # it waits, or as it ends): events handed out but not written are read again by the
        # next run, from the position written with the last batch.
        for event in feed:
            batch.append(event)
            if len(batch) >= _PAGE:
                self._apply(batch, caught_up=False)
                batch.clear()
        flush()

    def _apply(self, events: Sequence[Event], *, caught_up: bool) -> None:
        """Write a batch of events and the position after them, in one transaction."""
        with self.store.transaction():
            for event in events:
                self._apply_one(event)
            if events:
                last = events[-1].attributes
                self.store.set("position", last.sequence_id)
                if last.created_at is not None:
                    self.store.set("last_event_at", timestamp(last.created_at))
            self._fetch_missing_images()
            if caught_up:
                # No event after the position was made before this time (less a margin for a
                # server clock a little behind ours): see `_is_stale`.
                now = self._clock()
                self.store.set("caught_up_at", timestamp(now - _MARK_MARGIN))
                self.store.set("synced_at", timestamp(now))
        self._report.events += len(events)

    def _apply_one(self, event: Event) -> None:
        a = event.attributes
        self.store.add_event(EVENTS.row(event))
        table = BY_RESOURCE_TYPE.get(a.resource_type or "")
        if table is None or table not in self._tables or a.resource_id is None:
            return
        if (a.event_type or "").endswith("/deleted"):
            n = self.store.delete(table, str(a.resource_id))
            _count(self._report.deleted, table.name, n)
        elif a.resource is not None:
            self._upsert(table, a.resource)

    def _fetch_missing_images(self) -> None:
        """Images a listing or user now refers to come with no event of their own: read them
        with the resource, one request each."""
        listings, users = self.store.missing_images()
        # A listing or user deleted since is left for its deletion event, in a later batch.
        for rid in listings:
            try:
                res = self._client.listings.show({"id": rid, "include": ["images"]})
            except NotFoundError:
                continue
            self._store_resource(LISTINGS, res.data.data, _by_key(res.data.included))
        for rid in users:
            try:
                found = self._client.users.show({"id": rid, "include": ["profileImage"]})
            except NotFoundError:
                continue
            self._store_resource(USERS, found.data.data, _by_key(found.data.included))
        _count(self._report.deleted, IMAGES.name, self.store.delete_unreferenced_images())

    # Progress, on a terminal.

    def _show_progress(self, table: Table) -> None:
        if self._progress:
            n = self._report.upserted.get(table.name, 0)
            self._stream.write(f"\rsnapshot: {table.name} {n:,} rows")
            self._stream.flush()

    def _end_progress(self, table: Table) -> None:
        if self._progress:
            self._show_progress(table)
            self._stream.write("\n")


def _count(counts: dict[str, int], table: str, n: int) -> None:
    if n:
        counts[table] = counts.get(table, 0) + n


@dataclass(frozen=True)
class _Cursor:
    """Where a table's snapshot has got to: the newest `createdAt` read, and the IDs read at
    that time, which the next window (which starts at that time) skips."""

    at: str | None
    ids: list[str]

    @classmethod
    def load(cls, saved: Mapping[str, Any] | None) -> _Cursor:
        if saved is None:
            return cls(None, [])
        at, ids = saved.get("at"), saved.get("ids")
        return cls(at if isinstance(at, str) else None, [str(i) for i in ids or ()])

    def advanced(self, read: Sequence[Resource]) -> _Cursor:
        at, ids = self.at, list(self.ids)
        for resource in read:
            created = getattr(resource.attributes, "created_at", None)
            if not isinstance(created, dt.datetime):
                continue
            when = timestamp(created)
            if at is None or when > at:
                at, ids = when, [str(resource.id)]
            elif when == at:
                ids.append(str(resource.id))
        return _Cursor(at, ids)


def _next_ms(at: str) -> str:
    return timestamp(dt.datetime.fromisoformat(at) + dt.timedelta(milliseconds=1))


def _by_key(included: Sequence[Resource]) -> dict[tuple[str, str], Resource]:
    return {(r.type, str(r.id)): r for r in included}


def _refs(resource: Resource, wire: str) -> list[str]:
    return related_ids(resource, wire) or []


def _ref(resource: Resource, wire: str) -> str | None:
    refs = _refs(resource, wire)
    return refs[0] if refs else None
