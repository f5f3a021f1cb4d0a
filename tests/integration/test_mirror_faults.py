"""The mirror under ordinary faults, against the fake marketplace: a machine clock that is off,
outages while following, an event the database refuses, a resource that cannot be read, and
the boundaries of the six days after which a sync checks that no event was lost."""

from __future__ import annotations

import datetime as dt
import logging
import threading
import uuid
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import pytest
import requests

from flexclient import (
    CreditBudgetExceededError,
    ForbiddenError,
    IntegrationClient,
    MirrorError,
    ServerError,
)
from flexclient.mirror import Mirror, SkippedEvent
from flexclient.mirror._store import Store
from flexclient.mirror.schema import SqlValue, Table
from flexclient.testing import FakeMarketplace
from tests.helpers import integration

EVENTS_QUERY = "/v1/integration_api/events/query"
LISTINGS_SHOW = "/v1/integration_api/listings/show"


def mirror(
    fake: FakeMarketplace, url: str, ahead: dt.timedelta = dt.timedelta(0), **options: Any
) -> Mirror:
    """A mirror of `fake` in `url`, on a machine whose clock is `ahead` of the fake's."""
    return Mirror(integration(fake), url, clock=lambda: fake.now + ahead, **options)


def market(
    fake: FakeMarketplace, listings: int, author_email: str = "author@example.com"
) -> list[uuid.UUID]:
    """A new author's `listings`, made through the Integration API (each with its event)."""
    integ = integration(fake)
    author = fake.add_user(author_email, "pass-word-1")
    return [
        integ.listings.create(
            {"title": f"Listing {n}", "authorId": author, "state": "published"}
        ).data.data.id
        for n in range(listings)
    ]


def titles(m: Mirror) -> dict[str, SqlValue]:
    return {str(r["id"]): r["title"] for r in m.store.rows("listings")}


class StopAfter(threading.Event):
    """A stop event set after `polls` waits, recording how long each wait was to be; `then`
    runs at each wait (a change made while the follower waits)."""

    def __init__(self, polls: int, then: Callable[[int], object] | None = None) -> None:
        super().__init__()
        self.polls, self.waits = polls, list[float]()
        self.then = then

    def wait(self, timeout: float | None = None) -> bool:
        self.waits.append(timeout or 0.0)
        if self.then is not None:
            self.then(len(self.waits))
        return len(self.waits) > self.polls


# Lost changes: the mirror's clock is the API's.


@pytest.mark.parametrize("ahead", [dt.timedelta(hours=1), dt.timedelta(hours=-1)])
def test_a_machine_clock_an_hour_off_loses_no_change(
    database_url: str, ahead: dt.timedelta, caplog: pytest.LogCaptureFixture
) -> None:
    with FakeMarketplace() as fake:
        first, _second = market(fake, 2)
        fake.advance(dt.timedelta(hours=2))  # the listings' events are not replayed
        with mirror(fake, database_url, ahead) as m:
            assert m.sync().snapshot == "first sync"
            # Made after the snapshot: the catch-up must ask for events from before it.
            integration(fake).listings.update({"id": first, "title": "After the snapshot"})
            caught = m.sync()
            assert caught.events == 1 and titles(m)[str(first)] == "After the snapshot"
            # Caught up as of the API's time: no lag of an hour, either way.
            lag = m.status().lag
            assert lag is not None and abs(lag) < dt.timedelta(minutes=1)
    # Told once, in the log: the machine's clock wants setting.
    told = [r.getMessage() for r in caplog.records if "clock" in r.getMessage()]
    side = "ahead of" if ahead > dt.timedelta(0) else "behind"
    assert len(told) == 1 and f"min {side} the API's" in told[0], told


