"""HTTP: the only module that talks to `requests`. Sessions, timeouts and retries.

Redirects are never followed: a 3xx is a `RedirectError` (a request re-sent elsewhere would
carry its credentials there). The headers go as the caller made them: `requests` adds no
credential of its own (a `.netrc` entry or a session's `auth` would replace the bearer token).
Every call ends by a total deadline (`flexclient._http.deadline`), enforced on each read and write
of the socket, as well as the connect and read timeouts. An error answer is kept as a bounded
excerpt, never read whole; a success body is read whole (`send`), or written to a file in
chunks as it comes (`stream_to`, for downloads).

A session flexclient made sends each request the direct way: the prepared request built from
the request alone (nothing of the session's to merge, unless the API set cookies), the
environment's proxy and certificate settings read once, when the transport is made, and a
success body of known length read in one bounded read. A user's `session=` takes `requests`'
whole path (`Session.request`), as it always did.

Retries follow one rule: a request is sent again only when doing so cannot repeat its effect.
Queries (GET) are retried on connection errors, timeouts, 429 and 500/502/503/504; commands
(POST) only when the connection was never made or the server answered 429 (refused before
processing). Waits are full-jitter exponential backoff, honouring `Retry-After` up to a cap,
within a total time budget.
"""

from __future__ import annotations

import contextlib
import datetime as dt
import email.utils
import http
import io
import ipaddress
import logging
import math
import random
import threading
import time
import warnings
import weakref
from collections.abc import Callable, Generator, Iterator, Mapping
from dataclasses import dataclass, field
from typing import IO, Any, Protocol, TypeGuard
from urllib.parse import urljoin, urlsplit

import requests
import urllib3
from requests.cookies import RequestsCookieJar
from requests.structures import CaseInsensitiveDict
from urllib3.exceptions import HTTPError as Urllib3Error
from urllib3.exceptions import NewConnectionError, ReadTimeoutError
from urllib3.exceptions import SSLError as Urllib3SSLError

from flexclient._errors import (
    ParameterError,
    RedirectError,
    RequestTimeoutError,
    ResponseTooLargeError,
    SessionAuthWarning,
    TransportError,
    callers_level,
)
from flexclient._http import deadline as _deadline
from flexclient._http.deadline import DeadlineAdapter, deadline_scope
from flexclient._http.limits import Limiter, RateLimits
from flexclient._support.frozen import Frozen
from flexclient._support.narrow import is_tuple

log = logging.getLogger("flexclient")

Timeout = float | tuple[float, float]
DEFAULT_TIMEOUT: tuple[float, float] = (5.0, 30.0)
UPLOAD_TIMEOUT: tuple[float, float] = (5.0, 300.0)
DEFAULT_MAX_RESPONSE_BYTES = 64 * 1024 * 1024
STREAM_CHUNK_BYTES = 256 * 1024
"""The size of the chunks `Transport.stream_to` reads and writes."""
# An error answer is kept up to this size: the API's error bodies are a few hundred bytes, and
# a huge one (a proxy's page, a hostile server) must not be held in memory.
ERROR_BODY_BYTES = 64 * 1024
# Without an explicit deadline, a call may take this many read timeouts in all (attempts,
# waits, token requests): generous for slow answers, finite for a trickling server.
DEADLINE_READ_TIMEOUTS = 3


def _headers_as_given(request: requests.PreparedRequest) -> requests.PreparedRequest:
    # Passed as every request's `auth`, it takes the place of what `requests` would otherwise
    # apply: a session's `auth`, or the user name and password of a `.netrc` entry for the
    # host, either of which overwrites the Authorization header (the bearer token) or adds one
    # to a request that must carry none (a token request, the CDN, file storage).
    return request


def _is_loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def is_credential_safe(url: str) -> bool:
    """Whether credentials may be sent to `url`: over HTTPS, or plain http to loopback."""
    parts = urlsplit(url)
    return parts.scheme == "https" or (
        parts.scheme == "http" and _is_loopback(parts.hostname or "")
    )


