"""The options of the fake marketplace's serve command, which has two names.

`flexclient fake serve` and `python -m flexclient.testing serve` take the same options and run
the same `flexclient.testing._serve.serve_command`. The options are here, below both, so that
the command line defines them without importing the fake (`flexclient --help` answers at
once, and without the `testing` extra installed).
"""

from __future__ import annotations

import argparse


def add_serve_options(serve: argparse.ArgumentParser) -> None:
    """The options of the serve command, on the parser that takes them (the caller sets the
    command it runs: `flexclient.testing._serve.serve_command`)."""
    serve.add_argument("--port", type=int, default=8765, help="port (0 picks a free one)")
    serve.add_argument("--seed", choices=["demo", "none"], default="demo", help="initial data")
    serve.add_argument("--empty", action="store_true", help="no demo data (as --seed none)")
    serve.add_argument("--token-ttl", type=float, default=3600.0, help="access token lifetime, s")
    serve.add_argument(
        "--rate-limits", choices=["dev", "none"], default="none", help="answer 429s as dev does"
    )
    serve.add_argument(
        "--process",
        action="append",
        default=[],
        metavar="PATH",
        help="a transaction process to run (a process.edn, or its folder, which names it: "
        "<folder>/release-1); repeat for more",
    )
    serve.add_argument(
        "--assets",
        metavar="DIR",
        help="serve the asset tree in this folder (JSON files and images, by their paths) "
        "instead of the fake's own",
    )
    serve.add_argument("--env-file", help="also write the export lines to this file")
