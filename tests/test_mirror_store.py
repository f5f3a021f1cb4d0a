"""The mirror's database on its own: what it keeps, what it changes, and what it rolls back.

Fast checks on an SQLite file or memory; tests/integration/test_mirror.py runs whole syncs.
"""

from __future__ import annotations

import sqlite3
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from flexclient import ParameterError
from flexclient.mirror._names import OPTIONAL_TABLES
from flexclient.mirror._store import SCHEMA_VERSION, Store
from flexclient.mirror.schema import EVENTS, IMAGES, LISTINGS, USERS, SqlValue


@pytest.fixture
def store() -> Iterator[Store]:
    held = Store("sqlite:///:memory:", track_changes=True)
    yield held
    held.close()


def test_opening_a_missing_mirror_without_creating_it_names_the_database(
    tmp_path: Path,
) -> None:
    missing = tmp_path / "market.db"
    with pytest.raises(ParameterError, match="database") as caught:
        Store(f"sqlite:///{missing}", create=False)
    assert str(missing) in str(caught.value) and "mirror sync" in str(caught.value)
    assert not missing.exists()
    Store(f"sqlite:///{missing}").close()
    reopened = Store(f"sqlite:///{missing}", create=False)
    assert reopened.number("schema_version") == SCHEMA_VERSION
    reopened.close()
    with pytest.raises(sqlite3.ProgrammingError):  # closed: the file is let go
        reopened.get("schema_version")
    Store("sqlite:///:memory:", create=False).close()  # nothing to find in memory


def test_reopening_keeps_the_schema_version_the_file_has(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'market.db'}"
    first = Store(url)
    assert first.get("schema_version") == SCHEMA_VERSION == 1
    with first.transaction():
        first.set("schema_version", 7)
    first.close()
    again = Store(url)
    assert again.number("schema_version") == 7
    again.close()


def test_a_failed_transaction_leaves_nothing_behind(store: Store) -> None:
    with pytest.raises(RuntimeError), store.transaction():
        store.set("cursor", "a")
        with store.transaction():  # nested: joins the outer one
            store.set("inner", 1)
        raise RuntimeError("killed halfway")
    assert store.get("cursor") is None and store.get("inner") is None
    # The next transaction begins afresh, and commits.
    with store.transaction():
        store.set("cursor", "b")
    assert store.text("cursor") == "b"
    # And one failing after one that committed is rolled back too.
    with pytest.raises(RuntimeError), store.transaction():
        store.set("cursor", "c")
        raise RuntimeError("killed again")
    assert store.text("cursor") == "b"


def test_a_nested_transaction_commits_with_the_outer_one(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'market.db'}"
    writer, reader = Store(url), Store(url)
    with writer.transaction():
        with writer.transaction():
            writer.set("cursor", "inner")
        assert reader.get("cursor") is None  # not committed while the outer one runs
    assert reader.text("cursor") == "inner"
    writer.close()
    reader.close()


def test_state_values_are_read_back_by_kind(store: Store) -> None:
    store.set("name", "x")
    store.set("count", 3)
    store.set("flag", True)
    store.set("options", {"messages": True, "stock_adjustments": 1, "other": False})
    store.set("name", "y")  # a key set again holds the last value
    assert store.text("name") == "y" and store.text("count") is None
    assert store.number("count") == 3 and store.number("name") is None
    assert store.number("flag") is None  # a boolean is no number here
    assert store.flags("options") == {
        "messages": True,
        "stock_adjustments": False,
        "other": False,
    }
    assert store.flags("name") == {} and store.flags("missing") == {}
    assert store.json_object("options") == {
        "messages": True,
        "stock_adjustments": 1,
        "other": False,
    }
    assert store.json_object("count") is None and store.get("missing") is None


def test_deleting_state_by_prefix_keeps_other_keys(store: Store) -> None:
    for key in ("snapshot.users", "snapshot.listings", "events.cursor"):
        store.set(key, 1)
    store.delete_state("snapshot.")
    assert store.get("snapshot.users") is None and store.get("snapshot.listings") is None
    assert store.get("events.cursor") == 1