def check_origin(url: object, param: str) -> str:
    """`url` checked as the address of a host the client sends to (`base_url`,
    `asset_cdn_base_url`), without its trailing slash: an absolute http(s) URL with no user
    name or password, over HTTPS, or plain http to a loopback address only (every request
    to the API carries a credential, and assets are configuration). A `ParameterError`
    naming `param` if not.

    >>> check_origin("http://127.0.0.1:8000/", "base_url")
    'http://127.0.0.1:8000'
    """
    not_a_url = ParameterError(param, f"not an http(s) URL: {url!r}")
    if not isinstance(url, str):
        raise not_a_url
    try:
        parts = urlsplit(url)
    except ValueError:  # an unbalanced "[" of an IPv6 address
        raise not_a_url from None
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise not_a_url
    if parts.username is not None or parts.password is not None:
        raise ParameterError(param, "a URL with a user name or password is not used")
    if not is_credential_safe(url):
        raise ParameterError(
            param,
            f"must be HTTPS (plain http only to a loopback address, for local tests), "
            f"not {parts.scheme}://{parts.hostname}",
        )
    return url.rstrip("/")


def check_timeout(value: object, name: str = "timeout") -> Timeout:
    """A timeout as `requests` takes it, checked: seconds, or a (connect, read) pair, each
    positive and finite. None (wait for ever) is refused."""
    parts = value if is_tuple(value) else (value,)
    seconds = [float(p) for p in parts if _positive(p)]
    if not 1 <= len(parts) <= 2 or len(seconds) != len(parts):
        raise ParameterError(
            name,
            f"must be a positive, finite number of seconds or a (connect, read) pair of them, "
            f"not {value!r}",
        )
    if is_tuple(value):
        return (seconds[0], seconds[1]) if len(seconds) == 2 else seconds[0]
    return seconds[0]


def check_deadline(value: object, name: str = "deadline") -> float:
    if not _positive(value):
        raise ParameterError(name, f"must be a positive, finite number of seconds, not {value!r}")
    return float(value)


def _positive(value: object) -> TypeGuard[float]:
    # A number of seconds: an int or a float (not a bool), finite, above 0.
    return (
        isinstance(value, int | float)
        and not isinstance(value, bool)
        and math.isfinite(value)
        and value > 0
    )


def _count(value: object, least: int) -> bool:
    # A whole number (not a bool) of at least `least`.
    return type(value) is int and value >= least


def default_deadline(timeout: Timeout) -> float:
    """The deadline of a call with this timeout and no deadline of its own."""
    connect, read = timeout if isinstance(timeout, tuple) else (timeout, timeout)
    return connect + DEADLINE_READ_TIMEOUTS * read


_RETRY_STATUS_QUERY = frozenset({429, 500, 502, 503, 504})
_RETRY_STATUS_COMMAND = frozenset({429})


@dataclass(frozen=True, eq=False, repr=False)
class RetryPolicy(Frozen):
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
    when = parse_http_date(value)
    return None if when is None else max(0.0, when.timestamp() - time.time())


def parse_http_date(value: str | None) -> dt.datetime | None:
    """An HTTP date (a `Date` or `Retry-After` header) as an aware UTC datetime, or None.

    >>> parse_http_date("Wed, 21 Oct 2015 07:28:00 GMT")
    datetime.datetime(2015, 10, 21, 7, 28, tzinfo=datetime.timezone.utc)
    """
    if not value:
        return None
    try:
        when = email.utils.parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return None
    # A date without a zone is UTC, as HTTP dates are (RFC 9110).
    return when.replace(tzinfo=dt.UTC) if when.tzinfo is None else when.astimezone(dt.UTC)


def _phrase(status: int) -> str:
    try:
        return http.HTTPStatus(status).phrase
    except ValueError:
        return ""


