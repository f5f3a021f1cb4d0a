"""HTTP: the only module that talks to `requests`. Sessions, timeouts and retries.

Retries follow one rule: a request is sent again only when doing so cannot repeat its effect.
Queries (GET) are retried on connection errors, timeouts, 429 and 500/502/503/504; commands
(POST) only when the connection was never made or the server answered 429 (refused before
processing). Waits are full-jitter exponential backoff, honouring `Retry-After` up to a cap,
within a total time budget.
"""

from __future__ import annotations

import contextlib
import email.utils
import http
import logging
import random
import threading
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Protocol

import requests
import requests.adapters
from requests.structures import CaseInsensitiveDict
from urllib3.exceptions import NewConnectionError

from flexclient._errors import ResponseTooLargeError, TransportError
from flexclient._limits import Limiter

log = logging.getLogger("flexclient")

Timeout = float | tuple[float, float]
DEFAULT_TIMEOUT: tuple[float, float] = (5.0, 30.0)
UPLOAD_TIMEOUT: tuple[float, float] = (5.0, 300.0)
DEFAULT_MAX_RESPONSE_BYTES = 64 * 1024 * 1024

_RETRY_STATUS_QUERY = frozenset({429, 500, 502, 503, 504})
_RETRY_STATUS_COMMAND = frozenset({429})


@dataclass(frozen=True)
class RetryPolicy:
    """How failed requests are retried.

    `max_retries` bounds the retries of one call (0 disables retrying) and `max_elapsed` the
    seconds it may take in all, waits included. Waits are drawn from 0 to
    `min(backoff_cap, backoff_base * 2**attempt)`; a `Retry-After` answer is waited for as
    asked up to `retry_after_cap`, and not retried above it. `sleep` waits; tests replace it.

    >>> RetryPolicy(max_retries=5, max_elapsed=120).backoff_cap
    8.0
    """

    max_retries: int = 2
    backoff_base: float = 0.5
    backoff_cap: float = 8.0
    retry_after_cap: float = 60.0
    max_elapsed: float = 90.0
    sleep: Callable[[float], None] = field(default=time.sleep, repr=False)

    def wait(self, attempt: int, retry_after: float | None) -> float:
        if retry_after is not None:
            return min(retry_after, self.retry_after_cap)
        return random.uniform(0, min(self.backoff_cap, self.backoff_base * 2**attempt))


def parse_retry_after(value: str | None) -> float | None:
    """`Retry-After` in seconds, from either of its forms (seconds or an HTTP date)."""
    if not value:
        return None
    try:
        return max(0.0, float(value))
    except ValueError:
        pass
    try:
        when = email.utils.parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return None
    return max(0.0, when.timestamp() - time.time())


def _phrase(status: int) -> str:
    try:
        return http.HTTPStatus(status).phrase
    except ValueError:
        return ""


@dataclass(frozen=True)
class RawResponse:
    """An HTTP answer, read whole: status, reason, headers, body bytes."""

    status: int
    reason: str
    headers: CaseInsensitiveDict[str]
    content: bytes
    request: str
    retries: int = 0
    retry_after: float | None = None

    @property
    def text(self) -> str:
        return self.content.decode("utf-8", errors="replace")


class Readable(Protocol):
    def read(self, size: int = -1, /) -> bytes: ...


Body = bytes | Readable | None
"""A request body: bytes, or a file-like object that requests streams."""


def _never_connected(exc: requests.RequestException) -> bool:
    """True when the request certainly never reached the server."""
    if isinstance(exc, requests.ConnectTimeout):
        return True
    reason = getattr(exc.args[0], "reason", None) if exc.args else None
    return isinstance(reason, NewConnectionError)


