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
import time
import uuid
from collections import deque
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from types import TracebackType
from typing import TYPE_CHECKING, Protocol, TypedDict, Unpack

from flexclient._errors import ParameterError, PositionStoreError, UnexpectedResponseError
from flexclient._files import NotRegularFile, read_regular, write_atomic
from flexclient._memory import MemoryValue
from flexclient.models import Event

if TYPE_CHECKING:
    from flexclient._clients import IntegrationClient

log = logging.getLogger("flexclient")


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


class FilePositionStore:
    """Keeps the position in a small file, written atomically (a crash leaves the old one).

    A path that cannot serve (a folder, a FIFO or other non-regular file, a folder that is a
    file) or a file that does not hold a sequence ID is a `PositionStoreError`: the feed stops
    rather than start again from the wrong place.

    >>> store = FilePositionStore("~/.local/state/my-sync/events.position")  # doctest: +SKIP
    """

    def __init__(self, path: str | Path) -> None:
        self.path: Path = Path(path).expanduser()

    def __repr__(self) -> str:
        return f"FilePositionStore({str(self.path)!r})"

    def _error(self, problem: str) -> PositionStoreError:
        return PositionStoreError(f"the event position file {str(self.path)!r} {problem}")

    def get(self) -> int | None:
        try:
            found = read_regular(self.path, 64)
        except NotRegularFile as exc:
            raise self._error(str(exc)) from exc
        except OSError as exc:
            raise self._error(f"cannot be read: {exc.strerror or exc}") from exc
        if found is None:
            return None
        text = found[0].decode("utf-8", errors="replace").strip()
        if not text.isascii() or not text.isdigit():
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
    default 100). Polling: at once after a full page, and with a backoff from `poll_interval`
    (default 1 s) to `max_poll_interval` (default 30 s) while nothing is new;
    `stop_when_caught_up` ends the feed instead; `sleep` waits (tests replace it).
    """

    start_after_sequence_id: int | None
    created_at_start: dt.datetime | None
    event_types: Sequence[str] | None
    resource_id: uuid.UUID | str | None
    related_resource_id: uuid.UUID | str | None
    position: PositionStore | None
    per_page: int
    poll_interval: float
    max_poll_interval: float
    stop_when_caught_up: bool
    sleep: Callable[[float], None]


class EventFeed:
    """An endless iterator of `Event`s; see `IntegrationClient.events_feed`."""

    def __init__(self, client: IntegrationClient, **options: Unpack[FeedOptions]) -> None:
        start_after_sequence_id = options.get("start_after_sequence_id")
        created_at_start = options.get("created_at_start")
        event_types = options.get("event_types")
        position = options.get("position")
        per_page = options.get("per_page", 100)
        poll_interval = options.get("poll_interval", 1.0)
        max_poll_interval = options.get("max_poll_interval", 30.0)
        if start_after_sequence_id is not None and created_at_start is not None:
            raise ParameterError("created_at_start", "give a start time or a sequence ID, not both")
        if not 1 <= per_page <= 100:
            raise ParameterError("per_page", "1 to 100")
        if poll_interval <= 0 or max_poll_interval < poll_interval:
            raise ParameterError("poll_interval", "positive, and at most max_poll_interval")
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
        self._caught_up = False
        self._idle = 0

    def __repr__(self) -> str:
        return f"<EventFeed after sequence {self._after}, {len(self._buffer)} buffered>"

    def __iter__(self) -> Iterator[Event]:
        return self

    def __next__(self) -> Event:
        self.save()  # asking for the next event means the previous one was processed
        while not self._buffer:
            if self._caught_up:
                if self._stop_when_caught_up:
                    raise StopIteration
                wait = min(self._max_poll, self._poll * 2 ** min(self._idle, 30))
                self._idle += 1
                log.debug("event feed: nothing new, polling again in %.1fs", wait)
                self._sleep(wait)
            self._fetch()
        event = self._buffer.popleft()
        self._pending = event
        return event

    def _fetch(self) -> None:
        params = dict(self._filters)
        if self._after is not None:
            params["startAfterSequenceId"] = self._after
        elif self._since is not None:
            params["createdAtStart"] = self._since
        res = self._client.events.query(params)  # type: ignore[arg-type]
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
                    reason=f"event sequence IDs must increase past {self._after}, one by one;"
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
        if self._pending is not None and self._position is not None:
            seq = self._pending.attributes.sequence_id
            assert seq is not None  # checked when its page was read
            self._position.set(seq)
        self._pending = None

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
        if exc_type is None:
            self.save()
        elif self._pending is not None:
            self._buffer.appendleft(self._pending)
            self._pending = None
