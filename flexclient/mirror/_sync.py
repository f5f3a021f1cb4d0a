"""Copying a marketplace into the mirror's database, and keeping it current from the events.

A sync has two phases. The *snapshot* first notes the time (the mark), then reads each table
in `createdAt` order, in windows that each fit in one page, committing each page with the
place it got to. *Catching up* then replays the events from the mark: every event carries the
resource as it was after the change, so replaying an event the snapshot already saw does no
harm, and the rows end as the last event left them, even for changes made while the snapshot
ran. Each batch of events is committed with the position of its last event.

Time is the API's: the `Date` of its answers tells how far the local clock is off, and every
time the mirror saves or compares (the mark, when it caught up, the six days of `_is_stale`)
is the local clock corrected by that. Faults are ridden out or recorded, never silent: a
follower waits out an outage, an event the database cannot hold is recorded and passed, a
resource that cannot be read is read again later, and an answer that ignores the snapshot's
window or order stops the snapshot with an error.
"""

from __future__ import annotations

import datetime as dt
import functools
import itertools
import logging
import sys
import threading
from collections.abc import Callable, Generator, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from decimal import Decimal
from typing import TYPE_CHECKING, Any, TextIO, Unpack, cast

from flexclient._errors import (
    NotFoundError,
    ParameterError,
    RateLimitError,
    ServerError,
    TransportError,
    UnexpectedResponseError,
)
from flexclient._events import FASTEST_POLL_INTERVAL, credits_per_day
from flexclient._http.transport import parse_http_date
from flexclient.mirror._ahead import ReadAhead
from flexclient.mirror._database import DEFAULT_LOCK_TIMEOUT
from flexclient.mirror._names import DEFAULT_POLL_INTERVAL
from flexclient.mirror._store import Store
from flexclient.mirror.schema import (
    BOOKINGS,
    BY_RESOURCE_TYPE,
    EVENTS,
    IMAGES,
    LISTINGS,
    OPTIONAL_TABLES,
    REVIEWS,
    STOCK_RESERVATIONS,
    TABLES,
    TRANSACTIONS,
    USERS,
    OptionalTables,
    PerParent,
    SqlValue,
    Table,
    Windows,
    related_ids,
    timestamp,
)
from flexclient.models import Event, Resource

if TYPE_CHECKING:
    from flexclient._clients import IntegrationClient
    from flexclient._endpoints.kinds import Response

log = logging.getLogger("flexclient")

_PAGE = 100
# A snapshot writes its pages this many rows at a time: a transaction, and a statement a table,
# for several pages rather than one (a run killed meanwhile reads those pages again).
_WRITE_ROWS = 500
# Sharetribe keeps events 7 days on Dev and Test (90 on Live). A mirror not synced for longer
# than this checks, with one more events query, that the events since are all still kept.
STALE_AFTER = dt.timedelta(days=6)
# The mark is taken this far before the API's time (the `Date` of its answer, whole seconds),
# so that an event stamped by another of its servers, whose clock may be a little behind,
# is not lost: events replayed twice do no harm.
_MARK_MARGIN = dt.timedelta(minutes=10)
# What passes: an outage, a rate limit, a lost connection, a timeout (after the client's own
# retries). A follower waits and goes on; anything else ends it.
_TRANSIENT = (ServerError, RateLimitError, TransportError)
# A resource that fails to be read for one of these is read again later; the rest goes on.
_UNREADABLE = (*_TRANSIENT, UnexpectedResponseError)
# A follower's first wait after a failure, doubled at each failure in a row up to the poll
# interval.
_FIRST_RETRY = 1.0
# A `Date` is whole seconds, and the answer took time to arrive: a local clock this close to
# it agrees with the API's, and is used as it is (to the millisecond).
_DATE_BEHIND = dt.timedelta(seconds=1)
_DATE_AHEAD = dt.timedelta(seconds=2)
# A difference worth a warning in the log.
_SKEW_TOLD = dt.timedelta(minutes=1)
# A reason recorded for a skipped event or an unread resource is cut to this length.
_REASON = 300


def _utcnow() -> dt.datetime:
    return dt.datetime.now(dt.UTC)