@dataclass(frozen=True, eq=False, repr=False)
class RawResponse(Frozen):
    """An HTTP answer, read whole: status, reason, headers, body bytes."""

    status: int
    reason: str
    headers: CaseInsensitiveDict[str]
    content: bytes
    request: str
    retries: int = 0
    retry_after: float | None = None
    truncated: bool = False
    """True when `content` is the start of a longer error body (`ERROR_BODY_BYTES`)."""
    streamed: int = 0
    """The bytes of a success body written to the caller's file (`Transport.stream_to`);
    `content` is then empty."""

    @property
    def text(self) -> str:
        return self.content.decode("utf-8", errors="replace")


class Metering(Protocol):
    """What a caller's requests cost (`flexclient._charging.Charge`): `check(path)` before each
    attempt is sent (it raises to stop it), `record(path, status)` for each answer (status 0:
    sent, and no answer came)."""

    def check(self, path: str) -> None: ...

    def record(self, path: str, status: int) -> None: ...


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


def _refused(url: str, exc: requests.RequestException) -> str:
    """A connection refused, said in a reader's words (urllib3's name the pool and its
    retries), or "" for any other failure."""
    reason = getattr(exc.args[0], "reason", None) if exc.args else None
    if not isinstance(getattr(reason, "__cause__", None), ConnectionRefusedError):
        return ""
    parts = urlsplit(url)
    port = parts.port or (443 if parts.scheme == "https" else 80)
    return (
        f"cannot connect to {parts.hostname} port {port}: the connection was refused, "
        "nothing is listening there (is the server running, and is the address right?)"
    )


def _failure(
    described: str,
    exc: requests.RequestException,
    headers: Mapping[str, str],
    *,
    never: bool,
    url: str = "",
) -> TransportError:
    """The error for a failure of `requests`, holding no credential: the request object (and
    its Authorization header) is dropped from the chained exception, and header values are
    cut from the message. A refused connection is said in our words, the cause chained."""
    exc.request = None
    exc.response = None
    left = _deadline.remaining()
    if left is not None and left <= 0:
        return RequestTimeoutError(
            f"{described}: the call's total deadline passed", kind="deadline", never_connected=never
        )
    refused = _refused(url, exc)
    if refused:
        return TransportError(
            f"{described}: {refused}", kind=type(exc).__name__, never_connected=never
        )
    error = TransportError.of(described, exc, never_connected=never)
    message = str(error)
    for name, value in headers.items():
        if name.lower() in ("authorization", "cookie") and value:
            message = message.replace(value, "[redacted]")
            message = message.replace(repr(value)[1:-1], "[redacted]")
    if message != str(error):
        error.args = (message,)
    return error


class TransportSettings(Protocol):
    """What every transport reads of a client's options: `flexclient.Options` is passed down
    as it is, checked when it was made, and nothing here checks it again."""

    @property
    def timeout(self) -> Timeout: ...

    @property
    def retry_policy(self) -> RetryPolicy: ...

    @property
    def max_response_bytes(self) -> int: ...


class ApiSettings(TransportSettings, Protocol):
    """And what the transport of the API's calls reads beside (`Transport.for_api`)."""

    @property
    def base_url(self) -> str: ...

    @property
    def deadline(self) -> float | None: ...

    @property
    def rate_limits(self) -> RateLimits | None: ...

    @property
    def max_connections(self) -> int | None: ...


# The sessions flexclient made (`new_session`): nobody else holds them, so their requests may
# take the direct path (`Transport._prepared`); a user's session keeps all of requests' path.
_MADE_HERE: weakref.WeakSet[requests.Session] = weakref.WeakSet()


def new_session(pool_size: int = 10) -> requests.Session:
    """A session whose connections keep the call's deadline (`DeadlineAdapter`), pooling
    enough of them that none is opened and dropped needlessly."""
    session = requests.Session()
    adapter = DeadlineAdapter(pool_maxsize=pool_size)
    session.mount("https://", adapter)
    session.mount("http://", adapter)
    _MADE_HERE.add(session)
    return session


