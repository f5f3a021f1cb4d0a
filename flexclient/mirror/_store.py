"""The mirror's database, written one transaction at a time through SQLAlchemy Core.

Every change the mirror makes (rows, and where it has got to) is written in one transaction:
a sync killed at any point leaves the database as it was after the last whole step, and the
next run goes on from there. A write transaction takes the database's write lock when it
begins (SQLite's `BEGIN IMMEDIATE`, a PostgreSQL advisory lock), so that two syncs of one
mirror take turns rather than fail halfway.

The database carries the version of the schema that wrote it: an older one is brought up to
date when it is opened (missing tables, columns and indexes added, in one transaction), a
newer one refused. A database that holds tables of its own and is not a mirror is refused
before anything is written to it.
"""

from __future__ import annotations

import functools
import hashlib
import json
import re
from collections.abc import Callable, Generator, Mapping, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any, TypeVar, cast

import sqlalchemy as sa
from sqlalchemy import event, exc
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.dialects.postgresql import JSONB
from sqlalchemy.ext.compiler import compiles
from sqlalchemy.schema import ExecutableDDLElement

from flexclient._errors import MirrorError, ParameterError
from flexclient.mirror._database import (
    COLUMN_TYPES,
    DEFAULT_LOCK_TIMEOUT,
    Target,
    create_engine,
    explain,
    parse_url,
)
from flexclient.mirror.schema import EVENTS, OPTIONAL_TABLES, TABLES, SqlValue, Table

# Where the mirror has got to: a row a key, JSON values.
_STATE = "_flexclient_mirror"
# IDs a re-snapshot has seen, so that what it did not see can be deleted at its end.
_SEEN = "_flexclient_mirror_seen"
# Rows written or deleted since a reader (the dlt source) last took them.
_CHANGES = "_flexclient_mirror_changes"
_OWN_TABLES = (_STATE, _SEEN, _CHANGES)
# 1: the tables of the models. 2: an index on every column naming another resource (joins),
# on the link tables' targets, and on the events' resources; column types of each database.
SCHEMA_VERSION = 2

_T = TypeVar("_T")
# `\u0000` in JSON text (and not an escaped backslash before `u0000`): PostgreSQL's jsonb
# refuses it.
_JSON_NUL = re.compile(r"(?<!\\)(?:\\\\)*\\u0000")


def sqlite_path(url: str) -> str:
    """The file of a `sqlite:///path` URL (`sqlite:///:memory:` for memory).

    >>> sqlite_path("sqlite:///market.db")
    'market.db'
    >>> sqlite_path("sqlite:////var/lib/market.db")
    '/var/lib/market.db'
    """
    target = parse_url(url)
    if target.dialect != "sqlite":
        raise ParameterError("database", f"a sqlite:///path URL, not {target.shown!r}")
    return target.path or ":memory:"


@functools.cache
def _metadata(schema: str | None) -> sa.MetaData:
    """The mirror's tables as SQLAlchemy sees them, with each database's column types (made
    once a schema: a description, shared by every store of it)."""
    metadata = sa.MetaData(schema=schema)
    for table in (*TABLES, EVENTS):
        columns = [
            sa.Column(c.name, COLUMN_TYPES[c.kind](), primary_key=c.name == "id")
            for c in table.columns
        ]
        indexes = [
            sa.Index(f"ix_{table.name}_{c.name}", c.name)
            for c in table.columns
            if c.path[0] == "relationships"
        ]
        sa.Table(table.name, metadata, *columns, *indexes)
        for link in table.links:
            sa.Table(
                link.name,
                metadata,
                sa.Column(link.owner_column, COLUMN_TYPES["id"](), nullable=False),
                sa.Column(link.target_column, COLUMN_TYPES["id"](), nullable=False),
                sa.Column("position", sa.Integer, nullable=False, autoincrement=False),
                sa.PrimaryKeyConstraint(link.owner_column, "position"),
                sa.Index(f"ix_{link.name}_{link.target_column}", link.target_column),
            )
    events = metadata.tables[_qualified(schema, EVENTS.name)]
    sa.Index("events_sequence", events.c.sequence_id, unique=True)
    sa.Index("ix_events_resource_id", events.c.resource_id)
    sa.Table(
        _STATE,
        metadata,
        sa.Column("key", sa.Text, primary_key=True),
        sa.Column("value", sa.Text),
    )
    for name in (_SEEN, _CHANGES):
        sa.Table(
            name,
            metadata,
            sa.Column("tbl", sa.Text, primary_key=True),
            sa.Column("id", sa.Text, primary_key=True),
        )
    return metadata