def test_six_days_are_counted_by_the_apis_clock_not_a_clock_behind_it(database_url: str) -> None:
    # Three days behind, the machine would think five days had passed after eight: a change
    # whose event the API no longer keeps would be lost without a word.
    behind = -dt.timedelta(days=3)
    with FakeMarketplace(event_retention=dt.timedelta(days=7)) as fake:
        (listing,) = market(fake, 1)
        with mirror(fake, database_url, behind) as m:
            m.sync()
            fake.advance(dt.timedelta(hours=12))
            integration(fake).listings.update({"id": listing, "title": "Made while away"})
            fake.advance(dt.timedelta(days=7, hours=12))  # its event is no longer kept
            report = m.sync()
            assert report.snapshot == "position older than the events kept"
            assert titles(m)[str(listing)] == "Made while away"


# A follower rides out what passes, and ends on what cannot heal.


def test_a_follower_waits_out_an_outage_and_goes_on(
    database_url: str, caplog: pytest.LogCaptureFixture
) -> None:
    with FakeMarketplace() as fake:
        (listing,) = market(fake, 1)
        with mirror(fake, database_url, poll_interval=10) as m:
            m.sync()
            integration(fake).listings.update({"id": listing, "title": "Seen after the outage"})
            # Six 503s: two calls, each with the client's two retries, fail.
            fake.inject(EVENTS_QUERY, status=503, body="<html>maintenance</html>", times=6)
            stop = StopAfter(3)
            report = m.follow(stop)
            assert titles(m)[str(listing)] == "Seen after the outage"
    # Waits of 1 s, then 2 s (doubling up to the poll interval), then the poll interval once
    # the feed answers again.
    assert stop.waits[:3] == [1.0, 2.0, 10.0]
    assert report.outages == 2 and report.events == 1
    assert "2 failures waited out" in str(report)
    warned = [r.getMessage() for r in caplog.records if "trying again in" in r.getMessage()]
    assert len(warned) == 2 and all(r.startswith(f"mirror {database_url}: 503 ") for r in warned)


def test_a_follower_waits_out_a_rate_limit_during_its_snapshot(database_url: str) -> None:
    with FakeMarketplace() as fake:
        market(fake, 3)
        fake.advance(dt.timedelta(hours=1))
        # The listings' first page refused three times: the client's retries, then the
        # follower's wait; the snapshot goes on from the table it had got to.
        fake.inject("/v1/integration_api/listings/query", status=429, times=3)
        with mirror(fake, database_url, poll_interval=10) as m:
            stop = StopAfter(1)
            report = m.follow(stop)
            assert m.status().phase == "live" and len(titles(m)) == 3
    assert report.outages == 1 and stop.waits == [1.0, 10.0]
    assert report.snapshot == "first sync" and report.upserted == {"users": 1, "listings": 3}


def test_a_follower_ends_on_what_cannot_heal_with_its_position_saved(
    database_url: str, caplog: pytest.LogCaptureFixture
) -> None:
    with FakeMarketplace() as fake:
        (listing,) = market(fake, 1)
        integ = integration(fake)

        def refused(waits: int) -> None:
            # While the follower waits: a change, and the client's access taken away.
            integ.listings.update({"id": listing, "title": f"Change {waits}"})
            if waits == 2:
                fake.inject(EVENTS_QUERY, status=403, body={"errors": []}, times=100)

        with mirror(fake, database_url, poll_interval=10) as m:
            stop = StopAfter(10, refused)
            with pytest.raises(ForbiddenError):
                m.follow(stop)
            position = m.status().position
            assert titles(m)[str(listing)] == "Change 1"  # read at the poll before the 403
    assert len(stop.waits) == 2  # a 403 is not waited out
    ended = [r.getMessage() for r in caplog.records if r.levelno == logging.ERROR]
    assert len(ended) == 1 and ended[0].startswith(
        f"mirror {database_url}: following ended at position {position} (saved): 403 Forbidden"
    )


