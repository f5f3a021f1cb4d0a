"""The databases a mirror writes to, through SQLAlchemy Core: SQLite (the standard library's
driver, nothing to install) and PostgreSQL (psycopg 3, the `postgres` extra).

What differs between them lives here and nowhere else: how a URL names a database, the column
type each kind of value takes, how a write transaction takes its turn, and what a driver's
error means to the person running the mirror (`MirrorError`, naming the database and what to
do).
"""

from __future__ import annotations

import datetime as dt
import decimal
import functools
import json
import re
import sqlite3
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

import sqlalchemy as sa
from sqlalchemy import event, exc
from sqlalchemy.dialects import postgresql
from sqlalchemy.engine import Dialect
from sqlalchemy.pool import NullPool, StaticPool

from flexclient._errors import MirrorError, ParameterError, require
from flexclient.mirror._names import DEFAULT_PG_SCHEMA
from flexclient.mirror.schema import Kind, json_text, timestamp

# How long a write waits for another writer (another sync of the same mirror) before it gives
# up with an error that says so.
DEFAULT_LOCK_TIMEOUT = 30.0


@dataclass(frozen=True, slots=True)
class Target:
    """A parsed database URL: the dialect, what SQLAlchemy connects to, and the URL to show
    (no password)."""

    dialect: str  # "sqlite" or "postgresql"
    url: sa.URL
    shown: str
    path: str | None  # an SQLite file (None in memory)
    schema: str | None  # PostgreSQL's schema for the mirror's tables


_PG_SCHEMES = ("postgresql", "postgres", "postgresql+psycopg")


def parse_url(database: str, *, schema: str | None = None) -> Target:
    """What `database` names: `sqlite:///path` (`sqlite:///:memory:`) or
    `postgresql://user@host/db` (also `postgres://`); anything else is a `ParameterError`.

    >>> parse_url("sqlite:///market.db").path
    'market.db'
    >>> parse_url("postgresql://me:secret@db.internal/app").shown
    'postgresql://me:***@db.internal/app'
    """
    scheme = database.partition("://")[0].lower() if "://" in database else ""
    if scheme == "sqlite":
        prefix = "sqlite:///"
        if not database.startswith(prefix) or database == prefix:
            raise ParameterError("database", f"a sqlite:///path URL, not {database!r}")
        if schema is not None:
            raise ParameterError("schema", "only a PostgreSQL mirror has a schema")
        path = database[len(prefix) :]
        return Target("sqlite", sa.make_url(database), database, _file(path), None)
    if scheme in _PG_SCHEMES:
        try:
            url = sa.make_url(database).set(drivername="postgresql+psycopg")
        except exc.ArgumentError:
            raise ParameterError(
                "database", "not a PostgreSQL URL: postgresql://user@host/database"
            ) from None
        shown = _without_password(database)
        chosen = DEFAULT_PG_SCHEMA if schema is None else schema
        if not chosen or len(chosen) > 63:
            raise ParameterError("schema", "a PostgreSQL schema name of 1 to 63 characters")
        return Target("postgresql", url, shown, None, chosen)
    raise ParameterError(
        "database",
        f"sqlite:///path or postgresql://user@host/database, not {_without_password(database)!r}"
        " (warehouses: the dlt source, flexclient.mirror.dlt.dlt_source, docs/mirror.md)",
    )


def _file(path: str) -> str | None:
    return None if path == ":memory:" else path


def _without_password(database: str) -> str:
    # `scheme://user:password@host`: the password never reaches an error message.
    scheme, sep, rest = database.partition("://")
    userinfo, at, host = rest.rpartition("@")
    if at and ":" in userinfo:
        userinfo = userinfo.partition(":")[0] + ":***"
    return f"{scheme}{sep}{userinfo}{at}{host}"


