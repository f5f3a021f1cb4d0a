"""The `flexclient` command: call any endpoint, follow events, log in, run the demo.

flexclient call listings.query perPage=5 include=author
flexclient call --integration listings.update id=uuid:... title=New --expand
flexclient events tail --types listing/created
flexclient login --username jane@example.com
flexclient --fake call listings.query perPage=3 --output table
flexclient credits estimate -- python job.py
"""

from __future__ import annotations

import argparse
import getpass
import json
import os
import signal
import sys
from collections.abc import Callable, Generator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any

from flexclient._environment import (
    INTEGRATION_ID_VAR,
    INTEGRATION_SECRET_VAR,
    MARKETPLACE_ID_VARS,
    MARKETPLACE_SECRET_VAR,
    base_url_from_env,
    from_env,
)
from flexclient._estimate import EstimateUsageError, add_estimate_options
from flexclient._fake_options import add_serve_options
from flexclient._support.narrow import is_array, is_list

# `flexclient --help` and mistakes in the command line answer at once: the client, requests
# and pydantic are imported by the commands that call the API.
if TYPE_CHECKING:
    from typing_extensions import TypeIs

    from flexclient._auth.tokens import FileTokenStore
    from flexclient._base_client import BaseClient
    from flexclient._endpoints.kinds import Command, Query, Response
    from flexclient.credits import UsageSnapshot
    from flexclient.models import Envelope


class UsageError(Exception):
    """A mistake in the command line; printed with the usage hint."""


def parse_value(text: str) -> object:
    """A command-line value: `uuid:`, `money:5000:USD`, `latlng:60.1,24.9`,
    `bounds:neLat,neLng,swLat,swLng`, `date:2026-01-01T00:00:00Z`, `decimal:2.5`, `json:...`,
    `str:...` (taken as it is); otherwise true/false, a number, or the text itself.

    >>> parse_value("5"), parse_value("money:5000:USD"), parse_value("str:5")
    (5, Money(amount=5000, currency='USD'), '5')
    """
    from flexclient._wire.values import KINDS, parse

    kind, sep, rest = text.partition(":")
    if sep and kind in KINDS:
        try:
            return parse(kind, rest)
        except (ValueError, TypeError) as exc:
            raise UsageError(f"cannot read {text!r} as {kind}: {exc}") from exc
    if sep and kind == "json":
        try:
            return json.loads(rest)
        except ValueError as exc:
            raise UsageError(f"cannot read {text!r} as json: {exc}") from exc
    if sep and kind == "str":
        return rest
    if text in ("true", "false"):
        return text == "true"
    for number in (int, float):
        try:
            return number(text)
        except ValueError:
            pass
    return text


def parse_pairs(pairs: Sequence[str]) -> dict[str, object]:
    out: dict[str, object] = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep or not key:
            raise UsageError(f"expected key=value, got {pair!r}")
        out[key] = parse_value(value)
    return out


def envelope_json(envelope: Envelope[Any]) -> str:
    from flexclient._wire.values import jsonable
    from flexclient.models import Resource

    def dump(item: Any) -> Any:
        return (
            item.model_dump(by_alias=True, exclude_unset=True)
            if isinstance(item, Resource)
            else item
        )

    data: object = envelope.data
    body = {
        "data": [dump(r) for r in data] if is_list(data) else dump(data),
        "meta": envelope.meta.model_dump(by_alias=True, exclude_none=True),
        "included": [dump(r) for r in envelope.included],
    }
    return json.dumps(jsonable(body), indent=2, ensure_ascii=False)