def test_a_follower_ends_when_its_credit_budget_is_spent(
    database_url: str, caplog: pytest.LogCaptureFixture
) -> None:
    with FakeMarketplace() as fake:
        market(fake, 1)
        integ = integration(fake)
        with Mirror(integ, database_url, clock=lambda: fake.now) as m:
            m.sync()
        # Two more polls' worth (5 credits each).
        budgeted = integ.with_options(credit_budget=integ.usage.credits + 10)
        with Mirror(budgeted, database_url, clock=lambda: fake.now, poll_interval=10) as m:
            stop = StopAfter(100)
            with pytest.raises(CreditBudgetExceededError):
                m.follow(stop)
    assert len(stop.waits) == 2  # a budget spent is not waited out
    assert [r.levelno for r in caplog.records if "following ended" in r.getMessage()] == [
        logging.ERROR
    ]


def test_an_outage_during_a_single_sync_is_raised_with_what_was_read_kept(
    database_url: str,
) -> None:
    with FakeMarketplace() as fake:
        market(fake, 3)
        with mirror(fake, database_url) as m:
            m.sync()
            fake.inject(EVENTS_QUERY, status=503, times=3)
            with pytest.raises(ServerError, match="503"):
                m.sync()
            assert m.sync().outages == 0  # and the next one goes on


# An event the database refuses is recorded and passed.


class RefusingStore(Store):
    """A database that cannot hold a listing titled `REFUSED` (as the store raises
    `MirrorError` for a value it cannot hold), or, once `broken`, anything at all: full.

    The refusal is the store's own because the fake can serve no value every store will
    refuse for good: an integer past 2**63 fails in SQLite today, and the store is to keep
    it as text. The events and resources are the fake's, over HTTP."""

    broken = False

    def upsert_many(self, table: Table, rows: Sequence[Mapping[str, SqlValue]]) -> list[str]:
        if self.broken:
            raise MirrorError(self.url, "disk full")
        if any(row.get("title") == "REFUSED" for row in rows):
            raise MirrorError(self.url, "cannot hold this value")
        return super().upsert_many(table, rows)

    def set(self, key: str, value: object) -> None:
        # Full once the run has begun: its options are written, what it read is not.
        if self.broken and key not in ("poll_interval", "options"):
            raise MirrorError(self.url, "disk full")
        super().set(key, value)


def refusing(fake: FakeMarketplace, url: str, **options: Any) -> tuple[Mirror, RefusingStore]:
    m = mirror(fake, url, **options)
    m.store.close()
    m.store = store = RefusingStore(url)
    return m, store


def test_an_event_the_database_refuses_is_recorded_and_the_rest_go_on(
    database_url: str, caplog: pytest.LogCaptureFixture
) -> None:
    with FakeMarketplace() as fake:
        first, second = market(fake, 2)
        fake.advance(dt.timedelta(hours=1))
        integ = integration(fake)
        m, _store = refusing(fake, database_url)
        with m:
            m.sync()
            integ.listings.update({"id": first, "title": "REFUSED"})
            integ.listings.update({"id": second, "title": "After the refused one"})
            report = m.sync()
            refused = report.skipped
            assert len(refused) == 1
            (skipped,) = refused
            assert (skipped.event_type, skipped.resource_type, skipped.resource_id) == (
                "listing/updated",
                "listing",
                str(first),
            )
            assert skipped.reason == f"MirrorError: {database_url}: cannot hold this value"
            # The event after it is applied, and the position is past both.
            assert titles(m) == {str(first): "Listing 0", str(second): "After the refused one"}
            assert report.events == 2 and report.position is not None
            assert skipped.sequence_id == report.position - 1
            assert f"  skipped {skipped}" in str(report).splitlines()
            # Told in the status until the next snapshot, and not met again.
            assert m.status().skipped == (skipped,)
            assert f"  {skipped}" in str(m.status()).splitlines()
            again = m.sync()
            assert again.events == 0 and again.skipped == [] and again.position == report.position
            # A later event of the resource brings its row up to date.
            integ.listings.update({"id": first, "title": "Fine again"})
            m.sync()
            assert titles(m)[str(first)] == "Fine again"
    warned = [r.getMessage() for r in caplog.records if "skipped" in r.getMessage()]
    assert warned == [
        f"mirror {database_url}: skipped {skipped}; its row stays as it was until a later"
        " event or a new snapshot (mirror status lists the skipped events)"
    ]