@functools.cache
def _fingerprint(schema: str | None) -> str:
    """What this release's tables, columns and indexes are, in short."""
    tables = _metadata(schema).tables.values()
    parts = sorted(
        [f"{t.name}.{c.name}:{type(c.type).__name__}" for t in tables for c in t.columns]
        + [f"{t.name}#{i.name}" for t in tables for i in t.indexes]
    )
    return hashlib.sha256("\n".join(parts).encode()).hexdigest()[:16]


def _qualified(schema: str | None, name: str) -> str:
    return f"{schema}.{name}" if schema else name


class _AddColumn(ExecutableDDLElement):
    """`ALTER TABLE ... ADD COLUMN ...`, quoted and typed by the dialect (SQLAlchemy has no
    construct of its own for it)."""

    def __init__(self, column: sa.Column[Any]) -> None:
        self.column = column


@compiles(_AddColumn)
def _add_column(element: _AddColumn, compiler: Any, **_kw: Any) -> str:
    table = element.column.table
    spec = compiler.get_column_specification(element.column)
    return f"ALTER TABLE {compiler.preparer.format_table(table)} ADD COLUMN {spec}"


def _on_conflict(insert: Any, target: sa.Table, names: tuple[str, ...]) -> Any:
    """`insert` as an upsert by `id` that changes a row only where it differs, RETURNING the
    IDs of the rows inserted or changed (a driver's rowcount is not to be relied on for an
    upsert)."""
    others = [n for n in names if n != "id"]
    if not others:
        # A row of nothing but its ID has nothing to update.
        return insert.on_conflict_do_nothing(index_elements=["id"]).returning(target.c.id)
    held = sa.tuple_(*(target.c[n] for n in others))
    offered = sa.tuple_(*(insert.excluded[n] for n in others))
    return insert.on_conflict_do_update(
        index_elements=["id"],
        set_={n: insert.excluded[n] for n in others},
        where=held.is_distinct_from(offered),
    ).returning(target.c.id)


