"""`python -m flexclient.testing serve`: run the fake marketplace until Ctrl-C."""

from __future__ import annotations

import argparse
import signal
import sys
import threading
from types import FrameType

from flexclient._errors import ProcessFileError
from flexclient.testing._seed import DEMO_USERS
from flexclient.testing._server import FakeMarketplace


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m flexclient.testing")
    commands = parser.add_subparsers(dest="command", required=True)
    serve = commands.add_parser("serve", help="serve the fake marketplace on 127.0.0.1")
    serve.add_argument("--port", type=int, default=8765, help="port (0 picks a free one)")
    serve.add_argument("--seed", choices=["demo", "none"], default="demo", help="initial data")
    serve.add_argument("--token-ttl", type=float, default=3600.0, help="access token lifetime, s")
    serve.add_argument("--rate-limits", choices=["dev", "none"], default="none")
    serve.add_argument(
        "--process",
        action="append",
        default=[],
        metavar="PATH",
        help="a transaction process to run (a process.edn, or its folder, which names it: "
        "<folder>/release-1); repeat for more",
    )
    args = parser.parse_args(argv)

    try:
        fake = FakeMarketplace(
            port=args.port,
            seed="demo" if args.seed == "demo" else None,
            token_ttl=args.token_ttl,
            rate_limits="dev" if args.rate_limits == "dev" else None,
            processes=args.process,
        )
    except ProcessFileError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    stop = threading.Event()

    # Ctrl-C and SIGTERM end the wait below; the server then shuts down cleanly.
    def on_signal(signum: int, frame: FrameType | None) -> None:
        stop.set()

    for sig in (signal.SIGINT, signal.SIGTERM):
        signal.signal(sig, on_signal)
    with fake:
        print(f"Fake marketplace at {fake.url}")
        print(f"  client id:     {fake.client_id}")
        print(f"  client secret: {fake.client_secret}")
        print(f"  processes:     {', '.join(fake.processes)}")
        if args.seed == "demo":
            for email, password, *_ in DEMO_USERS:
                print(f"  login:         {email} / {password}")
        print("Ctrl-C stops it.", flush=True)
        while not stop.wait(0.2):
            pass
    print("stopped")
    return 0


if __name__ == "__main__":
    sys.exit(main())