def test_a_database_that_cannot_write_at_all_stops_the_sync(database_url: str) -> None:
    # Not every event skipped: the error is the database's, and the sync stops on it.
    with FakeMarketplace() as fake:
        (listing,) = market(fake, 1)
        m, store = refusing(fake, database_url)
        with m:
            position = m.sync().position
            integration(fake).listings.update({"id": listing, "title": "Not written"})
            store.broken = True
            with pytest.raises(MirrorError, match="disk full"):
                m.sync()
            store.broken = False
            assert m.status().position == position and m.status().skipped == ()
            assert m.sync().events == 1 and titles(m)[str(listing)] == "Not written"


def test_a_new_snapshot_clears_the_skipped_events(database_url: str) -> None:
    with FakeMarketplace() as fake:
        (listing,) = market(fake, 1)
        m, _store = refusing(fake, database_url)
        with m:
            m.sync()
            integration(fake).listings.update({"id": listing, "title": "REFUSED"})
            assert len(m.sync().skipped) == 1
        integration(fake).listings.update({"id": listing, "title": "Read again"})
        with mirror(fake, database_url, messages=True) as again:
            assert again.sync().snapshot == "messages added"
            assert again.status().skipped == ()
            assert titles(again)[str(listing)] == "Read again"


def test_a_resource_the_snapshot_cannot_write_is_recorded_and_the_rest_read(
    database_url: str,
) -> None:
    with FakeMarketplace() as fake:
        refused, kept = market(fake, 2)
        integ = integration(fake)
        integ.listings.update({"id": refused, "title": "REFUSED"})
        fake.advance(dt.timedelta(hours=1))  # its events are not replayed
        m, _store = refusing(fake, database_url)
        with m:
            report = m.sync()
            assert report.snapshot == "first sync" and m.status().phase == "live"
            assert titles(m) == {str(kept): "Listing 1"}
            assert m.status().skipped == (
                SkippedEvent(
                    None,
                    None,
                    "listing",
                    str(refused),
                    f"MirrorError: {database_url}: cannot hold this value",
                ),
            )
            assert report.skipped == list(m.status().skipped)
            assert report.upserted["listings"] == 1  # what was written, not what was tried
            integ.listings.update({"id": refused, "title": "Fine again"})
            m.sync()
            assert titles(m)[str(refused)] == "Fine again"


def test_a_new_snapshot_keeps_a_row_it_cannot_write_again(database_url: str) -> None:
    # A re-snapshot deletes the rows it does not see; one it saw but could not write is kept
    # as it was, and recorded.
    with FakeMarketplace() as fake:
        (listing,) = market(fake, 1)
        m, _store = refusing(fake, database_url)
        with m:
            m.sync()
        integration(fake).listings.update({"id": listing, "title": "REFUSED"})
        fake.advance(dt.timedelta(hours=1))
        again, _store = refusing(fake, database_url, messages=True)
        with again:
            report = again.sync()
            assert report.snapshot == "messages added" and "listings" not in report.deleted
            assert titles(again) == {str(listing): "Listing 0"}
            assert [s.resource_id for s in again.status().skipped] == [str(listing)]


def test_a_skipped_event_is_told_in_words_and_kept_as_json() -> None:
    skipped = SkippedEvent(7, "listing/updated", "listing", "abc", "MirrorError: too big")
    assert str(skipped) == "event 7 (listing/updated of listing abc): MirrorError: too big"
    read = SkippedEvent(None, None, "user", "u-1", "MirrorError: too big")
    assert str(read) == "user u-1 (snapshot): MirrorError: too big"
    assert SkippedEvent.load(skipped.saved()) == skipped
    assert SkippedEvent.load({"sequence_id": "7"}) == SkippedEvent(None, None, None, None, "")


# A resource that cannot be read is read again later; no transaction waits for the API.