def test_an_upsert_says_whether_the_row_changed_and_records_it(store: Store) -> None:
    row: dict[str, SqlValue] = {"id": "u1", "email": "a@example.com", "banned": 0}
    assert store.upsert(USERS, row) is True
    assert store.upsert(USERS, row) is False  # the same row again changes nothing
    assert store.changes("users") == ["u1"]
    store.forget_changes()
    assert store.changes("users") == []
    assert store.upsert(USERS, {**row, "email": "b@example.com"}) is True
    assert store.upsert(USERS, {"id": "u0", "email": None}) is True
    assert store.changes("users") == ["u0", "u1"]  # sorted by ID
    assert store.changes("listings") == []
    assert [r["email"] for r in store.rows("users")] == [None, "b@example.com"]
    assert store.upsert(USERS, {"id": "u0", "email": None}) is False  # NULL equals NULL


def test_changes_are_kept_only_when_tracked() -> None:
    untracked = Store("sqlite:///:memory:")
    assert untracked.upsert(USERS, {"id": "u1", "email": "a@example.com"}) is True
    untracked.add_event({"id": "e1", "sequence_id": 1})
    assert untracked.delete(USERS, "u1") == 1
    assert untracked.changes("users") == [] and untracked.changes("events") == []
    untracked.close()


def test_links_keep_the_apis_order_and_are_replaced_whole(store: Store) -> None:
    store.upsert(LISTINGS, {"id": "l1", "title": "Bike"})
    store.set_links(LISTINGS, "l1", "images", ["i3", "i1", "i2"])
    store.set_links(LISTINGS, "l2", "images", ["i9"])
    links = store.rows("listing_images")  # by listing, then image
    assert [(r["listing_id"], r["image_id"], r["position"]) for r in links] == [
        ("l1", "i1", 1),
        ("l1", "i2", 2),
        ("l1", "i3", 0),
        ("l2", "i9", 0),
    ]
    store.set_links(LISTINGS, "l1", "images", ["i2"])
    assert [(r["listing_id"], r["image_id"]) for r in store.rows("listing_images")] == [
        ("l1", "i2"),
        ("l2", "i9"),
    ]


def test_deleting_a_row_deletes_its_links_and_says_how_many_went(store: Store) -> None:
    store.upsert(LISTINGS, {"id": "l1", "title": "Bike"})
    store.upsert(LISTINGS, {"id": "l2", "title": "Boat"})
    store.set_links(LISTINGS, "l1", "images", ["i1"])
    store.set_links(LISTINGS, "l2", "images", ["i2"])
    store.forget_changes()
    assert store.has(LISTINGS, "l1") is True
    assert store.delete(LISTINGS, "l1") == 1
    assert store.has(LISTINGS, "l1") is False and store.has(LISTINGS, "l2") is True
    assert [r["listing_id"] for r in store.rows("listing_images")] == ["l2"]
    assert store.changes("listings") == ["l1"]
    store.forget_changes()
    assert store.delete(LISTINGS, "l1") == 0  # already gone: no change recorded
    assert store.changes("listings") == []
    assert store.count("listings") == 1 and store.count("listing_images") == 1


def test_an_event_is_added_once(store: Store) -> None:
    store.add_event({"id": "e1", "sequence_id": 1, "event_type": "listing/created"})
    assert store.changes("events") == ["e1"]
    store.forget_changes()
    store.add_event({"id": "e1", "sequence_id": 1, "event_type": "listing/created"})
    assert store.changes("events") == [] and store.count(EVENTS.name) == 1


