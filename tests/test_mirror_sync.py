"""What a sync and a mirror's status tell, in figures and in words: fast checks with no
marketplace (tests/integration/test_mirror.py runs whole syncs against the fake)."""

from __future__ import annotations

import datetime as dt
import json
import uuid
from dataclasses import FrozenInstanceError
from decimal import Decimal
from pathlib import Path

import pytest
import requests_mock

from flexclient import IntegrationClient, MirrorError, ParameterError, UnexpectedResponseError
from flexclient.mirror import Mirror, MirrorStatus, SkippedEvent, SyncReport, status
from flexclient.mirror._database import parse_url
from flexclient.mirror._store import Store
from tests.helpers import IG, NO_WAIT

NOW = dt.datetime(2026, 11, 26, 12, 0, tzinfo=dt.UTC)


def test_a_report_says_why_it_took_a_snapshot_and_counts_with_separators() -> None:
    report = SyncReport(
        upserted={"users": 12, "listings": 1_204},
        deleted={"listings": 3, "images": 2},
        requests=1_120,
        credits=Decimal("12345.5"),
        position=5_817,
        snapshot="first sync",
        events=4_000,
    )
    assert str(report).splitlines() == [
        "snapshot (first sync): 4,000 events, 1,120 requests, 12,345.5 credits, position 5817",
        "  images: 0 upserted, 2 deleted",
        "  listings: 1,204 upserted, 3 deleted",
        "  users: 12 upserted, 0 deleted",
    ]


def test_an_empty_report_says_it_caught_up_with_nothing() -> None:
    assert str(SyncReport()) == "caught up: 0 events, 0 requests, 0 credits, position None"


def test_a_report_has_changed_when_a_row_was_written_or_deleted() -> None:
    assert not SyncReport().changed
    assert not SyncReport(upserted={"users": 0}, deleted={"listings": 0}).changed
    assert SyncReport(upserted={"users": 0, "listings": 1}).changed
    assert SyncReport(deleted={"listings": 1}).changed


def _status(lag: dt.timedelta | None, **changes: object) -> MirrorStatus:
    fields: dict[str, object] = {
        "database": "sqlite:///market.db",
        "phase": "live",
        "position": 42,
        "last_event_at": "2026-11-26T11:59:00.000Z",
        "last_synced_at": "2026-11-26T11:59:30.000Z",
        "lag": lag,
        "rows": {"users": 1_500, "listings": 12},
        "poll_interval": 60.0,
        "credits_per_day": 7_200,
    }
    fields.update(changes)
    return MirrorStatus(**fields)  # type: ignore[arg-type]


def test_status_in_words() -> None:
    assert str(_status(dt.timedelta(seconds=30))).splitlines() == [
        "mirror sqlite:///market.db: live, position 42",
        "last event 2026-11-26T11:59:00.000Z; last synced 2026-11-26T11:59:30.000Z (lag 30 s)",
        "following every 60 s costs 7,200 credits a day",
        "  users: 1,500 rows",
        "  listings: 12 rows",
    ]
    never = str(_status(None, last_event_at=None, last_synced_at=None, poll_interval=12.5))
    assert "last event -; last synced - (lag unknown)" in never
    assert "following every 12.5 s" in never


@pytest.mark.parametrize(
    ("seconds", "said"),
    [
        (0, "0 s"),
        (119, "119 s"),
        (120, "2 min"),
        (179, "2 min"),
        (7_199, "119 min"),
        (7_200, "2 h"),
        (2 * 86_400 - 1, "47 h"),
        (2 * 86_400, "2 days"),
        (9 * 86_400 + 86_399, "9 days"),
    ],
)
def test_the_lag_is_told_in_the_largest_unit_that_fits_twice(seconds: int, said: str) -> None:
    assert f"(lag {said})" in str(_status(dt.timedelta(seconds=seconds)))


