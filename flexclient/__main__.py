"""`python -m flexclient demo`: run the tour against the built-in fake marketplace."""

from __future__ import annotations

import argparse
import sys


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m flexclient")
    commands = parser.add_subparsers(dest="command", required=True)
    commands.add_parser("demo", help="tour the library against the built-in fake marketplace")
    parser.parse_args(argv)
    try:
        from flexclient._demo import run
    except ImportError as exc:  # werkzeug, for the fake marketplace
        print(f"the demo needs the testing extra: pip install 'flexclient[testing]' ({exc})")
        return 1
    run()
    return 0


if __name__ == "__main__":
    sys.exit(main())
