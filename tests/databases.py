"""The databases the mirror is tested on: a fresh, empty database for each test.

`database_url` (a fixture in tests/conftest.py) runs a test once for each database here.
"""

from __future__ import annotations

from pathlib import Path

from tests.postgres import PostgresServer

# The databases every mirror test that is not about one database runs on.
DATABASES = ("sqlite", "postgresql")


def fresh_database_url(kind: str, folder: Path, postgres: PostgresServer | None) -> str:
    """The URL of an empty database of `kind` that no other test uses (an SQLite file in
    `folder`, made here)."""
    if kind == "sqlite":
        folder.mkdir(parents=True, exist_ok=True)
        return f"sqlite:///{folder / 'market.db'}"
    if kind == "postgresql" and postgres is not None:
        return postgres.database_url()
    raise ValueError(f"no test database of kind {kind!r}")
