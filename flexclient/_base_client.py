"""What both clients share: building requests, authenticating them, reading the answers.

A call goes: parameters -> encoded request (`_endpoints.checks`, `_wire`, `_http.multipart`;
a bad parameter fails here, before anything is sent) -> `_authorized` (token from the store,
or fetched once for all threads; on a 401, refresh and retry; see `_authorized` for when a
session is replaced) -> `Transport.send` (timeouts, retries) -> `_read` (decoded envelope
with typed models, or an `ApiError`). The whole call, token requests included, ends by one
deadline.

Credentials go only to the configured origin, over HTTPS or to a loopback address: a client
with a plain-http base URL elsewhere is refused when it is made, before any connection.
"""

from __future__ import annotations

import dataclasses
import json
import logging
import re
import threading
from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping
from contextlib import AbstractContextManager
from typing import TYPE_CHECKING, Any, ClassVar, Self, Unpack
from urllib.parse import quote, urlencode, urlsplit

from flexclient._auth.tokens import MemoryTokenStore, Token, TokenStore, store_lock
from flexclient._charging import Charge, call_budget
from flexclient._endpoints.checks import check_mapping
from flexclient._endpoints.kinds import Endpoint, GroupSlot, ListQuery, RequestOptions, Response
from flexclient._errors import (
    ApiError,
    AuthError,
    FlexError,
    ParameterError,
    UnexpectedResponseError,
    error_class_for,
)
from flexclient._http.deadline import deadline_scope
from flexclient._http.multipart import multipart_factory, upload_bar
from flexclient._http.transport import (
    UPLOAD_TIMEOUT,
    Body,
    RawResponse,
    Timeout,
    Transport,
    check_deadline,
    check_timeout,
    default_deadline,
)
from flexclient._options import ClientOptions, Options
from flexclient._support.json_reading import read_json
from flexclient._support.narrow import is_json_object, is_list, is_mapping, is_str
from flexclient._support.suggest import no_such
from flexclient._wire.formats import (
    FORMATS,
    JSON,
    WireDecodeError,
    WireFormat,
    format_for_content_type,
)
from flexclient._wire.query import write_query
from flexclient._wire.values import check_text
from flexclient.credits import UsageMeter, check_credit_budget
from flexclient.models import Envelope, Resource
from flexclient.models._decoding import read_envelope
from flexclient.models._envelope import EnvelopeError

if TYPE_CHECKING:
    from flexclient._auth.info import AuthInfo

log = logging.getLogger("flexclient")

# Keys of the Authentication API's answers (and of the forms sent to it) whose values are
# secrets: cut from every body kept on an error.
_SECRET_KEYS = (
    "access_token",
    "refresh_token",
    "id_token",
    "subject_token",
    "idp_token",
    "client_secret",
    "password",
    "code",
    "code_verifier",
    "token",
)
# Patterns as text: `re` compiles them when an error body first needs them, not at every
# import of a program that may never see one, and keeps them compiled.
_SECRET_VALUE = r'("(?:' + "|".join(_SECRET_KEYS) + r')"\s*:\s*)"(?:[^"\\]|\\.)*(?:"|$)'
# The API's access tokens are JWTs: cut wherever they appear, under any key or none.
_JWT = r"eyJ[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+(?:\.[A-Za-z0-9_-]*)?"
REDACTED = "[redacted]"
# What JavaScript's encodeURIComponent leaves as it is, beside letters and digits: the official
# SDKs write their forms with it (a space is %20, not +).
_FORM_SAFE = "-_.!~*'()"


def redact_auth_body(text: str, secrets: tuple[str, ...] = ()) -> str:
    """An Authentication API body with every secret cut out: the values of secret keys (also
    in a truncated or oddly shaped body) and any of `secrets` (what was sent) it repeats.

    >>> redact_auth_body('{"access_token":"abc.def","scope":"user","refresh_token":"r-1')
    '{"access_token":"[redacted]","scope":"user","refresh_token":"[redacted]"'
    """
    try:
        data: object = read_json(text)
    except ValueError:
        data = None
    if is_json_object(data):
        if any(key in data for key in _SECRET_KEYS):
            redacted = {k: REDACTED if k in _SECRET_KEYS else v for k, v in data.items()}
            text = json.dumps(redacted, ensure_ascii=False)
    else:
        text = re.sub(_SECRET_VALUE, lambda m: f'{m.group(1)}"{REDACTED}"', text)
    for secret in secrets:
        if len(secret) >= 4:  # shorter ones would cut ordinary words
            text = text.replace(secret, REDACTED)
    return re.sub(_JWT, REDACTED, text)


