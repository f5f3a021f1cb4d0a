"""The mirror's database: SQLite from the standard library, written one transaction at a time.

Every change the mirror makes (rows, and where it has got to) is written in one transaction:
a sync killed at any point leaves the database as it was after the last whole step, and the
next run goes on from there.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Generator, Mapping, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any, cast

from flexclient._errors import ParameterError
from flexclient.mirror._names import OPTIONAL_TABLES
from flexclient.mirror.schema import (
    EVENTS,
    TABLES,
    SqlValue,
    Table,
    create_statements,
)

# Where the mirror has got to: a row a key, JSON values.
_STATE = "_flexclient_mirror"
# IDs a re-snapshot has seen, so that what it did not see can be deleted at its end.
_SEEN = "_flexclient_mirror_seen"
# Rows written or deleted since a reader (the dlt source) last took them.
_CHANGES = "_flexclient_mirror_changes"
SCHEMA_VERSION = 1


def sqlite_path(url: str) -> str:
    """The file of a `sqlite:///path` URL (`sqlite:///:memory:` for memory).

    >>> sqlite_path("sqlite:///market.db")
    'market.db'
    >>> sqlite_path("sqlite:////var/lib/market.db")
    '/var/lib/market.db'
    """
    prefix = "sqlite:///"
    if not url.startswith(prefix) or url == prefix:
        raise ParameterError(
            "database",
            f"a sqlite:///path URL, not {url!r} (other databases through the dlt source:"
            " flexclient.mirror.dlt_source, docs/mirror.md)",
        )
    return url[len(prefix) :]


def _quoted(name: str) -> str:
    return f'"{name}"'


class Store:
    """A mirror's SQLite database."""

    def __init__(self, url: str, *, create: bool = True, track_changes: bool = False) -> None:
        path = sqlite_path(url)
        if not create and path != ":memory:" and not Path(path).is_file():
            raise ParameterError("database", f"no mirror at {path!r}: run `mirror sync` first")
        # Autocommit mode: transactions are begun and ended here, explicitly.
        self.db: sqlite3.Connection = sqlite3.connect(
            path, isolation_level=None, check_same_thread=False
        )
        self.db.execute("PRAGMA journal_mode=WAL")
        self.db.execute("PRAGMA busy_timeout=30000")
        self.url: str = url
        self.track_changes: bool = track_changes
        self._in_transaction = False
        if create:
            with self.transaction():
                self.db.execute(
                    f"CREATE TABLE IF NOT EXISTS {_STATE} (key TEXT PRIMARY KEY, value TEXT)"
                )
                self.db.execute(
                    f"CREATE TABLE IF NOT EXISTS {_SEEN} (tbl TEXT, id TEXT, PRIMARY KEY (tbl, id))"
                )
                self.db.execute(
                    f"CREATE TABLE IF NOT EXISTS {_CHANGES} (tbl TEXT, id TEXT,"
                    " PRIMARY KEY (tbl, id))"
                )
                for statement in create_statements(TABLES):
                    self.db.execute(statement)
                if self.get("schema_version") is None:
                    self.set("schema_version", SCHEMA_VERSION)

    def close(self) -> None:
        self.db.close()

    @contextmanager
    def transaction(self) -> Generator[None]:
        """One write transaction; nested calls join the outer one."""
        if self._in_transaction:
            yield
            return
        # IMMEDIATE: take the write lock at once, so that two syncs of one database take
        # turns rather than fail halfway.
        self.db.execute("BEGIN IMMEDIATE")
        self._in_transaction = True
        try:
            yield
        except BaseException:
            self.db.execute("ROLLBACK")
            raise
        else:
            self.db.execute("COMMIT")
        finally:
            self._in_transaction = False

    # Where the mirror has got to.

    def get(self, key: str) -> object:
        found = self.db.execute(f"SELECT value FROM {_STATE} WHERE key = ?", (key,)).fetchone()
        value: object = json.loads(found[0]) if found is not None else None
        return value

    def text(self, key: str) -> str | None:
        value = self.get(key)
        return value if isinstance(value, str) else None

    def number(self, key: str) -> int | None:
        value = self.get(key)
        return value if isinstance(value, int) and not isinstance(value, bool) else None

    def flags(self, key: str) -> dict[str, bool]:
        value = self.get(key)
        if not isinstance(value, dict):
            return {}
        return {str(k): v is True for k, v in cast("dict[object, object]", value).items()}

    def json_object(self, key: str) -> dict[str, Any] | None:
        value = self.get(key)
        return cast("dict[str, Any]", value) if isinstance(value, dict) else None

    def set(self, key: str, value: object) -> None:
        self.db.execute(
            f"INSERT INTO {_STATE} (key, value) VALUES (?, ?)"
            " ON CONFLICT(key) DO UPDATE SET value = excluded.value",
            (key, json.dumps(value)),
        )

    def delete_state(self, prefix: str) -> None:
        self.db.execute(f"DELETE FROM {_STATE} WHERE key LIKE ?", (prefix + "%",))

    # Rows.

    def upsert(self, table: Table, row: Mapping[str, SqlValue]) -> bool:
        """Insert or update the row; whether anything changed (a row equal to the one held
        is left as it is)."""
        names = list(row)
        columns = ", ".join(_quoted(n) for n in names)
        marks = ", ".join("?" for _ in names)
        others = [_quoted(n) for n in names if n != "id"]
        updates = ", ".join(f"{n} = excluded.{n}" for n in others)
        held = ", ".join(others)
        offered = ", ".join(f"excluded.{n}" for n in others)
        # A row of nothing but its ID has nothing to update.
        conflict = (
            f"DO UPDATE SET {updates} WHERE ({held}) IS NOT ({offered})" if others else "DO NOTHING"
        )
        cursor = self.db.execute(
            f"INSERT INTO {table.name} ({columns}) VALUES ({marks}) ON CONFLICT(id) {conflict}",
            [row[n] for n in names],
        )
        changed = cursor.rowcount > 0
        if changed:
            self._changed(table.name, [str(row["id"])])
        return changed

    def _changed(self, table: str, ids: Sequence[str]) -> None:
        if self.track_changes:
            self.db.executemany(
                f"INSERT OR IGNORE INTO {_CHANGES} (tbl, id) VALUES (?, ?)",
                [(table, rid) for rid in ids],
            )

    def changes(self, table: str) -> list[str]:
        """The IDs of `table` written or deleted since `forget_changes`."""
        found = self.db.execute(f"SELECT id FROM {_CHANGES} WHERE tbl = ? ORDER BY id", (table,))
        return [r[0] for r in found.fetchall()]

    def forget_changes(self) -> None:
        self.db.execute(f"DELETE FROM {_CHANGES}")

    def set_links(self, table: Table, owner: str, relationship: str, ids: Sequence[str]) -> None:
        link = next(link for link in table.links if link.relationship == relationship)
        self.db.execute(f"DELETE FROM {link.name} WHERE {link.owner_column} = ?", (owner,))
        self.db.executemany(
            f"INSERT INTO {link.name} ({link.owner_column}, {link.target_column}, position)"
            " VALUES (?, ?, ?)",
            [(owner, target, position) for position, target in enumerate(ids)],
        )

    def delete(self, table: Table, rid: str) -> int:
        for link in table.links:
            self.db.execute(f"DELETE FROM {link.name} WHERE {link.owner_column} = ?", (rid,))
        deleted = self.db.execute(f"DELETE FROM {table.name} WHERE id = ?", (rid,)).rowcount
        if deleted:
            self._changed(table.name, [rid])
        return deleted

    def clear(self, name: str) -> None:
        """Delete every row of the table `name` (an optional table no longer kept)."""
        self.db.execute(f"DELETE FROM {_quoted(name)}")

    def ids_after(self, table: Table, after: str, limit: int) -> list[str]:
        """Up to `limit` IDs of `table` greater than `after`, in order."""
        found = self.db.execute(
            f"SELECT id FROM {table.name} WHERE id > ? ORDER BY id LIMIT ?", (after, limit)
        ).fetchall()
        return [r[0] for r in found]

    def row(self, table: Table, rid: str) -> dict[str, SqlValue] | None:
        """The row of `table` with ID `rid`, or None."""
        cursor = self.db.execute(f"SELECT * FROM {table.name} WHERE id = ?", (rid,))
        values = cursor.fetchone()
        if values is None:
            return None
        names = [d[0] for d in cursor.description]
        return dict(zip(names, values, strict=True))

    def linked_ids(self, table: Table, relationship: str, owner: str) -> list[str]:
        """The IDs `owner` links to through `relationship`, in the API's order."""
        link = next(link for link in table.links if link.relationship == relationship)
        found = self.db.execute(
            f"SELECT {link.target_column} FROM {link.name} WHERE {link.owner_column} = ?"
            " ORDER BY position",
            (owner,),
        ).fetchall()
        return [r[0] for r in found]

    def has(self, table: Table, rid: str) -> bool:
        query = f"SELECT 1 FROM {table.name} WHERE id = ?"
        return self.db.execute(query, (rid,)).fetchone() is not None

    def count(self, name: str) -> int:
        found = self.db.execute(f"SELECT count(*) FROM {_quoted(name)}").fetchone()
        return int(found[0])

    def add_event(self, row: Mapping[str, SqlValue]) -> None:
        names = list(row)
        added = self.db.execute(
            f"INSERT OR IGNORE INTO {EVENTS.name} ({', '.join(_quoted(n) for n in names)})"
            f" VALUES ({', '.join('?' for _ in names)})",
            [row[n] for n in names],
        ).rowcount
        if added:
            self._changed(EVENTS.name, [str(row["id"])])

    # Images nobody refers to any more, and what a re-snapshot did not see.

    def missing_images(self) -> tuple[list[str], list[str]]:
        """Listings and users that refer to an image the mirror does not hold."""
        listings = self.db.execute(
            "SELECT DISTINCT l.listing_id FROM listing_images l"
            " LEFT JOIN images i ON i.id = l.image_id WHERE i.id IS NULL"
        ).fetchall()
        users = self.db.execute(
            "SELECT u.id FROM users u LEFT JOIN images i ON i.id = u.profile_image_id"
            " WHERE u.profile_image_id IS NOT NULL AND i.id IS NULL"
        ).fetchall()
        return [r[0] for r in listings], [r[0] for r in users]

    def delete_unreferenced_images(self) -> int:
        found = self.db.execute(
            "SELECT id FROM images WHERE id NOT IN (SELECT image_id FROM listing_images)"
            " AND id NOT IN (SELECT profile_image_id FROM users"
            " WHERE profile_image_id IS NOT NULL)"
        ).fetchall()
        ids = [r[0] for r in found]
        self.db.executemany("DELETE FROM images WHERE id = ?", [(rid,) for rid in ids])
        self._changed("images", ids)
        return len(ids)

    def mark_seen(self, table: Table, ids: Sequence[str]) -> None:
        self.db.executemany(
            f"INSERT OR IGNORE INTO {_SEEN} (tbl, id) VALUES (?, ?)",
            [(table.name, rid) for rid in ids],
        )

    def unseen(self, table: Table) -> list[str]:
        found = self.db.execute(
            f"SELECT id FROM {table.name} WHERE id NOT IN (SELECT id FROM {_SEEN} WHERE tbl = ?)",
            (table.name,),
        ).fetchall()
        return [r[0] for r in found]

    def forget_seen(self) -> None:
        self.db.execute(f"DELETE FROM {_SEEN}")

    def rows(self, name: str) -> list[dict[str, SqlValue]]:
        """Every row of a table, by ID (for comparisons and the curious)."""
        cursor = self.db.execute(f"SELECT * FROM {_quoted(name)} ORDER BY 1, 2")
        names = [d[0] for d in cursor.description]
        return [dict(zip(names, row, strict=True)) for row in cursor.fetchall()]

    def table_names(self) -> list[str]:
        """The mirror's tables with data a user reads (not its own bookkeeping)."""
        kept = self.flags("options")
        names = [t.name for t in TABLES if t.name not in OPTIONAL_TABLES or kept.get(t.name)]
        links = [link.name for t in TABLES for link in t.links]
        return [*names, *links, EVENTS.name]
