"""Requests to hosts other than the API's: the asset CDN, and the storage that files are
uploaded to and downloaded from.

These hosts get no credential of the API. Their requests go through a `requests` session of
their own (`Offsite`), never the client's: a `session=` of the caller's may carry default
headers, cookies or an `auth` that belong to the API. Nothing here adds an Authorization
header, and `.netrc` is not consulted. URLs must be HTTPS (plain http only to a loopback
address, for local tests) and carry no user name or password.

Each origin gets a `Transport` over that one session, so timeouts, the call's total deadline,
retries (only what cannot repeat an effect: GETs, and uploads that never reached the host),
bounded answers and the errors are the API's. Redirects are followed only where asked
(`Offsite.get`: the asset CDN's, as the official SDK follows them), a bounded number of hops,
each to an allowed URL.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from urllib.parse import urlsplit

import requests
import requests.auth

from flexclient._deadline import DeadlineAdapter
from flexclient._errors import ParameterError, RedirectError
from flexclient._transport import (
    DEFAULT_MAX_RESPONSE_BYTES,
    DEFAULT_TIMEOUT,
    Body,
    RawResponse,
    RetryPolicy,
    Timeout,
    Transport,
    is_credential_safe,
)

MAX_REDIRECTS = 5
"""Redirects followed at most by `Offsite.get` (the asset CDN redirects an alias once)."""

_MAX_ORIGINS = 16


class _NoAuth(requests.auth.AuthBase):
    """Sends nothing: set as the session's `auth`, it keeps `requests` from taking a user
    name and password for the host from `~/.netrc`."""

    def __call__(self, r: requests.PreparedRequest) -> requests.PreparedRequest:
        return r


@dataclass(frozen=True)
class OffsiteUrl:
    """An absolute URL, checked and split as `Transport` takes it."""

    origin: str
    path: str
    query: str

    @property
    def url(self) -> str:
        return self.origin + self.path + (f"?{self.query}" if self.query else "")


def offsite_url(url: object, param: str) -> OffsiteUrl:
    """`url` checked: an absolute HTTPS URL (plain http only to a loopback address), with no
    user name or password in it. A `ParameterError` naming `param` if not."""
    if not isinstance(url, str) or not url:
        raise ParameterError(param, "must be an absolute URL")
    if any(c in url for c in "\r\n\t\x00 "):
        raise ParameterError(param, "a URL cannot hold spaces or control characters")
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise ParameterError(param, f"not an absolute http(s) URL: {url[:200]!r}")
    if parts.username is not None or parts.password is not None:
        raise ParameterError(param, "a URL with a user name or password is not sent")
    if not is_credential_safe(url):
        raise ParameterError(
            param,
            f"only HTTPS URLs are fetched (plain http only to a loopback address), "
            f"not {parts.scheme}://{parts.hostname}",
        )
    origin = f"{parts.scheme}://{parts.netloc}"
    return OffsiteUrl(origin, parts.path or "/", parts.query)


class Offsite:
    """Sends requests to other hosts than the API, without its credentials (see the module
    docstring). One per client; `close()` closes its connections."""

    def __init__(
        self,
        *,
        timeout: Timeout = DEFAULT_TIMEOUT,
        retry: RetryPolicy | None = None,
        max_response_bytes: int = DEFAULT_MAX_RESPONSE_BYTES,
    ) -> None:
        self.timeout = timeout
        self.retry = retry if retry is not None else RetryPolicy()
        self.max_response_bytes = max_response_bytes
        session = requests.Session()
        adapter = DeadlineAdapter(pool_maxsize=10)
        session.mount("https://", adapter)
        session.mount("http://", adapter)
        session.auth = _NoAuth()
        self.session = session
        self._transports: dict[str, Transport] = {}
        self._lock = threading.Lock()

    def __repr__(self) -> str:
        return "Offsite()"

    def transport(self, origin: str) -> Transport:
        """The transport for one origin (`https://host:port`), over this session."""
        with self._lock:
            made = self._transports.get(origin)
            if made is None:
                if len(self._transports) >= _MAX_ORIGINS:
                    self._transports.clear()
                made = Transport(
                    origin,
                    timeout=self.timeout,
                    retry=self.retry,
                    session=self.session,
                    max_response_bytes=self.max_response_bytes,
                )
                self._transports[origin] = made
            return made

    def send(
        self,
        method: str,
        url: OffsiteUrl,
        *,
        headers: Mapping[str, str] | None = None,
        body: Body | Callable[[], Body] = None,
        timeout: Timeout | None = None,
    ) -> RawResponse:
        """One request (retried as the transport retries), following no redirect; `body`
        may be a factory, called afresh for every attempt."""
        return self.transport(url.origin).send(
            method, url.path, query=url.query, headers=headers, body=body, timeout=timeout
        )

    def get(
        self,
        url: OffsiteUrl,
        *,
        headers: Mapping[str, str] | None = None,
        timeout: Timeout | None = None,
        max_redirects: int = MAX_REDIRECTS,
    ) -> tuple[RawResponse, OffsiteUrl]:
        """A GET that follows up to `max_redirects` redirects, each to an allowed URL (see
        `offsite_url`); the answer and the URL that gave it. A redirect past the limit, to
        another scheme than http(s), or to plain http elsewhere than loopback is a
        `RedirectError`."""
        hops = 0
        while True:
            try:
                return self.send("GET", url, headers=headers, timeout=timeout), url
            except RedirectError as exc:
                if exc.location is None or hops >= max_redirects:
                    raise
                try:
                    url = offsite_url(exc.location, "location")
                except ParameterError:
                    raise exc from None
                hops += 1

    def close(self) -> None:
        self.session.close()
