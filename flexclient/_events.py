"""Following the Integration API's event feed, with a saved position to resume from.

The feed asks `events/query` for the events after the last one it fetched; it asks again at
once after a full page, and waits (longer and longer, up to a cap) while there is nothing new.
Its saved position is the last event the caller has *processed*: an event counts as processed
when the caller asks for the next one, or leaves the `with` block without an error. So a script
that is stopped and started again resumes after the last event it processed: none is lost, and
none is repeated unless the script died between processing an event and asking for the next.
"""

from __future__ import annotations

import datetime as dt
import logging
import math
import time
import uuid
from collections import deque
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from types import TracebackType
from typing import TYPE_CHECKING, Protocol, TypedDict, Unpack

from flexclient._errors import ParameterError, PositionStoreError, UnexpectedResponseError
from flexclient._http.progress import progress_bar
from flexclient._http.transport import check_deadline, parse_http_date
from flexclient._support.files import NotRegularFile, read_regular, write_atomic
from flexclient._support.memory import MemoryValue
from flexclient.credits import credits_for
from flexclient.models import Event

if TYPE_CHECKING:
    from flexclient._clients import IntegrationClient
    from flexclient.params import EventType

log = logging.getLogger("flexclient")


# Sharetribe's events guide: poll every 1 to 10 minutes, not under 10 to 30 seconds. A feed's
# caller acts on events as they come, so it polls twice as often as the mirror, which only
# keeps tables current (`flexclient.mirror.DEFAULT_POLL_INTERVAL`, 60 s).
FEED_POLL_INTERVAL = 30.0
MAX_POLL_INTERVAL = 300.0
FASTEST_POLL_INTERVAL = 10.0
# Each poll is an events/query, billed by the published table (a Heavy read).
_POLL_CREDITS = int(credits_for("/v1/integration_api/events/query"))
_DAY = 86_400


def credits_per_day(interval: float) -> int:
    """The credits a day that polling `events/query` every `interval` seconds costs.

    >>> credits_per_day(30), credits_per_day(300)
    (14400, 1440)
    """
    return math.ceil(_DAY / interval) * _POLL_CREDITS


class PositionStore(Protocol):
    """Where an event feed keeps the sequence ID of the last event processed."""

    def get(self) -> int | None: ...

    def set(self, sequence_id: int) -> None: ...


class MemoryPositionStore(MemoryValue[int]):
    """Keeps the position in memory (lost when the process ends).

    >>> MemoryPositionStore(41).get()
    41
    """

    def __repr__(self) -> str:
        return f"MemoryPositionStore({self.get()})"

    def set(self, sequence_id: int) -> None:
        super().set(sequence_id)


# A sequence ID and a newline; a longer file is no position file.
_MAX_POSITION_FILE = 64


class FilePositionStore:
    """Keeps the position in a small file, written atomically (a crash leaves the old one).

    A path that cannot serve (a folder, a FIFO or other non-regular file, a folder that is a
    file) or a file that does not hold a sequence ID is a `PositionStoreError`: the feed stops
    rather than start again from the wrong place.

    >>> store = FilePositionStore("~/.local/state/my-sync/events.position")
    >>> store.path.name  # nothing is read or written until the feed asks
    'events.position'
    """

    def __init__(self, path: str | Path) -> None:
        self.path: Path = Path(path).expanduser()

    def __repr__(self) -> str:
        return f"FilePositionStore({str(self.path)!r})"

    def _error(self, problem: str) -> PositionStoreError:
        return PositionStoreError(f"the event position file {str(self.path)!r} {problem}")

    def get(self) -> int | None:
        try:
            found = read_regular(self.path, _MAX_POSITION_FILE)
        except NotRegularFile as exc:
            raise self._error(str(exc)) from exc
        except OSError as exc:
            raise self._error(f"cannot be read: {exc.strerror or exc}") from exc
        if found is None:
            return None
        text = found[0].decode("utf-8", errors="replace").strip()
        if len(found[0]) > _MAX_POSITION_FILE or not text.isascii() or not text.isdigit():
            # A position that cannot be read must not silently restart the feed.
            raise self._error(f"does not hold a sequence ID: {text[:40]!r}")
        return int(text)

    def set(self, sequence_id: int) -> None:
        try:
            write_atomic(self.path, f"{sequence_id}\n")
        except OSError as exc:
            raise self._error(f"cannot be written: {exc.strerror or exc}") from exc


