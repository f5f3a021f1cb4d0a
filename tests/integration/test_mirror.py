"""The mirror against the fake marketplace: a snapshot holds what the API returns, changes
made through both APIs reach it, crashes at any point lose and repeat nothing, and a
position older than the events kept takes a new snapshot."""

from __future__ import annotations

import datetime as dt
import io
import logging
import os
import random
import re
import signal
import sqlite3
import subprocess
import sys
import threading
import time
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest
import requests

from flexclient import IntegrationClient, MarketplaceClient, MirrorError, Money, ParameterError
from flexclient._cli import main as cli_main
from flexclient.mirror import Mirror, status
from flexclient.mirror._store import Store
from flexclient.mirror.schema import LISTINGS, USERS
from flexclient.models import OwnListing
from flexclient.testing import FakeMarketplace
from flexclient.testing._seed import png
from tests.helpers import NO_WAIT, integration
from tests.integration.conftest import ROOM_PRICE, connect_stripe, midnight, paid_booking

# The mirror's bookkeeping and the raw event log differ between a mirror that followed the
# changes and one that copied the result: every other table must be equal.
_NOT_COMPARED = {
    "events",
    "_flexclient_mirror",
    "_flexclient_mirror_seen",
    "_flexclient_mirror_changes",
}


def mirror(fake: FakeMarketplace, database: str, **options: Any) -> Mirror:
    # The mirror tells the time by the fake's clock, which tests move forward.
    return Mirror(integration(fake), database, clock=lambda: fake.now, **options)


def contents(database: str) -> dict[str, list[tuple[Any, ...]]]:
    """Every table's rows (the same values on every database), in a stable order."""
    store = Store(database, create=False, read_only=True)
    try:
        return {
            name: sorted((tuple(r.values()) for r in store.rows(name)), key=repr)
            for name in store.all_table_names()
            if name not in _NOT_COMPARED
        }
    finally:
        store.close()


def fresh_snapshot(fake: FakeMarketplace, database: str, **options: Any) -> dict[str, Any]:
    with mirror(fake, database, **options) as m:
        assert m.sync().snapshot == "first sync"
    return contents(database)


@pytest.fixture
def demo() -> Iterator[FakeMarketplace]:
    with FakeMarketplace(seed="demo") as fake:
        yield fake


def test_a_snapshot_holds_every_row_as_the_api_returns_it(
    demo: FakeMarketplace, database_url: str
) -> None:
    db = database_url
    integ = integration(demo)
    with mirror(demo, db) as m:
        report = m.sync()
    assert report.snapshot == "first sync"
    assert report.requests > 0 and report.credits > 0
    listings = integ.listings.query({"perPage": 100}).data
    assert listings.meta.total_items == len(contents(db)["listings"])
    assert report.upserted["listings"] == listings.meta.total_items

    store = Store(db, create=False)
    rows = {r["id"]: r for r in store.rows("listings")}
    for found in listings.data[:20]:
        shown = integ.listings.show({"id": found.id, "include": ["author", "images"]}).data.data
        assert rows[str(shown.id)] == LISTINGS.row(shown)
        a = shown.attributes
        row = rows[str(shown.id)]
        assert row["title"] == a.title
        assert a.price is not None and (row["price_amount"], row["price_currency"]) == (
            a.price.amount,
            a.price.currency,
        )
        assert (
            a.created_at is not None
            and row["created_at"]
            == a.created_at.astimezone(dt.UTC).strftime("%Y-%m-%dT%H:%M:%S.%f")[:-3] + "Z"
        )
        assert row["author_id"] == str(shown.author.id)
        linked = store.linked_ids(LISTINGS, "images", str(row["id"]))
        assert linked == [str(i.id) for i in shown.images]
    users = {r["id"]: r for r in store.rows("users")}
    for user in integ.users.query({}).data.data:
        shown_user = integ.users.show({"id": user.id, "include": ["profileImage"]}).data.data
        assert users[str(user.id)] == USERS.row(shown_user)
    transactions = {r["id"]: r for r in store.rows("transactions")}
    children: dict[str, dict[Any, Any]] = {
        name: {r["id"]: r for r in store.rows(name)} for name in CHILDREN
    }
    related = ["listing", "provider", "customer", "booking", "stockReservation", "reviews"]
    seen: dict[str, int] = dict.fromkeys(CHILDREN, 0)
    for tx in integ.transactions.query(
        {"include": [*related, "reviews.author", "reviews.subject"]}
    ).data.data:
        row = transactions[str(tx.id)]
        assert row["last_transition"] == tx.attributes.last_transition
        assert (row["listing_id"], row["provider_id"], row["customer_id"]) == (
            str(tx.listing.id),
            str(tx.provider.id),
            str(tx.customer.id),
        )
        # What a transaction brings along is kept with its transaction and listing.
        for name, got in (
            ("bookings", [tx.booking] if tx.booking else []),
            ("stock_reservations", [tx.stock_reservation] if tx.stock_reservation else []),
            ("reviews", tx.reviews),
        ):
            for child in got:
                kept = children[name][str(child.id)]
                assert kept["transaction_id"] == str(tx.id)
                assert name == "bookings" or kept["listing_id"] == str(tx.listing.id)
                seen[name] += 1
        assert row["booking_id"] == (str(tx.booking.id) if tx.booking else None)
        for review in tx.reviews:
            kept = children["reviews"][str(review.id)]
            assert (kept["author_id"], kept["subject_id"]) == (
                str(review.author.id),
                str(review.subject.id),
            )
    assert all(seen.values()), seen  # the demo has each
    store.close()


CHILDREN = ("bookings", "stock_reservations", "reviews")


