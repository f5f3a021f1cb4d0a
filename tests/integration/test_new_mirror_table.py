"""A new mirror table is its entry in `flexclient/mirror/schema.py`, listed in `TABLES`, and,
being optional, its key of `OptionalTables`: from there alone it reaches the snapshot, catching
up, `mirror status`, the command line's flag and `--help`, an existing mirror's database (at its
next sync), the dlt source and docs/mirror.md's tables. docs/development.md, "Adding an
endpoint, an option, a mirror table", lists these steps.

The table added here is `files` (Integration `files.query`), read per user by `ownerId`. The
entry is written into a copy of the package, as a developer would write it, and nothing else
of the copy changes; the copy runs in processes of its own (the command line, a dlt pipeline,
the docs' tables), against a fake marketplace this process serves on 127.0.0.1."""

from __future__ import annotations

import datetime as dt
import os
import re
import shutil
import sqlite3
import subprocess
import sys
import uuid
from collections.abc import Iterator
from contextlib import closing
from dataclasses import dataclass
from pathlib import Path

import duckdb
import pytest

import flexclient
from flexclient.mirror import Mirror, schema_markdown
from flexclient.testing import FakeMarketplace
from tests.helpers import integration

# What a developer writes into schema.py: the entry beside the others, and how a snapshot
# queries the table for each user.
ENTRY = """

def _files_of(user: str, now: dt.datetime) -> list[dict[str, object]]:
    return [{"ownerId": user}]


FILES = Table(
    "files",
    "file",
    "File",
    to_one=(("owner_id", "owner"),),
    read=PerParent("files", USERS, "owner_id", _files_of),
    optional=True,
    cost="a request a user",
)
"""
# Where each piece goes: (the text it follows, the piece).
EDITS = (
    ('    cost="a request a listing",\n)\n', ENTRY),
    ("    STOCK_ADJUSTMENTS,\n", "    FILES,\n"),
    ("    stock_adjustments: bool\n", "    files: bool\n"),
)
EVENTS_QUERY = "/v1/integration_api/events/query"
# The files each user owns.
OWNED = {"ada@example.com": ["a.txt", "b.pdf"], "bo@example.com": ["c.png"]}


def package_with_the_entry(root: Path) -> Path:
    """A copy of the package under `root` whose schema.py has the `files` entry: the folder
    to run it from."""
    shutil.copytree(
        Path(flexclient.__file__).parent,
        root / "flexclient",
        ignore=shutil.ignore_patterns("__pycache__"),
    )
    schema = root / "flexclient" / "mirror" / "schema.py"
    source = schema.read_text()
    for anchor, piece in EDITS:
        # Each anchor once: a schema.py of another shape fails here, not later.
        assert source.count(anchor) == 1, anchor
        source = source.replace(anchor, anchor + piece)
    schema.write_text(source)
    return root


@dataclass(frozen=True)
class Walk:
    """What the copy showed, step by step."""

    owners: dict[str, uuid.UUID]
    tables_before: set[str]
    help: str
    first_sync: str
    files_after_snapshot: list[tuple[str, str, str]]
    files_after_event: list[tuple[str, str, str]]
    status: str
    warehouse: Path
    markdown: str
    shipped_markdown: str


def rows(database: Path, sql: str) -> list[tuple[str, str, str]]:
    """The rows `sql` selects from the SQLite file `database`, sorted."""
    with closing(sqlite3.connect(database)) as db:
        return sorted(db.execute(sql).fetchall())


def table_names(database: Path) -> set[str]:
    """The tables of the SQLite file `database`."""
    with closing(sqlite3.connect(database)) as db:
        return {r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}


def file_event(sequence_id: int, at: dt.datetime, fid: str, owner: uuid.UUID) -> dict[str, object]:
    """An events answer with one `file/updated` event: the file renamed. (The fake emits no
    events for files: an answer of the API's shape stands in for one, to show that catching
    up finds the table by the event's resource type.)"""
    when = at.isoformat(timespec="milliseconds").replace("+00:00", "Z")
    resource = {
        "id": fid,
        "type": "file",
        "attributes": {"name": "renamed.txt", "mimeType": "text/plain", "size": 5},
        "relationships": {"owner": {"data": {"id": str(owner), "type": "user"}}},
    }
    event = {
        "sequenceId": sequence_id,
        "createdAt": when,
        "eventType": "file/updated",
        "source": "source/integration-api",
        "resourceId": fid,
        "resourceType": "file",
        "resource": resource,
    }
    data = {"id": str(uuid.uuid4()), "type": "event", "attributes": event}
    return {"data": [data], "meta": {}}


