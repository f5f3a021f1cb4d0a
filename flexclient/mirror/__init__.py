"""A local mirror of the marketplace in SQL, kept current from the events feed.

>>> from flexclient import IntegrationClient
>>> from flexclient.mirror import Mirror
>>> with Mirror(IntegrationClient(), "sqlite:///market.db") as mirror:  # doctest: +SKIP
...     print(mirror.sync())

The tables and their columns: `flexclient.mirror.schema` and docs/mirror.md; other
databases: `flexclient.mirror.dlt`.
"""

from typing import TYPE_CHECKING

from flexclient._support.lazy import lazy_exports

if TYPE_CHECKING:
    from flexclient.mirror._names import (
        DEFAULT_POLL_INTERVAL as DEFAULT_POLL_INTERVAL,
    )
    from flexclient.mirror._store import (
        sqlite_path as sqlite_path,
    )
    from flexclient.mirror._sync import (
        Mirror as Mirror,
        MirrorStatus as MirrorStatus,
        SkippedEvent as SkippedEvent,
        SyncReport as SyncReport,
        status as status,
    )
    from flexclient.mirror.schema import (
        OPTIONAL_TABLES as OPTIONAL_TABLES,
        TABLES as TABLES,
        OptionalTables as OptionalTables,
        schema_markdown as schema_markdown,
    )

# For the checkers only the imports above exist: a misspelled name stays an error. At run time,
# the same names as data (no source file is read: bytecode alone, or a zip, is enough).
if not TYPE_CHECKING:
    __getattr__, __dir__ = lazy_exports(
        __name__,
        {
            "flexclient.mirror._names": ("DEFAULT_POLL_INTERVAL",),
            "flexclient.mirror._store": ("sqlite_path",),
            "flexclient.mirror._sync": (
                "Mirror",
                "MirrorStatus",
                "SkippedEvent",
                "SyncReport",
                "status",
            ),
            "flexclient.mirror.schema": (
                "OPTIONAL_TABLES",
                "TABLES",
                "OptionalTables",
                "schema_markdown",
            ),
        },
    )