class Transport:
    """Sends requests to one base URL over one `requests.Session` (keep-alive, pooling)."""

    def __init__(
        self,
        base_url: str,
        *,
        timeout: Timeout = DEFAULT_TIMEOUT,
        retry: RetryPolicy | None = None,
        session: requests.Session | None = None,
        max_response_bytes: int = DEFAULT_MAX_RESPONSE_BYTES,
        limiter: Limiter | None = None,
        max_connections: int | None = None,
    ) -> None:
        self.base_url = base_url.rstrip("/")
        self.timeout = timeout
        self.retry = retry if retry is not None else RetryPolicy()
        self.max_response_bytes = max_response_bytes
        self.limiter = limiter
        self.max_connections = max_connections
        if session is None:
            session = requests.Session()
            if max_connections is not None:
                # Enough pooled connections that none is opened and dropped needlessly.
                adapter = requests.adapters.HTTPAdapter(pool_maxsize=max_connections)
                session.mount("https://", adapter)
                session.mount("http://", adapter)
        self.session = session
        self._slots = threading.BoundedSemaphore(max_connections) if max_connections else None

    def __repr__(self) -> str:
        return f"Transport({self.base_url!r})"

    def send(
        self,
        method: str,
        path: str,
        *,
        query: str = "",
        headers: Mapping[str, str] | None = None,
        body: Body | Callable[[], Body] = None,
        timeout: Timeout | None = None,
    ) -> RawResponse:
        """Send with retries; `body` may be a factory, called afresh for every attempt."""
        url = self.base_url + path + (f"?{query}" if query else "")
        described = f"{method} {path}"
        idempotent = method in ("GET", "HEAD")
        retry_status = _RETRY_STATUS_QUERY if idempotent else _RETRY_STATUS_COMMAND
        # Time spent: the attempts as measured, plus the waits as asked (so that the budget
        # holds the same when tests replace `sleep`).
        spent = 0.0
        attempt = 0
        while True:
            started = time.monotonic()
            try:
                raw = self._once(method, url, described, headers, body, timeout, attempt)
            except TransportError as exc:
                spent += time.monotonic() - started
                exc.retries = attempt
                retryable = idempotent or exc.never_connected
                wait = self._retry(described, attempt, spent, None, exc.kind) if retryable else None
                if wait is not None:
                    spent += wait
                    attempt += 1
                    continue
                raise
            spent += time.monotonic() - started
            # Above the cap, the answer is returned at once: the caller sees its retry_after.
            within_cap = raw.retry_after is None or raw.retry_after <= self.retry.retry_after_cap
            if raw.status in retry_status and within_cap:
                wait = self._retry(described, attempt, spent, raw.retry_after, str(raw.status))
                if wait is not None:
                    spent += wait
                    attempt += 1
                    continue
            return raw

    def _once(
        self,
        method: str,
        url: str,
        described: str,
        headers: Mapping[str, str] | None,
        body: Body | Callable[[], Body],
        timeout: Timeout | None,
        attempt: int,
    ) -> RawResponse:
        if self.limiter is not None:
            waited = self.limiter.take(method)
            if waited:
                log.debug("%s: waited %.2fs for the client-side rate limit", described, waited)
        # At most max_connections requests under way at once, each until its body is read.
        with self._slots or contextlib.nullcontext():
            started = time.monotonic()
            data = body() if callable(body) else body
            try:
                resp = self.session.request(
                    method,
                    url,
                    headers=dict(headers or {}),
                    data=data,
                    timeout=timeout if timeout is not None else self.timeout,
                    stream=True,
                )
            except requests.RequestException as exc:
                never = _never_connected(exc)
                raise TransportError.of(described, exc, never_connected=never) from exc
            try:
                content = self._read_body(resp, described)
            except requests.RequestException as exc:  # reset or timed out mid-body
                resp.close()
                raise TransportError.of(described, exc, never_connected=False) from exc
            log.debug(
                "%s -> %s in %.3fs (retries %d)",
                described,
                resp.status_code,
                time.monotonic() - started,
                attempt,
            )
            return RawResponse(
                status=resp.status_code,
                reason=resp.reason or _phrase(resp.status_code),
                headers=resp.headers,
                content=content,
                request=described,
                retries=attempt,
                retry_after=parse_retry_after(resp.headers.get("Retry-After")),
            )

    def _read_body(self, resp: requests.Response, described: str) -> bytes:
        """The whole body, in chunks, refusing one larger than `max_response_bytes`."""
        chunks: list[bytes] = []
        size = 0
        for chunk in resp.iter_content(64 * 1024):
            size += len(chunk)
            chunks.append(chunk)
            if size > self.max_response_bytes:
                resp.close()  # the rest is never read; the connection is dropped
                raise ResponseTooLargeError(
                    resp.status_code,
                    resp.reason or _phrase(resp.status_code),
                    body=b"".join(chunks)[:500].decode("utf-8", errors="replace"),
                    headers=resp.headers,
                    request=described,
                    reason=f"the body is larger than {self.max_response_bytes} bytes",
                )
        return b"".join(chunks)

    def _retry(
        self, described: str, attempt: int, spent: float, retry_after: float | None, why: str
    ) -> float | None:
        """Wait before another attempt and return the wait, if the retries and the time
        budget allow one; None if not (the wait would not even be started)."""
        if attempt >= self.retry.max_retries:
            return None
        wait = self.retry.wait(attempt, retry_after)
        if spent + wait > self.retry.max_elapsed:
            log.debug("%s: %s, no retry within %.0fs", described, why, self.retry.max_elapsed)
            return None
        log.debug("%s: %s, retry %d in %.2fs", described, why, attempt + 1, wait)
        self.retry.sleep(wait)
        return wait
