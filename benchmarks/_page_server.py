"""A loopback server answering every GET with a benchmark page, run in a process of its own.

    python benchmarks/_page_server.py [listings | shape]

The page is the first benchmarks' page of `listings` listings (default 100), or one of the
shapes of `_pages.SHAPES` by name (`search`, `transactions`, `events`, `sparse`...).

Prints its port on the first line of its output, then serves until its input is closed. A GET
of `.../marketplace/show` is answered with a marketplace, any other GET with the page, in the
format its `Accept` asks for (Transit or JSON); a POST (the token request) with a token.
Keep-alive (HTTP/1.1), as the clients use it: the fake marketplace answers in HTTP/1.0, one
connection a request, whose making would be most of a small call's time.
"""

from __future__ import annotations

import sys
import threading
import uuid
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

from _pages import SHAPES, encoded, encoded_shape

from flexclient._wire.formats import JSON, TRANSIT
from flexclient.testing._app import keyword_types

TOKEN = (
    b'{"access_token":"bench-token","token_type":"bearer","expires_in":86400,"scope":"public-read"}'
)


class KeepAlive(BaseHTTPRequestHandler):
    """What the benchmarks' servers share: HTTP/1.1 with keep-alive, as the clients use it;
    a token for any POST (the token request); nothing logged."""

    protocol_version = "HTTP/1.1"
    # Headers and body go in two writes: with Nagle's algorithm the second would wait for
    # the client's delayed acknowledgement of the first (40 ms on Linux).
    disable_nagle_algorithm = True
    token = TOKEN

    def send_body(self, body: bytes, content_type: str) -> None:
        self.send_response(200)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def transit_asked(self) -> bool:
        """Whether the request's `Accept` asks for Transit (else JSON)."""
        return "transit" in self.headers.get("Accept", "transit")

    def send_encoded(self, body: bytes, transit: bool) -> None:
        kind = "application/transit+json" if transit else "application/json"
        self.send_body(body, f"{kind};charset=utf-8")

    def send_page(self, json_body: bytes, transit_body: bytes) -> None:
        """The page in the format the request asks for."""
        transit = self.transit_asked()
        self.send_encoded(transit_body if transit else json_body, transit)

    def do_POST(self) -> None:
        self.rfile.read(int(self.headers.get("Content-Length", 0)))
        self.send_body(self.token, "application/json")

    def log_message(self, *args: object) -> None:
        pass


def server(page: str) -> ThreadingHTTPServer:
    """The server of `page` (a count of listings or a shape's name), bound to a free port of
    127.0.0.1, not yet serving."""
    as_json, as_transit = encoded_shape(page) if page in SHAPES else encoded(int(page), int(page))
    marketplace = {"data": {"id": uuid.UUID(int=1), "type": "marketplace", "attributes": {}}}
    marketplace["data"]["attributes"] = {"name": "Bench"}
    shown = JSON.encode(marketplace), TRANSIT.encode(keyword_types(marketplace))

    class Answer(KeepAlive):
        def do_GET(self) -> None:
            shows = self.path.endswith("/marketplace/show")
            self.send_page(*(shown if shows else (as_json, as_transit)))

    return ThreadingHTTPServer(("127.0.0.1", 0), Answer)


def serve_until_input_closes(made: ThreadingHTTPServer) -> None:
    """Print the port `made` listens on, then serve until the benchmark closes this
    process's input (or ends)."""
    threading.Thread(target=made.serve_forever, daemon=True).start()
    print(made.server_address[1], flush=True)
    sys.stdin.read()
    made.shutdown()


def main() -> None:
    serve_until_input_closes(server(sys.argv[1] if len(sys.argv) > 1 else "100"))


if __name__ == "__main__":
    main()