class FeedOptions(TypedDict, total=False):
    """The options of `IntegrationClient.events_feed` (all keywords, all optional).

    Where to start: a saved `position` (a `PositionStore`), else after
    `start_after_sequence_id`, else at `created_at_start`, else at the oldest event kept.
    Filters: `event_types`, `resource_id`, `related_resource_id`. `per_page` (1 to 100,
    default 100). Polling: at once after a full page; once caught up, every `poll_interval`
    seconds (default 30), backing off while nothing is new up to `max_poll_interval` (default
    300, five minutes), as Sharetribe's events guide advises: each poll is an `events/query`,
    a Heavy read of 5 credits. An interval under 10 s needs `allow_fast_polling=True`.
    `stop_when_caught_up` ends the feed instead; `sleep` waits (tests replace it).
    `progress=True` counts the events handed out on a tqdm bar (the `progress` extra), as
    `iter(progress=True)` does: drawn on a terminal or in a notebook, elsewhere one line when
    the feed ends.
    """

    start_after_sequence_id: int | None
    created_at_start: dt.datetime | None
    event_types: Sequence[EventType] | None
    resource_id: uuid.UUID | str | None
    related_resource_id: uuid.UUID | str | None
    position: PositionStore | None
    per_page: int
    poll_interval: float
    max_poll_interval: float
    allow_fast_polling: bool
    stop_when_caught_up: bool
    sleep: Callable[[float], None]
    progress: bool