def table(
    rows: list[dict[str, Any]], columns: Sequence[str] | None, related: Sequence[str] = ()
) -> str:
    """Rows as aligned text columns: the given ones, or the first attributes and, for each
    relationship in `related`, the words that name it (`author.profile.display_name`)."""
    from flexclient._wire.values import display
    from flexclient.models._display import LABELS, readable

    if not rows:
        return "(no resources)"
    explicit = columns
    if not columns:
        # Money once, as `49.90 EUR`: its `.amount` and `.currency` only when asked for.
        rows = [readable(r) for r in rows]
        names = [f"{rel}.{label}" for rel in related for label in LABELS]
        shown = [n for n in names if any(r.get(n) for r in rows)]
        keys = [
            k
            for k in rows[0]
            if not isinstance(rows[0][k], dict | list)
            and not any(k.startswith(f"{rel}.") for rel in related)
        ]
        columns = keys[: max(4, 8 - len(shown))] + shown
    # Columns chosen with --columns show whole; the first ones, up to 40 characters.
    widest = 40 if explicit is None else sys.maxsize
    cells = [[display(r.get(c)) for c in columns] for r in rows]
    widths = [
        min(widest, max(len(c), *(len(row[i]) for row in cells))) for i, c in enumerate(columns)
    ]
    line = "  ".join(c.ljust(w) for c, w in zip(columns, widths, strict=True))
    out = [line, "  ".join("-" * w for w in widths)]
    for row in cells:
        out.append("  ".join(_cut(v, w).ljust(w) for v, w in zip(row, widths, strict=True)))
    return "\n".join(text.rstrip() for text in out)


def _cut(text: str, width: int) -> str:
    return text if len(text) <= width else text[: width - 1] + "…"


def _token_file(args: argparse.Namespace, client_id: str) -> FileTokenStore:
    """Where `login` keeps the user's token for later Marketplace API calls."""
    from flexclient._auth.tokens import FileTokenStore

    default = Path("~/.config/flexclient").expanduser() / f"{client_id}.token.json"
    return FileTokenStore(Path(args.token_file) if args.token_file else default)


@contextmanager
def make_client(args: argparse.Namespace, integration: bool) -> Generator[BaseClient]:
    """The client a command uses; with `--usage`, what it spent is printed (to stderr, so
    that the command's output stays as it is) when the command ends, even with an error."""
    from flexclient.models import pause_collector_while_decoding

    # One thread decodes at a time here: the pause costs no other thread anything, also when
    # a progress bar's thread runs beside it (docs/performance.md, "The collector while a page
    # is read"). Put back after the command, for a program that runs main() among its own work.
    before = pause_collector_while_decoding(True)
    try:
        with _client(args, integration) as client:
            try:
                yield client
            finally:
                if args.usage:
                    print_usage(client.usage.snapshot())
    finally:
        pause_collector_while_decoding(before)


def print_usage(usage: UsageSnapshot) -> None:
    lines = [f"used: {usage.summary()}"]
    for path, spent in usage.endpoints:
        lines.append(f"  {path}: {spent.summary()}")
    print("\n".join(lines), file=sys.stderr)


@contextmanager
def _client(args: argparse.Namespace, integration: bool) -> Generator[BaseClient]:
    from flexclient._clients import IntegrationClient, MarketplaceClient

    if args.fake:
        from flexclient.testing import DEMO_USERS, FakeMarketplace

        with FakeMarketplace(seed="demo") as fake:
            if integration:
                yield IntegrationClient(fake.client_id, fake.client_secret, base_url=fake.url)
            else:
                # As the first demo user, so that their own listings, transactions, messages
                # and reviews answer too (the data lasts one command: no `login` to keep).
                sdk = MarketplaceClient(
                    fake.client_id, client_secret=fake.client_secret, base_url=fake.url
                )
                email, password, *_ = DEMO_USERS[0]
                sdk.login(username=email, password=password)
                yield sdk
        return
    base_url = args.base_url or base_url_from_env(integration)
    options: dict[str, Any] = {"base_url": base_url} if base_url else {}
    if integration:
        # Client credentials: fetched when needed, nothing worth keeping between runs.
        client_id = args.client_id or from_env((INTEGRATION_ID_VAR,), "--client-id")
        secret = args.client_secret or from_env((INTEGRATION_SECRET_VAR,), "--client-secret")
        yield IntegrationClient(client_id, secret, **options)
    else:
        client_id = args.client_id or from_env(MARKETPLACE_ID_VARS, "--client-id")
        secret = args.client_secret or os.environ.get(MARKETPLACE_SECRET_VAR) or None
        token_store = _token_file(args, client_id)
        yield MarketplaceClient(client_id, client_secret=secret, token_store=token_store, **options)


