"""A WSGI application served on 127.0.0.1 in a thread of its own: what the fake marketplace
and the fake asset CDN share (start, stop, `with`, their URL)."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterable
from types import TracebackType
from typing import Any, ClassVar, Self

from werkzeug.serving import BaseWSGIServer, WSGIRequestHandler, make_server


class _QuietHandler(WSGIRequestHandler):
    def log_request(self, code: int | str = "-", size: int | str = "-") -> None:
        pass

    def date_time_string(self, timestamp: float | None = None) -> str:
        # The `Date` header, by the server's clock (the fake marketplace's, which tests move).
        now = getattr(self.server, "clock", time.time)
        return super().date_time_string(now() if timestamp is None else timestamp)


class LoopbackServer:
    """Serves `_wsgi` on 127.0.0.1 (`port` 0 picks a free one) from `start()` or `with` until
    `stop()`; `url` is where."""

    _what: ClassVar[str] = "the server"

    def __init__(self, port: int) -> None:
        self._port = port
        self._server: BaseWSGIServer | None = None
        self._thread: threading.Thread | None = None

    def _wsgi(self, environ: dict[str, Any], start_response: Any) -> Iterable[bytes]:
        raise NotImplementedError

    def _started(self) -> None:
        """Called once serving has begun (the URL is known)."""

    def _clock(self) -> float:
        """The time the answers' `Date` header tells (seconds since the epoch)."""
        return time.time()

    @property
    def url(self) -> str:
        if self._server is None:
            raise RuntimeError(f"{self._what} is not started; use start() or `with`")
        return f"http://127.0.0.1:{self._server.server_port}"

    def start(self) -> Self:
        if self._server is None:
            self._server = server = make_server(
                "127.0.0.1", self._port, self._wsgi, threaded=True, request_handler=_QuietHandler
            )
            server.clock = self._clock  # type: ignore[attr-defined]  # read by the handler
            self._started()
            # A short poll interval makes stop() quick (the default waits up to 0.5 s).
            self._thread = threading.Thread(
                target=lambda: server.serve_forever(poll_interval=0.02), daemon=True
            )
            self._thread.start()
        return self

    def stop(self) -> None:
        if self._server is not None:
            self._server.shutdown()
            self._server.server_close()
            self._server = None

    def __enter__(self) -> Self:
        return self.start()

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.stop()