@dataclass(frozen=True)
class SkippedEvent:
    """An event whose resource the mirror's database could not hold: recorded in the
    mirror's state and passed, so that the events after it are applied. A resource the
    snapshot read and could not write is recorded the same way, with no sequence ID or event
    type.

    Its resource's row stays as the events before it left it (or absent) until a later event
    of that resource, or a new snapshot, writes it. `reason` is the error the database gave.
    `Mirror.status().skipped` lists them until the next snapshot.
    """

    sequence_id: int | None
    event_type: str | None
    resource_type: str | None
    resource_id: str | None
    reason: str

    def __str__(self) -> str:
        if self.sequence_id is None:
            return f"{self.resource_type} {self.resource_id} (snapshot): {self.reason}"
        return (
            f"event {self.sequence_id} ({self.event_type} of {self.resource_type}"
            f" {self.resource_id}): {self.reason}"
        )

    @classmethod
    def of(cls, event: Event, error: BaseException) -> SkippedEvent:
        """The record of `event`, passed because writing it raised `error`."""
        a = event.attributes
        return cls(
            sequence_id=a.sequence_id,
            event_type=a.event_type,
            resource_type=a.resource_type,
            resource_id=None if a.resource_id is None else str(a.resource_id),
            reason=_reason(error),
        )

    @classmethod
    def load(cls, saved: Mapping[str, Any]) -> SkippedEvent:
        """A record as `saved` (what `saved()` wrote into the mirror's state)."""
        seq = saved.get("sequence_id")

        def text(key: str) -> str | None:
            value = saved.get(key)
            return value if isinstance(value, str) else None

        return cls(
            sequence_id=seq if isinstance(seq, int) else None,
            event_type=text("event_type"),
            resource_type=text("resource_type"),
            resource_id=text("resource_id"),
            reason=text("reason") or "",
        )

    def saved(self) -> dict[str, Any]:
        """The record as JSON, for the mirror's state."""
        return {
            "sequence_id": self.sequence_id,
            "event_type": self.event_type,
            "resource_type": self.resource_type,
            "resource_id": self.resource_id,
            "reason": self.reason,
        }


def _reason(error: BaseException) -> str:
    said = f"{type(error).__name__}: {error}"
    return said if len(said) <= _REASON else said[: _REASON - 3] + "..."


@dataclass
class SyncReport:
    """What a sync did: rows written and deleted by table, requests and credits spent, the
    position reached, and whether it took a snapshot (and why).

    >>> report = SyncReport(  # as `mirror.sync()` returns it after a first sync
    ...     upserted={"listings": 1204, "users": 310}, deleted={"listings": 2},
    ...     requests=120, credits=Decimal(124), position=5817, snapshot="first sync",
    ...     events=3,
    ... )
    >>> print(report)
    snapshot (first sync): 3 events, 120 requests, 124 credits, position 5817
      listings: 1,204 upserted, 2 deleted
      users: 310 upserted, 0 deleted
    """

    upserted: dict[str, int] = field(default_factory=dict[str, int])
    deleted: dict[str, int] = field(default_factory=dict[str, int])
    requests: int = 0
    credits: Decimal = Decimal(0)
    position: int | None = None
    snapshot: str | None = None  # why a snapshot was taken, if one was
    events: int = 0
    skipped: list[SkippedEvent] = field(default_factory=list[SkippedEvent])
    unread: list[str] = field(default_factory=list[str])  # resources to read again, and why
    outages: int = 0  # failures a follower waited out

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
        if self.outages:
            lines.append(f"  {self.outages:,} failures waited out")
        lines.extend(f"  skipped {skipped}" for skipped in self.skipped)
        lines.extend(f"  to read again: {unread}" for unread in self.unread)
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
    skipped: tuple[SkippedEvent, ...] = ()  # events passed since the last snapshot
    unread: tuple[str, ...] = ()  # resources to read again at the next sync, and why

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
        if self.skipped:
            lines.append(f"{len(self.skipped):,} events skipped since the last snapshot:")
            lines.extend(f"  {skipped}" for skipped in self.skipped)
        if self.unread:
            lines.append(f"{len(self.unread):,} resources to read again at the next sync:")
            lines.extend(f"  {unread}" for unread in self.unread)
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
    # The last sync's time is the API's: so is now, by the local clock's last known error.
    now = clock() + _offset(store)
    lag = now - dt.datetime.fromisoformat(synced) if synced else None
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
        skipped=tuple(_skipped(store)),
        unread=tuple(_texts(store.get("unread"))),
    )


