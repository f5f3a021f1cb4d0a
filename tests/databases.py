"""The databases the mirror is tested on: a fresh, empty database for each test.

`database_url` (a fixture in tests/conftest.py) runs a test once for each database here.
"""

from __future__ import annotations

from pathlib import Path

# The databases every mirror test that is not about one database runs on.
DATABASES = ("sqlite",)


def fresh_database_url(kind: str, tmp_path: Path) -> str:
    """The URL of an empty database of `kind` that no other test uses."""
    if kind == "sqlite":
        return f"sqlite:///{tmp_path / 'market.db'}"
    raise ValueError(f"no test database of kind {kind!r}")