@pytest.fixture(scope="module")
def walk(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Walk]:
    """A marketplace with files; a mirror of it made by the package as shipped; then the copy
    with the entry: `mirror sync --help`, `mirror sync --files` (the mirror gains the table),
    an event of a file and `mirror sync --files` again, `mirror status`, a dlt pipeline with
    `files=True`, and `schema_markdown()`."""
    tmp = tmp_path_factory.mktemp("new-mirror-table")
    copy = package_with_the_entry(tmp / "copy")
    database, warehouse = tmp / "market.db", tmp / "warehouse.duckdb"
    url = f"sqlite:///{database}"
    with FakeMarketplace() as fake:
        integ = integration(fake)
        owners: dict[str, uuid.UUID] = {}
        for email, names in OWNED.items():
            owners[email] = fake.add_user(email, "pass-word-1")
            for name in names:
                integ.files.create(
                    {"name": name, "mimeType": "text/plain", "size": 5, "ownerId": owners[email]}
                )
        with Mirror(integ, url, progress=False) as shipped:
            shipped.sync()
        tables_before = table_names(database)

        env = {
            **os.environ,
            "FLEX_INTEGRATION_CLIENT_ID": fake.client_id,
            "FLEX_INTEGRATION_CLIENT_SECRET": fake.client_secret,
            "RUNTIME__DLTHUB_TELEMETRY": "false",
            "DLT_DATA_DIR": str(tmp / "dlt-data"),
        }
        env.pop("PYTHONPATH", None)

        def run(*args: str) -> str:
            # From the copy's folder, first on the path: its `flexclient` is the one imported.
            done = subprocess.run(
                [sys.executable, *args], cwd=copy, env=env, capture_output=True, text=True
            )
            assert done.returncode == 0, done.stderr
            return done.stdout

        def cli(*args: str) -> str:
            options = ["--base-url", fake.url, "--token-file", str(tmp / "token.json")]
            return run("-m", "flexclient", *options, "mirror", *args)

        select = "SELECT id, name, owner_id FROM files"
        help_text = run("-m", "flexclient", "mirror", "sync", "--help")
        first_sync = cli("sync", url, "--files")
        after_snapshot = rows(database, select)
        # The next event is the one after the mirror's position (None: no event yet).
        position = re.search(r"position (\d+|None)", cli("status", url))
        assert position is not None
        after = int(position[1]) if position[1].isdigit() else 0
        renamed = next(r for r in after_snapshot if r[1] == "a.txt")
        event = file_event(after + 1, fake.now, renamed[0], owners["ada@example.com"])
        fake.inject(EVENTS_QUERY, status=200, body=event)
        cli("sync", url, "--files")
        after_event = rows(database, select)
        status_text = cli("status", url)
        run(
            "-c",
            "import sys, dlt\n"
            "from flexclient import IntegrationClient\n"
            "from flexclient.mirror.dlt import dlt_source\n"
            "integ = IntegrationClient(base_url=sys.argv[1])\n"
            "pipeline = dlt.pipeline('market', destination=dlt.destinations.duckdb(sys.argv[2]),"
            " pipelines_dir=sys.argv[3], dataset_name='market')\n"
            "pipeline.run(dlt_source(integ, staging=sys.argv[4], files=True))\n",
            fake.url,
            str(warehouse),
            str(tmp / "pipelines"),
            f"sqlite:///{tmp / 'staging.db'}",
        )
        markdown = run("-c", "from flexclient.mirror import schema_markdown as s; print(s())")
    shipped_markdown = schema_markdown()
    yield Walk(
        owners,
        tables_before,
        help_text,
        first_sync,
        after_snapshot,
        after_event,
        status_text,
        warehouse,
        markdown,
        shipped_markdown,
    )


def test_the_entry_is_the_only_change_to_the_package(tmp_path: Path) -> None:
    copy = package_with_the_entry(tmp_path)
    shipped = Path(flexclient.__file__).parent
    copied = [p.relative_to(copy) for p in sorted(copy.rglob("*")) if p.is_file()]
    changed = [p for p in copied if (copy / p).read_bytes() != (shipped.parent / p).read_bytes()]
    assert changed == [Path("flexclient/mirror/schema.py")]


def test_its_flag_and_cost_are_in_the_help_of_mirror_sync(walk: Walk) -> None:
    shown = " ".join(walk.help.split())
    assert "--files also mirror files (a request a user at a snapshot)" in shown


def test_an_existing_mirror_gains_the_table_and_the_snapshot_reads_it(walk: Walk) -> None:
    assert "files" not in walk.tables_before
    ada, bo = walk.owners["ada@example.com"], walk.owners["bo@example.com"]
    read = sorted((name, owner) for _, name, owner in walk.files_after_snapshot)
    assert read == [("a.txt", str(ada)), ("b.pdf", str(ada)), ("c.png", str(bo))]
    # The option, new to this mirror, makes its next sync a new snapshot.
    assert walk.first_sync.startswith("snapshot (files added):")
    assert "  files: 3 upserted, 0 deleted" in walk.first_sync.splitlines()


def test_catching_up_applies_an_event_of_the_table(walk: Walk) -> None:
    before = {fid: name for fid, name, _ in walk.files_after_snapshot}
    after = {fid: name for fid, name, _ in walk.files_after_event}
    assert set(after) == set(before)
    assert sorted(after.values()) == ["b.pdf", "c.png", "renamed.txt"]
    assert [fid for fid in after if after[fid] != before[fid]] == [
        fid for fid in before if before[fid] == "a.txt"
    ]


def test_mirror_status_counts_its_rows(walk: Walk) -> None:
    assert "  files: 3 rows" in walk.status.splitlines()


def test_the_dlt_source_yields_it(walk: Walk) -> None:
    with duckdb.connect(str(walk.warehouse)) as db:
        found = db.sql("SELECT name, owner_id FROM market.files ORDER BY name").fetchall()
    ada, bo = walk.owners["ada@example.com"], walk.owners["bo@example.com"]
    assert found == [("a.txt", str(ada)), ("b.pdf", str(ada)), ("c.png", str(bo))]


def test_the_docs_tables_would_show_it(walk: Walk) -> None:
    assert "### `files`" not in walk.shipped_markdown
    section = walk.markdown.split("### `files` (optional)\n")[1].split("\n### ")[0]
    for column in ("id", "name", "mime_type", "size", "state", "created_at", "owner_id"):
        assert f"| `{column}` |" in section
    # The other tables as they are: the new one is added, nothing else changes.
    start = walk.markdown.index("### `files`")
    end = walk.markdown.index("\n### ", start) + 1
    assert walk.markdown[:start] + walk.markdown[end:] == walk.shipped_markdown + "\n"