def _is_endpoint(value: object) -> TypeIs[Query[Any, Any] | Command[Any, Any]]:
    from flexclient._endpoints.kinds import Command, Query

    return isinstance(value, Query | Command)


def _endpoint(group: object, action: str) -> Query[Any, Any] | Command[Any, Any] | None:
    """The endpoint `group.action` of a client, or None."""
    from flexclient._endpoints.kinds import Group

    method: object = getattr(group, action, None) if isinstance(group, Group) else None
    return method if _is_endpoint(method) else None


def cmd_call(args: argparse.Namespace) -> int:
    from flexclient._endpoints.kinds import Command
    from flexclient._endpoints.walk import api_of, iter_endpoints
    from flexclient._support.suggest import did_you_mean

    with make_client(args, args.integration) as client:
        group_name, _, action = args.endpoint.partition(".")
        method = _endpoint(getattr(client, group_name, None), action)
        if method is None:
            api = "Integration" if args.integration else "Marketplace"
            names = [entry.name for entry in iter_endpoints(api_of(client))]
            hint = did_you_mean(args.endpoint, names)
            raise UsageError(f"the {api} API has no endpoint {args.endpoint!r}{hint}")
        params = parse_pairs(args.params)
        res: Response[Envelope[Any]]
        if isinstance(method, Command):
            # Keys typed at a shell are checked by the API, as untyped Python code's are.
            query: Any = parse_pairs(args.query)
            if args.expand:
                query["expand"] = True
            res = method(params, query)
        else:
            res = method({**params, **parse_pairs(args.query)})
        if args.output == "table":
            related = args.include_related or _included(params.get("include"))
            print(table(res.data.to_records(related), args.columns, related))
        else:
            print(envelope_json(res.data))
    return 0


def _included(include: object) -> list[str]:
    """The relationships an `include=` value names at the top level, once each."""
    paths = include.split(",") if isinstance(include, str) else include
    if not is_array(paths):
        return []
    return list(dict.fromkeys(str(p).split(".")[0] for p in paths if p))


def cmd_login(args: argparse.Namespace) -> int:
    from flexclient._clients import MarketplaceClient

    with make_client(args, integration=False) as client:
        assert isinstance(client, MarketplaceClient)
        password = args.password or os.environ.get("FLEX_PASSWORD") or getpass.getpass()
        client.login(username=args.username, password=password)
        info = client.auth_info()
        print(f"logged in as {args.username}; scopes {' '.join(info.scopes)}")
    return 0


def cmd_tail(args: argparse.Namespace) -> int:
    from flexclient._clients import IntegrationClient
    from flexclient._wire.values import display

    with make_client(args, integration=True) as client:
        assert isinstance(client, IntegrationClient)
        feed = client.events_feed(
            start_after_sequence_id=args.after,
            event_types=args.types.split(",") if args.types else None,
            stop_when_caught_up=args.once,
        )
        for event in feed:
            a = event.attributes
            when = display(a.created_at)
            print(f"{a.sequence_id}\t{when}\t{a.event_type}\t{a.resource_id}", flush=True)
    return 0


def cmd_serve(args: argparse.Namespace) -> int:
    # The fake's own command (`python -m flexclient.testing serve`), imported when it runs.
    from flexclient.testing._serve import serve_command

    return serve_command(args)


def cmd_demo(args: argparse.Namespace) -> int:
    from flexclient._demo import run

    run()
    return 0