def change_everything(fake: FakeMarketplace) -> dict[str, uuid.UUID]:
    """Changes through both APIs: updates, a close, a new listing, a draft discarded, a
    transaction through its transitions, stock, a deleted user."""
    integ = integration(fake)
    some = integ.listings.query({"perPage": 3}).data.data
    integ.listings.update({"id": some[0].id, "title": "Renamed in the mirror test"})
    integ.listings.close({"id": some[1].id})
    author = some[0].author.id if some[0].relationships.get("author") else None
    if author is None:
        author = integ.listings.show({"id": some[0].id, "include": ["author"]}).data.data.author.id
    made = integ.listings.create(
        {"title": "Made by the Integration API", "authorId": author, "state": "published"}
    ).data.data
    host, room, guest = hosted_room(fake, Money(7000, "EUR"))
    draft = host.own_listings.create_draft({"title": "A draft"}).data.data
    tx = paid_booking(
        fake, guest, room.id, midnight(fake, 3), dt.timedelta(days=2), Money(7000, "EUR")
    )
    host.transactions.transition({"id": tx.id, "transition": "transition/accept"})
    integ.listings.update({"id": room.id, "publicData": {"floor": 2}})
    # Stock: a new total, then an adjustment; and an availability exception on the room.
    integ.stock.compare_and_set({"listingId": made.id, "oldTotal": None, "newTotal": 5})
    integ.stock_adjustments.create({"listingId": made.id, "quantity": -2})
    host.availability_exceptions.create(
        {
            "listingId": room.id,
            "start": midnight(fake, 10),
            "end": midnight(fake, 11),
            "seats": 0,
        }
    )
    leaving = _user(fake, "leaving@example.com")
    leaving_id = leaving.current_user.show().data.data.id
    return {
        "renamed": some[0].id,
        "closed": some[1].id,
        "made": made.id,
        "draft": draft.id,
        "tx": tx.id,
        "room": room.id,
        "leaving": leaving_id,
        "host": host.current_user.show().data.data.id,
    }


def hosted_room(
    fake: FakeMarketplace, price: Money = ROOM_PRICE
) -> tuple[MarketplaceClient, OwnListing, MarketplaceClient]:
    """A host who can be paid, a room of theirs, and a guest: users who signed up, as the
    mirror learns of users from their `user/created` events (`fake.add_user` records none)."""
    host = _user(fake, "host@example.com")
    connect_stripe(host)
    room = host.own_listings.create({"title": "Room", "price": price}).data.data
    return host, room, _user(fake, "guest@example.com")


def _user(fake: FakeMarketplace, email: str) -> MarketplaceClient:
    """A user who signs up through the Marketplace API (which records `user/created`)."""
    sdk = MarketplaceClient(
        fake.client_id, client_secret=fake.client_secret, base_url=fake.url, retry_policy=NO_WAIT
    )
    sdk.current_user.create(
        {"email": email, "password": "pass-word-1", "firstName": "Lea", "lastName": "Ving"}
    )
    sdk.login(username=email, password="pass-word-1")
    return sdk


def test_changes_through_both_apis_reach_the_mirror(
    demo: FakeMarketplace, database_url: str, new_database: Callable[[], str]
) -> None:
    db = database_url
    every_table = {"messages": True, "availability_exceptions": True, "stock_adjustments": True}
    with mirror(demo, db, **every_table) as m:
        m.sync()
        ids = change_everything(demo)
        first = m.sync()
        # The draft, made after the first sync, is discarded after the second: deleted.
        host = MarketplaceClient(demo.client_id, base_url=demo.url, retry_policy=NO_WAIT)
        host.login(username="host@example.com", password="pass-word-1")
        host.own_listings.discard_draft({"id": ids["draft"]})
        leaving = MarketplaceClient(demo.client_id, base_url=demo.url, retry_policy=NO_WAIT)
        leaving.login(username="leaving@example.com", password="pass-word-1")
        leaving.current_user.delete({"currentPassword": "pass-word-1"})
        second = m.sync()
    assert first.snapshot is None and first.events > 0
    assert first.upserted["transactions"] >= 1 and first.upserted["bookings"] >= 1
    assert second.deleted.get("listings") == 1 and second.deleted.get("users") == 1

    store = Store(db, create=False)
    listing = {r["id"]: r for r in store.rows("listings")}
    assert listing[str(ids["renamed"])]["title"] == "Renamed in the mirror test"
    assert listing[str(ids["closed"])]["state"] == "closed"
    assert listing[str(ids["made"])]["title"] == "Made by the Integration API"
    assert listing[str(ids["room"])]["public_data"] == '{"floor":2}'
    assert str(ids["draft"]) not in listing
    assert str(ids["leaving"]) not in {r["id"] for r in store.rows("users")}
    tx = {r["id"]: r for r in store.rows("transactions")}[str(ids["tx"])]
    assert tx["last_transition"] == "transition/accept"
    assert tx["listing_id"] == str(ids["room"]) and tx["provider_id"] == str(ids["host"])
    booking = {r["id"]: r for r in store.rows("bookings")}[tx["booking_id"]]
    assert booking["transaction_id"] == tx["id"] and booking["state"] == "accepted"
    events = store.rows("events")
    assert len(events) == first.events + second.events
    sequence = sorted(int(e["sequence_id"] or 0) for e in events)
    assert len(set(sequence)) == len(sequence) and sequence[-1] == second.position
    store.close()
    adjustments = [r for r in contents(db)["stock_adjustments"] if r[-2] == str(ids["made"])]
    assert sorted(r[2] for r in adjustments) == [-2, 5]
    exceptions = contents(db)["availability_exceptions"]
    assert [(r[1], r[-1]) for r in exceptions] == [(0, str(ids["room"]))]
    # What followed the changes equals a copy made now.
    assert contents(db) == fresh_snapshot(demo, new_database(), **every_table)


def test_changes_to_tables_a_mirror_does_not_keep_are_left_out(
    demo: FakeMarketplace, database_url: str, new_database: Callable[[], str]
) -> None:
    # Stock adjustments and availability exceptions are made, with events of their own; a
    # mirror that keeps neither table passes those events by.
    db = database_url
    with mirror(demo, db) as m:
        m.sync()
        change_everything(demo)
        report = m.sync()
    assert report.events > 0 and report.upserted["listings"] >= 1
    kept = contents(db)
    for name in ("stock_adjustments", "availability_exceptions", "messages"):
        assert name not in report.upserted and kept.get(name, []) == []
    assert kept == fresh_snapshot(demo, new_database())


