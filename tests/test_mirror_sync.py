"""What a sync and a mirror's status tell, in figures and in words: fast checks with no
marketplace (tests/integration/test_mirror.py runs whole syncs against the fake)."""

from __future__ import annotations

import datetime as dt
from dataclasses import FrozenInstanceError
from decimal import Decimal
from pathlib import Path

import pytest

from flexclient import IntegrationClient, MirrorError, ParameterError
from flexclient.mirror import Mirror, MirrorStatus, SyncReport, status
from flexclient.mirror._store import Store

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
        assert m.store.count("users") == 0
    with pytest.raises(MirrorError, match="closed"):
        m.store.count("users")
    other = Mirror(IntegrationClient("id", "secret"), database_url)
    other.close()
    with pytest.raises(MirrorError, match="closed"):
        other.store.count("users")