def _readable_at_once(resp: requests.Response) -> bool:
    """Whether a body can be read in one bounded read: urllib3's, sent as it is (a compressed
    body could grow without bound as it is decoded), and its length known or sent in chunks
    (a read up to the connection's end would be given a buffer of the whole bound at once)."""
    headers = resp.headers
    return (
        isinstance(resp.raw, urllib3.HTTPResponse)
        and headers.get("Content-Encoding", "identity").lower() == "identity"
        and (
            "Content-Length" in headers or headers.get("Transfer-Encoding", "").lower() == "chunked"
        )
    )


@contextlib.contextmanager
def _as_requests_raises() -> Generator[None]:
    """urllib3's failures while a body is read, raised as requests raises them when it reads
    one (`Response.iter_content`), for the transport to turn into its own errors as any
    other: a read timeout a `ConnectionError`, TLS an `SSLError`, any other (a connection
    reset, a body cut short) a `ChunkedEncodingError`."""
    try:
        yield
    except ReadTimeoutError as exc:
        raise requests.ConnectionError(exc) from exc
    except Urllib3SSLError as exc:
        raise requests.exceptions.SSLError(exc) from exc
    except Urllib3Error as exc:
        raise requests.exceptions.ChunkedEncodingError(exc) from exc


def _read_at_once(raw: urllib3.HTTPResponse, most: int) -> bytes:
    """Up to `most` bytes of a body in one read, urllib3's failures raised as requests raises
    them (`_as_requests_raises`). A read returns short only at the body's end or where the
    connection ended; the read after it is empty, or tells which (urllib3 raises there for a
    body cut short)."""
    parts: list[bytes] = []
    got = 0
    with _as_requests_raises():
        while got < most:
            part = raw.read(most - got, decode_content=False)  # sent as it is
            if not part:
                break
            parts.append(part)
            got += len(part)
    return parts[0] if len(parts) == 1 else b"".join(parts)


def _raw_chunks(resp: requests.Response, size: int) -> Iterator[bytes]:
    """A body in chunks of up to `size` bytes, as sent: `Content-Encoding` is not undone
    (storage may answer gzip for an object stored so, even when asked for identity, and the
    file is the object). urllib3's failures are raised as requests raises them."""
    raw = resp.raw
    if not isinstance(raw, urllib3.HTTPResponse):  # a transport adapter's own (tests')
        yield from resp.iter_content(size)
        return
    with _as_requests_raises():
        yield from raw.stream(size, decode_content=False)


@dataclass(frozen=True)
class _Sink:
    """Where `Transport.stream_to` writes a success body, and how."""

    file: IO[bytes]
    max_bytes: int | None
    chunk_size: int


