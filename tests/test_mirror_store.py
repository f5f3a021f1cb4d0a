"""The mirror's database on its own: what it keeps, what it changes, what it rolls back, and
which databases it refuses. Each test runs on SQLite and on PostgreSQL (a server the suite
starts) unless it is about one of them; tests/integration/test_mirror.py runs whole syncs.
"""

from __future__ import annotations

import hashlib
import sqlite3
import threading
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest
import sqlalchemy as sa

from flexclient import MirrorError, ParameterError
from flexclient.mirror._store import SCHEMA_VERSION, Store
from flexclient.mirror.schema import EVENTS, IMAGES, LISTINGS, OPTIONAL_TABLES, USERS, SqlValue
from flexclient.models import Listing
from tests.postgres import PostgresServer

DATA = Path(__file__).parent / "data"


def uid(n: int) -> str:
    """The n-th ID: IDs sort as their numbers do."""
    return str(uuid.UUID(int=n))


U0, U1, U2, U3 = uid(0x10), uid(0x11), uid(0x12), uid(0x13)
L1, L2 = uid(0x21), uid(0x22)
I1, I2, I3, I4, I9 = uid(0x31), uid(0x32), uid(0x33), uid(0x34), uid(0x39)
E1, E2 = uid(0x41), uid(0x42)


@pytest.fixture
def store(database_url: str) -> Iterator[Store]:
    held = Store(database_url, track_changes=True)
    yield held
    held.close()


def sqlite_url(tmp_path: Path, name: str = "market.db") -> str:
    return f"sqlite:///{tmp_path / name}"


def digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


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
    with pytest.raises(MirrorError):  # closed: the file is let go
        reopened.get("schema_version")


def test_an_empty_postgresql_database_is_no_mirror_until_a_sync_makes_one(
    postgres_server: PostgresServer,
) -> None:
    url = postgres_server.database_url()
    with pytest.raises(ParameterError, match="no mirror in postgresql://postgres@/test_"):
        Store(url, create=False)
    Store(url).close()
    Store(url, create=False, read_only=True).close()


def test_a_mirror_written_by_a_newer_flexclient_is_refused_and_left_alone(
    tmp_path: Path,
) -> None:
    url = sqlite_url(tmp_path)
    first = Store(url)
    first.set("schema_version", SCHEMA_VERSION + 1)
    first.close()
    before = digest(tmp_path / "market.db")
    for read_only in (False, True):
        with pytest.raises(MirrorError, match="newer flexclient") as caught:
            Store(url, read_only=read_only)
        assert f"schema version {SCHEMA_VERSION + 1}" in str(caught.value)
        assert f"up to {SCHEMA_VERSION}" in str(caught.value)
    assert digest(tmp_path / "market.db") == before


def test_a_newer_postgresql_mirror_is_refused_too(database_url: str) -> None:
    first = Store(database_url)
    first.set("schema_version", SCHEMA_VERSION + 1)
    first.close()
    with pytest.raises(MirrorError, match="upgrade flexclient"):
        Store(database_url)


def _v1_database(path: Path, *, drop_column: str | None = None) -> None:
    db = sqlite3.connect(path)
    db.executescript((DATA / "mirror-schema-v1.sql").read_text())
    if drop_column is not None:
        db.execute(f"ALTER TABLE listings DROP COLUMN {drop_column}")
    db.commit()
    db.close()


def _sqlite_rows(path: Path, table: str) -> list[tuple[object, ...]]:
    db = sqlite3.connect(path)
    try:
        return sorted(db.execute(f'SELECT * FROM "{table}"').fetchall(), key=repr)
    finally:
        db.close()