def cmd_credits(args: argparse.Namespace) -> int:
    """The credits each endpoint costs, or the dollars a month of credits costs."""
    from decimal import Decimal, InvalidOperation

    from flexclient.credits import INCLUDED_CREDITS, cost_table, price

    if args.price is not None:
        try:
            credits = Decimal(args.price.replace(",", "").replace("_", ""))
            dollars = price(credits)
        except (InvalidOperation, ValueError) as exc:
            raise UsageError(f"--price wants a number of credits, not {args.price!r}") from exc
        print(f"{credits:,f} credits a month: ${dollars:,} ({INCLUDED_CREDITS:,} included)")
        return 0
    header = ("path", "usage type", "credits", "transfer per GB")
    rows = [
        (path, kind, str(credits), per_gb)
        for path, kind, credits, per_gb in cost_table()
        if args.filter in path
    ]
    if not rows:
        print(f"flexclient: no billable endpoint path contains {args.filter!r}", file=sys.stderr)
        return 1
    widths = [max(len(row[i]) for row in [header, *rows]) for i in range(len(header))]
    lines = [header, tuple("-" * w for w in widths), *rows]
    # Text columns (path, usage type) to the left, numbers to the right.
    print(
        "\n".join(
            "  ".join(
                cell.ljust(width) if column < 2 else cell.rjust(width)
                for column, (cell, width) in enumerate(zip(line, widths, strict=True))
            ).rstrip()
            for line in lines
        )
    )
    return 0


# The options every command takes, before its name or after it (`flexclient login
# --token-file F`). Unset they are left out of the namespace, so that one given before the
# command is not overwritten by the command's parser; `main` fills in these defaults.
GLOBAL_DEFAULTS: dict[str, object] = {
    "client_id": None,
    "client_secret": None,
    "base_url": None,
    "token_file": None,
    "fake": False,
    "usage": False,
}


def global_options() -> argparse.ArgumentParser:
    """A parent parser of the options of `GLOBAL_DEFAULTS`."""
    common = argparse.ArgumentParser(add_help=False, argument_default=argparse.SUPPRESS)
    common.add_argument(
        "--client-id",
        help="default: $SHARETRIBE_SDK_CLIENT_ID (or $REACT_APP_SHARETRIBE_SDK_CLIENT_ID); "
        "with --integration $FLEX_INTEGRATION_CLIENT_ID",
    )
    common.add_argument(
        "--client-secret",
        help="default: $SHARETRIBE_SDK_CLIENT_SECRET; with --integration "
        "$FLEX_INTEGRATION_CLIENT_SECRET",
    )
    common.add_argument(
        "--base-url",
        help="the API host (default: $SHARETRIBE_SDK_BASE_URL, with --integration "
        "$FLEX_INTEGRATION_BASE_URL, else the real one)",
    )
    common.add_argument("--token-file", help="where `login` keeps the token (default in ~/.config)")
    common.add_argument("--fake", action="store_true", help="use the built-in fake marketplace")
    common.add_argument(
        "--usage", action="store_true", help="print the credits and requests the command spent"
    )
    return common


class Commands:
    """Where commands are added: each takes the global options too."""

    def __init__(self, parent: argparse.ArgumentParser, common: argparse.ArgumentParser) -> None:
        self._actions = parent.add_subparsers(dest="command", required=True)
        self._common = common

    def add(
        self, name: str, help: str, run: Callable[[argparse.Namespace], int] | None = None
    ) -> argparse.ArgumentParser:
        """A command `name`; `run(args) -> int` runs it (None for a group of commands)."""
        command = self._actions.add_parser(name, help=help, parents=[self._common])
        if run is not None:
            command.set_defaults(run=run)
        return command

    def group(self, name: str, help: str) -> Commands:
        """A command with commands of its own (`events tail`, `fake serve`)."""
        return Commands(self.add(name, help), self._common)


class ShowVersion(argparse.Action):
    """`--version`: flexclient's version and the build of its Transit reader (compiled by mypyc
    or pure Python, docs/performance.md), looked up only when asked, so `--help` stays fast."""

    def __call__(self, parser: argparse.ArgumentParser, *args: object) -> None:
        from flexclient import __version__
        from flexclient._wire import transit_reader

        where = transit_reader.__file__ or ""
        build = "pure Python" if where.endswith(".py") else "compiled (mypyc)"
        print(f"flexclient {__version__}, Transit reader {build}: {where}")
        parser.exit()