def test_a_second_sync_changes_nothing(demo: FakeMarketplace, database_url: str) -> None:
    db = database_url
    with mirror(demo, db) as m:
        m.sync()
        before = contents(db)
        again = m.sync()
    assert not again.changed and again.snapshot is None and again.events == 0
    assert again.requests == 1 and again.credits == 5  # one events query: nothing new
    assert contents(db) == before


class Crash(BaseException):
    """A process killed in the middle of a transaction (nothing after it runs)."""


class WriteBudget:
    """`Store.upsert_many` raising `Crash` once `left` rows are written (those before it in
    the same statement written first), until `lift()`."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch, left: int) -> None:
        self.left = left
        self._monkeypatch = monkeypatch
        self._upsert_many = upsert_many = Store.upsert_many

        def crashing(store: Store, table: Any, rows: Any) -> list[str]:
            allowed = max(self.left, 0)
            self.left -= len(rows)
            if self.left < 0:
                upsert_many(store, table, rows[:allowed])
                raise Crash
            return upsert_many(store, table, rows)

        monkeypatch.setattr(Store, "upsert_many", crashing)

    def lift(self) -> None:
        """Rows written as usual again."""
        self._monkeypatch.setattr(Store, "upsert_many", self._upsert_many)


def test_a_crash_at_any_write_loses_and_repeats_nothing(
    demo: FakeMarketplace,
    database_url: str,
    new_database: Callable[[], str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    db = database_url
    rng = random.Random(20261126)
    budget = WriteBudget(monkeypatch, 0)
    crashes = 0
    changed = False
    for _ in range(40):
        budget.left = rng.randrange(1, 120)
        m = mirror(demo, db, messages=True)
        try:
            m.sync()
        except Crash:
            crashes += 1
            # An interrupted run leaves no transaction open: the next one starts cleanly.
            m.close()
            if crashes == 3 and not changed:
                change_everything(demo)
                changed = True
            continue
        m.close()
        if changed:
            break
        change_everything(demo)
        changed = True
    assert crashes >= 3 and changed
    budget.lift()
    with mirror(demo, db, messages=True) as m:
        m.sync()
    assert contents(db) == fresh_snapshot(demo, new_database(), messages=True)


_SYNC_SCRIPT = """
import os, sys
from flexclient import IntegrationClient
from flexclient.mirror import Mirror
client = IntegrationClient(os.environ["ID"], os.environ["SECRET"], base_url=os.environ["URL"])
with Mirror(client, sys.argv[1], messages=True) as m:
    m.sync()
