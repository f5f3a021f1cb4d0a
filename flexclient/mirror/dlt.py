"""The mirror's stream as a dlt source: the same tables, into any destination dlt has.

>>> import dlt
>>> from flexclient.mirror.dlt import dlt_source
>>> pipeline = dlt.pipeline("market", destination="duckdb")  # doctest: +SKIP
>>> pipeline.run(dlt_source(integ, staging="sqlite:///market-staging.db"))  # doctest: +SKIP

Each run brings the staging mirror (see `Mirror`) up to date, then yields the
rows written or deleted since the last run, table by table: dlt merges them by `id`, and
deletes the rows yielded with `_deleted` set. A to-many relationship comes as a list named
for it, a listing's images as its `images` list (dlt makes it the child table
`listings__images`), rather than a link table. The tables and their options are the mirror's
(`flexclient.mirror.schema`).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import TYPE_CHECKING, Any, Unpack

from flexclient._errors import require
from flexclient.mirror._store import Store
from flexclient.mirror._sync import Mirror
from flexclient.mirror.schema import EVENTS, TABLES, Kind, OptionalTables, Table

if TYPE_CHECKING:
    from flexclient._clients import IntegrationClient

# A column every table has in the stream: true for a row deleted from the marketplace.
DELETED = "_deleted"


def dlt_source(
    client: IntegrationClient,
    *,
    staging: str = "sqlite:///flexclient-mirror.db",
    **tables: Unpack[OptionalTables],
) -> Any:
    """A dlt source of the marketplace's tables (`flexclient[dlt]`); `staging` is the mirror
    it keeps to know what changed, an SQLite or PostgreSQL URL (keep it between runs:
    without it, the next run is a new snapshot). The optional tables' keywords
    (`OptionalTables`) add their tables, as they do to `Mirror`."""
    dlt = require("dlt", "dlt", "the dlt source")

    def changed_rows() -> Iterator[Any]:
        with Mirror(client, staging, progress=False, **tables) as mirror:
            mirror.store.track_changes = True
            mirror.sync()
            store = mirror.store
            for table in (*(t for t in TABLES if t in mirror.tables), EVENTS):
                hints = dlt.mark.make_hints(table_name=table.name, columns=_columns(table))
                for row in _rows(store, table):
                    # The hints with each row: a table's types are known even for columns
                    # no row of a run has a value in.
                    yield dlt.mark.with_hints(row, hints)
            # Taken: dlt keeps what it extracted until it is loaded, so these are not needed
            # again. A run that fails before here yields them again (merging twice is safe).
            with store.transaction():
                store.forget_changes()

    # Each table's columns (`_deleted` among them) come as hints with its rows.
    resource = dlt.resource(
        changed_rows, name="sharetribe", primary_key="id", write_disposition="merge"
    )
    return dlt.source(lambda: resource, name="sharetribe")()


# dlt's data types for what the mirror's columns hold.
_DLT_TYPES: Mapping[Kind, str] = {
    "text": "text",
    "integer": "bigint",
    "real": "double",
    "boolean": "bool",
    "timestamp": "timestamp",
    "decimal": "text",
    "json": "text",
    "id": "text",
}


def _columns(table: Table) -> dict[str, dict[str, Any]]:
    columns: dict[str, dict[str, Any]] = {
        c.name: {"data_type": _DLT_TYPES[c.kind], "nullable": c.name != "id"} for c in table.columns
    }
    columns[DELETED] = {"data_type": "bool", "hard_delete": True}
    return columns


def _rows(store: Store, table: Table) -> Iterator[dict[str, Any]]:
    for rid in store.changes(table.name):
        found = store.row(table, rid)
        if found is None:
            yield {"id": rid, DELETED: True}
            continue
        # SQLite's 0 and 1 of a boolean column: dlt makes them false and true by the hints.
        row: dict[str, Any] = {**found, DELETED: False}
        for link in table.links:
            row[link.relationship] = store.linked_ids(table, link.relationship, rid)
        yield row