def test_status_reads_the_database_alone(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'market.db'}"
    store = Store(url)
    empty = status(url, clock=lambda: NOW)
    assert (empty.phase, empty.position, empty.lag, empty.last_synced_at) == (
        "empty",
        None,
        None,
        None,
    )
    # No interval saved: the default, a poll a minute.
    assert (empty.poll_interval, empty.credits_per_day) == (60.0, 7_200)
    with store.transaction():
        store.set("phase", "live")
        store.set("position", 7)
        store.set("last_event_at", "2026-11-26T11:00:00.000Z")
        store.set("synced_at", "2026-11-26T11:30:00.000+00:00")
        store.set("poll_interval", 22.5)
    store.close()
    now = status(url, clock=lambda: NOW)
    assert (now.phase, now.position, now.last_event_at) == ("live", 7, "2026-11-26T11:00:00.000Z")
    assert now.lag == dt.timedelta(minutes=30)
    assert (now.poll_interval, now.credits_per_day) == (22.5, 19_200)
    assert now.rows["listings"] == 0 and "events" in now.rows
    with pytest.raises(FrozenInstanceError):  # a reading, not a handle on the mirror
        now.position = 8  # type: ignore[misc]


def test_polling_every_10_s_is_allowed_faster_only_when_asked(tmp_path: Path) -> None:
    client = IntegrationClient("id", "secret")  # sends nothing here
    url = f"sqlite:///{tmp_path / 'market.db'}"
    with Mirror(client, url, poll_interval=10) as m:
        assert m.credits_per_day == 43_200
    with pytest.raises(ParameterError, match="poll_interval") as refused:
        Mirror(client, url, poll_interval=9.5)
    assert "allow_fast_polling=True" in str(refused.value)
    with Mirror(client, url, poll_interval=9.5, allow_fast_polling=True) as m:
        assert m.credits_per_day == 45_475


def test_a_mirror_closes_its_database_when_its_block_ends(database_url: str) -> None:
    with Mirror(IntegrationClient("id", "secret"), database_url) as m:
        assert m.status().rows["users"] == 0
    with pytest.raises(MirrorError, match="closed"):
        m.status()
    other = Mirror(IntegrationClient("id", "secret"), database_url)
    other.close()
    with pytest.raises(MirrorError, match="closed"):
        other.status()


def test_a_report_tells_skipped_events_unread_resources_and_failures_waited_out() -> None:
    skipped = SkippedEvent(41, "listing/updated", "listing", "l-1", "MirrorError: too big")
    report = SyncReport(
        position=42, events=2, skipped=[skipped], unread=["user u-1: ServerError: 503"], outages=3
    )
    assert str(report).splitlines() == [
        "caught up: 2 events, 0 requests, 0 credits, position 42",
        "  3 failures waited out",
        "  skipped event 41 (listing/updated of listing l-1): MirrorError: too big",
        "  to read again: user u-1: ServerError: 503",
    ]


def test_status_lists_skipped_events_and_resources_to_read_again() -> None:
    skipped = SkippedEvent(41, "listing/updated", "listing", "l-1", "MirrorError: too big")
    shown = str(
        _status(dt.timedelta(seconds=1), skipped=(skipped,), unread=("user u-1: timeout",))
    ).splitlines()
    assert shown[-4:] == [
        "1 events skipped since the last snapshot:",
        "  event 41 (listing/updated of listing l-1): MirrorError: too big",
        "1 resources to read again at the next sync:",
        "  user u-1: timeout",
    ]
    assert "skipped" not in str(_status(dt.timedelta(seconds=1)))


# Answers that do not keep to the snapshot's window or order: requests-mock serves a users
# query that ignores what it is asked.
USERS_QUERY = f"{IG}/v1/integration_api/users/query"
START = dt.datetime(2026, 11, 1, tzinfo=dt.UTC)


def _users_page(*created: dt.datetime) -> dict[str, object]:
    users = [
        {
            "id": str(uuid.UUID(int=n + 1)),
            "type": "user",
            "attributes": {"createdAt": when.isoformat().replace("+00:00", "Z")},
        }
        for n, when in enumerate(created)
    ]
    body = {"data": users, "included": [], "meta": {"totalItems": None, "page": 1, "perPage": 100}}
    return {"json": body, "headers": {"Content-Type": "application/json"}}


def _snapshot_fails(url: str) -> UnexpectedResponseError:
    client = IntegrationClient("client-id", "client-secret", base_url=IG, retry_policy=NO_WAIT)
    with Mirror(client, url, clock=lambda: NOW) as m, pytest.raises(UnexpectedResponseError) as e:
        m.sync()
    # Stopped at once: the table is not marked done, and the snapshot goes on next time (an
    # SQLite file it wrote no row to is removed, and the next time begins it afresh).
    if not url.startswith("sqlite:///") or Path(url.removeprefix("sqlite:///")).exists():
        assert status(url).phase == "snapshot"
    return e.value