def parser() -> argparse.ArgumentParser:
    common = global_options()
    top = argparse.ArgumentParser(
        prog="flexclient", description=(__doc__ or "").split("\n\n")[0], parents=[common]
    )
    top.add_argument(
        "--version",
        action=ShowVersion,
        nargs=0,
        help="print the version and whether the Transit reader is compiled, and exit",
    )
    commands = Commands(top, common)

    call = commands.add("call", "call any endpoint: GROUP.ACTION key=value ...", cmd_call)
    call.add_argument("endpoint", help="e.g. listings.query, own_listings.create")
    call.add_argument("params", nargs="*", help="key=value (uuid:, money:A:CUR, json:, ...)")
    call.add_argument("--integration", action="store_true", help="the Integration API")
    call.add_argument(
        "--query", "-q", action="append", default=[], help="a command's query key=value"
    )
    call.add_argument("--expand", action="store_true", help="a command answers the whole resource")
    call.add_argument("--output", "-o", choices=["json", "table"], default="json")
    call.add_argument(
        "--columns", type=lambda s: s.split(","), help="table columns, comma-separated"
    )
    call.add_argument(
        "--include-related", type=lambda s: s.split(","), help="relationships in the table"
    )

    login = commands.add("login", "log in to the Marketplace API and keep the token", cmd_login)
    login.add_argument("--username", required=True)
    login.add_argument("--password", help="default: $FLEX_PASSWORD, or asked")

    tail = commands.group("events", "the Integration API's events").add(
        "tail", "print events as they come", cmd_tail
    )
    tail.add_argument("--after", type=int, help="start after this sequence ID")
    tail.add_argument("--types", help="event types, comma-separated")
    tail.add_argument("--once", action="store_true", help="stop when caught up")

    add_serve_options(
        commands.group("fake", "the built-in fake marketplace").add(
            "serve",
            "serve it until Ctrl-C and print the variables that point here at it",
            cmd_serve,
        )
    )

    commands.add("demo", "a tour of flexclient against the fake marketplace", cmd_demo)

    credits = commands.add("credits", "what each endpoint costs in credits", cmd_credits)
    credits_shown = credits.add_mutually_exclusive_group()
    credits_shown.add_argument("--filter", default="", help="only paths containing this text")
    credits_shown.add_argument(
        "--price", metavar="CREDITS", help="what a month of this many credits costs in dollars"
    )
    add_estimate_options(
        credits.add_subparsers(dest="credits_command", metavar="estimate").add_parser(
            "estimate",
            help="run a job against the fake marketplace and print what it would cost",
        )
    )

    from flexclient.mirror._cli import add_commands

    add_commands(commands.group("mirror", "a local SQL copy of the marketplace"), make_client)
    return top


def main(argv: Sequence[str] | None = None) -> int:
    try:
        args = parser().parse_args(argv)  # --help prints here
        for name, default in GLOBAL_DEFAULTS.items():
            if not hasattr(args, name):
                setattr(args, name, default)
        code: int = args.run(args)
        return code
    except BrokenPipeError:
        return _pipe_closed()
    except (UsageError, EstimateUsageError) as exc:
        print(f"flexclient: {exc}", file=sys.stderr)
        return 2
    except Exception as exc:
        from flexclient._errors import ApiError, FlexError

        if isinstance(exc, ApiError):
            for error in exc.data.errors or []:
                print(f"error {exc.status}: {error.code}: {error.title}", file=sys.stderr)
            if not exc.data.errors:
                print(f"error: {exc}", file=sys.stderr)
            return 1
        if isinstance(exc, FlexError | ValueError):
            print(f"error: {exc}", file=sys.stderr)
            return 1
        raise
    except KeyboardInterrupt:
        return 130


def _pipe_closed() -> int:
    """The reader of standard output went away (`flexclient ... | head`): stop quietly, as
    Unix tools do, with the status of a process ended by SIGPIPE."""
    # What is still buffered would fail again when Python flushes at exit: it goes nowhere.
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, sys.stdout.fileno())
    os.close(devnull)
    return 128 + signal.SIGPIPE