class Store:
    """A mirror's database (SQLite or PostgreSQL).

    `create=False` opens an existing mirror only (a missing one is a `ParameterError`);
    `read_only=True` writes nothing, not even an upgrade of its schema (`mirror status`).
    `lock_timeout` bounds the wait for another writer, in seconds.
    """

    def __init__(
        self,
        url: str,
        *,
        create: bool = True,
        read_only: bool = False,
        track_changes: bool = False,
        schema: str | None = None,
        lock_timeout: float = DEFAULT_LOCK_TIMEOUT,
    ) -> None:
        self.target: Target = parse_url(url, schema=schema)
        self.url: str = self.target.shown
        self.track_changes: bool = track_changes
        self.lock_timeout = lock_timeout
        self._writing = False
        self._depth = 0
        path = self.target.path
        if not create and path is not None and not Path(path).is_file():
            raise ParameterError("database", f"no mirror at {path!r}: run `mirror sync` first")
        if create and path is not None and not Path(path).parent.is_dir():
            raise MirrorError(
                self.url, f"cannot open {path}: the folder {str(Path(path).parent)!r} is missing"
            )
        self._created_file = path is not None and not Path(path).exists()
        self._engine = create_engine(self.target, read_only=read_only, lock_timeout=lock_timeout)
        self._metadata = _metadata(self.target.schema)
        self._statements: dict[tuple[str, tuple[str, ...]], Any] = {}
        try:
            self._connection = self._guard(self._engine.connect)
            if self.target.dialect == "sqlite":
                event.listen(self._connection, "begin", self._begin_sqlite)
            self._open(create=create and not read_only, read_only=read_only)
        except BaseException:
            self.close()
            raise

    # Opening: what the database is, and bringing its schema up to date.

    def _open(self, *, create: bool, read_only: bool) -> None:
        found = self._guard(self._table_names)
        version = self._version() if _STATE in found else None
        if version is None:
            held = sorted(set(found) - set(_OWN_TABLES))
            if held:
                where = f"schema {self.target.schema!r}" if self.target.schema else "it"
                shown = ", ".join(held[:5]) + (", ..." if len(held) > 5 else "")
                raise MirrorError(
                    self.url,
                    f"not a mirror: {where} holds tables of its own ({shown}); a mirror needs a"
                    f" database{' schema' if self.target.schema else ''} of its own, or an empty"
                    " one. Nothing was written.",
                )
            if not create:
                raise ParameterError(
                    "database", f"no mirror in {self.url}: run `mirror sync` first"
                )
        elif version > SCHEMA_VERSION:
            raise MirrorError(
                self.url,
                f"written by a newer flexclient (schema version {version}; this one knows up to"
                f" {SCHEMA_VERSION}): upgrade flexclient to use it",
            )
        if read_only:
            return
        if self.target.dialect == "sqlite" and self.target.path is not None:
            # Write-ahead logging: readers (a notebook, `mirror status`) never block a sync.
            # (Outside any transaction, where SQLite allows the change: on the driver's own
            # connection, which SQLAlchemy would otherwise begin a transaction on.)
            driver = self._connection.connection.driver_connection
            assert driver is not None
            self._guard(lambda: driver.execute("PRAGMA journal_mode=WAL"))
        fingerprint = _fingerprint(self.target.schema)
        if version != SCHEMA_VERSION or self.get("schema_columns") != fingerprint:
            # (A release whose models add a field changes the columns, not the version.)
            with self.transaction():
                self._bring_up_to_date(version)
                self.set("schema_columns", fingerprint)

    def _table_names(self) -> list[str]:
        with self._read():
            return sa.inspect(self._connection).get_table_names(schema=self.target.schema)

    def _version(self) -> int | None:
        value = self.get("schema_version")
        if isinstance(value, int) and not isinstance(value, bool):
            return value
        # A state table without a version: the schema's first version wrote none at first.
        return 1

    def _bring_up_to_date(self, version: int | None) -> None:
        """Create what is missing (tables, columns, indexes) and record the version; in the
        caller's transaction, so an upgrade is done whole or not at all."""
        if self.target.schema is not None:
            self._connection.execute(sa.schema.CreateSchema(self.target.schema, if_not_exists=True))
        inspector = sa.inspect(self._connection)
        existing = set(inspector.get_table_names(schema=self.target.schema))
        for table in self._metadata.sorted_tables:
            if table.name not in existing:
                table.create(self._connection)
                continue
            held = {c["name"] for c in inspector.get_columns(table.name, schema=table.schema)}
            for column in table.columns:
                if column.name not in held:
                    self._connection.execute(_AddColumn(column))
            indexes = {i["name"] for i in inspector.get_indexes(table.name, schema=table.schema)}
            for index in table.indexes:
                if index.name not in indexes:
                    index.create(self._connection)
        if version != SCHEMA_VERSION:
            self.set("schema_version", SCHEMA_VERSION)

    def close(self) -> None:
        """Close the connection (and let go of the file)."""
        connection = getattr(self, "_connection", None)
        if connection is not None:
            connection.close()
        self._engine.dispose()

    def discard_if_new(self) -> None:
        """Close, and delete the file if this store made it and no sync got anywhere in it
        (never caught up, not a row written): a first sync that failed at its first request
        (bad credentials, say) leaves no empty mirror behind."""
        path = self.target.path
        unused = (
            self._created_file
            and path is not None
            and self.text("phase") != "live"
            and not any(self.count(name) for name in self.table_names())
        )
        self.close()
        if unused and path is not None:
            for suffix in ("", "-wal", "-shm"):
                Path(path + suffix).unlink(missing_ok=True)

    # Transactions.

    def _begin_sqlite(self, connection: sa.Connection) -> None:
        # IMMEDIATE: a write takes the lock at once, so that two syncs take turns rather than
        # fail halfway; a read takes none.
        connection.exec_driver_sql("BEGIN IMMEDIATE" if self._writing else "BEGIN")

    @contextmanager
    def transaction(self) -> Generator[None]:
        """One write transaction; nested calls join the outer one."""
        if self._depth:
            self._depth += 1
            try:
                yield
            finally:
                self._depth -= 1
            return
        self._writing = True
        try:
            transaction = self._guard(self._connection.begin)
        finally:
            self._writing = False
        self._depth = 1
        try:
            if self.target.dialect == "postgresql":
                self._take_turn_postgresql()
            yield
        except BaseException:
            self._depth = 0
            if transaction.is_active:
                self._guard(transaction.rollback)
            raise
        self._depth = 0
        self._guard(transaction.commit)

    def _take_turn_postgresql(self) -> None:
        # Two syncs of one mirror take turns as on SQLite: one writer at a time, the other
        # waiting at most `lock_timeout`.
        key = f"flexclient mirror {self.target.schema}"
        # (One statement: the settings come first in the select list, so the wait is bounded.)
        # A commit need not wait for the disk: a server that crashes loses at most the last
        # few, rolled back with the position they moved, and the next sync reads them again.
        self._query(
            sa.select(
                sa.func.set_config("lock_timeout", self._lock_ms(), True),
                sa.func.set_config("synchronous_commit", "off", True),
                sa.func.pg_advisory_xact_lock(sa.func.hashtext(key)),
            )
        )

    def _lock_ms(self) -> str:
        return f"{int(self.lock_timeout * 1000)}ms"

    @contextmanager
    def _read(self) -> Generator[None]:
        """Reads outside a write transaction run in a short transaction of their own."""
        if self._depth:
            yield
            return
        transaction = self._guard(self._connection.begin)
        try:
            yield
        finally:
            self._guard(transaction.rollback)

    def _guard(self, call: Callable[[], _T]) -> _T:
        """`call()`, with the database's errors told as `MirrorError`."""
        try:
            return call()
        except (exc.SQLAlchemyError, OSError) as error:
            raise explain(self.target, error, lock_timeout=self.lock_timeout) from error

    def _execute(self, statement: Any, parameters: Any = None) -> list[sa.Row[Any]]:
        """Run a statement that writes, in the transaction under way or in one of its own;
        the rows it returns (RETURNING), read before the transaction ends."""
        if not self._depth:
            with self.transaction():
                return self._execute(statement, parameters)

        def run() -> list[sa.Row[Any]]:
            result = self._connection.execute(statement, parameters)
            return list(result.all()) if result.returns_rows else []

        return self._guard(run)

    def _query(self, statement: Any) -> sa.CursorResult[Any]:
        return self._guard(lambda: self._connection.execute(statement))

    def _all(self, statement: Any) -> list[sa.Row[Any]]:
        with self._read():
            return list(self._query(statement).all())

    def _dicts(self, statement: Any) -> list[dict[str, SqlValue]]:
        with self._read():
            return [dict(m) for m in self._query(statement).mappings().all()]

    def _table(self, name: str) -> sa.Table:
        try:
            return self._metadata.tables[_qualified(self.target.schema, name)]
        except KeyError:
            raise ParameterError("table", f"the mirror has no table {name!r}") from None

    # Where the mirror has got to.

    def get(self, key: str) -> object:
        state = self._table(_STATE)
        found = self._all(sa.select(state.c.value).where(state.c.key == key))
        value: object = json.loads(found[0][0]) if found else None
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
        state = self._table(_STATE)
        statement = self._insert(state).values(key=key, value=json.dumps(value))
        self._execute(
            statement.on_conflict_do_update(
                index_elements=["key"], set_={"value": statement.excluded.value}
            )
        )

    def delete_state(self, prefix: str) -> None:
        state = self._table(_STATE)
        self._execute(sa.delete(state).where(state.c.key.startswith(prefix, autoescape=True)))

    # Rows.

    def _insert(self, table: sa.Table) -> Any:
        dialect = postgresql if self.target.dialect == "postgresql" else sqlite
        return dialect.insert(table)

    def _check(self, table: Table, row: Mapping[str, SqlValue]) -> None:
        """Refuse, naming the row and column, text the database would refuse or garble."""
        postgres = self.target.dialect == "postgresql"
        # Most rows are plain ASCII with no NUL: one look at all their text says so.
        text = "".join([v for v in row.values() if isinstance(v, str)])
        if text.isascii() and not (postgres and ("\x00" in text or "\\u0000" in text)):
            return
        for name, value in row.items():
            if not isinstance(value, str):
                continue
            problem = None
            if postgres and ("\x00" in value or _JSON_NUL.search(value)):
                problem = "holds the NUL character, which PostgreSQL's text cannot hold"
            elif not value.isascii():
                try:
                    value.encode()
                except UnicodeEncodeError:
                    problem = "holds a lone surrogate, which is not text a database can hold"
            if problem:
                raise MirrorError(
                    self.url, f"{table.resource_type} {row.get('id')}, column {name}: {problem}"
                )

    def upsert(self, table: Table, row: Mapping[str, SqlValue]) -> bool:
        """Insert or update the row; whether anything changed (a row equal to the one held
        is left as it is)."""
        return bool(self.upsert_many(table, [row]))

    def upsert_many(self, table: Table, rows: Sequence[Mapping[str, SqlValue]]) -> list[str]:
        """Insert or update `rows` (a row given twice counts once, the last); the IDs of those
        that changed, in one statement for each set of columns."""
        by_columns: dict[tuple[str, ...], dict[str, Mapping[str, SqlValue]]] = {}
        for row in rows:
            self._check(table, row)
            by_columns.setdefault(tuple(row), {})[str(row["id"])] = row
        changed: list[str] = []
        postgres = self.target.dialect == "postgresql"
        for names, by_id in by_columns.items():
            statement = self._statements.get((table.name, names))
            if statement is None:
                build = self._upsert_from_json if postgres else self._upsert_statement
                statement = self._statements[(table.name, names)] = build(table, names)
            if postgres:
                # The page as one JSON document: one short statement, the same each time.
                parameters: Any = {"rows": json.dumps(list(by_id.values()))}
            else:
                parameters = [dict(r) for r in by_id.values()]
            written = self._execute(statement, parameters)
            changed.extend(str(r[0]) for r in written)
        self._changed(table.name, changed)
        return changed

    def _upsert_statement(self, table: Table, names: tuple[str, ...]) -> Any:
        """The upsert of rows given as parameters, a set of them a row (executemany)."""
        target = self._table(table.name)
        insert = self._insert(target).values(
            {n: sa.bindparam(n, type_=target.c[n].type) for n in names}
        )
        return _on_conflict(insert, target, names)

    def _upsert_from_json(self, table: Table, names: tuple[str, ...]) -> Any:
        """PostgreSQL's upsert of a page of rows given as one JSON document (`rows`): a
        statement of a row's length rather than a page's, which the driver parses once."""
        target = self._table(table.name)
        kinds = {c.name: c.kind for c in table.columns}
        # JSON columns come as their text, the rest as the values their columns take.
        fields = [
            sa.column(n, sa.Text() if kinds.get(n) == "json" else target.c[n].type) for n in names
        ]
        rows = sa.func.jsonb_to_recordset(sa.cast(sa.bindparam("rows", type_=sa.Text), JSONB))
        source = rows.table_valued(*fields).render_derived(name="page", with_types=True)
        selected = [
            sa.cast(source.c[n], JSONB) if kinds.get(n) == "json" else source.c[n] for n in names
        ]
        insert = postgresql.insert(target).from_select(list(names), sa.select(*selected))
        return _on_conflict(insert, target, names)

    def _one_of(self, column: sa.Column[Any], values: Sequence[str]) -> Any:
        """`column` is one of `values`: on PostgreSQL as one array parameter, so that the
        statement's text is the same whatever their number (the driver parses it once)."""
        if self.target.dialect == "postgresql":
            array = postgresql.ARRAY(column.type)
            return column == sa.any_(sa.bindparam("values", list(values), type_=array))
        return column.in_(values)

    def _changed(self, table: str, ids: Sequence[str]) -> None:
        if self.track_changes and ids:
            changes = self._table(_CHANGES)
            self._execute(
                self._insert(changes).on_conflict_do_nothing(),
                [{"tbl": table, "id": rid} for rid in ids],
            )

    def changes(self, table: str) -> list[str]:
        """The IDs of `table` written or deleted since `forget_changes`."""
        changes = self._table(_CHANGES)
        query = sa.select(changes.c.id).where(changes.c.tbl == table).order_by(changes.c.id)
        return [r[0] for r in self._all(query)]

    def forget_changes(self) -> None:
        self._execute(sa.delete(self._table(_CHANGES)))

    def set_links(self, table: Table, owner: str, relationship: str, ids: Sequence[str]) -> None:
        """`owner` links to `ids`, in that order, through `relationship`: no other."""
        self.set_links_many(table, relationship, {owner: ids})

    def set_links_many(
        self, table: Table, relationship: str, links: Mapping[str, Sequence[str]]
    ) -> None:
        """Each owner in `links` links to its IDs, in their order, and to no other."""
        if not links:
            return
        link = next(link for link in table.links if link.relationship == relationship)
        held = self._table(link.name)
        self._execute(sa.delete(held).where(self._one_of(held.c[link.owner_column], list(links))))
        rows = [
            {link.owner_column: owner, link.target_column: target, "position": position}
            for owner, ids in links.items()
            for position, target in enumerate(ids)
        ]
        if rows:
            self._execute(sa.insert(held), rows)

    def delete(self, table: Table, rid: str) -> int:
        for link in table.links:
            links = self._table(link.name)
            self._execute(sa.delete(links).where(links.c[link.owner_column] == rid))
        rows = self._table(table.name)
        deleted = len(self._execute(sa.delete(rows).where(rows.c.id == rid).returning(rows.c.id)))
        if deleted:
            self._changed(table.name, [rid])
        return deleted

    def clear(self, name: str) -> None:
        """Delete every row of the table `name` (an optional table no longer kept)."""
        self._execute(sa.delete(self._table(name)))

    def ids_after(self, table: Table, after: str, limit: int) -> list[str]:
        """Up to `limit` IDs of `table` greater than `after` ("" for the first), in order."""
        rows = self._table(table.name)
        query = sa.select(rows.c.id).order_by(rows.c.id).limit(limit)
        if after:
            query = query.where(rows.c.id > after)
        return [r[0] for r in self._all(query)]

    def row(self, table: Table, rid: str) -> dict[str, SqlValue] | None:
        """The row of `table` with ID `rid`, or None."""
        rows = self._table(table.name)
        found = self._dicts(sa.select(rows).where(rows.c.id == rid))
        return found[0] if found else None

    def linked_ids(self, table: Table, relationship: str, owner: str) -> list[str]:
        """The IDs `owner` links to through `relationship`, in the API's order."""
        link = next(link for link in table.links if link.relationship == relationship)
        links = self._table(link.name)
        query = (
            sa.select(links.c[link.target_column])
            .where(links.c[link.owner_column] == owner)
            .order_by(links.c.position)
        )
        return [r[0] for r in self._all(query)]

    def has(self, table: Table, rid: str) -> bool:
        rows = self._table(table.name)
        return bool(self._all(sa.select(rows.c.id).where(rows.c.id == rid)))

    def count(self, name: str) -> int:
        found = self._all(sa.select(sa.func.count()).select_from(self._table(name)))
        return int(found[0][0])

    def add_event(self, row: Mapping[str, SqlValue]) -> None:
        self._check(EVENTS, row)
        events = self._table(EVENTS.name)
        statement = self._insert(events).values(dict(row)).on_conflict_do_nothing()
        if self._execute(statement.returning(events.c.id)):
            self._changed(EVENTS.name, [str(row["id"])])

    # Images nobody refers to any more, and what a re-snapshot did not see.

    def missing_images(self) -> tuple[list[str], list[str]]:
        """Listings and users that refer to an image the mirror does not hold."""
        images, users = self._table("images"), self._table("users")
        links = self._table("listing_images")
        listings = (
            sa.select(links.c.listing_id)
            .distinct()
            .outerjoin(images, images.c.id == links.c.image_id)
            .where(images.c.id.is_(None))
            .order_by(links.c.listing_id)
        )
        profiles = (
            sa.select(users.c.id)
            .outerjoin(images, images.c.id == users.c.profile_image_id)
            .where(users.c.profile_image_id.is_not(None), images.c.id.is_(None))
            .order_by(users.c.id)
        )
        return [r[0] for r in self._all(listings)], [r[0] for r in self._all(profiles)]

    def delete_unreferenced_images(self) -> int:
        images, users = self._table("images"), self._table("users")
        links = self._table("listing_images")
        unreferenced = (
            sa.select(images.c.id)
            .where(images.c.id.not_in(sa.select(links.c.image_id)))
            .where(
                images.c.id.not_in(
                    sa.select(users.c.profile_image_id).where(users.c.profile_image_id.is_not(None))
                )
            )
        )
        ids = [r[0] for r in self._all(unreferenced)]
        if ids:
            self._execute(sa.delete(images).where(self._one_of(images.c.id, ids)))
            self._changed("images", ids)
        return len(ids)

    def mark_seen(self, table: Table, ids: Sequence[str]) -> None:
        if ids:
            seen = self._table(_SEEN)
            self._execute(
                self._insert(seen).on_conflict_do_nothing(),
                [{"tbl": table.name, "id": rid} for rid in ids],
            )

    def unseen(self, table: Table) -> list[str]:
        rows, seen = self._table(table.name), self._table(_SEEN)
        query = (
            sa.select(rows.c.id)
            .where(
                sa.cast(rows.c.id, sa.Text).not_in(
                    sa.select(seen.c.id).where(seen.c.tbl == table.name)
                )
            )
            .order_by(rows.c.id)
        )
        return [r[0] for r in self._all(query)]

    def forget_seen(self) -> None:
        self._execute(sa.delete(self._table(_SEEN)))

    def rows(self, name: str) -> list[dict[str, SqlValue]]:
        """Every row of a table, by its first two columns (for comparisons and the curious).
        Values are the same on every database: the text of the SQLite columns."""
        table = self._table(name)
        query = sa.select(table).order_by(*list(table.columns)[:2])
        return self._dicts(query)

    def table_names(self) -> list[str]:
        """The mirror's tables with data a user reads (not its own bookkeeping)."""
        kept = self.flags("options")
        names = [t.name for t in TABLES if t.name not in OPTIONAL_TABLES or kept.get(t.name)]
        links = [link.name for t in TABLES for link in t.links]
        return [*names, *links, EVENTS.name]

    def all_table_names(self) -> list[str]:
        """Every table in the mirror's database (or schema), its bookkeeping included."""
        return sorted(self._guard(self._table_names))
