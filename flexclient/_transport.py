"""HTTP: the only module that talks to `requests`. Sessions, timeouts and retries.

Retries follow one rule: a request is sent again only when doing so cannot repeat its effect.
Queries (GET) are retried on connection errors, timeouts, 429 and 500/502/503/504; commands
(POST) only when the connection was never made or the server answered 429 (refused before
processing). Waits are full-jitter exponential backoff, honouring `Retry-After` up to a cap.
"""

from __future__ import annotations

import email.utils
import http
import logging
import random
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Protocol

import requests
from requests.structures import CaseInsensitiveDict
from urllib3.exceptions import NewConnectionError

from flexclient._errors import TransportError

log = logging.getLogger("flexclient")

Timeout = float | tuple[float, float]
DEFAULT_TIMEOUT: tuple[float, float] = (5.0, 30.0)
UPLOAD_TIMEOUT: tuple[float, float] = (5.0, 300.0)

_RETRY_STATUS_QUERY = frozenset({429, 500, 502, 503, 504})
_RETRY_STATUS_COMMAND = frozenset({429})


@dataclass(frozen=True)
class RetryPolicy:
    """How failed requests are retried.

    `max_retries=0` disables retrying. `sleep` is the function that waits; tests replace it.

    >>> RetryPolicy(max_retries=0).max_retries
    0
    """

    max_retries: int = 2
    backoff_base: float = 0.5
    backoff_cap: float = 8.0
    retry_after_cap: float = 60.0
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


@dataclass(frozen=True)
class RawResponse:
    """An HTTP answer, read whole: status, reason, headers, body bytes."""

    status: int
    reason: str
    headers: CaseInsensitiveDict[str]
    content: bytes
    request: str
    retries: int = 0

    @property
    def text(self) -> str:
        return self.content.decode("utf-8", errors="replace")


class Readable(Protocol):
    def read(self, size: int = -1, /) -> bytes: ...


Body = bytes | Readable | None
"""A request body: bytes, or a file-like object that requests streams."""


def _phrase(status: int) -> str:
    try:
        return http.HTTPStatus(status).phrase
    except ValueError:
        return ""


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
    ) -> None:
        self.base_url = base_url.rstrip("/")
        self.timeout = timeout
        self.retry = retry if retry is not None else RetryPolicy()
        self.session = session if session is not None else requests.Session()

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
        attempt = 0
        while True:
            started = time.monotonic()
            data = body() if callable(body) else body
            try:
                resp = self.session.request(
                    method,
                    url,
                    headers=dict(headers or {}),
                    data=data,
                    timeout=timeout if timeout is not None else self.timeout,
                )
            except requests.RequestException as exc:
                never_connected = _never_connected(exc)
                if attempt < self.retry.max_retries and (idempotent or never_connected):
                    self._pause(described, attempt, None, type(exc).__name__)
                    attempt += 1
                    continue
                raise TransportError(f"{described}: {type(exc).__name__}: {exc}") from exc
            elapsed = time.monotonic() - started
            log.debug(
                "%s -> %s in %.3fs (retries %d)", described, resp.status_code, elapsed, attempt
            )
            if resp.status_code in retry_status and attempt < self.retry.max_retries:
                retry_after = parse_retry_after(resp.headers.get("Retry-After"))
                if retry_after is None or retry_after <= self.retry.retry_after_cap:
                    resp.close()
                    self._pause(described, attempt, retry_after, str(resp.status_code))
                    attempt += 1
                    continue
            return RawResponse(
                status=resp.status_code,
                reason=resp.reason or _phrase(resp.status_code),
                headers=resp.headers,
                content=resp.content,
                request=described,
                retries=attempt,
            )

    def _pause(self, described: str, attempt: int, retry_after: float | None, why: str) -> None:
        wait = self.retry.wait(attempt, retry_after)
        log.debug("%s: %s, retry %d in %.2fs", described, why, attempt + 1, wait)
        self.retry.sleep(wait)
