"""A whole `listings.query` (100 listings with their authors and images) through flexclient and
through the official JS SDK, against the same loopback server answering the same Transit bytes.

    python benchmarks/end_to_end.py [calls]

Both sides send the request, read the answer, decode it and reach each listing's author and
images; each prints the median of `calls` calls (default 50) after warming up. Needs node and
the SDK in .cache/js-sdks (as .ci/run installs it). The ratio is the figure to beat next
(docs/performance.md).
"""

from __future__ import annotations

import os
import shutil
import statistics
import subprocess
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

from _pages import encoded

from flexclient import MarketplaceClient

ROOT = Path(__file__).parents[1]
TOKEN = (
    b'{"access_token":"bench-token","token_type":"bearer","expires_in":86400,"scope":"public-read"}'
)


def serve(page: bytes) -> ThreadingHTTPServer:
    class Answer(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"  # keep-alive, as both clients use it

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
            self._send(page, "application/transit+json;charset=UTF-8")

        def log_message(self, *args: object) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Answer)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server


def flexclient_ms(base_url: str, calls: int) -> float:
    sdk = MarketplaceClient("bench-client", base_url=base_url)
    params = {"perPage": 100, "include": ["author", "images"]}
    times = []
    for n in range(calls + 5):
        started = time.perf_counter()
        for listing in sdk.listings.query(params).data.data:
            _ = listing.author, listing.images
        if n >= 5:
            times.append(time.perf_counter() - started)
    return statistics.median(times) * 1e3


def js_ms(base_url: str, calls: int) -> float | None:
    modules = Path(os.environ.get("FLEX_JS_SDKS", ROOT / ".cache" / "js-sdks")) / "node_modules"
    if shutil.which("node") is None or not (modules / "sharetribe-flex-sdk").is_dir():
        return None
    done = subprocess.run(
        ["node", str(ROOT / "benchmarks" / "js_query.js"), base_url, str(calls)],
        capture_output=True,
        text=True,
        env={**os.environ, "NODE_PATH": str(modules)},
        check=True,
    )
    return float(done.stdout.strip())


def main() -> None:
    calls = int(sys.argv[1]) if len(sys.argv) > 1 else 50
    _, transit = encoded(100, 100)
    server = serve(transit)
    base_url = f"http://127.0.0.1:{server.server_address[1]}"
    try:
        ours = flexclient_ms(base_url, calls)
        theirs = js_ms(base_url, calls)
    finally:
        server.shutdown()
    print(f"listings.query, 100 listings with authors and images, {len(transit)} B of Transit")
    print(f"  flexclient            {ours:7.2f} ms a call (median of {calls})")
    if theirs is None:
        print("  official JS SDK       (node or the SDK not installed; skipped)")
    else:
        ratio = ours / theirs
        print(f"  official JS SDK       {theirs:7.2f} ms a call   flexclient / JS {ratio:5.2f}x")


if __name__ == "__main__":
    main()
