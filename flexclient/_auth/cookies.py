"""A token store in the cookie that web apps built on the official SDK keep the user's
session in, so that a Python backend behind the same domain acts as that user.

The official SDK's browser and Express cookie stores keep the token in a cookie named
`st-<client ID>-token` whose value is the token as JSON (the Authentication API's answer,
plus `"isLoggedInAs": true` for an operator's "login as"), percent-encoded. `CookieTokenStore`
reads that cookie from a request's cookies and writes changes back as a `TokenCookie` (name,
value, max-age, path, secure flag): to a callback at once, or to a response later
(`apply_to`). It knows no web framework; docs/web-sessions.md has recipes for Flask, Django
and Starlette/FastAPI.

Values are written with every character but letters, digits and `-_.~` percent-encoded:
what the Express store writes (`encodeURIComponent`) for any token, and what no framework
quotes. Both official stores read it, as flexclient reads what they write (tests run them).
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import email.utils
import json
import logging
import re
import threading
from collections.abc import Callable, Mapping
from contextlib import AbstractContextManager
from dataclasses import dataclass
from typing import Any, Literal, Protocol
from urllib.parse import quote, unquote

from flexclient._auth.tokens import Token
from flexclient._errors import ParameterError
from flexclient._support.json_reading import read_json
from flexclient._support.narrow import is_json_object, is_mapping, is_str, is_whole

log = logging.getLogger("flexclient")

COOKIE_MAX_AGE = 180 * 24 * 60 * 60
"""Seconds the cookie lives: 180 days, as the official SDK's Express cookie store sets it
(its browser store sets 30 days)."""

# A cookie name is an HTTP token (RFC 6265, section 4.1.1).
_TOKEN_CHARS = re.compile(r"[!#$%&'*+\-.^_`|~0-9A-Za-z]+")
# Browsers keep at most about 4096 bytes of a cookie, name and attributes included.
_BROWSER_LIMIT = 4096
_WIRE_ORDER = ("access_token", "scope", "token_type", "expires_in", "refresh_token")


def _token_chars(value: object) -> bool:
    # `object`: the arguments this checks are checked for untyped callers too.
    return isinstance(value, str) and _TOKEN_CHARS.fullmatch(value) is not None


def cookie_name(client_id: str) -> str:
    """The cookie the official SDK's cookie stores use for a client ID.

    >>> cookie_name("08ec69f6-d37e-414d-83eb-324e94afddf0")
    'st-08ec69f6-d37e-414d-83eb-324e94afddf0-token'
    """
    if not _token_chars(client_id):
        raise ParameterError("client_id", "must be a client ID that can name a cookie")
    return f"st-{client_id}-token"


@dataclass(frozen=True)
class TokenCookie:
    """A change of the token cookie, to write to the response: `name`, `value`, and the
    attributes. When the token was removed, `value` is empty and `max_age` 0.

    Frameworks take it as `response.set_cookie(c.name, c.value, max_age=c.max_age,
    path=c.path, domain=c.domain, secure=c.secure, httponly=False, samesite=c.same_site)`
    (Flask, Django and Starlette alike; `CookieTokenStore.apply_to` does that), or as a
    whole `Set-Cookie` header value: `header()`.

    The cookie is never HttpOnly: the official SDK in the browser reads it.
    """

    name: str
    value: str
    max_age: int
    secure: bool = False
    path: str = "/"
    domain: str | None = None
    same_site: Literal["Lax", "Strict", "None"] | None = None

    def __repr__(self) -> str:
        # The value is the token: never shown.
        state = "removed" if self.removed else "set"
        return f"TokenCookie({self.name!r}, {state}, max_age={self.max_age}, secure={self.secure})"

    @property
    def removed(self) -> bool:
        return self.max_age == 0

    def header(self, now: dt.datetime | None = None) -> str:
        """The `Set-Cookie` header value, with `Expires` as well as `Max-Age` (as Express
        writes them)."""
        when = now or dt.datetime.now(dt.UTC)
        expires = (
            dt.datetime(1970, 1, 1, tzinfo=dt.UTC)
            if self.removed
            else when + dt.timedelta(seconds=self.max_age)
        )
        parts = [
            f"{self.name}={self.value}",
            f"Max-Age={self.max_age}",
            f"Path={self.path}",
            f"Expires={email.utils.format_datetime(expires, usegmt=True)}",
        ]
        if self.domain:
            parts.append(f"Domain={self.domain}")
        if self.secure:
            parts.append("Secure")
        if self.same_site:
            parts.append(f"SameSite={self.same_site}")
        return "; ".join(parts)


class CookieResponse(Protocol):
    """A response with the `set_cookie` of Flask (Werkzeug), Django and Starlette."""

    def set_cookie(self, key: str, value: str = ..., *args: Any, **kwargs: Any) -> Any: ...


def encode_token(token: Token) -> str:
    """A token as the cookie's value: the SDK's JSON, percent-encoded."""
    wire = token.to_wire()
    data: dict[str, Any] = {k: wire[k] for k in _WIRE_ORDER if k in wire}
    data.update((k, v) for k, v in wire.items() if k not in data and k != "is_logged_in_as")
    if token.is_logged_in_as:
        data["isLoggedInAs"] = True
    text = json.dumps(data, ensure_ascii=False, separators=(",", ":"))
    return quote(text, safe="")


def decode_token(value: str) -> Token | None:
    """The token in a cookie value as either official store writes it (percent-encoded
    JSON, perhaps in double quotes), or None, with a warning, if it holds none (the value
    itself is never logged: it may be half a token)."""
    text = value.strip()
    if len(text) >= 2 and text[0] == text[-1] == '"':
        text = text[1:-1]
    if not text:
        return None
    try:
        data: object = read_json(unquote(text, errors="strict"))
        if not is_json_object(data):
            raise ValueError("not a JSON object")
        logged_in_as = data.pop("isLoggedInAs", None) is True
        logged_in_as = data.pop("is_logged_in_as", None) is True or logged_in_as
        token = Token.from_wire(data)
    except ValueError as exc:
        reason = "not UTF-8" if isinstance(exc, UnicodeDecodeError) else type(exc).__name__
        log.warning("ignoring a token cookie that holds no token (%s)", reason)
        return None
    if logged_in_as:
        token = dataclasses.replace(token, is_logged_in_as=True)
    return token


_UNREAD: Any = object()


class CookieTokenStore:
    """Keeps the token in the official SDK's session cookie, `st-<client ID>-token`.

    Make one per request, from the request's cookies, and give it to a client for that
    request (`base.with_options(token_store=store)` shares the base client's connections):

    >>> store = CookieTokenStore(CLIENT_ID, request.cookies, secure=True)  # doctest: +SKIP
    >>> sdk = base.with_options(token_store=store)  # doctest: +SKIP
    >>> sdk.current_user.show()  # doctest: +SKIP
    >>> store.apply_to(response)  # doctest: +SKIP

    A token set or removed (a login, a refresh, a logout) is written as a `TokenCookie`: to
    `set_cookie` at once, if given, and kept in `changes` for `apply_to(response)`.
    `secure` sets the Secure flag (use it over HTTPS), `max_age` the seconds the cookie lives
    (180 days, as the SDK's Express store); `path`, `domain` and `same_site` are written as
    given. A cookie that holds no token counts as none.
    """

    def __init__(
        self,
        client_id: str,
        cookies: Mapping[str, str] | None = None,
        set_cookie: Callable[[TokenCookie], object] | None = None,
        *,
        secure: bool = False,
        max_age: int = COOKIE_MAX_AGE,
        path: str = "/",
        domain: str | None = None,
        same_site: Literal["Lax", "Strict", "None"] | None = None,
    ) -> None:
        self.name: str = cookie_name(client_id)
        if cookies is not None and not is_mapping(cookies):
            raise ParameterError("cookies", "give the request's cookies as a mapping")
        if not is_whole(max_age, 1):
            raise ParameterError("max_age", "must be a whole number of seconds, 1 or more")
        if not is_str(path) or not path.startswith("/") or ";" in path:
            raise ParameterError("path", "must be a path starting with '/', without ';'")
        if domain is not None and not _token_chars(domain):
            raise ParameterError("domain", "must be a domain name")
        if same_site not in (None, "Lax", "Strict", "None"):
            raise ParameterError("same_site", "must be 'Lax', 'Strict', 'None' or None")
        if same_site == "None" and not secure:
            raise ParameterError(
                "same_site", "browsers drop SameSite=None cookies without secure=True"
            )
        self._cookies: Mapping[str, str] = cookies if cookies is not None else {}
        self._set_cookie = set_cookie
        self.secure: bool = bool(secure)
        self.max_age = max_age
        self.path = path
        self.domain = domain
        self.same_site: Literal["Lax", "Strict", "None"] | None = same_site
        self.changes: list[TokenCookie] = []
        """Every change written, in order; the last one is what the response needs."""
        self._token: Token | None = _UNREAD
        self._lock = threading.Lock()
        self._refresh_lock = threading.Lock()

    def __repr__(self) -> str:
        return f"CookieTokenStore({self.name!r}, changes={len(self.changes)})"

    def lock(self) -> AbstractContextManager[object]:
        """Held by clients sharing this store while one fetches or refreshes its token."""
        return self._refresh_lock

    def get(self) -> Token | None:
        with self._lock:
            if self._token is _UNREAD:
                raw = self._cookies.get(self.name)
                self._token = decode_token(raw) if isinstance(raw, str) else None
            return self._token

    def set(self, token: Token) -> None:
        value = encode_token(token)
        if len(self.name) + len(value) > _BROWSER_LIMIT - 100:
            log.warning(
                "the token cookie is %d bytes: browsers may not keep a cookie this large",
                len(self.name) + len(value),
            )
        self._write(token, value, self.max_age)

    def remove(self) -> None:
        self._write(None, "", 0)

    def _write(self, token: Token | None, value: str, max_age: int) -> None:
        cookie = TokenCookie(
            self.name, value, max_age, self.secure, self.path, self.domain, self.same_site
        )
        with self._lock:
            self._token = token
            self.changes.append(cookie)
        if self._set_cookie is not None:
            self._set_cookie(cookie)

    @property
    def pending(self) -> TokenCookie | None:
        """The last change, which a response should carry; None if there was none."""
        with self._lock:
            return self.changes[-1] if self.changes else None

    def apply_to(self, response: CookieResponse) -> None:
        """Write the last change, if any, to a response of Flask, Django or Starlette (or
        anything with their `set_cookie(key, value, max_age=, path=, domain=, secure=,
        httponly=, samesite=)`)."""
        cookie = self.pending
        if cookie is not None:
            response.set_cookie(
                cookie.name,
                cookie.value,
                max_age=cookie.max_age,
                path=cookie.path,
                domain=cookie.domain,
                secure=cookie.secure,
                httponly=False,
                samesite=cookie.same_site,
            )