class EventFeed:
    """An endless iterator of `Event`s; see `IntegrationClient.events_feed`."""

    def __init__(self, client: IntegrationClient, **options: Unpack[FeedOptions]) -> None:
        start_after_sequence_id = options.get("start_after_sequence_id")
        created_at_start = options.get("created_at_start")
        event_types = options.get("event_types")
        position = options.get("position")
        per_page = options.get("per_page", 100)
        poll_interval = check_deadline(
            options.get("poll_interval", FEED_POLL_INTERVAL), "poll_interval"
        )
        max_poll_interval = check_deadline(
            options.get("max_poll_interval", max(poll_interval, MAX_POLL_INTERVAL)),
            "max_poll_interval",
        )
        if start_after_sequence_id is not None and created_at_start is not None:
            raise ParameterError("created_at_start", "give a start time or a sequence ID, not both")
        if not 1 <= per_page <= 100:
            raise ParameterError("per_page", "1 to 100")
        if max_poll_interval < poll_interval:
            raise ParameterError("max_poll_interval", "at least poll_interval")
        if poll_interval < FASTEST_POLL_INTERVAL and not options.get("allow_fast_polling"):
            raise ParameterError(
                "poll_interval",
                f"under {FASTEST_POLL_INTERVAL:g} s, each poll costing 5 credits, only with"
                f" allow_fast_polling=True ({credits_per_day(poll_interval):,} credits a day)",
            )
        self._client = client
        self._position = position
        saved = position.get() if position is not None else None
        self._after = saved if saved is not None else start_after_sequence_id
        self._since = created_at_start if self._after is None else None
        self._filters: dict[str, object] = {
            "eventTypes": list(event_types) if event_types else None,
            "resourceId": options.get("resource_id"),
            "relatedResourceId": options.get("related_resource_id"),
            "perPage": per_page,
        }
        self._per_page = per_page
        self._poll, self._max_poll = poll_interval, max_poll_interval
        self._stop_when_caught_up = options.get("stop_when_caught_up", False)
        self._sleep = options.get("sleep", time.sleep)
        self._buffer: deque[Event] = deque()
        self._pending: Event | None = None
        self._unsaved: int | None = None
        self._caught_up = False
        self._idle = 0
        self._server_time: dt.datetime | None = None
        # Made last: a feed whose options fail draws no bar.
        self._bar = progress_bar(unit=" events", desc="events") if options.get("progress") else None

    def __repr__(self) -> str:
        return f"<EventFeed after sequence {self._after}, {len(self._buffer)} buffered>"

    @property
    def credits_per_day(self) -> int:
        """The credits a day of polling costs while there are new events now and then (a poll
        every `poll_interval` once caught up); `idle_credits_per_day` while there are none.
        Catching up on a backlog costs 5 credits a page of `per_page` events on top.

        >>> integ.events_feed().credits_per_day  # doctest: +SKIP
        14400
        """
        return credits_per_day(self._poll)

    @property
    def idle_credits_per_day(self) -> int:
        """The credits a day of polling costs while nothing happens (a poll every
        `max_poll_interval`)."""
        return credits_per_day(self._max_poll)

    @property
    def server_time(self) -> dt.datetime | None:
        """The API's time at its last answer (its `Date` header), or None before the first
        answer or when it had none: what a program that must not trust the local clock
        (a mirror's catch-up) tells the time by."""
        return self._server_time

    def __iter__(self) -> Iterator[Event]:
        return self

    def __next__(self) -> Event:
        self.save()  # asking for the next event means the previous one was processed
        while not self._buffer:
            if self._caught_up:
                if self._stop_when_caught_up:
                    self._close_bar()
                    raise StopIteration
                wait = min(self._max_poll, self._poll * 2 ** min(self._idle, 30))
                self._idle += 1
                log.debug("event feed: nothing new, polling again in %.1fs", wait)
                self._sleep(wait)
            self._fetch()
        event = self._buffer.popleft()
        self._pending = event
        if self._bar is not None:
            self._bar.update(1)
        return event

    def _close_bar(self) -> None:
        if self._bar is not None:
            self._bar.close()

    def _fetch(self) -> None:
        params = dict(self._filters)
        if self._after is not None:
            params["startAfterSequenceId"] = self._after
        elif self._since is not None:
            params["createdAtStart"] = self._since
        res = self._client.events.query(params)  # type: ignore[arg-type]
        self._server_time = parse_http_date(res.headers.get("Date"))
        events = res.data.data
        # The whole page passes its checks before the position moves: a page that fails moves
        # nothing, and the next call asks for the same range again.
        last = self._after
        ids = [event.attributes.sequence_id for event in events]
        for seq in ids:
            if seq is None or (last is not None and seq <= last):
                raise UnexpectedResponseError(
                    res.status,
                    res.status_text,
                    headers=res.headers,
                    request="GET events/query",
                    reason=f"event sequence IDs must increase past {self._after}, in order;"
                    f" the page has {ids} (none was handed out: the next call asks again)",
                )
            last = seq
        self._after = last
        self._buffer.extend(events)
        # A full page means more are waiting: ask again at once. Otherwise the feed has
        # caught up, and waits before asking again (once these events are processed).
        self._caught_up = len(events) < self._per_page
        if events:
            self._idle = 0

    def save(self) -> None:
        """Store the position of the last event handed out as processed."""
        # The event is processed, whatever becomes of the write below: it is never handed
        # out again, and a position that could not be written is written by the next save.
        event, self._pending = self._pending, None
        if event is not None:
            self._unsaved = event.attributes.sequence_id
        if self._unsaved is not None and self._position is not None:
            self._position.set(self._unsaved)
        self._unsaved = None

    def __enter__(self) -> EventFeed:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        # Leaving normally (also by `break`) means the last event was processed; leaving with
        # an error means it may not have been: it is handed out again, by this feed if the
        # program carries on with it, or after a restart.
        self._close_bar()
        if exc_type is None:
            self.save()
        elif self._pending is not None:
            self._buffer.appendleft(self._pending)
            self._pending = None