def _form(form: Mapping[str, str]) -> bytes:
    """A form body, written as the official SDKs write it; a value UTF-8 cannot carry (a
    lone surrogate) is a `ParameterError` naming its key, and never repeated."""
    for key, value in form.items():
        if is_str(value):  # an untyped caller's number is written as text, as before
            check_text(value, key)
    return urlencode(form, quote_via=quote, safe=_FORM_SAFE).encode()


def api_error(raw: RawResponse, cls: type[ApiError] | None = None, reason: str = "") -> ApiError:
    """The error for an answer, with the parsed error envelope when the body has one."""
    data = None
    content_type = raw.headers.get("Content-Type")
    # Without a Content-Type, an error body may still be JSON (as an HTTP library would guess).
    fmt = format_for_content_type(content_type) if content_type else JSON
    if fmt is not None:
        try:
            decoded = fmt.decode(raw.content)
            if is_mapping(decoded) and isinstance(decoded.get("errors"), list):
                from flexclient._errors.body import ErrorEnvelope  # with the first error body

                data = ErrorEnvelope.model_validate(decoded)
        except (WireDecodeError, ValueError):
            data = None  # not the error shape: the raw body below still says what came
    err = (cls or error_class_for(raw.status))(
        raw.status,
        raw.reason,
        data=data,
        body=raw.text,
        headers=raw.headers,
        request=raw.request,
        reason=reason,
    )
    err.retries = raw.retries
    err.retry_after = raw.retry_after
    err.body_truncated = raw.truncated
    return err


_TRUSTED_EXPIRED = (
    "the trusted token was refused (expired, most often) and cannot be refreshed: make a new "
    "one from the user's session with trusted_client() (of the MarketplaceClient or "
    "MultitenantClient that holds it)"
)


def _non_empty_text(value: object) -> bool:
    # `object`: the clients check their arguments for untyped callers too.
    return isinstance(value, str) and value != ""


def _shape_mismatch(data: object, *, listed: bool) -> str:
    """What is wrong with an envelope's `data` for its endpoint, or ""."""
    if listed:
        if not is_list(data):
            return f"data: expected a list of resources, got {type(data).__name__}"
        for i, item in enumerate(data):
            if not isinstance(item, Resource):
                return f"data[{i}]: expected a resource, got {type(item).__name__}"
        return ""
    if data is not None and not isinstance(data, Resource):
        return f"data: expected a resource, got {type(data).__name__}"
    return ""