def test_images_nobody_refers_to_are_found_and_deleted(store: Store) -> None:
    for image in ("i1", "i2", "i3", "i4"):
        store.upsert(IMAGES, {"id": image, "variants": None})
    store.upsert(LISTINGS, {"id": "l1", "title": "Bike"})
    store.set_links(LISTINGS, "l1", "images", ["i1", "gone1"])
    store.upsert(USERS, {"id": "u1", "profile_image_id": "i2"})
    store.upsert(USERS, {"id": "u2", "profile_image_id": "gone2"})
    store.upsert(USERS, {"id": "u3", "profile_image_id": None})
    assert store.missing_images() == (["l1"], ["u2"])
    store.forget_changes()
    assert store.delete_unreferenced_images() == 2
    assert [r["id"] for r in store.rows("images")] == ["i1", "i2"]
    assert store.changes("images") == ["i3", "i4"]


def test_what_a_resnapshot_did_not_see_is_named(store: Store) -> None:
    for user in ("u1", "u2", "u3"):
        store.upsert(USERS, {"id": user, "email": None})
    store.upsert(LISTINGS, {"id": "u2", "title": None})  # another table: another row
    store.mark_seen(USERS, ["u1", "u3"])
    store.mark_seen(USERS, ["u3"])  # seen twice is seen
    assert store.unseen(USERS) == ["u2"]
    assert store.unseen(LISTINGS) == ["u2"]
    store.forget_seen()
    assert sorted(store.unseen(USERS)) == ["u1", "u2", "u3"]


def test_the_tables_a_user_reads_include_optional_ones_only_when_kept(store: Store) -> None:
    names = store.table_names()
    assert names[0] == "users" and names[-1] == "events"
    assert "listing_images" in names
    assert not {"messages", "availability_exceptions", "stock_adjustments"} & set(names)
    assert not any(n.startswith("_flexclient") for n in names)
    store.set("options", {"messages": True, "stock_adjustments": False})
    kept = store.table_names()
    assert "messages" in kept and "stock_adjustments" not in kept
    assert kept.index("messages") < kept.index("listing_images") < kept.index("events")


def test_a_reader_does_not_stop_a_sync_from_writing(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'market.db'}"
    writer = Store(url)
    # Write-ahead logging: a reader in the middle of a read does not block a commit.
    assert writer.db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    # And a second writer waits its turn (half a minute, longer than sqlite3's default of 5 s)
    # rather than failing with "database is locked".
    assert writer.db.execute("PRAGMA busy_timeout").fetchone()[0] >= 30_000
    reader = Store(url, create=False)
    reader.db.execute("BEGIN")
    assert reader.count("users") == 0
    with writer.transaction():
        writer.upsert(USERS, {"id": "u1", "email": None})
    assert reader.count("users") == 0  # its read still sees the database as it began
    reader.db.execute("COMMIT")
    assert reader.count("users") == 1
    reader.close()
    writer.close()


def test_every_table_in_the_file_is_a_users_or_the_mirrors_own(store: Store) -> None:
    store.set("options", {name: True for name in OPTIONAL_TABLES})
    found = {r[0] for r in store.db.execute("SELECT name FROM sqlite_master WHERE type='table'")}
    own = found - set(store.table_names())
    assert own == {"_flexclient_mirror", "_flexclient_mirror_seen", "_flexclient_mirror_changes"}


def test_a_store_can_be_used_from_another_thread(store: Store) -> None:
    store.set("cursor", "a")
    read: list[object] = []
    worker = threading.Thread(target=lambda: read.append(store.get("cursor")))
    worker.start()
    worker.join()
    assert read == ["a"]


def test_an_event_with_a_sequence_id_already_held_is_not_added(store: Store) -> None:
    store.add_event({"id": "e1", "sequence_id": 1})
    store.add_event({"id": "e2", "sequence_id": 1})
    assert [r["id"] for r in store.rows(EVENTS.name)] == ["e1"]


def test_a_row_of_nothing_but_its_id_is_stored_once(tmp_path: Path) -> None:
    store = Store(f"sqlite:///{tmp_path / 'm.db'}")
    with store.transaction():
        assert store.upsert(IMAGES, {"id": "a"}) is True
        assert store.upsert(IMAGES, {"id": "a"}) is False
    assert [r["id"] for r in store.rows("images")] == ["a"]
    store.close()
