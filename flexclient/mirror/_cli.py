"""`flexclient mirror sync|status DATABASE`: the mirror from the command line."""

from __future__ import annotations

import argparse
import functools
from typing import TYPE_CHECKING

from flexclient.mirror._names import DEFAULT_PG_SCHEMA, DEFAULT_POLL_INTERVAL, OPTIONAL_TABLES

if TYPE_CHECKING:
    from collections.abc import Callable
    from contextlib import AbstractContextManager

    from flexclient._base_client import BaseClient
    from flexclient._cli import Commands

    MakeClient = Callable[[argparse.Namespace, bool], AbstractContextManager[BaseClient]]


_DATABASE_HELP = "sqlite:///path/to/market.db or postgresql://user@host/database"
# What each optional table adds to a snapshot (docs/mirror.md, "Cost").
_SNAPSHOT_COST = {
    "messages": "a request a transaction",
    "availability_exceptions": "two requests a listing",
    "stock_adjustments": "a request a listing",
}


def add_commands(mirror: Commands, make_client: MakeClient) -> None:
    """Add `sync` and `status` to the command line's `mirror` group."""
    sync = mirror.add(
        "sync",
        "copy the marketplace (Integration API) into DATABASE, or bring it up to date",
        functools.partial(_sync, make_client=make_client),
    )
    sync.add_argument("database", help=_DATABASE_HELP)
    sync.add_argument("--follow", action="store_true", help="keep following the events")
    for name in OPTIONAL_TABLES:
        sync.add_argument(
            f"--{name.replace('_', '-')}",
            action="store_true",
            help=f"also mirror {name.replace('_', ' ')} ({_SNAPSHOT_COST[name]} at a snapshot)",
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

    with make_client(args, True) as client:
        assert isinstance(client, IntegrationClient)
        with Mirror(
            client,
            args.database,
            messages=args.messages,
            availability_exceptions=args.availability_exceptions,
            stock_adjustments=args.stock_adjustments,
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