class Transport:
    """Sends requests to one base URL over one `requests.Session` (keep-alive, pooling).

    Made as it is, a transport has no deadline, rate limit or connection bound of its own (the
    hosts other than the API's); `for_api` and `derived` make the API's, with the client's."""

    def __init__(
        self,
        base_url: str,
        settings: TransportSettings,
        *,
        session: requests.Session | None = None,
        pool_size: int = 10,
    ) -> None:
        self.base_url = base_url
        self.timeout = settings.timeout
        self.retry = settings.retry_policy
        self.max_response_bytes = settings.max_response_bytes
        self.deadline: float | None = None
        self.limiter: Limiter | None = None
        self.max_connections: int | None = None
        self._slots: threading.BoundedSemaphore | None = None
        self.owns_session = session is None
        if session is None:
            session = new_session(pool_size)
        elif session in _MADE_HERE:
            pass  # flexclient's own (a derived client's, another host's): as made
        else:
            _deadline.install(session, base_url)
            if session.auth is not None:
                warnings.warn(
                    SessionAuthWarning(
                        "the session's `auth` is not applied: it would replace the bearer"
                        " token (a proxy's credentials go in its URL,"
                        " `https://user:password@proxy`)"
                    ),
                    stacklevel=callers_level(),
                )
        self.session = session
        # The environment's settings for this origin (proxies, CA bundle), read now, once, for
        # the direct path: requests reads the environment again for every request.
        self._environment: Mapping[str, Any] | None = None
        if session in _MADE_HERE:
            self._environment = session.merge_environment_settings(
                base_url + "/", {}, True, None, None
            )

    @classmethod
    def for_api(
        cls,
        settings: ApiSettings,
        session: requests.Session | None = None,
        *,
        like: Transport | None = None,
    ) -> Transport:
        """The transport of a client's calls to the API, over `session`, or over a session of
        its own with a connection for each of `max_connections` (10 without a bound); it
        shares the rate limiter and the connection bound of `like` where they are the same."""
        limits, most = settings.rate_limits, settings.max_connections
        made = cls(settings.base_url, settings, session=session, pool_size=most or 10)
        made.deadline = settings.deadline
        made.max_connections = most
        if like is not None and like.limiter is not None and like.limiter.limits is limits:
            made.limiter = like.limiter
        elif limits is not None:
            made.limiter = Limiter(limits)
        if like is not None and like.max_connections == most:
            made._slots = like._slots
        elif most:
            made._slots = threading.BoundedSemaphore(most)
        return made

    def __repr__(self) -> str:
        return f"Transport({self.base_url!r})"

    def derived(self, settings: ApiSettings) -> Transport:
        """A transport over this one's session (its connection pool), with these settings;
        it shares this one's rate limiter and connection bound where they are unchanged."""
        return Transport.for_api(settings, self.session, like=self)

    def close(self) -> None:
        """Close the session's connections, if this transport made the session."""
        if self.owns_session:
            self.session.close()

    def send(
        self,
        method: str,
        path: str,
        *,
        query: str = "",
        headers: Mapping[str, str] | None = None,
        body: Body | Callable[[], Body] = None,
        timeout: Timeout | None = None,
        deadline: float | None = None,
        metering: Metering | None = None,
    ) -> RawResponse:
        """Send with retries; `body` may be a factory, called afresh for every attempt.

        The whole exchange ends by `deadline` seconds from now (or the enclosing call's
        deadline, if sooner; by default `default_deadline(timeout)`). Each attempt is checked
        and recorded by `metering`, if given."""
        timeout = self.timeout if timeout is None else timeout
        if deadline is None:
            deadline = self.deadline or default_deadline(timeout)
        with deadline_scope(deadline):
            return self._send(method, path, query, headers or {}, body, timeout, metering)

    def stream_to(
        self,
        sink: IO[bytes],
        method: str,
        path: str,
        *,
        query: str = "",
        headers: Mapping[str, str] | None = None,
        body: Body | Callable[[], Body] = None,
        timeout: Timeout | None = None,
        deadline: float | None = None,
        max_bytes: int | None = None,
        chunk_size: int = STREAM_CHUNK_BYTES,
    ) -> RawResponse:
        """Send as `send` does (retries, deadline, errors), and write a success body to the
        file `sink` as it comes, in chunks of `chunk_size` bytes, never holding it whole: a
        download. The body is written as sent (a `Content-Encoding` is not undone), from the
        file's start; each attempt empties the file first, so a retry starts it again. The
        answer's `streamed` is the bytes written, its `content` empty; an error answer is
        read as `send` reads it, and nothing is written.

        A body longer than `max_bytes` (None: no bound) is a `ResponseTooLargeError` (the
        file then holds its start); the read failing midway, the deadline passing included,
        is the `TransportError` it would be for `send`."""
        timeout = self.timeout if timeout is None else timeout
        if deadline is None:
            deadline = self.deadline or default_deadline(timeout)
        if max_bytes is not None and not _count(max_bytes, 0):
            raise ParameterError("max_bytes", f"must be a number of bytes, not {max_bytes!r}")
        if not _count(chunk_size, 1):
            raise ParameterError("chunk_size", f"must be a number of bytes, not {chunk_size!r}")
        into = _Sink(sink, max_bytes, chunk_size)
        with deadline_scope(deadline):
            return self._send(method, path, query, headers or {}, body, timeout, None, into)

    def _send(
        self,
        method: str,
        path: str,
        query: str,
        headers: Mapping[str, str],
        body: Body | Callable[[], Body],
        timeout: Timeout,
        metering: Metering | None,
        sink: _Sink | None = None,
    ) -> RawResponse:
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
            if metering is not None:
                metering.check(path)
            try:
                raw = self._once(
                    method, url, path, described, headers, body, timeout, attempt, metering, sink
                )
            except TransportError as exc:
                spent += time.monotonic() - started
                exc.retries = attempt
                if metering is not None and not exc.never_connected:
                    metering.record(path, 0)  # sent, perhaps received: no answer came
                retryable = (idempotent or exc.never_connected) and exc.kind != "deadline"
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
        path: str,
        described: str,
        headers: Mapping[str, str],
        body: Body | Callable[[], Body],
        timeout: Timeout,
        attempt: int,
        metering: Metering | None,
        sink: _Sink | None,
    ) -> RawResponse:
        left = _deadline.remaining()
        if left is not None and left <= 0:
            raise RequestTimeoutError(
                f"{described}: the call's total deadline passed", kind="deadline"
            )
        if self.limiter is not None:
            waited = self.limiter.take(method, left)
            if waited:
                log.debug("%s: waited %.2fs for the client-side rate limit", described, waited)
        # At most max_connections requests under way at once, each until its body is read.
        slot = _deadline.held(self._slots, "a free connection") if self._slots else None
        with slot or contextlib.nullcontext():
            started = time.monotonic()
            data = body() if callable(body) else body
            # None takes a session's own default Authorization off (a token request has none
            # of ours); the caller's, when given, replaces it.
            sent_headers: dict[str, str | None] = {"Authorization": None, **headers}
            try:
                prepared = self._prepared(method, url, sent_headers, data)
                if prepared is None:
                    resp = self.session.request(
                        method,
                        url,
                        headers=sent_headers,
                        auth=_headers_as_given,
                        data=data,
                        timeout=timeout,
                        stream=True,
                        allow_redirects=False,
                    )
                else:
                    resp = self.session.send(
                        prepared[0], timeout=timeout, allow_redirects=False, **prepared[1]
                    )
            except requests.RequestException as exc:
                never = _never_connected(exc)
                raise _failure(described, exc, headers, never=never, url=url) from exc
            streamed = 0
            try:
                if sink is not None and 200 <= resp.status_code < 300:
                    content, truncated = b"", False
                    streamed = self._write_body(resp, described, sink)
                else:
                    content, truncated = self._read_body(resp, described)
            except requests.RequestException as exc:  # reset or timed out mid-body
                resp.close()
                raise _failure(described, exc, headers, never=False) from exc
            log.debug(
                "%s -> %s in %.3fs (retries %d)",
                described,
                resp.status_code,
                time.monotonic() - started,
                attempt,
            )
            raw = RawResponse(
                status=resp.status_code,
                reason=resp.reason or _phrase(resp.status_code),
                headers=resp.headers,
                content=content,
                request=described,
                retries=attempt,
                retry_after=parse_retry_after(resp.headers.get("Retry-After")),
                truncated=truncated,
                streamed=streamed,
            )
            if metering is not None:
                metering.record(path, raw.status)
            if 300 <= raw.status < 400:
                location = resp.headers.get("Location")
                raise RedirectError(
                    raw.status,
                    raw.reason,
                    location=urljoin(url, location) if location else None,
                    body=raw.text,
                    headers=raw.headers,
                    request=described,
                )
            return raw

    def _prepared(
        self, method: str, url: str, headers: Mapping[str, str | None], data: Body
    ) -> tuple[requests.PreparedRequest, Mapping[str, Any]] | None:
        """The request as `Session.request` would prepare it, and the settings to send it
        with, for a session flexclient made that has nothing to merge into it (no cookies,
        hooks, parameters or auth): built directly, without the cookie jars, the hooks and
        the reading of the environment `Session.request` goes through for every request.
        None otherwise: the request then takes requests' whole path."""
        session, environment = self.session, self._environment
        if (
            environment is None
            or session.cookies
            or any(session.hooks.values())
            or session.params
            or session.auth is not None
        ):
            return None
        # The session's headers, then the request's; a None drops one (`merge_setting`).
        merged: CaseInsensitiveDict[str | bytes | None] = CaseInsensitiveDict(session.headers)
        merged.update(headers)
        prepared = requests.PreparedRequest()
        # The ignore: types-requests leaves the parameters of `prepare` untyped.
        prepared.prepare(  # pyright: ignore[reportUnknownMemberType]
            method=method,
            url=url,
            headers={name: value for name, value in merged.items() if value is not None},
            data=data,
            cookies=RequestsCookieJar(),  # none; the answer to a redirect reads them
        )
        return prepared, environment

    def _read_body(self, resp: requests.Response, described: str) -> tuple[bytes, bool]:
        """The body and whether it was cut: a success body whole, refusing one larger than
        `max_response_bytes`; any other body up to `ERROR_BODY_BYTES`."""
        success = 200 <= resp.status_code < 300
        if success and _readable_at_once(resp):
            length = resp.raw.length_remaining
            # A body announced larger than the bound is refused unread, but for its start.
            most = 500 if length is not None and length > self.max_response_bytes else None
            content = _read_at_once(resp.raw, most or self.max_response_bytes + 1)
            if most is None and len(content) <= self.max_response_bytes:
                return content, False
            resp.close()
            raise self._too_large(resp, content[:500], described)
        limit = self.max_response_bytes if success else ERROR_BODY_BYTES
        out = io.BytesIO()  # its getvalue() does not copy: one body in memory, not two
        head = b""
        for chunk in resp.iter_content(64 * 1024):
            head = head or chunk[:500]
            if out.tell() + len(chunk) > limit:
                if not success:
                    out.write(chunk[: limit - out.tell()])
                    resp.close()  # the rest is never read; the connection is dropped
                    return out.getvalue(), True
                resp.close()
                raise self._too_large(resp, head, described)
            out.write(chunk)
        return out.getvalue(), False

    def _write_body(self, resp: requests.Response, described: str, sink: _Sink) -> int:
        """A success body written to the sink's file, from its start; the bytes written."""
        file, most = sink.file, sink.max_bytes
        file.seek(0)
        file.truncate()
        length = resp.raw.length_remaining if isinstance(resp.raw, urllib3.HTTPResponse) else None
        if most is not None and length is not None and length > most:
            resp.close()  # announced larger than the bound: refused unread
            raise self._too_large(resp, b"", described, most)
        written = 0
        for chunk in _raw_chunks(resp, sink.chunk_size):
            if most is not None and written + len(chunk) > most:
                resp.close()
                raise self._too_large(resp, b"", described, most)
            file.write(chunk)
            written += len(chunk)
        file.flush()
        return written

    def _too_large(
        self, resp: requests.Response, head: bytes, described: str, most: int | None = None
    ) -> Exception:
        most = self.max_response_bytes if most is None else most
        return ResponseTooLargeError(
            resp.status_code,
            resp.reason or _phrase(resp.status_code),
            body=head.decode("utf-8", errors="replace"),
            headers=resp.headers,
            request=described,
            reason=f"the body is larger than {most} bytes",
        )

    def _retry(
        self, described: str, attempt: int, spent: float, retry_after: float | None, why: str
    ) -> float | None:
        """Wait before another attempt and return the wait, if the retries and the time
        budget allow one; None if not (the wait would not even be started)."""
        if attempt >= self.retry.max_retries:
            return None
        wait = self.retry.wait(attempt, retry_after)
        left = _deadline.remaining()
        if spent + wait > self.retry.max_elapsed or (left is not None and wait >= left):
            log.debug("%s: %s, no retry within %.0fs", described, why, self.retry.max_elapsed)
            return None
        log.debug("%s: %s, retry %d in %.2fs", described, why, attempt + 1, wait)
        self.retry.sleep(wait)
        return wait
