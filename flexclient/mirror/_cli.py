"""`flexclient mirror sync|status DATABASE`: the mirror from the command line."""

from __future__ import annotations

import argparse
import functools
from typing import TYPE_CHECKING, Any

from flexclient.mirror._names import DEFAULT_PG_SCHEMA, DEFAULT_POLL_INTERVAL
from flexclient.mirror.schema import TABLES

if TYPE_CHECKING:
    from collections.abc import Callable
    from contextlib import AbstractContextManager

    from flexclient._base_client import BaseClient
    from flexclient._cli import Commands

    MakeClient = Callable[[argparse.Namespace, bool], AbstractContextManager[BaseClient]]


_DATABASE_HELP = "sqlite:///path/to/market.db or postgresql://user@host/database"
# A flag each, named for the table (`--stock-adjustments`): what it adds to a snapshot is in
# its entry (docs/mirror.md, "Cost").
_OPTIONAL = tuple(t for t in TABLES if t.optional)


def add_commands(mirror: Commands, make_client: MakeClient) -> None:
    """Add `sync` and `status` to the command line's `mirror` group."""
    sync = mirror.add(
        "sync",
        "copy the marketplace (Integration API) into DATABASE, or bring it up to date",
        functools.partial(_sync, make_client=make_client),
    )
    sync.add_argument("database", help=_DATABASE_HELP)
    sync.add_argument("--follow", action="store_true", help="keep following the events")
    for table in _OPTIONAL:
        sync.add_argument(
            f"--{table.name.replace('_', '-')}",
            action="store_true",
            help=f"also mirror {table.name.replace('_', ' ')} ({table.cost} at a snapshot)",
        )
    sync.add_argument(
        "--schema",
        help=f"PostgreSQL: the schema of the mirror's tables (default {DEFAULT_PG_SCHEMA})",
    )
    sync.add_argument(
        "--poll-interval",
        type=float,
        default=DEFAULT_POLL_INTERVAL,
        help=f"seconds between polls while following (default {DEFAULT_POLL_INTERVAL:g})",
    )
    sync.add_argument(
        "--allow-fast-polling", action="store_true", help="allow polling under every 10 s"
    )

    status = mirror.add("status", "position, lag, rows and credits a day", _status)
    status.add_argument("database", help=_DATABASE_HELP)
    status.add_argument(
        "--schema",
        help=f"PostgreSQL: the schema of the mirror's tables (default {DEFAULT_PG_SCHEMA})",
    )


def _sync(args: argparse.Namespace, make_client: MakeClient) -> int:
    from flexclient._clients import IntegrationClient
    from flexclient.mirror._sync import Mirror

    # Each optional table's flag is the `Mirror` option of its name.
    optional: dict[str, Any] = {t.name: getattr(args, t.name) for t in _OPTIONAL}
    with make_client(args, True) as client:
        assert isinstance(client, IntegrationClient)
        with Mirror(
            client,
            args.database,
            **optional,
            poll_interval=args.poll_interval,
            allow_fast_polling=args.allow_fast_polling,
            schema=args.schema,
        ) as mirror:
            report = mirror.follow() if args.follow else mirror.sync()
            print(report)
    return 0


def _status(args: argparse.Namespace) -> int:
    from flexclient.mirror._sync import status

    print(status(args.database, schema=args.schema))
    return 0