"""


def _progress(database: str) -> tuple[int, int]:
    """Rows written and the saved position, read beside the running sync."""
    try:
        reader = Store(database, create=False, read_only=True, lock_timeout=5)
    except (MirrorError, ParameterError):
        return 0, 0  # not made yet
    try:
        names = ("users", "listings", "transactions", "messages")
        return sum(reader.count(name) for name in names), reader.number("position") or 0
    except MirrorError:
        return 0, 0
    finally:
        reader.close()


def _run_until(command: list[str], env: dict[str, str], done: Any) -> bool:
    """Run the sync and kill -9 it as soon as `done()` says so; whether it was killed."""
    process = subprocess.Popen(command, env=env)
    try:
        while process.poll() is None:
            if done():
                process.send_signal(signal.SIGKILL)
                process.wait()
                return True
            time.sleep(0.005)
        assert process.returncode == 0
        return False
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()


def test_kill_9_at_random_moments_ends_equal_to_a_fresh_snapshot(
    demo: FakeMarketplace, database_url: str, new_database: Callable[[], str]
) -> None:
    db = database_url
    env = {
        **os.environ,
        "ID": demo.client_id,
        "SECRET": demo.client_secret,
        "URL": demo.url,
        "PYTHONPATH": os.pathsep.join(sys.path),
    }
    command = [sys.executable, "-c", _SYNC_SCRIPT, db]
    rng = random.Random(9)
    integ = integration(demo)
    killed = 0
    # During the snapshot: killed after a growing, random number of rows.
    for threshold in sorted(rng.sample(range(1, 270), 4)):
        killed += _run_until(command, env, lambda t=threshold: _progress(db)[0] >= t)
    # During catch-up: many changes (several pages of events), killed once the position moves.
    listings = integ.listings.query({"perPage": 100}).data.data
    for round_ in range(3):
        for listing in listings[: rng.randrange(120, 200) // 2]:
            integ.listings.update({"id": listing.id, "title": f"Round {round_}"})
            integ.listings.update({"id": listing.id, "publicData": {"round": round_}})
        before = _progress(db)[1]
        killed += _run_until(command, env, lambda b=before: _progress(db)[1] > b)
    assert killed >= 5
    subprocess.run(command, env=env, check=True, timeout=120)
    assert contents(db) == fresh_snapshot(demo, new_database(), messages=True)


def test_a_position_older_than_the_events_kept_takes_a_new_snapshot(
    database_url: str, new_database: Callable[[], str]
) -> None:
    with FakeMarketplace(seed="demo", event_retention=dt.timedelta(days=7)) as demo:
        _away_past_retention(demo, database_url, new_database)


def _away_past_retention(
    demo: FakeMarketplace, database_url: str, new_database: Callable[[], str]
) -> None:
    db = database_url
    host, room, _guest = hosted_room(demo)
    draft = host.own_listings.create_draft({"title": "Gone while away"}).data.data
    with mirror(demo, db) as m:
        m.sync()
        # Away longer than the 7 days of events the fake keeps, like Sharetribe's Dev and
        # Test environments: the draft's deletion is among the events no longer kept.
        host.own_listings.discard_draft({"id": draft.id})
        demo.advance(dt.timedelta(days=8))
        integration(demo).listings.update({"id": room.id, "title": "After the absence"})
        report = m.sync()
    assert report.snapshot == "position older than the events kept"
    assert report.deleted.get("listings") == 1
    rows = {r[0]: r for r in contents(db)["listings"]}
    assert str(draft.id) not in rows
    assert contents(db) == fresh_snapshot(demo, new_database())


def test_a_long_absence_with_every_event_kept_needs_no_new_snapshot(database_url: str) -> None:
    with FakeMarketplace(seed="demo", event_retention=None) as fake:
        _host, room, _guest = hosted_room(fake)
        with mirror(fake, database_url) as m:
            m.sync()
            integration(fake).listings.update({"id": room.id, "title": "Before"})
            m.sync()
            fake.advance(dt.timedelta(days=30))
            integration(fake).listings.update({"id": room.id, "title": "After"})
            report = m.sync()
    assert report.snapshot is None
    # (The month's delayed transitions change transactions too.)
    assert report.upserted["listings"] == 1
    # The check for lost events is one more events query, after the absence only.
    assert report.requests == 2


def test_follow_commits_each_batch_before_waiting(demo: FakeMarketplace, database_url: str) -> None:
    db = database_url
    stop = threading.Event()
    integ = integration(demo)
    listing = integ.listings.query({"perPage": 1}).data.data[0]
    m = mirror(demo, db, poll_interval=0.05, allow_fast_polling=True)
    reports: list[Any] = []
    follower = threading.Thread(target=lambda: reports.append(m.follow(stop)))
    follower.start()
    try:
        integ.listings.update({"id": listing.id, "title": "Seen while following"})
        reader = Store(db, create=False, read_only=True)
        row = None
        for _ in range(400):  # a bounded wait for the change, not a timing
            row = reader.row(LISTINGS, str(listing.id))
            if row is not None and row["title"] == "Seen while following":
                break
            time.sleep(0.05)
        reader.close()
        assert row is not None and row["title"] == "Seen while following"
    finally:
        stop.set()
        follower.join(timeout=60)
        m.close()
    assert not follower.is_alive()
    assert reports[0].events >= 1


def test_bad_options_fail_before_any_request(
    demo: FakeMarketplace, database_url: str, tmp_path: Path
) -> None:
    with pytest.raises(ParameterError, match="poll_interval") as polled:
        mirror(demo, database_url, poll_interval=5)
    assert "allow_fast_polling=True" in str(polled.value)
    with pytest.raises(ParameterError, match="database"):
        Mirror(integration(demo), "mysql://db/market")
    with pytest.raises(ParameterError, match="no mirror at"):
        status(f"sqlite:///{tmp_path / 'none.db'}")


def test_an_optional_table_turned_on_later_takes_a_new_snapshot_and_off_empties_it(
    demo: FakeMarketplace, database_url: str
) -> None:
    db = database_url
    with mirror(demo, db) as m:
        m.sync()
    assert "messages" not in contents(db) or contents(db)["messages"] == []
    with mirror(demo, db, messages=True) as m:
        report = m.sync()
    assert report.snapshot == "messages added"
    assert report.upserted["messages"] > 0 and len(contents(db)["messages"]) > 0
    with mirror(demo, db) as m:
        assert m.sync().snapshot is None
    assert contents(db)["messages"] == []


def test_status_tells_position_lag_rows_and_credits_a_day(
    demo: FakeMarketplace, database_url: str
) -> None:
    db = database_url
    with mirror(demo, db, stock_adjustments=True) as m:
        m.sync()
        integration(demo).listings.update(
            {"id": integration(demo).listings.query({"perPage": 1}).data.data[0].id, "title": "x"}
        )
        report = m.sync()
        now = m.status()
    assert now.phase == "live" and now.position == report.position is not None
    assert now.rows["listings"] == len(contents(db)["listings"])
    assert "stock_adjustments" in now.rows and "messages" not in now.rows
    assert now.credits_per_day == 7_200  # a poll a minute, 5 credits each
    assert now.lag is not None and now.lag < dt.timedelta(minutes=1)
    # The last event applied (the listing's update) came before the sync that applied it.
    assert now.last_event_at is not None and now.last_synced_at is not None
    assert now.last_event_at <= now.last_synced_at
    assert f"position {report.position}" in str(now)


def test_the_command_line_syncs_and_tells_the_status(database_url: str, tmp_path: Path) -> None:
    url = database_url
    run = [sys.executable, "-m", "flexclient"]
    synced = subprocess.run(
        [*run, "--fake", "mirror", "sync", url], capture_output=True, text=True, check=True
    )
    assert "snapshot (first sync)" in synced.stdout and "listings: 250 upserted" in synced.stdout
    shown = subprocess.run([*run, "mirror", "status", url], capture_output=True, text=True)
    assert shown.returncode == 0 and "listings: 250 rows" in shown.stdout
    assert "7,200 credits a day" in shown.stdout
    missing = subprocess.run(
        [*run, "mirror", "status", f"sqlite:///{tmp_path / 'none.db'}"],
        capture_output=True,
        text=True,
    )
    assert missing.returncode == 1 and "run `mirror sync` first" in missing.stderr


def test_rows_made_in_one_millisecond_beyond_a_page_are_all_copied(database_url: str) -> None:
    with FakeMarketplace() as fake:
        integ = integration(fake)
        author = fake.add_user("many@example.com", "pass-word-1")
        # Two pages and more of listings made in the same millisecond, between others.
        integ.listings.create({"title": "Before", "authorId": author, "state": "published"})
        fake.advance(1)
        with fake.state.at(fake.now):
            for n in range(230):
                integ.listings.create({"title": f"Same {n}", "authorId": author})
        fake.advance(dt.timedelta(milliseconds=1))  # the very next millisecond
        integ.listings.create({"title": "After", "authorId": author, "state": "published"})
        # Made long enough ago that the catch-up does not replay their events: the snapshot
        # alone must read them.
        fake.advance(dt.timedelta(hours=1))
        with mirror(fake, database_url) as m:
            report = m.sync()
    assert report.upserted["listings"] == 232
    titles = {r[1] for r in contents(database_url)["listings"]}
    assert {"Before", "After", "Same 0", "Same 229"} <= titles and len(titles) == 232


def _market(fake: FakeMarketplace, listings: int) -> IntegrationClient:
    """A marketplace of one author's `listings`, made through the Integration API a
    millisecond apart (so that a snapshot's pages are known: 100 new listings on the first,
    99 on each after it, which repeats the newest of the page before)."""
    integ = integration(fake)
    author = fake.add_user("author@example.com", "pass-word-1")
    for n in range(listings):
        integ.listings.create({"title": f"Listing {n}", "authorId": author, "state": "published"})
        fake.advance(0.001)
    return integ


def test_a_snapshot_killed_mid_table_resumes_where_it_stopped(
    database_url: str, new_database: Callable[[], str], monkeypatch: pytest.MonkeyPatch
) -> None:
    db = database_url
    with FakeMarketplace() as fake:
        _market(fake, 600)
        # Killed at its second write of listings; the first, of the six pages that brought
        # 500 new listings or more (595), is committed.
        written: list[int] = []
        upsert_many = Store.upsert_many

        def crashing(store: Store, table: Any, rows: Any) -> list[str]:
            if table.name == "listings":
                if written:
                    raise Crash
                written.append(len(rows))
            return upsert_many(store, table, rows)

        monkeypatch.setattr(Store, "upsert_many", crashing)
        m = mirror(fake, db)
        with pytest.raises(Crash):
            m.sync()
        m.close()
        monkeypatch.setattr(Store, "upsert_many", upsert_many)
        assert written == [595]
        before = len(fake.requests)
        with mirror(fake, db) as again:
            report = again.sync()
        # Only the rest is read again, in one request.
        assert report.upserted == {"listings": 5} and report.snapshot == "first sync"
        read = [p.rsplit("/", 2)[1] for _, p in fake.requests[before:] if p.endswith("s/query")]
        assert [r for r in read if r != "events"] == ["listings", "transactions"]
        assert contents(db) == fresh_snapshot(fake, new_database())


def test_a_snapshot_asks_for_its_next_page_while_it_writes_the_pages_before(
    database_url: str,
    new_database: Callable[[], str],
    monkeypatch: pytest.MonkeyPatch,
    caplog: pytest.LogCaptureFixture,
) -> None:
    caplog.set_level(logging.DEBUG, logger="flexclient")
    with FakeMarketplace() as fake:
        _market(fake, 600)

        def listing_reads() -> int:
            return sum(1 for _, p in fake.requests if p.endswith("/listings/query"))

        writes: list[tuple[int, int]] = []  # rows written, and listing pages asked for by then
        upsert_many = Store.upsert_many

        def watching(store: Store, table: Any, rows: Any) -> list[str]:
            if table.name == "listings":
                if not writes:
                    # The seventh page is asked for while the first six are written.
                    waited = time.monotonic() + 10
                    while listing_reads() < 7 and time.monotonic() < waited:
                        time.sleep(0.01)
                writes.append((len(rows), listing_reads()))
            return upsert_many(store, table, rows)

        monkeypatch.setattr(Store, "upsert_many", watching)
        with mirror(fake, database_url) as m:
            m.sync()
        # The listings were read on a thread of the mirror's own, gone when the sync ended.
        read_on = {r.threadName for r in caplog.records if "/listings/query -> 200" in r.message}
        assert len(read_on) == 1 and str(read_on.pop()).startswith("flexclient-mirror")
        assert not [t for t in threading.enumerate() if t.name.startswith("flexclient-mirror")]
        # Pages written a few at a time: two writes for the snapshot's seven pages (the
        # catch-up's writes of the listings' events follow).
        assert writes[:2] == [(595, 7), (5, 7)]
        monkeypatch.setattr(Store, "upsert_many", upsert_many)
        assert contents(database_url) == fresh_snapshot(fake, new_database())


def test_progress_is_drawn_only_when_asked_or_on_a_terminal(
    database_url: str, new_database: Callable[[], str]
) -> None:
    with FakeMarketplace() as fake:
        _market(fake, 3)
        drawn, quiet = io.StringIO(), io.StringIO()
        with mirror(fake, database_url, progress=True, stream=drawn) as m:
            m.sync()
        with mirror(fake, new_database(), stream=quiet) as m:  # not a terminal
            m.sync()
    lines = drawn.getvalue().split("\n")
    assert lines[0].startswith("\rsnapshot: users ") and lines[0].endswith(
        "\rsnapshot: users 1 rows"
    )
    # Drawn after each page, and once more as the table ends.
    assert lines[1] == "\rsnapshot: listings 3 rows" * 2
    assert lines[2].endswith("\rsnapshot: transactions 0 rows") and lines[3] == ""
    assert quiet.getvalue() == ""


def test_a_mirror_tells_its_position_and_what_following_costs(database_url: str) -> None:
    with FakeMarketplace() as fake:
        _market(fake, 2)
        url = database_url
        with Mirror(integration(fake), url, poll_interval=30, clock=lambda: fake.now) as m:
            assert repr(m) == f"<Mirror {url} at position None>"
            report = m.sync()
            assert report.position is not None and report.position > 0
            assert repr(m) == f"<Mirror {url} at position {report.position}>"
            assert m.credits_per_day == 14_400  # a poll every 30 s, 5 credits each
            assert m.status().poll_interval == 30


class _CtrlC(threading.Event):
    """A stop event whose wait is interrupted, as by Ctrl-C."""

    def wait(self, timeout: float | None = None) -> bool:
        raise KeyboardInterrupt


def test_ctrl_c_ends_following_but_interrupts_a_sync(
    database_url: str, new_database: Callable[[], str]
) -> None:
    with FakeMarketplace() as fake:
        _market(fake, 2)
        db = database_url
        with mirror(fake, db) as m:
            report = m.follow(_CtrlC())
        # Caught up, then stopped while waiting: what was read is kept.
        assert report.upserted["listings"] == 2 and report.position is not None
        assert status(db).phase == "live"

        def interrupted() -> dt.datetime:
            raise KeyboardInterrupt

        with (
            Mirror(integration(fake), new_database(), clock=interrupted) as m,
            pytest.raises(KeyboardInterrupt),
        ):
            m.sync()


def test_no_events_kept_at_all_after_a_long_absence_takes_a_new_snapshot(database_url: str) -> None:
    with FakeMarketplace(event_retention=dt.timedelta(days=7)) as fake:
        _market(fake, 2)
        with mirror(fake, database_url) as m:
            m.sync()
            fake.advance(dt.timedelta(days=8))  # every event gone, none since
            report = m.sync()
    assert report.snapshot == "position older than the events kept"


def test_images_added_later_are_read_with_their_listing_or_user(database_url: str) -> None:
    with FakeMarketplace() as fake:
        db = database_url
        host = _user(fake, "host@example.com")
        room = host.own_listings.create({"title": "Room"}).data.data
        with mirror(fake, db) as m:
            m.sync()
            photo = host.images.upload({"image": png(2, 2, (1, 2, 3))}).data.data
            host.own_listings.add_image({"id": room.id, "imageId": photo.id})
            face = host.images.upload({"image": png(1, 1, (9, 9, 9))}).data.data
            host.current_user.update_profile({"profileImageId": face.id})
            report = m.sync()
            images = {r[0] for r in contents(db)["images"]}
            # An image no listing or user refers to any more is deleted.
            host.own_listings.update({"id": room.id, "images": []})
            later = m.sync()
    assert report.upserted["images"] == 2
    assert images == {str(photo.id), str(face.id)}
    assert later.deleted == {"images": 1}
    assert {r[0] for r in contents(db)["images"]} == {str(face.id)}


def test_after_six_days_away_a_sync_checks_that_no_event_is_lost(database_url: str) -> None:
    with FakeMarketplace(event_retention=None) as fake:
        _market(fake, 1)
        with mirror(fake, database_url) as m:
            m.sync()
            fake.advance(dt.timedelta(days=5, hours=23))
            assert m.sync().requests == 1  # the events query
            # Counted from when it last caught up, not from the last event (12 days ago).
            fake.advance(dt.timedelta(days=5, hours=23))
            assert m.sync().requests == 1
            fake.advance(dt.timedelta(days=6))
            # One more events query, for the oldest event kept: it is older than the
            # position, so nothing was lost.
            report = m.sync()
    assert report.requests == 2 and report.snapshot is None


def test_a_mirror_that_lost_its_saved_times_takes_a_new_snapshot(database_url: str) -> None:
    with FakeMarketplace() as fake:
        _market(fake, 1)
        with mirror(fake, database_url) as m:
            m.sync()
            # Nothing then tells how old the position is: it cannot be trusted.
            with m.store.transaction():
                for key in ("last_event_at", "caught_up_at", "mark"):
                    m.store.set(key, None)
            report = m.sync()
    assert report.snapshot == "position older than the events kept"


def test_a_snapshot_reads_each_listings_exceptions_and_stock_adjustments(database_url: str) -> None:
    db = database_url
    with FakeMarketplace() as fake:
        host, room, _guest = hosted_room(fake)
        integration(fake).stock.compare_and_set(
            {"listingId": room.id, "oldTotal": None, "newTotal": 3}
        )
        # One in each year the snapshot reads: the one before the sync and the one after.
        for days in (-200, 200):
            host.availability_exceptions.create(
                {
                    "listingId": room.id,
                    "start": midnight(fake, days),
                    "end": midnight(fake, days + 1),
                    "seats": 0,
                }
            )
        # Long enough ago that the snapshot's catch-up, from a little before the snapshot,
        # does not replay their events: the snapshot must read them.
        fake.advance(dt.timedelta(hours=1))
        with mirror(fake, db, availability_exceptions=True, stock_adjustments=True) as m:
            report = m.sync()
    assert report.snapshot == "first sync"
    assert report.upserted["availability_exceptions"] == 2
    assert report.upserted["stock_adjustments"] == 1
    rows = contents(db)
    assert [r[-1] for r in rows["availability_exceptions"]] == [str(room.id)] * 2
    assert [(r[2], r[-2]) for r in rows["stock_adjustments"]] == [(3, str(room.id))]


class _StopAfter(threading.Event):
    """A stop event set after `polls` waits, counting them."""

    def __init__(self, polls: int) -> None:
        super().__init__()
        self.polls, self.waits = polls, 0

    def wait(self, timeout: float | None = None) -> bool:
        self.waits += 1
        return self.waits > self.polls


def test_follow_polls_until_stopped_and_applies_every_page_of_events(database_url: str) -> None:
    with FakeMarketplace() as fake:
        integ = _market(fake, 3)
        listings = integ.listings.query({}).data.data
        db = database_url
        with mirror(fake, db) as m:
            m.sync()
            # More than a page of events (100) to catch up on.
            for n in range(55):
                for listing in listings:
                    integ.listings.update({"id": listing.id, "title": f"Round {n}"})
            stop = _StopAfter(2)
            report = m.follow(stop)
    assert stop.waits == 3  # caught up, then two polls with nothing new
    assert report.events == 165
    assert {r[1] for r in contents(db)["listings"]} == {"Round 54"}


def test_a_sync_stopped_between_batches_has_not_caught_up(
    demo: FakeMarketplace, database_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A batch of a full page of events is written with its position, but the mirror has
    # caught up (and synced) only once the feed has nothing more: a sync stopped after the
    # first of two batches still says when it last was whole.
    db = database_url
    with mirror(demo, db) as m:
        m.sync()
        before = m.status()
    integ = integration(demo)
    listing = integ.listings.query({"perPage": 1}).data.data[0]
    for n in range(120):  # one event each: a full batch, and some
        integ.listings.update({"id": listing.id, "title": f"Title {n}"})
    demo.advance(dt.timedelta(hours=1))
    # A batch writes the listing once (the last of its hundred events): the second crashes.
    budget = WriteBudget(monkeypatch, 1)
    with mirror(demo, db) as m, pytest.raises(Crash):
        m.sync()
    budget.lift()
    with mirror(demo, db) as m:
        stopped = m.status()
        assert stopped.position != before.position  # the first batch is written
        assert stopped.last_synced_at == before.last_synced_at
        assert m.sync().events == 20
        assert m.status().last_synced_at != before.last_synced_at


def test_a_resource_gone_before_its_image_is_read_does_not_hold_up_the_next(
    database_url: str,
) -> None:
    # Two users take new profile images and two listings new images; a hundred events later
    # the first user's draft is discarded and the user deletes their account. The first
    # batch finds the four images missing and reads each listing and user: the first of
    # each is gone (their deletions come in the next batch), the second's image is read all
    # the same, and is there once that batch is written, whatever becomes of the next.
    with FakeMarketplace() as fake:
        db = database_url
        first, second = _user(fake, "first@example.com"), _user(fake, "second@example.com")
        room = second.own_listings.create({"title": "Room"}).data.data
        draft = first.own_listings.create_draft({"title": "Draft"}).data.data
        while str(draft.id) > str(room.id):  # listings are read by id: the gone one first
            draft = first.own_listings.create_draft({"title": "Draft"}).data.data
        with mirror(fake, db) as m:
            m.sync()
        kept: list[str] = []
        gone: list[str] = []
        for sdk, listing, shade, ids in ((first, draft, 1, gone), (second, room, 2, kept)):
            photo = sdk.images.upload({"image": png(2, 2, (shade, 0, 0))}).data.data
            sdk.own_listings.add_image({"id": listing.id, "imageId": photo.id})
            face = sdk.images.upload({"image": png(1, 1, (shade, shade, shade))}).data.data
            sdk.current_user.update_profile({"profileImageId": face.id})
            ids += [str(photo.id), str(face.id)]
        for n in range(100):
            second.own_listings.update({"id": room.id, "title": f"Room {n}"})
        first.own_listings.discard_draft({"id": draft.id})
        first.current_user.delete({"currentPassword": "pass-word-1"})
        # The process is killed once the first batch's images are read and written: as it
        # asks for the next batch.
        shown: list[str] = []

        def killed_at_the_next_batch(response: requests.Response, *_: object, **__: object) -> None:
            path = urlsplit(response.url).path
            if path.endswith(("/listings/show", "/users/show")):
                shown.append(path)
            elif path.endswith("/events/query") and shown:
                raise Crash

        session = requests.Session()
        session.hooks["response"].append(killed_at_the_next_batch)
        integ = IntegrationClient(
            fake.client_id, fake.client_secret, base_url=fake.url, session=session
        )
        with Mirror(integ, db, clock=lambda: fake.now) as m, pytest.raises(Crash):
            m.sync()
        assert len(shown) == 4  # each listing and user, the two gone included
    images = {r[0] for r in contents(db)["images"]}
    assert set(kept) <= images and not set(gone) & images


def test_six_days_count_from_the_last_event_when_it_is_newer_than_the_catch_up(
    database_url: str,
) -> None:
    # A catch-up vouches for the events made until ten minutes before it (a margin for the
    # server's clock); an event read in that margin is newer still, and the six days are
    # counted from it.
    with FakeMarketplace(event_retention=None) as fake:
        _market(fake, 1)
        host = _user(fake, "host@example.com")
        with mirror(fake, database_url) as m:
            m.sync()
            fake.advance(dt.timedelta(hours=1))
            host.own_listings.create({"title": "Made a minute before the catch-up"})
            fake.advance(dt.timedelta(minutes=1))
            assert m.sync().events == 1
            fake.advance(dt.timedelta(days=6) - dt.timedelta(minutes=1, seconds=30))
            report = m.sync()
    assert report.requests == 1  # the events query alone: not six days since that event


def test_a_first_sync_replays_the_events_of_its_last_ten_minutes(database_url: str) -> None:
    # The snapshot reads what is there; the events of the ten minutes before it are read
    # again (the server's clock may be behind ours), older ones are not.
    with FakeMarketplace() as fake:
        host = _user(fake, "host@example.com")
        host.own_listings.create({"title": "Ten and a half minutes before"})
        fake.advance(dt.timedelta(minutes=1))
        host.own_listings.create({"title": "Nine and a half minutes before"})
        fake.advance(dt.timedelta(minutes=9, seconds=30))
        with mirror(fake, database_url) as m:
            report = m.sync()
    assert report.snapshot == "first sync" and report.events == 1


def test_a_new_snapshot_replays_from_its_own_mark_not_the_old_position(
    demo: FakeMarketplace, database_url: str, new_database: Callable[[], str]
) -> None:
    # Turning a table on takes a new snapshot, which reads everything as it is now: the
    # changes made since the last sync, an hour ago, are in it, not replayed after it.
    db = database_url
    integ = integration(demo)
    listing = integ.listings.query({"perPage": 1}).data.data[0]
    with mirror(demo, db) as m:
        m.sync()
        integ.listings.update({"id": listing.id, "title": "Read from an event"})
        assert m.sync().position is not None
    change_everything(demo)
    demo.advance(dt.timedelta(hours=1))
    with mirror(demo, db, messages=True) as m:
        report = m.sync()
    assert report.snapshot == "messages added" and report.events == 0
    assert contents(db) == fresh_snapshot(demo, new_database(), messages=True)


class CrashingProgress(io.StringIO):
    """A progress stream whose process is killed as it draws a table's progress line for the
    `at`-th time (the mirror draws it after each parent's rows are written)."""

    def __init__(self, table: str, at: int) -> None:
        super().__init__()
        self.line, self.at = f"snapshot: {table} ", at

    def write(self, text: str, /) -> int:
        if self.line in text:
            self.at -= 1
            if self.at == 0:
                raise Crash
        return super().write(text)


def test_a_snapshot_killed_in_a_table_read_per_parent_resumes_at_the_next_parent(
    demo: FakeMarketplace, database_url: str, new_database: Callable[[], str]
) -> None:
    # Messages are read transaction by transaction, each transaction's written with the
    # transaction it has got to: a run killed after three reads the rest, not all again.
    db = database_url
    m = mirror(demo, db, messages=True, progress=True, stream=CrashingProgress("messages", 3))
    with pytest.raises(Crash):
        m.sync()
    m.close()
    transactions = len(contents(db)["transactions"])
    before = len(demo.requests)
    with mirror(demo, db, messages=True) as again:
        again.sync()
    read = [p for _, p in demo.requests[before:] if p.endswith("/messages/query")]
    assert transactions > 3 and len(read) == transactions - 3
    assert contents(db) == fresh_snapshot(demo, new_database(), messages=True)


def test_a_message_row_names_its_sender_and_its_transaction(
    demo: FakeMarketplace, database_url: str
) -> None:
    db = database_url
    with mirror(demo, db, messages=True) as m:
        m.sync()
    store = Store(db, create=False)
    rows = store.rows("messages")
    store.close()
    assert rows
    integ = integration(demo)
    for row in rows:
        tx, rid = str(row["transaction_id"]), str(row["id"])
        page = integ.messages.query({"transactionId": tx, "include": ["sender"]})
        message = {str(x.id): x for x in page.data.data}[rid]
        assert row["sender_id"] == str(message.sender.id)


def test_the_command_line_passes_its_options_to_the_mirror(
    database_url: str, capsys: pytest.CaptureFixture[str]
) -> None:
    # In this process (the test above runs the command as a user does, in its own).
    url = database_url
    optional = ["--messages", "--availability-exceptions", "--stock-adjustments"]
    assert cli_main(["--fake", "mirror", "sync", url, *optional, "--poll-interval", "30"]) == 0
    synced = capsys.readouterr().out
    assert "messages: 9 upserted" in synced and "stock_adjustments: 2 upserted" in synced
    assert cli_main(["mirror", "status", url]) == 0
    shown = capsys.readouterr().out.splitlines()
    assert "following every 30 s costs 14,400 credits a day" in shown
    assert "  availability_exceptions: 0 rows" in shown and "  messages: 9 rows" in shown
    fast = ["--fake", "mirror", "sync", url, *optional, "--poll-interval", "5"]
    assert cli_main(fast) == 1
    assert "under 10 s only with allow_fast_polling=True" in capsys.readouterr().err
    assert cli_main([*fast, "--allow-fast-polling"]) == 0
    assert capsys.readouterr().out.startswith("caught up:")
    assert cli_main(["mirror", "status", url]) == 0
    assert "following every 5 s costs" in capsys.readouterr().out


def test_the_mirror_commands_help_says_what_each_option_does(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("COLUMNS", "250")  # one line an option
    shown: dict[str, str] = {}
    for command in (["mirror"], ["mirror", "sync"], ["mirror", "status"]):
        with pytest.raises(SystemExit):
            cli_main([*command, "--help"])
        shown[" ".join(command)] = capsys.readouterr().out
    expected = {
        "mirror": [
            r"sync\s+copy the marketplace \(Integration API\) into DATABASE,"
            r" or bring it up to date",
            r"status\s+position, lag, rows and credits a day",
        ],
        "mirror sync": [
            r"database\s+sqlite:///path/to/market\.db or postgresql://user@host/database",
            r"--follow\s+keep following the events",
            r"--messages\s+also mirror messages \(a request a transaction at a snapshot\)",
            r"--availability-exceptions\s+also mirror availability exceptions \(two requests a"
            r" listing at a snapshot\)",
            r"--stock-adjustments\s+also mirror stock adjustments \(a request a listing at a"
            r" snapshot\)",
            r"--schema SCHEMA\s+PostgreSQL: the schema of the mirror's tables \(default"
            r" sharetribe\)",
            r"--poll-interval POLL_INTERVAL\s+seconds between polls while following \(default 60\)",
            r"--allow-fast-polling\s+allow polling under every 10 s",
        ],
        "mirror status": [
            r"database\s+sqlite:///path/to/market\.db or postgresql://user@host/database"
        ],
    }
    for name, lines in expected.items():
        for line in lines:
            # The whole line: the words and nothing around them.
            assert re.search(rf"^\s+{line}\S*(?: \S+)*$", shown[name], re.M), (name, line)


def test_a_first_sync_refused_its_credentials_leaves_no_database_behind(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "market.db"
    with FakeMarketplace() as fake:
        monkeypatch.setenv("FLEX_INTEGRATION_CLIENT_ID", fake.client_id)
        monkeypatch.setenv("FLEX_INTEGRATION_CLIENT_SECRET", "not-the-secret")
        code = cli_main(["--base-url", fake.url, "mirror", "sync", f"sqlite:///{path}"])
    assert code == 1 and "invalid_client" in capsys.readouterr().err
    assert sorted(p.name for p in tmp_path.iterdir()) == []


def test_the_command_line_says_what_is_wrong_with_a_database_in_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    app = tmp_path / "app.db"
    db = sqlite3.connect(app)
    db.execute("CREATE TABLE users (id INTEGER PRIMARY KEY, banned TEXT)")
    db.close()
    assert cli_main(["--fake", "mirror", "sync", f"sqlite:///{app}"]) == 1
    said = capsys.readouterr()
    assert said.out == "" and said.err.count("\n") == 1
    assert said.err.startswith(f"error: sqlite:///{app}: not a mirror: it holds tables of its")
    notes = tmp_path / "notes.txt"
    notes.write_text("not a database\n" * 100)
    assert cli_main(["mirror", "status", f"sqlite:///{notes}"]) == 1
    assert "is not an SQLite database" in capsys.readouterr().err
    assert cli_main(["mirror", "sync", "postgres://me:pw@/db?host=/nowhere", "--fake"]) == 1
    err = capsys.readouterr().err
    assert "cannot reach the PostgreSQL server" in err and ":pw@" not in err


def test_two_syncs_at_once_take_turns_and_end_as_one(
    demo: FakeMarketplace, database_url: str, new_database: Callable[[], str]
) -> None:
    change_everything(demo)
    reports: list[Any] = []
    errors: list[BaseException] = []

    def sync() -> None:
        try:
            with mirror(demo, database_url, messages=True) as m:
                reports.append(m.sync())
        except BaseException as exc:  # reported below, from the test's own thread
            errors.append(exc)

    threads = [threading.Thread(target=sync) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)
    assert errors == [] and len(reports) == 2
    assert contents(database_url) == fresh_snapshot(demo, new_database(), messages=True)