def test_a_mirror_of_the_first_schema_is_brought_up_to_date_with_its_rows(
    tmp_path: Path,
) -> None:
    path = tmp_path / "market.db"
    _v1_database(path)
    before = {t: _sqlite_rows(path, t) for t in ("users", "listings", "listing_images", "images")}
    assert before["listings"] and before["listing_images"]
    # Read-only (`mirror status`): read as it is, nothing written.
    old = digest(path)
    reader = Store(f"sqlite:///{path}", create=False, read_only=True)
    assert reader.number("schema_version") == 1 and reader.count("listings") == 2
    reader.close()
    assert digest(path) == old

    store = Store(f"sqlite:///{path}")
    assert store.number("schema_version") == SCHEMA_VERSION == 2
    assert store.text("phase") == "live"  # where it had got to is kept
    store.close()
    for table, rows in before.items():
        assert _sqlite_rows(path, table) == rows, table
    db = sqlite3.connect(path)
    indexes = {r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type = 'index'")}
    db.close()
    assert {"ix_listings_author_id", "ix_listing_images_image_id", "events_sequence"} <= indexes
    assert "ix_transactions_listing_id" in indexes and "ix_events_resource_id" in indexes


def test_a_column_a_later_release_adds_is_added_to_an_existing_mirror(tmp_path: Path) -> None:
    # As if the release that wrote the file had no `description` on listings yet.
    path = tmp_path / "market.db"
    _v1_database(path, drop_column="description")
    store = Store(f"sqlite:///{path}")
    rows = store.rows("listings")
    assert [r["description"] for r in rows] == [None, None]
    listing = Listing.model_validate(
        {"id": rows[0]["id"], "type": "listing", "attributes": {"description": "Now kept"}}
    )
    assert store.upsert(LISTINGS, LISTINGS.row(listing)) is True
    assert store.rows("listings")[0]["description"] == "Now kept"
    store.close()


def test_another_applications_sqlite_file_is_refused_before_anything_is_written(
    tmp_path: Path,
) -> None:
    path = tmp_path / "app.db"
    db = sqlite3.connect(path)
    db.execute("CREATE TABLE users (id INTEGER PRIMARY KEY, name TEXT)")
    db.execute("CREATE TABLE orders (id INTEGER PRIMARY KEY)")
    db.execute("INSERT INTO users VALUES (1, 'ada')")
    db.commit()
    db.close()
    before = digest(path)
    with pytest.raises(MirrorError, match="not a mirror") as caught:
        Store(f"sqlite:///{path}")
    assert "(orders, users)" in str(caught.value) and "Nothing was written" in str(caught.value)
    assert caught.value.database == f"sqlite:///{path}"
    assert digest(path) == before
    assert not Path(f"{path}-wal").exists()  # not switched to write-ahead logging either
    db = sqlite3.connect(path)
    assert db.execute("PRAGMA journal_mode").fetchone()[0] == "delete"
    db.close()


def test_a_postgresql_mirror_lives_in_its_own_schema_beside_a_teams_tables(
    postgres_server: PostgresServer,
) -> None:
    url = postgres_server.database_url()
    team = sa.create_engine(url.replace("postgresql://", "postgresql+psycopg://"))
    with team.begin() as connection:
        connection.exec_driver_sql("CREATE TABLE users (id serial PRIMARY KEY, name text)")
        connection.exec_driver_sql("CREATE SCHEMA sales")
        connection.exec_driver_sql("CREATE TABLE sales.orders (id serial PRIMARY KEY)")
    store = Store(url)
    store.upsert(USERS, {"id": U1, "email": "ada@example.com"})
    store.close()
    with team.begin() as connection:
        mirrored = connection.exec_driver_sql("SELECT email FROM sharetribe.users").all()
        own = connection.exec_driver_sql("SELECT count(*) FROM public.users").scalar()
    assert mirrored == [("ada@example.com",)] and own == 0
    # A schema of another's is refused, as another application's SQLite file is.
    with pytest.raises(MirrorError, match=r"not a mirror: schema 'sales' holds tables"):
        Store(url, schema="sales")
    with team.begin() as connection:
        tables = connection.exec_driver_sql(
            "SELECT table_name FROM information_schema.tables WHERE table_schema = 'sales'"
        ).all()
    assert tables == [("orders",)]
    team.dispose()


def test_postgresql_columns_have_the_types_natural_to_it(database_url: str) -> None:
    store = Store(database_url)
    try:
        if store.target.dialect != "postgresql":
            assert store.target.dialect == "sqlite"
            return
        inspector = sa.inspect(store._engine)
        types = {
            c["name"]: str(c["type"])
            for c in inspector.get_columns("listings", schema="sharetribe")
        }
        events = {
            c["name"]: str(c["type"]) for c in inspector.get_columns("events", schema="sharetribe")
        }
    finally:
        store.close()
    assert types["id"] == "UUID" and types["author_id"] == "UUID"
    assert types["created_at"] == "TIMESTAMP"  # with time zone
    assert types["public_data"] == "JSONB" and types["price_amount"] == "BIGINT"
    assert types["deleted"] == "BOOLEAN" and types["geolocation_lat"] == "DOUBLE PRECISION"
    assert events["sequence_id"] == "BIGINT"


def test_values_read_back_the_same_from_either_database(database_url: str) -> None:
    listing = Listing.model_validate(
        {
            "id": L1,
            "type": "listing",
            "attributes": {
                "title": "Bike é",
                "createdAt": "2026-11-26T10:00:00.123Z",
                "price": {"amount": 2**62, "currency": "EUR"},
                "geolocation": {"lat": 60.1699, "lng": 24.9384},
                "deleted": False,
                "publicData": {"big": 2**80, "ratio": 0.1, "nested": {"b": [1, {"a": None}]}},
            },
            "relationships": {"author": {"data": {"id": U1, "type": "user"}}},
        }
    )
    row = LISTINGS.row(listing)
    store = Store(database_url)
    assert store.upsert(LISTINGS, row) is True
    assert store.upsert(LISTINGS, row) is False
    assert store.rows("listings") == [row]
    assert store.row(LISTINGS, L1) == row and store.row(LISTINGS, L2) is None
    store.close()


def test_text_a_database_cannot_hold_is_refused_naming_the_row_and_column(
    database_url: str,
) -> None:
    store = Store(database_url)
    with pytest.raises(MirrorError, match=rf"user {U1}, column email: .*lone surrogate"):
        store.upsert(USERS, {"id": U1, "email": "a\ud800b"})
    nul = {"id": U1, "email": "a\x00b", "profile_public_data": '{"a":"\\u0000"}'}
    if store.target.dialect == "postgresql":
        with pytest.raises(MirrorError, match="NUL character"):
            store.upsert(USERS, nul)
        # An escaped backslash before `u0000` is no NUL.
        assert store.upsert(USERS, {"id": U1, "profile_public_data": '{"a":"\\\\u0000"}'})
    else:
        assert store.upsert(USERS, nul) is True
        assert store.rows("users")[0]["email"] == "a\x00b"
    store.close()


def test_a_database_that_cannot_be_opened_is_a_mirror_error_saying_why(tmp_path: Path) -> None:
    not_a_database = tmp_path / "notes.db"
    not_a_database.write_bytes(b"These are my notes, not a database. " * 100)
    with pytest.raises(MirrorError, match="is not an SQLite database") as caught:
        Store(f"sqlite:///{not_a_database}")
    assert str(not_a_database) in str(caught.value)
    with pytest.raises(MirrorError, match=r"the folder .* is missing"):
        Store(f"sqlite:///{tmp_path / 'no-such-folder' / 'market.db'}")
    assert not (tmp_path / "no-such-folder").exists()


def test_a_read_only_copy_is_read_and_never_written(tmp_path: Path) -> None:
    url = sqlite_url(tmp_path)
    writer = Store(url)
    writer.upsert(USERS, {"id": U1, "email": None})
    writer.close()
    path = tmp_path / "market.db"
    path.chmod(0o444)
    before = digest(path)
    reader = Store(url, create=False, read_only=True)
    assert reader.count("users") == 1
    with pytest.raises(MirrorError, match="read-only"):
        reader.upsert(USERS, {"id": U2, "email": None})
    reader.close()
    assert digest(path) == before


def test_unreachable_and_refused_postgresql_servers_are_explained(
    tmp_path: Path, postgres_server: PostgresServer
) -> None:
    with pytest.raises(MirrorError, match="cannot reach the PostgreSQL server") as caught:
        Store(f"postgresql://me:s3cret@/db?host={tmp_path}")
    assert "s3cret" not in str(caught.value) and "me:***@" in caught.value.database
    assert "s3cret" not in repr(caught.value)
    missing = f"postgresql://postgres@/no_such_db?host={postgres_server.socket}"
    with pytest.raises(MirrorError, match="check the user, password and database"):
        Store(missing)


def test_urls_name_a_database_the_mirror_writes_or_say_what_does() -> None:
    with pytest.raises(ParameterError, match=r"flexclient\.mirror\.dlt\.dlt_source") as caught:
        Store("bigquery://user:pw@project/dataset")
    assert "pw" not in str(caught.value) and "user:***@" in str(caught.value)
    for url in ("market.db", "sqlite:///"):
        with pytest.raises(ParameterError, match="database"):
            Store(url)
    with pytest.raises(ParameterError, match="schema"):
        Store("sqlite:///:memory:", schema="mine")


def test_a_writer_waits_its_turn_and_gives_up_after_the_bound(database_url: str) -> None:
    first = Store(database_url)
    second = Store(database_url, lock_timeout=0.3)
    with first.transaction():
        first.set("cursor", "first")
        locked = r"locked by another writer .* more than 0\.3 s"
        with pytest.raises(MirrorError, match=locked), second.transaction():
            second.set("cursor", "second")
    assert second.text("cursor") == "first"
    # Once the first has finished, the second takes its turn.
    holding, done = threading.Event(), threading.Event()

    def hold() -> None:
        with first.transaction():
            first.set("cursor", "held")
            holding.set()
            done.wait(5)

    holder = threading.Thread(target=hold)
    holder.start()
    assert holding.wait(10)
    patient = Store(database_url, lock_timeout=10)
    threading.Timer(0.3, done.set).start()
    with patient.transaction():
        assert patient.text("cursor") == "held"
        patient.set("cursor", "after")
    holder.join()
    assert first.text("cursor") == "after"
    for s in (first, second, patient):
        s.close()


def test_a_file_made_for_a_sync_that_wrote_nothing_is_removed(tmp_path: Path) -> None:
    path = tmp_path / "market.db"
    Store(f"sqlite:///{path}").discard_if_new()
    assert not path.exists() and not Path(f"{path}-wal").exists()
    caught_up = Store(f"sqlite:///{path}")
    caught_up.set("phase", "live")  # an empty marketplace, mirrored
    caught_up.discard_if_new()
    assert path.exists()
    path.unlink()
    started = Store(f"sqlite:///{path}")
    started.upsert(USERS, {"id": U1})  # a snapshot under way: resumed next time
    started.discard_if_new()
    assert path.exists()
    Store(f"sqlite:///{path}").discard_if_new()  # not made by this one: kept
    assert path.exists()


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


def test_a_nested_transaction_commits_with_the_outer_one(database_url: str) -> None:
    writer, reader = Store(database_url), Store(database_url)
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
    for key in ("snapshot_users", "snapshot_listings", "snapshotXusers", "events.cursor"):
        store.set(key, 1)
    store.delete_state("snapshot_")
    assert store.get("snapshot_users") is None and store.get("snapshot_listings") is None
    # `_` is no wildcard in a prefix.
    assert store.get("snapshotXusers") == 1 and store.get("events.cursor") == 1


def test_an_upsert_says_whether_the_row_changed_and_records_it(store: Store) -> None:
    row: dict[str, SqlValue] = {"id": U1, "email": "a@example.com", "banned": 0}
    assert store.upsert(USERS, row) is True
    assert store.upsert(USERS, row) is False  # the same row again changes nothing
    assert store.changes("users") == [U1]
    store.forget_changes()
    assert store.changes("users") == []
    assert store.upsert(USERS, {**row, "email": "b@example.com"}) is True
    assert store.upsert(USERS, {"id": U0, "email": None}) is True
    assert store.changes("users") == [U0, U1]  # sorted by ID
    assert store.changes("listings") == []
    assert [r["email"] for r in store.rows("users")] == [None, "b@example.com"]
    assert store.upsert(USERS, {"id": U0, "email": None}) is False  # NULL equals NULL


def test_changes_are_kept_only_when_tracked(database_url: str) -> None:
    untracked = Store(database_url)
    assert untracked.upsert(USERS, {"id": U1, "email": "a@example.com"}) is True
    untracked.add_event({"id": E1, "sequence_id": 1})
    assert untracked.delete(USERS, U1) == 1
    assert untracked.changes("users") == [] and untracked.changes("events") == []
    untracked.close()


def test_links_keep_the_apis_order_and_are_replaced_whole(store: Store) -> None:
    store.upsert(LISTINGS, {"id": L1, "title": "Bike"})
    store.set_links(LISTINGS, L1, "images", [I3, I1, I2])
    store.set_links(LISTINGS, L2, "images", [I9])
    links = store.rows("listing_images")  # by listing, then image
    assert [(r["listing_id"], r["image_id"], r["position"]) for r in links] == [
        (L1, I1, 1),
        (L1, I2, 2),
        (L1, I3, 0),
        (L2, I9, 0),
    ]
    assert store.linked_ids(LISTINGS, "images", L1) == [I3, I1, I2]
    store.set_links(LISTINGS, L1, "images", [I2])
    assert [(r["listing_id"], r["image_id"]) for r in store.rows("listing_images")] == [
        (L1, I2),
        (L2, I9),
    ]
    store.set_links(LISTINGS, L1, "images", [])
    assert store.linked_ids(LISTINGS, "images", L1) == []


def test_deleting_a_row_deletes_its_links_and_says_how_many_went(store: Store) -> None:
    store.upsert(LISTINGS, {"id": L1, "title": "Bike"})
    store.upsert(LISTINGS, {"id": L2, "title": "Boat"})
    store.set_links(LISTINGS, L1, "images", [I1])
    store.set_links(LISTINGS, L2, "images", [I2])
    store.forget_changes()
    assert store.has(LISTINGS, L1) is True
    assert store.delete(LISTINGS, L1) == 1
    assert store.has(LISTINGS, L1) is False and store.has(LISTINGS, L2) is True
    assert [r["listing_id"] for r in store.rows("listing_images")] == [L2]
    assert store.changes("listings") == [L1]
    store.forget_changes()
    assert store.delete(LISTINGS, L1) == 0  # already gone: no change recorded
    assert store.changes("listings") == []
    assert store.count("listings") == 1 and store.count("listing_images") == 1


def test_ids_are_read_in_order_from_where_a_run_left_off(store: Store) -> None:
    for user in (U3, U1, U2, U0):
        store.upsert(USERS, {"id": user})
    assert store.ids_after(USERS, "", 2) == [U0, U1]
    assert store.ids_after(USERS, U1, 10) == [U2, U3]
    assert store.ids_after(USERS, U3, 10) == []
    store.clear("users")
    assert store.count("users") == 0


def test_an_event_is_added_once(store: Store) -> None:
    store.add_event({"id": E1, "sequence_id": 1, "event_type": "listing/created"})
    assert store.changes("events") == [E1]
    store.forget_changes()
    store.add_event({"id": E1, "sequence_id": 1, "event_type": "listing/created"})
    assert store.changes("events") == [] and store.count(EVENTS.name) == 1


def test_images_nobody_refers_to_are_found_and_deleted(store: Store) -> None:
    for image in (I1, I2, I3, I4):
        store.upsert(IMAGES, {"id": image, "variants": None})
    gone1, gone2 = uid(0x51), uid(0x52)
    store.upsert(LISTINGS, {"id": L1, "title": "Bike"})
    store.set_links(LISTINGS, L1, "images", [I1, gone1])
    store.upsert(USERS, {"id": U1, "profile_image_id": I2})
    store.upsert(USERS, {"id": U2, "profile_image_id": gone2})
    store.upsert(USERS, {"id": U3, "profile_image_id": None})
    assert store.missing_images() == ([L1], [U2])
    store.forget_changes()
    assert store.delete_unreferenced_images() == 2
    assert [r["id"] for r in store.rows("images")] == [I1, I2]
    assert store.changes("images") == [I3, I4]
    assert store.delete_unreferenced_images() == 0


def test_what_a_resnapshot_did_not_see_is_named(store: Store) -> None:
    for user in (U1, U2, U3):
        store.upsert(USERS, {"id": user, "email": None})
    store.upsert(LISTINGS, {"id": U2, "title": None})  # another table: another row
    store.mark_seen(USERS, [U1, U3])
    store.mark_seen(USERS, [U3])  # seen twice is seen
    assert store.unseen(USERS) == [U2]
    assert store.unseen(LISTINGS) == [U2]
    store.forget_seen()
    assert store.unseen(USERS) == [U1, U2, U3]


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
    path = tmp_path / "market.db"
    writer = Store(f"sqlite:///{path}", lock_timeout=30)
    reader = sqlite3.connect(path, isolation_level=None)
    # Write-ahead logging: a reader in the middle of a read does not block a commit.
    assert reader.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    reader.execute("BEGIN")
    assert reader.execute("SELECT count(*) FROM users").fetchone()[0] == 0
    with writer.transaction():
        writer.upsert(USERS, {"id": U1, "email": None})
    # Its read still sees the database as it began.
    assert reader.execute("SELECT count(*) FROM users").fetchone()[0] == 0
    reader.execute("COMMIT")
    assert reader.execute("SELECT count(*) FROM users").fetchone()[0] == 1
    reader.close()
    writer.close()


def test_every_table_in_the_database_is_a_users_or_the_mirrors_own(store: Store) -> None:
    store.set("options", {name: True for name in OPTIONAL_TABLES})
    own = set(store.all_table_names()) - set(store.table_names())
    assert own == {"_flexclient_mirror", "_flexclient_mirror_seen", "_flexclient_mirror_changes"}


def test_a_store_can_be_used_from_another_thread(store: Store) -> None:
    store.set("cursor", "a")
    read: list[object] = []
    worker = threading.Thread(target=lambda: read.append(store.get("cursor")))
    worker.start()
    worker.join()
    assert read == ["a"]


def test_an_event_with_a_sequence_id_already_held_is_not_added(store: Store) -> None:
    store.add_event({"id": E1, "sequence_id": 1})
    store.add_event({"id": E2, "sequence_id": 1})
    assert [r["id"] for r in store.rows(EVENTS.name)] == [E1]


def test_a_row_of_nothing_but_its_id_is_stored_once(store: Store) -> None:
    with store.transaction():
        assert store.upsert(IMAGES, {"id": I1}) is True
        assert store.upsert(IMAGES, {"id": I1}) is False
    assert [r["id"] for r in store.rows("images")] == [I1]


def test_a_full_disk_is_a_mirror_error_and_nothing_half_written_stays(tmp_path: Path) -> None:
    store = Store(sqlite_url(tmp_path))
    store.upsert(USERS, {"id": U0, "email": "kept@example.com"})
    # SQLite's own limit on the file's pages: the answer a full disk gives ("database or
    # disk is full"), without filling one.
    pages = store._connection.exec_driver_sql("PRAGMA page_count").scalar()
    store._connection.exec_driver_sql(f"PRAGMA max_page_count = {pages}")
    store._connection.commit()
    rows: list[dict[str, SqlValue]] = [
        {"id": uid(0x1000 + n), "profile_bio": "x" * 2_000} for n in range(200)
    ]
    full = "the disk is full: free some room"
    with pytest.raises(MirrorError, match=full) as caught, store.transaction():
        store.upsert_many(USERS, rows)
    assert caught.value.database == sqlite_url(tmp_path)
    assert [r["id"] for r in store.rows("users")] == [U0]
    store.close()


def test_columns_a_release_adds_reach_a_mirror_of_the_same_schema_version(
    database_url: str,
) -> None:
    # Columns come from the models: a field added to one adds a column without a new schema
    # version, and an existing mirror gains it when next opened. As if written by a release
    # without listings' `description` (and with another index):
    first = Store(database_url)
    first.set("schema_columns", "an older release's")
    first.close()
    engine = sa.create_engine(database_url.replace("postgresql://", "postgresql+psycopg://"))
    schema = "sharetribe." if database_url.startswith("postgresql") else ""
    with engine.begin() as connection:
        connection.exec_driver_sql(f"ALTER TABLE {schema}listings DROP COLUMN description")
        connection.exec_driver_sql(f"DROP INDEX {schema}ix_listings_author_id")
    engine.dispose()
    store = Store(database_url)
    assert store.number("schema_version") == SCHEMA_VERSION
    assert store.upsert(LISTINGS, {"id": L1, "description": "Back"})
    assert store.rows("listings")[0]["description"] == "Back"
    indexes = sa.inspect(store._engine).get_indexes("listings", schema=store.target.schema)
    assert "ix_listings_author_id" in {i["name"] for i in indexes}
    store.close()


def test_a_commit_is_not_lost_to_a_crash_of_the_process_and_waits_for_no_disk(
    database_url: str,
) -> None:
    # SQLite's write-ahead log with synchronous=NORMAL, PostgreSQL's asynchronous commit: a
    # commit survives the process (kill -9: tests/integration/test_mirror.py); a power cut
    # may take the last few, rolled back with the position they moved.
    store = Store(database_url)
    with store.transaction():
        if store.target.dialect == "postgresql":
            found = store._connection.exec_driver_sql("SHOW synchronous_commit").scalar()
            assert found == "off"
        else:
            found = store._connection.exec_driver_sql("PRAGMA synchronous").scalar()
            assert found == 1  # NORMAL
    store.close()
