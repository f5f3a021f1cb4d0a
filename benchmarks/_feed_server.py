"""A loopback Integration API serving a long events feed, run in a process of its own.

    python benchmarks/_feed_server.py EVENTS

Prints its port on the first line of its output, then serves until its input is closed. A GET
of `.../events/query` answers the PER_PAGE events after its `startAfterSequenceId` (from the
first, FIRST_SEQUENCE_ID + 1, without one) up to EVENTS in all, then pages with none; in the
format its `Accept` asks for (Transit or JSON). A POST (the token request) gets a token.
HTTP/1.1 with keep-alive, as the clients use it (`_page_server.KeepAlive`). Every page is the
`events` page shape of `_pages.py` with its sequence IDs moved along, so serving one costs a
substitution, not an encoding.
"""

from __future__ import annotations

import re
import sys
from http.server import ThreadingHTTPServer
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

sys.path.insert(0, str(Path(__file__).parent))

from _page_server import KeepAlive, serve_until_input_closes
from _pages import encoded_body, events_page

PER_PAGE = 100
# The first page's sequence IDs are FIRST_SEQUENCE_ID + 1 ... + PER_PAGE: ten digits, which
# the server finds in the encoded bytes and moves along for each page it serves.
FIRST_SEQUENCE_ID = 1_000_000_000
TOKEN = b'{"access_token":"bench-token","token_type":"bearer","expires_in":86400,"scope":"integ"}'
# The template page's sequence IDs, FIRST_SEQUENCE_ID + 1 to + PER_PAGE, and nothing else in
# it: ten digits with no digit on either side.
SEQUENCE_ID = re.compile(rb"(?<![0-9])%d([0-9]{3})(?![0-9])" % (FIRST_SEQUENCE_ID // 1000))


def server(events: int) -> ThreadingHTTPServer:
    """The server, bound to a free port of 127.0.0.1, not yet serving."""
    if events % PER_PAGE:
        raise SystemExit(f"EVENTS must be a multiple of {PER_PAGE}")
    pages = encoded_body(events_page(PER_PAGE, FIRST_SEQUENCE_ID + 1))
    nothing = encoded_body({"data": [], "meta": {"perPage": PER_PAGE}})
    last = FIRST_SEQUENCE_ID + events

    def moved(page: bytes, shift: int) -> bytes:
        return SEQUENCE_ID.sub(lambda m: b"%d" % (FIRST_SEQUENCE_ID + shift + int(m[1])), page)

    class Answer(KeepAlive):
        token = TOKEN

        def do_GET(self) -> None:
            query = parse_qs(urlsplit(self.path).query)
            after = int(query.get("startAfterSequenceId", [FIRST_SEQUENCE_ID])[0])
            if after >= last:
                self.send_page(*nothing)
                return
            # Whole pages only (EVENTS is a multiple of PER_PAGE): `after` ends a page.
            transit = self.transit_asked()
            self.send_encoded(moved(pages[transit], after - FIRST_SEQUENCE_ID), transit)

    return ThreadingHTTPServer(("127.0.0.1", 0), Answer)


def main() -> None:
    serve_until_input_closes(server(int(sys.argv[1])))


if __name__ == "__main__":
    main()