def _offset(store: Store) -> dt.timedelta:
    """How far the API's clock was from the local one at the last answer (saved)."""
    seconds = store.get("clock_offset")
    if isinstance(seconds, bool) or not isinstance(seconds, int | float):
        return dt.timedelta(0)
    return dt.timedelta(seconds=seconds)


def _skipped(store: Store) -> list[SkippedEvent]:
    saved = store.get("skipped")
    records = cast("list[object]", saved) if isinstance(saved, list) else []
    return [SkippedEvent.load(cast("dict[str, Any]", r)) for r in records if isinstance(r, dict)]


def _texts(value: object) -> list[str]:
    items = cast("list[object]", value) if isinstance(value, list) else []
    return [item for item in items if isinstance(item, str)]


class _Stopped(Exception):
    """Following was asked to stop."""


class Mirror:
    """A copy of a marketplace in SQL, brought up to date from the events feed.

    >>> from flexclient.mirror import Mirror
    >>> with Mirror(integ, "sqlite:///market.db") as mirror:  # doctest: +SKIP
    ...     report = mirror.sync()  # a snapshot the first time, then the events since
    >>> print(report)  # doctest: +SKIP

    The optional tables' keywords (`OptionalTables`: `messages`, `availability_exceptions`,
    `stock_adjustments`) add their tables: each costs a request (two for availability
    exceptions) per transaction or listing at the snapshot.
    `poll_interval` is how often `follow()` asks for new events (60 s; under 10 s only with
    `allow_fast_polling=True`). `progress` draws the snapshot's progress on `stream` (by
    default only when it is a terminal). `clock` is the local clock (tests move it), corrected
    by the `Date` of the API's answers: the mirror's times are the API's.

    `database` is `sqlite:///path` or `postgresql://user@host/database` (the `postgres`
    extra); a PostgreSQL mirror's tables go in the schema `schema` ("sharetribe" unless
    told). A write waits at most `lock_timeout` seconds for another sync of the same mirror.
    """

    def __init__(
        self,
        client: IntegrationClient,
        database: str,
        *,
        poll_interval: float = DEFAULT_POLL_INTERVAL,
        allow_fast_polling: bool = False,
        progress: bool | None = None,
        stream: TextIO | None = None,
        clock: Callable[[], dt.datetime] = _utcnow,
        schema: str | None = None,
        lock_timeout: float = DEFAULT_LOCK_TIMEOUT,
        **tables: Unpack[OptionalTables],
    ) -> None:
        unknown = sorted(set(tables) - set(OPTIONAL_TABLES))
        if unknown:
            raise ParameterError(
                unknown[0], f"not an optional table (those are: {', '.join(OPTIONAL_TABLES)})"
            )
        if poll_interval < FASTEST_POLL_INTERVAL and not allow_fast_polling:
            raise ParameterError(
                "poll_interval",
                f"under {FASTEST_POLL_INTERVAL:g} s only with allow_fast_polling=True"
                f" ({credits_per_day(poll_interval):,} credits a day)",
            )
        self._client = client
        # By table name: each optional table of the schema is a keyword (`OptionalTables`).
        self._options: dict[str, bool] = {name: bool(tables.get(name)) for name in OPTIONAL_TABLES}
        self._tables = tuple(t for t in TABLES if not t.optional or self._options[t.name])
        self._poll = poll_interval
        self._allow_fast = allow_fast_polling
        self._stream = stream if stream is not None else sys.stderr
        self._progress = self._stream.isatty() if progress is None else progress
        self._clock = clock
        self.store: Store = Store(database, schema=schema, lock_timeout=lock_timeout)
        self._report = SyncReport()
        self._resnapshot = False  # whether the snapshot under way deletes what it misses
        self._pending: _Pending | None = None  # rows of the batch under way (`_batch`)
        # What to add to the local clock to tell the API's time, as its last answer told.
        self._offset = _offset(self.store)
        self._answers = 0  # answers read, to tell a follower's failures in a row
        self._told_skew = False
        self._told_no_date = False

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
        `stop` is set (or Ctrl-C); each batch of events is committed before waiting.

        What passes (a 5xx, a 429, a lost connection, a timeout) is waited out, logged as a
        warning; anything else ends it, logged with the position saved, and is raised."""
        return self._run(follow=stop if stop is not None else threading.Event())

    # The API's time.

    def _api_now(self) -> dt.datetime:
        """The API's time now: the local clock, corrected by the last answer's `Date`."""
        return self._clock() + self._offset

    def _observe(self, server_time: dt.datetime | None) -> dt.datetime:
        """Learn from an answer just read (its `Date`) how far the local clock is off;
        returns the API's time now."""
        self._answers += 1
        local = self._clock()
        if server_time is None:
            if not self._told_no_date:
                self._told_no_date = True
                log.warning(
                    "mirror %s: the API's answers carry no Date: its times come from this"
                    " machine's clock",
                    self.store.url,
                )
            return local + self._offset
        if server_time - _DATE_BEHIND <= local <= server_time + _DATE_AHEAD:
            self._offset = dt.timedelta(0)
        else:
            # The middle of the second the Date names.
            self._offset = server_time + dt.timedelta(milliseconds=500) - local
            if abs(self._offset) > _SKEW_TOLD and not self._told_skew:
                self._told_skew = True
                ahead = "behind" if self._offset > dt.timedelta(0) else "ahead of"
                log.warning(
                    "mirror %s: this machine's clock is %s %s the API's: the mirror tells"
                    " the time by the API's",
                    self.store.url,
                    _duration(abs(self._offset)),
                    ahead,
                )
        return local + self._offset

    def _answered(self, response: Response[Any]) -> dt.datetime:
        return self._observe(parse_http_date(response.headers.get("Date")))

    def _save_time(self, **times: dt.datetime) -> None:
        """Save `times` (the API's) and the local clock's error with them."""
        for key, when in times.items():
            self.store.set(key, timestamp(when))
        self.store.set("clock_offset", self._offset.total_seconds())

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
            self._ride_out(follow)
        except _Stopped:
            pass
        except KeyboardInterrupt:
            # Ctrl-C ends following (what was read is committed, or read again next time).
            if follow is None:
                raise
        except Exception as exc:
            if follow is not None:
                log.error(
                    "mirror %s: following ended at position %s (saved): %s",
                    self.store.url,
                    self._saved_position(),
                    exc,
                )
            raise
        finally:
            spent = self._client.usage.snapshot()
            report.requests = spent.requests - before.requests
            report.credits = spent.credits - before.credits
            report.position = self.store.number("position")
        return report

    def _saved_position(self) -> int | str | None:
        """The position saved, as far as a database that may have failed can tell."""
        try:
            return self.store.number("position")
        except Exception:  # the database's own failure, being reported
            return "unknown"

    def _ride_out(self, follow: threading.Event | None) -> None:
        """The phases; following, again after each failure that passes (an outage, a rate
        limit, a lost connection), after a wait that doubles while they fail in a row."""
        wait = min(_FIRST_RETRY, self._poll)
        while True:
            answers = self._answers
            try:
                self._phases(follow)
                return
            except _TRANSIENT as exc:
                if follow is None:
                    raise
                if self._answers > answers:  # it got somewhere: a new failure, not the same
                    wait = min(_FIRST_RETRY, self._poll)
                self._report.outages += 1
                log.warning(
                    "mirror %s: %s; trying again in %g s (position %s)",
                    self.store.url,
                    exc,
                    wait,
                    self._saved_position(),
                )
                if follow.wait(wait):
                    return
                wait = min(wait * 2, self._poll)

    def _phases(self, follow: threading.Event | None) -> None:
        phase = self.store.text("phase")
        if phase is None:
            self._restart("snapshot", "first sync")
        elif phase == "live" and self._is_stale():
            self._restart("resnapshot", "position older than the events kept")
        self._resnapshot = self.store.text("phase") == "resnapshot"
        if self.store.text("phase") in ("snapshot", "resnapshot"):
            self._report.snapshot = self._report.snapshot or self.store.text("reason")
            self._snapshot()
        self._catch_up(follow)

    def _restart(self, phase: str, reason: str) -> None:
        """Begin a snapshot; a re-snapshot also deletes what it does not see."""
        with self.store.transaction():
            self.store.delete_state("snapshot:")
            self.store.forget_seen()
            self.store.set("phase", phase)
            self.store.set("reason", reason)
            # Lowered to the API's time of the snapshot's first answer (`_lower_mark`).
            self._save_time(mark=self._api_now() - _MARK_MARGIN)
            self.store.set("position", None)
            # The snapshot reads every resource again: skipped events are behind it.
            self.store.set("skipped", [])
        self._report.snapshot = reason

    def _lower_mark(self, sent: dt.datetime) -> None:
        """Make the mark no later than `sent` (the API's time a snapshot request was sent),
        less the margin: every change the snapshot did not see is replayed from it."""
        mark = self.store.text("mark")
        lower = timestamp(sent - _MARK_MARGIN)
        if mark is None or lower < mark:
            self._save_time(mark=sent - _MARK_MARGIN)

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
        if self._api_now() - since < STALE_AFTER:
            return False
        res = self._client.events.query({"perPage": 1})
        self._answered(res)
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
        # Each table the way its entry says (`Table.read`), in the order of `TABLES`: a table
        # read per parent row comes after its parent.
        for table in self._tables:
            if table.read is not None and self.store.get(f"snapshot:{table.name}:done") is not True:
                self._read(table, table.read)
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

    def _read(self, table: Table, read: Windows | PerParent) -> None:
        """Read `table` in a snapshot as its entry says: by windows of its own query, or
        query by query for each row of its parent (the API's time now fixing their ranges)."""
        query = getattr(self._client, read.group).query
        if isinstance(read, Windows):
            self._windows(table, query, list(read.include))
            return
        now = self._api_now()

        def children(parent: str) -> list[Resource]:
            found: list[Resource] = []
            for params in read.queries(parent, now):
                found.extend(self._paged(query, dict(params)))
            return found

        self._children(table, read.parent, children, read.column)

    def _windows(self, table: Table, query: Any, include: list[str]) -> None:
        """Read `table` oldest first, each request a first page from the newest `createdAt`
        read so far: no deep offsets, and no limit on how many rows a table may have.

        The pages are read on a thread of their own, up to a write's worth ahead, while the
        ones before are written: a few at a time (`_WRITE_ROWS`), each write in one
        transaction with where the table's snapshot got to."""
        key = f"snapshot:{table.name}"
        cursor = _Cursor.load(self.store.json_object(key))
        held: _Held | None = None  # pages read and not yet written
        pages = self._window_pages(query, include, cursor)
        with ReadAhead(pages, _WRITE_ROWS // _PAGE, "flexclient-mirror") as read:
            for page in read:
                held = held or _Held(page.sent)
                held.add(page.fresh, page.included)
                if page.done or len(held.resources) >= _WRITE_ROWS:
                    self._write(
                        table,
                        held.resources,
                        functools.partial(self._store_resource, table, by_id=held.included),
                        functools.partial(
                            self._window_read, key, page.cursor, page.done, held.sent
                        ),
                    )
                    held = None
                    self._show_progress(table)

    def _window_pages(self, query: Any, include: list[str], cursor: _Cursor) -> Iterator[_Page]:
        """The pages of a table's snapshot from `cursor` on, each with the cursor after it;
        an answer that does not keep to its window or order is an error."""
        while True:
            params: dict[str, Any] = {"include": include, "perPage": _PAGE, "sort": "-createdAt"}
            if cursor.at is not None:
                params["createdAtStart"] = dt.datetime.fromisoformat(cursor.at)
            sent = self._clock()
            res = query(params)
            self._answered(res)
            sent += self._offset  # the API's time, by what its answer told
            page = res.data
            resources: list[Resource] = page.data
            _check_window(res, str(query.path), cursor.at)
            fresh = [r for r in resources if str(r.id) not in cursor.ids]
            if cursor.at is not None and not fresh and len(resources) == _PAGE:
                # A whole page created in the same millisecond: read that millisecond by pages.
                fresh = self._same_millisecond(query, params, cursor.at)
                cursor = _Cursor(_next_ms(cursor.at), [])
            else:
                before, cursor = cursor, cursor.advanced(fresh)
                if len(resources) == _PAGE and cursor == before:
                    # Nothing new in a full page: asking again would bring the same page.
                    raise _unexpected(
                        res,
                        str(query.path),
                        f"a full page from createdAtStart {before.at} brought nothing new:"
                        " the window does not move",
                    )
            done = len(resources) < _PAGE
            yield _Page(fresh, page.included, cursor, sent, done)
            if done:
                return

    def _window_read(self, key: str, cursor: _Cursor, done: bool, sent: dt.datetime) -> None:
        """Save where a table's snapshot got to: the cursor, whether it is done, and the mark
        no later than the first request of the pages written."""
        self._lower_mark(sent)
        if done:
            self.store.set(f"{key}:done", True)
        self.store.set(key, {"at": cursor.at, "ids": cursor.ids})

    def _write(
        self,
        table: Table,
        resources: Sequence[Resource],
        write: Callable[[Resource], None],
        finish: Callable[[], None],
    ) -> None:
        """Write a page of `resources` of `table`, then `finish` (where the snapshot got to),
        in one transaction. If that fails, each resource is written in a transaction of its
        own, and one the database refuses is recorded and passed, as a skipped event is."""
        counts = self._counts()
        try:
            with self.store.transaction():
                with self._batch():
                    for resource in resources:
                        write(resource)
                finish()
            return
        except Exception:
            self._report.upserted, self._report.deleted = counts
        for resource in resources:
            counts = self._counts()
            try:
                with self.store.transaction(), self._batch():
                    write(resource)
                continue
            except Exception as exc:
                self._report.upserted, self._report.deleted = counts
                skipped = SkippedEvent(
                    None, None, table.resource_type, str(resource.id), _reason(exc)
                )
            self._skip(skipped, functools.partial(self._keep, table, str(resource.id)))
        with self.store.transaction():
            finish()

    def _keep(self, table: Table, rid: str) -> None:
        """A re-snapshot keeps a row it could not write, rather than delete it as unseen."""
        if self._resnapshot:
            self.store.mark_seen(table, [rid])

    def _counts(self) -> tuple[dict[str, int], dict[str, int]]:
        """The report's counts, to put back when the transaction they count rolls back."""
        return dict(self._report.upserted), dict(self._report.deleted)

    def _skip(self, skipped: SkippedEvent, also: Callable[[], None]) -> None:
        """Record `skipped` in the mirror's state with `also` (what moves the mirror past it),
        report it and log it. A database that cannot write at all fails here too, and that
        error is raised: only what the database refuses alone is passed."""
        with self.store.transaction():
            saved = [r.saved() for r in _skipped(self.store)]
            self.store.set("skipped", [*saved, skipped.saved()])
            also()
        self._report.skipped.append(skipped)
        log.warning(
            "mirror %s: skipped %s; its row stays as it was until a later event or a new"
            " snapshot (mirror status lists the skipped events)",
            self.store.url,
            skipped,
        )

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
        """Write `resource` to `table`: at once, or with the rest of the batch under way."""
        rid = str(resource.id)
        pending = self._pending if self._pending is not None else _Pending()
        pending.rows.setdefault(table, {})[rid] = table.row(resource, parent)
        for link in table.links:
            ids = table.linked(link, resource)
            if ids is not None:
                pending.links.setdefault((table, link.relationship), {})[rid] = ids
        if self._resnapshot:
            pending.seen.setdefault(table, []).append(rid)
        if self._pending is None:
            self._write_pending(pending)

    @contextmanager
    def _batch(self) -> Generator[None]:
        """Rows upserted in the block are written together as it ends: a statement a table,
        not one a row (in the caller's transaction)."""
        self._pending = _Pending()
        try:
            yield
            self._flush()
        finally:
            self._pending = None

    def _flush(self) -> None:
        """Write the rows of the batch under way now (before a deletion, which must follow
        them)."""
        if self._pending is not None:
            self._write_pending(self._pending)
            self._pending = _Pending()

    def _write_pending(self, pending: _Pending) -> None:
        for table, rows in pending.rows.items():
            changed = self.store.upsert_many(table, list(rows.values()))
            _count(self._report.upserted, table.name, len(changed))
        for (table, relationship), links in pending.links.items():
            self.store.set_links_many(table, relationship, links)
        for table, ids in pending.seen.items():
            self.store.mark_seen(table, ids)

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
            self._write(
                table,
                children,
                functools.partial(self._upsert, table, parent={parent_column: parent_id}),
                functools.partial(self.store.set, key, parent_id),
            )
            self._show_progress(table)
        with self.store.transaction():
            self.store.set(f"snapshot:{table.name}:done", True)

    def _paged(self, query: Any, params: dict[str, Any]) -> list[Resource]:
        found: list[Resource] = []
        seen: set[tuple[str, str]] = set()
        number = 1
        while True:
            res = query({**params, "perPage": _PAGE, "page": number})
            self._answered(res)
            page = res.data
            keys = {(r.type, str(r.id)) for r in page.data}
            if keys & seen:
                # An answer that ignores `page` would bring the same page for ever.
                raise _unexpected(
                    res,
                    str(query.path),
                    f"page {number} repeats resources of the pages before it",
                )
            seen |= keys
            found.extend(page.data)
            if len(page.data) < _PAGE:
                return found
            number += 1

    # Catching up from the events.

    def _catch_up(self, follow: threading.Event | None) -> None:
        position = self.store.number("position")
        mark = self.store.text("mark")
        batch: list[Event] = []

        def flush() -> None:
            # The feed has caught up: the time of its last answer is the API's.
            self._apply(batch, caught_up_at=self._observe(feed.server_time))
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
        events = iter(feed)
        while True:
            try:
                event = next(events)
            except StopIteration:
                break
            except _Stopped:
                raise
            except Exception:
                # The feed failed (an outage, say): what it read is written first, so that
                # the position saved is the last event read.
                if batch:
                    self._apply(batch, caught_up_at=None)
                raise
            batch.append(event)
            if len(batch) >= _PAGE:
                self._apply(batch, caught_up_at=None)
                batch.clear()
        flush()

    def _apply(self, events: Sequence[Event], *, caught_up_at: dt.datetime | None) -> None:
        """Write a batch of events and the position after them, in one transaction; then
        read the images they refer to (no transaction is held while the API answers)."""
        if events:
            counts = self._counts()
            try:
                with self.store.transaction():
                    with self._batch():
                        for event in events:
                            self._apply_one(event)
                    self._advance(events[-1])
            except Exception:
                # Rolled back: event by event, so that one the database cannot hold is
                # recorded and passed rather than hold up the ones after it for ever.
                self._report.upserted, self._report.deleted = counts
                self._apply_singly(events)
        self._fetch_missing_images()
        if caught_up_at is not None:
            with self.store.transaction():
                # No event after the position was made before this time (less a margin for
                # events stamped by another of the API's servers): see `_is_stale`.
                self._save_time(caught_up_at=caught_up_at - _MARK_MARGIN, synced_at=caught_up_at)
        self._report.events += len(events)

    def _advance(self, event: Event) -> None:
        """Save the position after `event`."""
        a = event.attributes
        self.store.set("position", a.sequence_id)
        if a.created_at is not None:
            self.store.set("last_event_at", timestamp(a.created_at))

    def _apply_singly(self, events: Sequence[Event]) -> None:
        for event in events:
            counts = self._counts()
            try:
                with self.store.transaction():
                    with self._batch():
                        self._apply_one(event)
                    self._advance(event)
                continue
            except Exception as exc:
                self._report.upserted, self._report.deleted = counts
                skipped = SkippedEvent.of(event, exc)
            self._skip(skipped, functools.partial(self._advance, event))

    def _apply_one(self, event: Event) -> None:
        a = event.attributes
        self.store.add_event(EVENTS.row(event))
        table = BY_RESOURCE_TYPE.get(a.resource_type or "")
        if table is None or table not in self._tables or a.resource_id is None:
            return
        if (a.event_type or "").endswith("/deleted"):
            self._flush()  # what the events before it wrote, first
            n = self.store.delete(table, str(a.resource_id))
            _count(self._report.deleted, table.name, n)
        elif a.resource is not None:
            self._upsert(table, a.resource)

    def _fetch_missing_images(self) -> None:
        """Images a listing or user now refers to come with no event of their own: read them
        with the resource, one request each, before writing them. One that cannot be read
        now (an outage) is left missing, and so read again at the next batch or sync."""
        listings, users = self.store.missing_images()
        reads = [(LISTINGS, rid, self._client.listings.show, "images") for rid in listings] + [
            (USERS, rid, self._client.users.show, "profileImage") for rid in users
        ]
        found: list[tuple[Table, Response[Any]]] = []
        unread: list[str] = []
        for table, rid, show, include in reads:
            try:
                res: Response[Any] = show({"id": rid, "include": [include]})
            except NotFoundError:
                # Deleted since: left for its deletion event, in a later batch.
                continue
            except _UNREADABLE as exc:
                unread.append(f"{table.resource_type} {rid}: {_reason(exc)}")
                continue
            self._answered(res)
            found.append((table, res))
        for what in unread:
            log.warning("mirror %s: cannot read %s; read again later", self.store.url, what)
        self._report.unread = unread
        with self.store.transaction():
            for table, res in found:
                self._store_resource(table, res.data.data, _by_key(res.data.included))
            _count(self._report.deleted, IMAGES.name, self.store.delete_unreferenced_images())
            self.store.set("unread", unread)

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


@dataclass
class _Pending:
    """Rows waiting to be written together, by table (a row given twice: the last), the
    links of their owners, and what a re-snapshot has seen."""

    rows: dict[Table, dict[str, dict[str, SqlValue]]] = field(
        default_factory=dict[Table, dict[str, dict[str, SqlValue]]]
    )
    links: dict[tuple[Table, str], dict[str, list[str]]] = field(
        default_factory=dict[tuple[Table, str], dict[str, list[str]]]
    )
    seen: dict[Table, list[str]] = field(default_factory=dict[Table, list[str]])


@dataclass
class _Held:
    """Pages a snapshot has read and not yet written: their resources, what they included,
    and when the first of them was asked for (the mark is no later than that)."""

    sent: dt.datetime
    resources: list[Resource] = field(default_factory=list[Resource])
    included: dict[tuple[str, str], Resource] = field(
        default_factory=dict[tuple[str, str], Resource]
    )

    def add(self, resources: list[Resource], included: Sequence[Resource]) -> None:
        self.resources.extend(resources)
        self.included.update(_by_key(included))


@dataclass(frozen=True)
class _Page:
    """A page of a table's snapshot: the resources not read before, what it included, the
    cursor after it, the API's time it was asked for, and whether it was the last."""

    fresh: list[Resource]
    included: list[Resource]
    cursor: _Cursor
    sent: dt.datetime
    done: bool


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


def _check_window(res: Response[Any], endpoint: str, since: str | None) -> None:
    """Stop a snapshot whose answer does not keep to its window (`createdAtStart`) or order
    (`sort`): asking again would bring the same page until the rate limit, and a table read
    out of order would be marked done with rows missing."""
    resources: list[Resource] = res.data.data
    times: list[str] = []
    for resource in resources:
        created = getattr(resource.attributes, "created_at", None)
        if not isinstance(created, dt.datetime):
            raise _unexpected(res, endpoint, f"{resource.type} {resource.id} has no createdAt")
        times.append(timestamp(created))
    for earlier, later in itertools.pairwise(times):
        if later < earlier:
            raise _unexpected(
                res,
                endpoint,
                f"the page is not oldest first (sort -createdAt): {earlier} comes before {later}",
            )
    if since is not None and times and times[0] < since:
        raise _unexpected(
            res, endpoint, f"the page starts at {times[0]}, before its createdAtStart {since}"
        )


def _unexpected(res: Response[Any], endpoint: str, problem: str) -> UnexpectedResponseError:
    return UnexpectedResponseError(
        res.status,
        res.status_text,
        headers=res.headers,
        request=f"GET {endpoint}",
        reason=f"{problem}; the snapshot stops rather than copy a table in part"
        " (what it wrote is kept, and the next sync goes on from there)",
    )


def _next_ms(at: str) -> str:
    return timestamp(dt.datetime.fromisoformat(at) + dt.timedelta(milliseconds=1))


def _by_key(included: Sequence[Resource]) -> dict[tuple[str, str], Resource]:
    return {(r.type, str(r.id)): r for r in included}


def _refs(resource: Resource, wire: str) -> list[str]:
    return related_ids(resource, wire) or []


def _ref(resource: Resource, wire: str) -> str | None:
    refs = _refs(resource, wire)
    return refs[0] if refs else None