def test_a_resource_that_cannot_be_read_is_read_again_later(
    database_url: str, caplog: pytest.LogCaptureFixture
) -> None:
    from flexclient.testing._seed import png

    with FakeMarketplace() as fake:
        (listing,) = market(fake, 1)
        integ = integration(fake)
        with mirror(fake, database_url) as m:
            m.sync()
            image = integ.images.upload({"image": png(1, 1, (1, 2, 3))}).data.data
            integ.listings.update({"id": listing, "images": [image.id]})
            integ.listings.update({"id": listing, "title": "Applied all the same"})
            fake.inject(LISTINGS_SHOW, status=500, body="boom", times=3)
            report = m.sync()
            # The batch is written; the listing's image waits for a read that works.
            assert report.events == 2 and titles(m)[str(listing)] == "Applied all the same"
            assert [u.split(":")[0] for u in report.unread] == [f"listing {listing}"]
            assert m.status().unread == tuple(report.unread)
            assert "ServerError: 500" in report.unread[0]
            assert "images" not in report.upserted
            later = m.sync()
            assert later.unread == [] and later.upserted["images"] == 1
            assert m.status().unread == ()
    assert any("cannot read listing" in r.getMessage() for r in caplog.records)


def test_no_write_transaction_waits_for_the_api(database_url: str) -> None:
    # While the mirror reads a listing for its images, another writer of the database is
    # not kept waiting (a transaction held across the request would hold it for as long as
    # the API, and the client's retries, take).
    from flexclient.testing._seed import png

    written: list[str] = []

    def write_meanwhile(response: requests.Response, *args: object, **kwargs: object) -> None:
        if response.url.split("?")[0].endswith(LISTINGS_SHOW):
            other = Store(database_url)
            try:
                with other.transaction():
                    other.set("written_meanwhile", True)
                written.append(response.url)
            finally:
                other.close()

    session = requests.Session()
    session.hooks["response"].append(write_meanwhile)
    with FakeMarketplace() as fake:
        (listing,) = market(fake, 1)
        integ = IntegrationClient(
            fake.client_id, fake.client_secret, base_url=fake.url, session=session
        )
        with Mirror(integ, database_url, clock=lambda: fake.now) as m:
            m.sync()
            image = integ.images.upload({"image": png(1, 1, (1, 2, 3))}).data.data
            integ.listings.update({"id": listing, "images": [image.id]})
            assert m.sync().upserted["images"] == 1
            assert len(written) == 1 and m.store.get("written_meanwhile") is True


# The six days after which a sync checks that no event was lost.


def test_a_live_mirror_with_no_position_checks_once_events_exist(database_url: str) -> None:
    # Synced before any event was made: no position, only the time it caught up. Six days
    # on, the oldest event kept is newer than that: events in between may be gone.
    with FakeMarketplace(event_retention=None) as fake:
        fake.add_user("author@example.com", "pass-word-1")  # no event
        with mirror(fake, database_url) as m:
            assert m.sync().position is None and m.status().phase == "live"
            fake.advance(dt.timedelta(days=6, hours=1))
            (listing,) = market(fake, 1, "later@example.com")
            report = m.sync()
            assert report.snapshot == "position older than the events kept"
            assert str(listing) in titles(m)
            assert report.position is not None


@pytest.mark.parametrize(
    ("after", "requests"), [(dt.timedelta(milliseconds=-1), 1), (dt.timedelta(0), 2)]
)
def test_exactly_six_days_after_the_last_catch_up_a_sync_checks(
    database_url: str, after: dt.timedelta, requests: int
) -> None:
    with FakeMarketplace(event_retention=None) as fake:
        market(fake, 1)
        start = fake.now.replace(microsecond=0)
        with mirror(fake, database_url) as m:
            with fake.state.at(start):
                m.sync()
            saved = [m.store.text(k) for k in ("last_event_at", "caught_up_at", "mark")]
            since = max(dt.datetime.fromisoformat(t) for t in saved if t)
            with fake.state.at(since + dt.timedelta(days=6) + after):
                report = m.sync()
    assert report.requests == requests and report.snapshot is None