class Connection:
    """What every client holds: its options, connection pool, usage meter and token store,
    and its requests to the Authentication API (`BaseClient` and `MultitenantClient`)."""

    default_base_url: ClassVar[str]
    default_options: ClassVar[ClientOptions] = {}
    """Options a new client of the class takes unless given (not a derived client: it has
    its parent's)."""
    options: Options
    """The client's settings (see `Options`)."""

    def __init__(
        self, *, _parent: Connection | None = None, **options: Unpack[ClientOptions]
    ) -> None:
        """A new connection from `options`, or one derived from `_parent` with the `options`
        given changed, sharing its pool, meter and (on the same `base_url`) token store."""
        if "base_url" in options and options["base_url"] is None:
            options["base_url"] = self.default_base_url  # None is the default, as not given
        store = options.get("token_store")
        self._token_lock = threading.Lock()
        if _parent is None:
            self.options = Options(base_url=self.default_base_url).changed(
                {**self.default_options, **options}
            )
            self._transport = Transport.for_api(self.options, options.get("session"))
            self._meter = UsageMeter()
        else:
            self.options = _parent.options.changed(options)
            self._transport = _parent._transport.derived(self.options)
            self._meter = _parent._meter  # one bill, whichever client spends
            if store is None and self.base_url == _parent.base_url:
                store = _parent.token_store
            if store is _parent.token_store:
                self._token_lock = _parent._token_lock  # one refresh at a time for both
        self.wire_format: WireFormat = FORMATS[self.options.wire_format]
        self.token_store: TokenStore = store if store is not None else MemoryTokenStore()

    @property
    def base_url(self) -> str:
        """The API's origin, e.g. `https://flex-api.sharetribe.com`."""
        return self.options.base_url

    @property
    def version(self) -> str:
        return self.options.version

    @property
    def usage(self) -> UsageMeter:
        """The credits this client has spent, counted from the answers it received by the
        published billing rules (docs/credits.md); shared with the clients `with_options()`
        and `trusted_client()` made from it.

        >>> sdk.usage.credits, sdk.usage.requests  # doctest: +SKIP
        (Decimal('6'), 2)
        >>> sdk.usage.by_endpoint["/v1/api/listings/query"].credits  # doctest: +SKIP
        Decimal('5')
        """
        return self._meter

    def _charge(self, transfer_bytes: int = 0) -> Charge:
        return Charge(self._meter, self.options.credit_budget, transfer_bytes)

    def close(self) -> None:
        """Close the connection pool, if this client made it (never a `session=` of yours,
        nor the pool a `with_options` client shares with the client it came from)."""
        self._transport.close()

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    def _deadline(self, given: object, timeout: Timeout | None) -> float:
        """A call's total deadline: given for the call, else the client's, else as many read
        timeouts as `default_deadline` allows."""
        if given is not None:
            return check_deadline(given)
        if self.options.deadline is not None:
            return self.options.deadline
        return default_deadline(timeout if timeout is not None else self.options.timeout)

    def _store_lock(self) -> AbstractContextManager[None]:
        # Waited for no longer than the call's deadline, or the client's if there is no call.
        return store_lock(self.token_store, self._token_lock, self._deadline(None, None))

    def auth_info(self) -> AuthInfo:
        """What the stored token allows, read from the store without any request.

        >>> sdk.auth_info().is_anonymous  # doctest: +SKIP
        True
        """
        from flexclient._auth.info import AuthInfo

        return AuthInfo.of(self.token_store.get())

    def _auth_send(
        self, action: str, form: Mapping[str, str] | None, bearer: str | None = None
    ) -> tuple[RawResponse, Callable[[str], ApiError]]:
        """A request to the Authentication API, a POST of `form` (a GET without one): its
        answer, and a maker of the error for it (with a reason) whose body has every secret
        cut out."""
        # The official SDKs send both headers on every request to it, a GET's too.
        headers = {
            "Content-Type": "application/x-www-form-urlencoded",
            "Accept": "application/json",
        }
        if bearer is not None:
            headers["Authorization"] = f"Bearer {bearer}"
        with deadline_scope(self._deadline(None, None)):
            raw = self._transport.send(
                "GET" if form is None else "POST",
                f"/{self.version}/auth/{action}",
                headers=headers,
                body=None if form is None else _form(form),
                metering=self._charge(),
            )

        def error(reason: str = "") -> ApiError:
            sent = tuple(v for k, v in (form or {}).items() if k in _SECRET_KEYS)
            if bearer is not None:
                sent += (bearer,)
            content = redact_auth_body(raw.text, sent).encode()
            return self._error(dataclasses.replace(raw, content=content), AuthError, reason)

        return raw, error

    def _error(
        self, raw: RawResponse, cls: type[ApiError] | None = None, reason: str = ""
    ) -> ApiError:
        """`api_error`, and for a 404 that is not the API's own (no error body) when
        `base_url` has a path: that the path was sent before the request's, which may be why
        nothing was found."""
        error = api_error(raw, cls, reason)
        prefix = urlsplit(self.base_url).path
        if raw.status != 404 or not prefix or reason or error.data.errors:
            return error
        _, _, path = raw.request.partition(" ")
        hint = (
            f"sent to {self.base_url}{path}: base_url has the path {prefix!r}, which comes "
            "before every request's path; check that the API is there"
        )
        return api_error(raw, cls, hint)

    def _auth_json(
        self, action: str, form: Mapping[str, str] | None, bearer: str | None = None
    ) -> dict[str, object]:
        """The JSON object an Authentication API request answers (`_auth_send`)."""
        raw, error = self._auth_send(action, form, bearer)
        if not 200 <= raw.status < 300:
            raise error("")
        try:
            data: object = read_json(raw.content) if raw.content.strip() else {}
        except ValueError:
            raise error("the answer is not JSON") from None
        if not is_json_object(data):
            raise error("the answer is not a JSON object")
        return data