def create_engine(target: Target, *, read_only: bool, lock_timeout: float) -> sa.Engine:
    """An engine for `target`; one connection is enough for a mirror."""
    if target.dialect == "sqlite":
        if target.path is None:
            # Memory: one connection, or each would see a database of its own.
            return _sqlite_engine(
                "sqlite://", StaticPool, {"check_same_thread": False}, lock_timeout
            )
        mode = "ro" if read_only else "rwc"
        url = f"sqlite:///file:{target.path}?mode={mode}&uri=true"
        return _sqlite_engine(
            url, NullPool, {"check_same_thread": False, "timeout": lock_timeout}, lock_timeout
        )
    require("psycopg", "postgres", "a PostgreSQL mirror")
    return sa.create_engine(
        target.url,
        poolclass=NullPool,
        # The connect timeout bounds a server that does not answer at all.
        connect_args={"connect_timeout": max(1, round(lock_timeout))},
    )


def _sqlite_engine(
    url: str, pool: type[sa.pool.Pool], connect_args: dict[str, Any], lock_timeout: float
) -> sa.Engine:
    engine = sa.create_engine(url, poolclass=pool, connect_args=connect_args)

    @event.listens_for(engine, "connect")
    def _connect(dbapi_connection: sqlite3.Connection, _record: object) -> None:
        # Transactions are begun here, explicitly (see `begin_sqlite`), not by the driver.
        dbapi_connection.isolation_level = None
        dbapi_connection.execute(f"PRAGMA busy_timeout = {int(lock_timeout * 1000)}")
        # With write-ahead logging, NORMAL loses no commit to a crash of the process (kill -9
        # included), only, on a power cut, the last few: a mirror rolled back with its
        # position, which the next sync reads again. It saves a disk flush a page.
        dbapi_connection.execute("PRAGMA synchronous = NORMAL")

    return engine


# The value each kind of column holds in Python is the same on every database (the text the
# SQLite columns hold: ISO timestamps, JSON text, decimals as text, booleans as 0 and 1); the
# types below turn it into the column type natural to PostgreSQL and back.


class _Natural(sa.types.TypeDecorator[Any]):
    """A column that holds the mirror's value as SQLite does (`impl`) and, on PostgreSQL, in
    the type natural to it (made by `natural`), converted there by `to_postgres` and back by
    `from_postgres`."""

    impl: Any = sa.Text
    natural: Callable[[], sa.types.TypeEngine[Any]] = sa.Text
    cache_ok = True

    def to_postgres(self, value: Any) -> Any:
        return value

    def from_postgres(self, value: Any) -> Any:
        return value

    def load_dialect_impl(self, dialect: Dialect) -> sa.types.TypeEngine[Any]:
        if dialect.name == "postgresql":
            return dialect.type_descriptor(self.natural())
        return dialect.type_descriptor(self.impl_instance)

    def process_bind_param(self, value: Any, dialect: Dialect) -> Any:
        if value is None or dialect.name != "postgresql":
            return value
        return self.to_postgres(value)

    def process_result_value(self, value: Any, dialect: Dialect) -> Any:
        if value is None or dialect.name != "postgresql":
            return value
        return self.from_postgres(value)


class _Id(_Natural):
    natural = functools.partial(postgresql.UUID, as_uuid=False)
    cache_ok = True


class _Timestamp(_Natural):
    natural = functools.partial(postgresql.TIMESTAMP, timezone=True)
    cache_ok = True

    def to_postgres(self, value: Any) -> Any:
        return dt.datetime.fromisoformat(value) if isinstance(value, str) else value

    def from_postgres(self, value: Any) -> Any:
        return timestamp(value) if isinstance(value, dt.datetime) else value


class _Decimal(_Natural):
    natural = functools.partial(sa.Numeric, asdecimal=True)
    cache_ok = True

    def to_postgres(self, value: Any) -> Any:
        return decimal.Decimal(value) if isinstance(value, str) else value

    def from_postgres(self, value: Any) -> Any:
        return str(value) if isinstance(value, decimal.Decimal) else value


