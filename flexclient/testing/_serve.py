"""Serving the fake marketplace until Ctrl-C: one command, two names.

`flexclient fake serve` and `python -m flexclient.testing serve` take the options of
`flexclient._fake_options` and run `serve_command`; `read_banner` reads what it prints, for
the programs that start it (`fake_process`).
"""

from __future__ import annotations

import argparse
import signal
import sys
import threading
from collections.abc import Iterable
from pathlib import Path
from types import FrameType

from flexclient._environment import (
    INTEGRATION_BASE_URL_VAR,
    INTEGRATION_ID_VAR,
    INTEGRATION_SECRET_VAR,
    MARKETPLACE_BASE_URL_VARS,
    MARKETPLACE_ID_VARS,
    MARKETPLACE_SECRET_VAR,
    WEB_TEMPLATE_ASSET_CDN_VAR,
)
from flexclient._errors import ProcessFileError
from flexclient.testing._seed import DEMO_USERS
from flexclient.testing._server import FakeMarketplace


def serve_command(args: argparse.Namespace) -> int:
    """Serve the fake marketplace until Ctrl-C or SIGTERM, printing the variables that point
    the command line (and `MarketplaceClient()`, `IntegrationClient()`) at it; the banner
    ends with a blank line once it answers."""
    demo = args.seed == "demo" and not args.empty
    try:
        fake = FakeMarketplace(
            port=args.port,
            seed="demo" if demo else None,
            token_ttl=args.token_ttl,
            rate_limits="dev" if args.rate_limits == "dev" else None,
            processes=args.process,
            assets=args.assets,
        )
    except (ProcessFileError, ValueError) as exc:  # a bad process file or asset folder
        print(f"error: {exc}", file=sys.stderr)
        return 2
    stop = threading.Event()

    # Ctrl-C and SIGTERM end the wait below; the server then shuts down cleanly.
    def stopped(signum: int, frame: FrameType | None) -> None:
        stop.set()

    for sig in (signal.SIGINT, signal.SIGTERM):
        signal.signal(sig, stopped)
    with fake:
        variables = {
            **fake_variables(fake.url, fake.client_id, fake.client_secret),
            # What the web template reads (its client ID and base URL are among the above).
            MARKETPLACE_BASE_URL_VARS[1]: fake.url,
            MARKETPLACE_ID_VARS[1]: fake.client_id,
            WEB_TEMPLATE_ASSET_CDN_VAR: fake.url,
        }
        exports = [f"export {name}={value}" for name, value in variables.items()]
        if args.env_file:
            Path(args.env_file).write_text("\n".join(exports) + "\n", encoding="utf-8")
        print(f"# The fake marketplace is at {fake.url} until Ctrl-C. In another shell:")
        print("\n".join(exports))
        print(f"# Processes: {', '.join(fake.processes)}")
        assets = args.assets or "the fake's own (docs/testing.md)"
        print(f"# Asset Delivery API: {fake.url} (asset_cdn_base_url), assets: {assets}")
        if demo:
            print("# Demo users: " + ", ".join(f"{u[0]} / {u[1]}" for u in DEMO_USERS))
        print("", flush=True)
        while not stop.wait(0.2):
            pass
    print("# stopped")
    return 0


def fake_variables(url: str, client_id: str, client_secret: str) -> dict[str, str]:
    """The environment variables that point both clients and the command line at a fake
    marketplace (`MarketplaceClient()`, `IntegrationClient()` read them)."""
    return {
        MARKETPLACE_BASE_URL_VARS[0]: url,
        MARKETPLACE_ID_VARS[0]: client_id,
        MARKETPLACE_SECRET_VAR: client_secret,
        INTEGRATION_BASE_URL_VAR: url,
        INTEGRATION_ID_VAR: client_id,
        INTEGRATION_SECRET_VAR: client_secret,
    }


def read_banner(lines: Iterable[str]) -> dict[str, str]:
    """The variables a serve command printed (`SHARETRIBE_SDK_BASE_URL` ...), read from its
    output up to the blank line that ends the banner: for programs that start one."""
    printed: dict[str, str] = {}
    for line in lines:
        if not line.strip():
            break
        if line.startswith("export "):
            name, _, value = line.removeprefix("export ").strip().partition("=")
            printed[name] = value
    return printed