class BaseClient(Connection, ABC):
    """The machinery of `MarketplaceClient` and `IntegrationClient`."""

    api_segment: ClassVar[str]

    def __init__(
        self,
        client_id: str,
        client_secret: str | None = None,
        *,
        _parent: Connection | None = None,
        **options: Unpack[ClientOptions],
    ) -> None:
        """The one way a client is made: a new one from `options`, or, from `with_options`,
        one derived from `_parent` with the `options` given changed."""
        if not _non_empty_text(client_id):
            raise ParameterError("client_id", "give the client ID of your application")
        if client_secret is not None and not _non_empty_text(client_secret):
            raise ParameterError("client_secret", "must be a non-empty string")
        check_text(client_id, "client_id")
        if client_secret is not None:
            check_text(client_secret, "client_secret")
        self.client_id = client_id
        self._client_secret = client_secret
        super().__init__(_parent=_parent, **options)

    def with_options(self, **changes: Unpack[ClientOptions]) -> Self:
        """A client like this one with some options changed, sharing its connection pool and
        its token store (and so its session), and its rate limits and connection bound where
        those are unchanged.

        A new `base_url` is another marketplace: the new client then starts with an empty
        token store of its own, unless `token_store=` is given.

        >>> patient = sdk.with_options(timeout=60, max_retries=5)  # doctest: +SKIP
        """
        # The constructor's own parameters, and the session, stay the client's.
        kept = {"client_id", "client_secret", "session"} & set(changes)
        if kept:
            name = min(kept)
            raise ParameterError(name, f"with_options keeps the client's {name}; make a new client")
        return type(self)(
            self.client_id, client_secret=self._client_secret, _parent=self, **changes
        )

    if not TYPE_CHECKING:  # for type checkers, a misspelled group stays an error

        def __getattr__(self, name: str) -> Any:
            # Only for names the client does not have: say which group was meant.
            raise no_such(self, name, GroupSlot, "endpoint group")

    def __repr__(self) -> str:
        return (
            f"{type(self).__name__}(client_id={self.client_id!r}, base_url={self.base_url!r}, "
            f"wire_format={self.wire_format.name!r})"
        )

    # --- requests -------------------------------------------------------------------------

    def path_for(self, endpoint_path: str) -> str:
        """The URL path of an endpoint, e.g. `/v1/api/listings/query`."""
        return f"/{self.version}/{self.api_segment}/{endpoint_path}"

    def call(
        self,
        endpoint: Endpoint[Any, Any],
        *,
        query: Mapping[str, object] | None = None,
        body: Mapping[str, object] | None = None,
        opts: RequestOptions | None = None,
    ) -> Response[Envelope[Any]]:
        """Send one endpoint call. The endpoint methods call this."""
        check_mapping("query_params", query)
        check_mapping("body_params", body)
        check_mapping("opts", opts)
        opts = opts or {}
        query_string = write_query(query)
        headers = {"Accept": self.wire_format.content_type}
        payload: Body | Callable[[], Body]
        timeout = opts.get("timeout")
        if timeout is not None:
            timeout = check_timeout(timeout)
        budget = opts.get("credit_budget")
        budget = None if budget is None else check_credit_budget(budget)
        transfer = 0
        if endpoint.kind == "upload":
            on_progress = opts.get("on_upload_progress")
            if opts.get("progress_bar"):
                on_progress = upload_bar(on_progress)
            content_type, payload, transfer = multipart_factory(body or {}, on_progress)
            headers["Content-Type"] = content_type
            timeout = timeout if timeout is not None else UPLOAD_TIMEOUT
        elif endpoint.kind == "command":
            payload = self.wire_format.encode(body or {})
            headers["Content-Type"] = self.wire_format.content_type
        else:
            if body:
                raise ParameterError("body_params", "a query takes no body")
            payload = None
        method = "GET" if endpoint.kind == "query" else "POST"
        path = self.path_for(endpoint.path)
        charge = self._charge(transfer)

        def send(token: Token) -> RawResponse:
            return self._transport.send(
                method,
                path,
                query=query_string,
                headers={**headers, "Authorization": f"Bearer {token.access_token}"},
                body=payload,
                timeout=timeout,
                metering=charge,
            )

        deadline = self._deadline(opts.get("deadline"), timeout)
        with deadline_scope(deadline), call_budget(budget):
            raw = self._authorized(send)
        return self._read(raw, endpoint)

    def _read(
        self, raw: RawResponse, endpoint: Endpoint[Any, Any] | None = None
    ) -> Response[Envelope[Any]]:
        if not 200 <= raw.status < 300:
            raise self._error(raw)
        content_type = raw.headers.get("Content-Type", "")
        fmt = format_for_content_type(content_type)
        if fmt is None:
            raise api_error(
                raw,
                UnexpectedResponseError,
                f"Content-Type {content_type!r} is not JSON or Transit",
            )
        try:
            envelope = read_envelope(fmt, raw.content)
        except (WireDecodeError, EnvelopeError) as exc:
            raise api_error(raw, UnexpectedResponseError, str(exc)) from exc
        mismatch = endpoint and _shape_mismatch(
            envelope.data, listed=isinstance(endpoint, ListQuery)
        )
        if mismatch:
            raise api_error(raw, UnexpectedResponseError, mismatch)
        return Response(
            status=raw.status,
            status_text=raw.reason,
            headers=raw.headers,
            data=envelope,
            retries=raw.retries,
        )

    def _authorized(self, send: Callable[[Token], RawResponse]) -> RawResponse:
        """`send` with a token, and on a 401 once more with a refreshed one.

        A session is never lost silently. A failed refresh (5xx, no connection) raises and
        keeps the stored token; a 401 after a good refresh is the caller's error. Only when
        the server refuses the refresh token (`invalid_grant`) is the token replaced with a
        new default one, as the official SDKs do, and never over a token another thread or
        process stored meanwhile. A token that cannot be refreshed is replaced only if it is
        a default one (anonymous, or the Integration client's).
        """
        token = self._token()
        raw = send(token)
        if raw.status != 401:
            return raw
        if token.refresh_token is not None:
            current = self._refreshed(token)
            if current is not None:
                return send(current)
        elif not self._is_default(token):
            if "trusted:user" in token.scopes:
                # Kept, as the other tokens that cannot be refreshed are; the way on is a new one.
                raise api_error(raw, reason=_TRUSTED_EXPIRED)
            return raw
        return send(self._replace_token(token))

    # --- tokens ---------------------------------------------------------------------------

    @abstractmethod
    def _default_grant(self) -> dict[str, str]:
        """The form of the token request made when no token is stored."""

    def _is_default(self, token: Token) -> bool:
        """Whether `token` is of the kind the client fetches by itself (so replaceable)."""
        return token.scope == self._default_grant()["scope"] or token.is_anonymous

    def _token(self) -> Token:
        token = self.token_store.get()
        if token is not None:
            return token
        # Single flight: one thread (or process, with a file store) fetches; the others wait
        # here and reuse its token.
        with self._store_lock():
            token = self.token_store.get()
            if token is None:
                token = self._request_token(self._default_grant())
                self.token_store.set(token)
            return token

    def _refreshed(self, stale: Token) -> Token | None:
        """A refreshed token, or the one another thread or process stored meanwhile; None if
        the server refused the refresh token, or the session was ended meanwhile (logged out:
        the store is empty). Any other failure raises."""
        with self._store_lock():
            return self._refresh_held(stale)

    def _refresh_held(self, stale: Token) -> Token | None:
        """`_refreshed`, for a caller that holds the store's lock."""
        current = self.token_store.get()
        if current is None:
            # Logged out (or revoked) after `stale` was read: refreshing would bring the
            # session back to life, after logout() returned, with a token never revoked.
            return None
        if current != stale:
            return current
        token = self._request_refresh(stale)
        if token is not None:
            self.token_store.set(token)
        return token

    def _replace_token(self, stale: Token) -> Token:
        with self._store_lock():
            current = self.token_store.get()
            if current is not None and current != stale:
                return current
            token = self._request_token(self._default_grant())
            self.token_store.set(token)
            return token

    def _store_new(self, token: Token, *, revoke_replaced: bool = True) -> None:
        """Store a token the user asked for (login), between other clients' refreshes. A user
        session it replaces is revoked (unless not `revoke_replaced`), so that no live session
        is left behind unseen (a failure to revoke it is logged: the new session is in
        place)."""
        with self._store_lock():
            replaced = self.token_store.get()
            self.token_store.set(token)
        if (
            revoke_replaced
            and replaced is not None
            and replaced.refresh_token not in (None, token.refresh_token)
        ):
            try:
                self._revoke_token(replaced)
            except FlexError as exc:
                log.warning("could not revoke the session that login replaced: %s", exc)

    def _request_token(
        self, form: Mapping[str, str], keep: Token | None = None, action: str = "token"
    ) -> Token:
        data = self._auth_json(action, form)
        try:
            token = Token.from_wire(data)
        except ValueError as exc:
            # The body is not kept: it holds the token, however unusable.
            raise AuthError(
                200, "OK", reason=str(exc), request=f"POST /{self.version}/auth/{action}"
            ) from None
        if keep is not None and keep.is_logged_in_as:
            # A refreshed "login as" token is still one.
            token = dataclasses.replace(token, is_logged_in_as=True)
        return token

    def _revoke(self) -> None:
        """Revoke the stored refresh token and forget the token, as the official SDKs do: a
        401 is answered by refreshing and revoking again; if the server refuses the refresh
        token, the session is over anyway and the token is forgotten. Any other failure
        raises and keeps the token, so that logging out can be tried again.

        All of it holds the store's lock, so it is final: a refresh another thread or process
        had under way finishes first and its token is the one revoked, and one that comes
        after finds the store empty and brings no session back (`_refresh_held`)."""
        with deadline_scope(self._deadline(None, None)), self._store_lock():
            token = self.token_store.get()
            if token is not None and token.refresh_token is not None:
                self._revoke_token(token, locked=True)
            self.token_store.remove()

    def _revoke_token(self, token: Token, *, locked: bool = False) -> None:
        """Revoke `token`'s refresh token. A 401 (an expired access token) is answered by one
        refresh and a second revoke; with the store's lock held (`locked`), the refreshed
        token is stored first, so that a failure of the second revoke keeps a usable session.
        """
        assert token.refresh_token is not None
        form = {"token": token.refresh_token}
        raw, error = self._auth_send("revoke", form, token.access_token)
        if raw.status == 401:
            refreshed = self._refresh_held(token) if locked else self._request_refresh(token)
            if refreshed is None:
                return  # the refresh token is refused: nothing is left to revoke
            form = {"token": refreshed.refresh_token or ""}
            raw, error = self._auth_send("revoke", form, refreshed.access_token)
        if not 200 <= raw.status < 300:
            raise error("")

    def _request_refresh(self, stale: Token) -> Token | None:
        """A refreshed token for `stale` (not stored), or None if the server refused its
        refresh token. Any other failure raises."""
        assert stale.refresh_token is not None
        form = {
            "client_id": self.client_id,
            "grant_type": "refresh_token",
            "refresh_token": stale.refresh_token,
        }
        try:
            return self._request_token(form, keep=stale)
        except AuthError as exc:
            if exc.status in (400, 401) and exc.error == "invalid_grant":
                return None
            raise
