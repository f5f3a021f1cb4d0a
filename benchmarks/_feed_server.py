"""A loopback Integration API serving a long events feed, run in a process of its own.

    python benchmarks/_feed_server.py EVENTS

Prints its port on the first line of its output, then serves until its input is closed. A GET
of `.../events/query` answers the PER_PAGE events after its `startAfterSequenceId` (from the
first, FIRST_SEQUENCE_ID + 1, without one) up to EVENTS in all, then pages with none; in the
format its `Accept` asks for (Transit or JSON). A POST (the token request) gets a token.
HTTP/1.1 with keep-alive, as the clients use it. Every page is the page of `_event_pages.py`
with its sequence IDs moved along, so serving one costs a substitution, not an encoding.
"""

from __future__ import annotations

import re
import sys
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

sys.path.insert(0, str(Path(__file__).parent))

from _event_pages import FIRST_SEQUENCE_ID, PER_PAGE, empty, encoded

TOKEN = b'{"access_token":"bench-token","token_type":"bearer","expires_in":86400,"scope":"integ"}'
# The template page's sequence IDs, FIRST_SEQUENCE_ID + 1 to + PER_PAGE, and nothing else in
# it: ten digits with no digit on either side.
SEQUENCE_ID = re.compile(rb"(?<![0-9])%d([0-9]{3})(?![0-9])" % (FIRST_SEQUENCE_ID // 1000))


def server(events: int) -> ThreadingHTTPServer:
    """The server, bound to a free port of 127.0.0.1, not yet serving."""
    if events % PER_PAGE:
        raise SystemExit(f"EVENTS must be a multiple of {PER_PAGE}")
    pages = dict(zip(("json", "transit"), encoded(), strict=True))
    nothing = dict(zip(("json", "transit"), empty(), strict=True))
    last = FIRST_SEQUENCE_ID + events

    class Answer(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"
        # Headers and body go in two writes: with Nagle's algorithm the second would wait
        # for the client's delayed acknowledgement of the first (40 ms on Linux).
        disable_nagle_algorithm = True

        def _send(self, body: bytes, content_type: str) -> None:
            self.send_response(200)
            self.send_header("Content-Type", content_type)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def do_POST(self) -> None:
            self.rfile.read(int(self.headers.get("Content-Length", 0)))
            self._send(TOKEN, "application/json")

        def do_GET(self) -> None:
            query = parse_qs(urlsplit(self.path).query)
            after = int(query.get("startAfterSequenceId", [FIRST_SEQUENCE_ID])[0])
            form = "transit" if "transit" in self.headers.get("Accept", "transit") else "json"
            if after >= last:
                body = nothing[form]
            else:
                # Whole pages only (EVENTS is a multiple of PER_PAGE): `after` ends a page.
                shift = after - FIRST_SEQUENCE_ID
                body = SEQUENCE_ID.sub(
                    lambda m: b"%d" % (FIRST_SEQUENCE_ID + shift + int(m[1])), pages[form]
                )
            kind = "application/transit+json" if form == "transit" else "application/json"
            self._send(body, f"{kind};charset=utf-8")

        def log_message(self, *args: object) -> None:
            pass

    return ThreadingHTTPServer(("127.0.0.1", 0), Answer)


def main() -> None:
    made = server(int(sys.argv[1]))
    threading.Thread(target=made.serve_forever, daemon=True).start()
    print(made.server_address[1], flush=True)
    sys.stdin.read()  # until the benchmark closes our input (or ends)
    made.shutdown()


if __name__ == "__main__":
    main()
