"""`python -m flexclient.testing serve`: the fake marketplace until Ctrl-C, as
`flexclient fake serve` serves it (the same options, the same banner)."""

from __future__ import annotations

import argparse
import sys

from flexclient._fake_options import add_serve_options
from flexclient.testing._serve import serve_command


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m flexclient.testing")
    commands = parser.add_subparsers(dest="command", required=True)
    add_serve_options(commands.add_parser("serve", help="serve the fake marketplace on 127.0.0.1"))
    return serve_command(parser.parse_args(argv))


if __name__ == "__main__":
    sys.exit(main())