@pytest.mark.usefixtures("mock")
def test_a_page_out_of_order_stops_the_snapshot(
    mock: requests_mock.Mocker, database_url: str
) -> None:
    # `sort` ignored: newest first. Taken as done, the table would hold 100 of its rows.
    newest_first = [START + dt.timedelta(minutes=100 - n) for n in range(100)]
    mock.get(USERS_QUERY, **_users_page(*newest_first))  # type: ignore[arg-type]
    error = _snapshot_fails(database_url)
    assert error.status == 200 and error.request == "GET users/query"
    assert "not oldest first (sort -createdAt)" in str(error)
    assert len(mock.request_history) == 2  # the token, and one page


@pytest.mark.usefixtures("mock")
def test_a_page_from_before_its_window_stops_the_snapshot(
    mock: requests_mock.Mocker, database_url: str
) -> None:
    # `createdAtStart` ignored: the first page again, for ever (5 credits a time).
    oldest_first = [START + dt.timedelta(minutes=n) for n in range(100)]
    mock.get(USERS_QUERY, **_users_page(*oldest_first))  # type: ignore[arg-type]
    error = _snapshot_fails(database_url)
    assert "starts at 2026-11-01T00:00:00.000Z, before its createdAtStart" in str(error)
    assert len([r for r in mock.request_history if r.url.startswith(USERS_QUERY)]) == 2


@pytest.mark.usefixtures("mock")
def test_pages_that_ignore_their_number_stop_the_snapshot(
    mock: requests_mock.Mocker, database_url: str
) -> None:
    # A whole page made in one millisecond is read by page numbers: an answer that ignores
    # `page` would bring the same page for ever.
    mock.get(USERS_QUERY, **_users_page(*[START] * 100))  # type: ignore[arg-type]
    error = _snapshot_fails(database_url)
    assert "page 2 repeats resources of the pages before it" in str(error)
    assert error.request == "GET users/query"


@pytest.mark.parametrize(
    ("url", "shown"),
    [
        ("postgresql://mirror:s3cret@db:5432/market", "postgresql://mirror:***@db:5432/market"),
        ("postgres://mirror:p%40ss:word@db/market", "postgres://mirror:***@db/market"),
        ("postgresql://mirror@db/market", "postgresql://mirror@db/market"),
        ("sqlite:////var/lib/market.db", "sqlite:////var/lib/market.db"),
    ],
)
def test_a_database_is_shown_without_its_password(url: str, shown: str) -> None:
    assert parse_url(url).shown == shown


def _page(*resources: dict[str, object]) -> dict[str, object]:
    body = {"data": list(resources), "included": [], "meta": {"page": 1, "perPage": 100}}
    return {"json": body, "headers": {"Content-Type": "application/json"}}


@pytest.mark.usefixtures("mock")
def test_data_as_deep_and_numbers_as_big_as_the_client_reads_are_mirrored_exactly(
    mock: requests_mock.Mocker, database_url: str
) -> None:
    # Another client of the API wrote it (flexclient writes at most 100 levels): the mirror
    # stores what it reads, and a sync does not die on it.
    deep: object = "bottom"
    for _ in range(480):
        deep = [deep]
    public = {"deep": deep, "big": 2**70, "small": -(2**70), "ratio": 0.1}
    user = {
        "id": str(uuid.UUID(int=7)),
        "type": "user",
        "attributes": {
            "createdAt": "2026-11-01T00:00:00.000Z",
            "profile": {"displayName": "Deep D", "publicData": public},
        },
    }
    mock.get(USERS_QUERY, **_page(user))  # type: ignore[arg-type]
    for name in ("listings", "transactions", "events"):
        mock.get(f"{IG}/v1/integration_api/{name}/query", **_page())  # type: ignore[arg-type]
    client = IntegrationClient("client-id", "client-secret", base_url=IG, retry_policy=NO_WAIT)
    with Mirror(client, database_url, clock=lambda: NOW) as m:
        report = m.sync()
        rows = m.store.rows("users")
    assert report.upserted == {"users": 1} and report.skipped == []
    assert json.loads(str(rows[0]["profile_public_data"])) == public
    assert rows[0]["profile_display_name"] == "Deep D"