class _Boolean(_Natural):
    impl = sa.Integer  # 0 and 1
    natural = sa.Boolean
    cache_ok = True

    def to_postgres(self, value: Any) -> Any:
        return bool(value) if isinstance(value, int) else value

    def from_postgres(self, value: Any) -> Any:
        return int(value) if isinstance(value, bool) else value


class _JsonbText(sa.types.UserDefinedType[str]):
    """PostgreSQL's `jsonb`, written from and read back as the mirror's JSON text."""

    cache_ok = True

    def get_col_spec(self, **_kw: Any) -> str:
        return "JSONB"

    def bind_expression(self, bindvalue: Any) -> Any:
        # The text goes as it is; PostgreSQL parses it (exact numbers of any size included).
        return sa.cast(sa.cast(bindvalue, sa.Text), postgresql.JSONB)

    def column_expression(self, colexpr: Any) -> Any:
        # Read back as text (a bare JSON string would otherwise come as a Python str).
        return sa.type_coerce(sa.cast(colexpr, sa.Text), _JsonbRead())


class _JsonbRead(sa.types.TypeDecorator[str]):
    """jsonb's text, in PostgreSQL's own spacing and key order, as the mirror's JSON text."""

    impl = sa.Text
    cache_ok = True

    def process_result_value(self, value: Any, dialect: Dialect) -> Any:
        return None if value is None else json_text(json.loads(value))


class _Json(_Natural):
    natural = _JsonbText
    cache_ok = True


COLUMN_TYPES: Mapping[Kind, Callable[[], sa.types.TypeEngine[Any]]] = {
    "text": sa.Text,
    "integer": sa.BigInteger,
    "real": sa.Double,
    "boolean": _Boolean,
    "timestamp": _Timestamp,
    "decimal": _Decimal,
    "json": _Json,
    "id": _Id,
}


def explain(target: Target, error: BaseException, *, lock_timeout: float) -> MirrorError:
    """`error`, raised by the database or its driver, as what it means and what to do."""
    message = str(getattr(error, "orig", None) or error).strip()
    where = target.path or target.shown
    for pattern, advice in _ADVICE:
        if pattern.search(message):
            return MirrorError(
                target.shown, advice.format(where=where, seconds=f"{lock_timeout:g}")
            )
    first_line = message.splitlines()[0] if message else type(error).__name__
    return MirrorError(target.shown, f"the database failed: {first_line}")


# A driver's words, and what they mean to someone running a mirror.
_ADVICE: tuple[tuple[re.Pattern[str], str], ...] = tuple(
    (re.compile(pattern, re.IGNORECASE), advice)
    for pattern, advice in (
        (
            r"file is not a database|file is encrypted",
            "{where} is not an SQLite database: name a new file, or the mirror's own",
        ),
        (
            r"unable to open database file",
            "cannot open {where}: its folder is missing or cannot be written",
        ),
        (
            r"readonly database|read-only",
            "{where} is read-only: a sync writes; copy it somewhere writable"
            " (`mirror status` reads a read-only copy)",
        ),
        (
            r"database is locked|lock timeout",
            "locked by another writer (another sync?) for more than {seconds} s: try again when"
            " it has finished",
        ),
        (
            r"database or disk is full|no space left|could not extend file",
            "the disk is full: free some room, then sync again (nothing half-written is kept)",
        ),
        (
            r"password authentication failed|no pg_hba\.conf entry"
            r'|(role|database) "[^"]*" does not exist',
            "PostgreSQL refused the connection: check the user, password and database in the URL",
        ),
        (
            r"connection refused|could not connect|connection (to server .*)?failed"
            r"|connection is bad|timeout expired",
            "cannot reach the PostgreSQL server: is it running, and are the host and port right?",
        ),
        (
            r"permission denied",
            "the database user may not do this: grant it CREATE on the database (or the schema)",
        ),
    )
)
