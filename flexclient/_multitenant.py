"""`MultitenantClient`: one server, many marketplaces, each known by its hostname.

The official SDK's multitenant instance (`createMultitenantInstance`) on flexclient's
machinery: the Authentication API's `multitenant/*` endpoints, authenticated by a JWT of the
hostname signed with the multitenant client secret (`_auth.jwt`), a new one for each request,
and the tokens they give kept in a token store that a `MarketplaceClient` of that marketplace
then uses for its calls.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from email.utils import parsedate_to_datetime
from typing import TYPE_CHECKING, Any, ClassVar, Unpack

from flexclient._auth import jwt
from flexclient._auth.tokens import MemoryTokenStore, Token
from flexclient._base_client import Connection
from flexclient._errors import ApiError, AuthError, ParameterError
from flexclient._http.deadline import deadline_scope
from flexclient._options import ClientOptions
from flexclient._support.frozen import Frozen
from flexclient._support.narrow import is_json_object, is_str
from flexclient._wire.values import check_text

if TYPE_CHECKING:
    from flexclient._clients import MarketplaceClient
    from flexclient._http.transport import RawResponse

_CLIENT_DATA = "client_data"
# The keys of a token answer that are stored, as the official SDK stores them: the client data
# and anything else left out, and a refresh token only from a login.
_TOKEN_KEYS = ("access_token", "token_type", "expires_in", "scope")
_STORED = {
    "multitenant/token": _TOKEN_KEYS,
    "multitenant/auth_with_idp": (*_TOKEN_KEYS, "refresh_token"),
}


@dataclass(frozen=True)
class ClientData(Frozen):
    """What the Authentication API tells a multitenant client of the marketplace its
    hostname names: `client_id`, the marketplace's client ID, and whatever else it sent
    (`extra`, keys as sent)."""

    client_id: str
    extra: dict[str, Any] = field(default_factory=dict[str, Any])

    @classmethod
    def from_wire(cls, data: object) -> ClientData:
        """Read from an answer's `client_data` object; raises ValueError if it has no
        client ID."""
        if not is_json_object(data):
            raise ValueError("the answer has no client_data object")
        client_id = data.get("client_id")
        if not isinstance(client_id, str) or not client_id:
            raise ValueError("the client_data has no client_id")
        return cls(client_id, {k: v for k, v in data.items() if k != "client_id"})


def clock_skew(date: str | None) -> int | None:
    """Seconds the clock that wrote the HTTP `Date` header `date` is ahead of this machine's
    (negative: behind), or None without a readable one."""
    if not date:
        return None
    try:
        server = parsedate_to_datetime(date)
    except (TypeError, ValueError):
        return None
    if server.tzinfo is None:
        return None  # "-0000": a date of unknown zone says nothing of the clock
    return round(server.timestamp()) - jwt.now()


def skew_hint(raw: RawResponse) -> str:
    """What to tell of a 401's `Date`: that this machine's clock is off by more than a JWT
    lives, when it is (the API then finds every JWT expired or not yet valid), else ""."""
    skew = clock_skew(raw.headers.get("Date"))
    if skew is None or abs(skew) <= jwt.LIFETIME:
        return ""
    side = "behind" if skew > 0 else "ahead of"
    return (
        f"this machine's clock is {abs(skew)} s {side} the API's (its Date: "
        f"{raw.headers['Date']}), more than the {jwt.LIFETIME} s a multitenant JWT is valid: "
        "set the clock right (NTP)"
    )


class MultitenantClient(Connection):
    """A server-side client for many marketplaces, each named by its `hostname` (as a
    platform that serves them by domain knows them), authenticated by a multitenant client
    secret instead of a client ID.

    >>> mt = MultitenantClient("shop.example.com", "MULTITENANT_SECRET")  # doctest: +SKIP
    >>> mt.client_data().client_id  # doctest: +SKIP
    >>> sdk = mt.marketplace_client()  # its calls use the token mt stored  # doctest: +SKIP

    Options (keywords) are `ClientOptions`' (`token_store`, `base_url`, `timeout`, ...);
    see docs/authentication.md. Like the official SDK's, it is for servers only: the secret
    speaks for every marketplace of the platform.
    """

    default_base_url: ClassVar[str] = "https://flex-api.sharetribe.com"

    def __init__(
        self,
        hostname: str,
        multitenant_client_secret: str,
        *,
        _parent: MultitenantClient | None = None,
        **options: Unpack[ClientOptions],
    ) -> None:
        if not is_str(hostname) or not hostname or hostname != hostname.strip():
            raise ParameterError("hostname", "give the marketplace's hostname, e.g. 'example.com'")
        if not is_str(multitenant_client_secret) or not multitenant_client_secret:
            raise ParameterError("multitenant_client_secret", "must be a non-empty string")
        # Both are signed as UTF-8: a lone surrogate (from undecodable bytes in the
        # environment, say) is refused here, by a message that does not repeat the value.
        check_text(hostname, "hostname")
        check_text(multitenant_client_secret, "multitenant_client_secret")
        self.hostname = hostname
        self._secret = multitenant_client_secret
        # The client data last read, and the access token it was read with.
        self._known: tuple[str, ClientData] | None = None
        super().__init__(_parent=_parent, **options)

    def __repr__(self) -> str:
        return f"MultitenantClient(hostname={self.hostname!r}, base_url={self.base_url!r})"

    def with_options(self, **changes: Unpack[ClientOptions]) -> MultitenantClient:
        """A client for the same hostname with some options changed, sharing this one's
        connection pool and (on the same `base_url`) token store."""
        if "session" in changes:
            raise ParameterError("session", "with_options keeps the client's session")
        return MultitenantClient(self.hostname, self._secret, _parent=self, **changes)

    def _assertion(self) -> str:
        return jwt.multitenant_assertion(self.hostname, self._secret)

    def _auth_send(
        self, action: str, form: Mapping[str, str] | None, bearer: str | None = None
    ) -> tuple[RawResponse, Callable[[str], ApiError]]:
        raw, error = super()._auth_send(action, form, bearer)
        hint = skew_hint(raw) if raw.status == 401 else ""
        if not hint:
            return raw, error

        def with_hint(reason: str = "") -> ApiError:
            # The OAuth error stays in the message, the clock's word after it.
            plain, said = error(reason), reason
            if not said and isinstance(plain, AuthError) and plain.error:
                described = plain.error_description
                said = f"{plain.error}: {described}" if described else plain.error
            return error(f"{said} ({hint})" if said else hint)

        return raw, with_hint

    def _ask_token(self, action: str, form: dict[str, str]) -> tuple[Token, dict[str, Any]]:
        """The token an Authentication API answer holds (without its client data), and the
        whole answer; the caller stores the token, holding the store's lock."""
        data = self._auth_json(action, {**form, "client_secret": self._assertion()})
        try:
            token = Token.from_wire({k: data[k] for k in _STORED[action] if k in data})
        except ValueError as exc:
            # The body is not kept: it holds the token, however unusable.
            raise AuthError(
                200, "OK", reason=str(exc), request=f"POST /{self.version}/auth/{action}"
            ) from None
        return token, data

    def _client_data(self, data: object, request: str) -> ClientData:
        """The client data of an answer to `request` ("POST multitenant/token")."""
        try:
            return ClientData.from_wire(data)
        except ValueError as exc:
            method, _, action = request.partition(" ")
            raise AuthError(
                200, "OK", reason=str(exc), request=f"{method} /{self.version}/auth/{action}"
            ) from None

    def _ask_token_and_data(self, form: dict[str, str]) -> tuple[Token, ClientData]:
        # Both read before anything is stored: an answer without client data changes nothing.
        token, data = self._ask_token("multitenant/token", form)
        return token, self._client_data(data.get(_CLIENT_DATA), "POST multitenant/token")

    def client_data(self) -> ClientData:
        """The marketplace's client data (its client ID). With no token stored, it comes with
        a new anonymous token (`multitenant_client_credentials`), which is stored; with one,
        from `multitenant/client_data`, and the token is left as it is."""
        with deadline_scope(self._deadline(None, None)):
            if self.token_store.get() is None:
                # One request for all the threads (and processes) sharing the store.
                with self._store_lock():
                    if self.token_store.get() is None:
                        form = {"grant_type": "multitenant_client_credentials"}
                        token, found = self._ask_token_and_data(form)
                        self.token_store.set(token)
                        self._known = (token.access_token, found)
                        return found
            stored = self.token_store.get()
            action = "multitenant/client_data"
            found = self._client_data(
                self._auth_json(action, None, self._assertion()), f"GET {action}"
            )
            if stored is not None:
                self._known = (stored.access_token, found)
            return found

    def _user_token(self) -> Token:
        """The stored user token, or a `ParameterError` naming `token_store`."""
        stored = self.token_store.get()
        if stored is None:
            raise ParameterError("token_store", "no access token is stored: log in first")
        if "user" not in stored.scopes:
            raise ParameterError("token_store", f"a {stored.scope!r} token cannot be exchanged")
        return stored

    def _exchange_form(self, user: Token) -> dict[str, str]:
        return {
            "scope": "trusted:user",
            "grant_type": "multitenant_token_exchange",
            "subject_token": user.access_token,
        }

    def token_exchange(self) -> ClientData:
        """Exchange the stored user token for a trusted one (`trusted:user`), which replaces
        it in the store, as the official SDK does; the marketplace's client data is returned.

        The trusted token cannot be refreshed: once it expires, the session it replaced is
        gone from this store. To keep the user's session, use `trusted_client()` instead.

        Raises `ParameterError` (naming `token_store`) before sending anything when no user
        token is stored."""
        form = self._exchange_form(self._user_token())
        with deadline_scope(self._deadline(None, None)), self._store_lock():
            token, found = self._ask_token_and_data(form)
            self.token_store.set(token)
            self._known = (token.access_token, found)
        return found

    def trusted_client(self) -> MarketplaceClient:
        """A `MarketplaceClient` of the marketplace acting with a new trusted token
        (`trusted:user`, in a memory token store of its own), for privileged transitions; the
        user's session stays in this client's store, untouched.

        A trusted token cannot be refreshed: when it expires, call `trusted_client()` again.
        The user token is exchanged as stored; if the API refuses it as expired, it is
        refreshed (and the refreshed one stored) first, as an API call would."""
        user = self._user_token()
        shop = self.marketplace_client()
        with deadline_scope(self._deadline(None, None)):
            try:
                trusted, _ = self._ask_token_and_data(self._exchange_form(user))
            except AuthError as exc:
                if exc.status != 401 or user.refresh_token is None:
                    raise
                refreshed = shop._refreshed(user)  # pyright: ignore[reportPrivateUsage]
                if refreshed is None:
                    raise  # the session is over: log in again
                trusted, _ = self._ask_token_and_data(self._exchange_form(refreshed))
        return shop.with_options(token_store=MemoryTokenStore(trusted))

    def login_with_idp(self, *, idp_id: str, idp_client_id: str, idp_token: str) -> Token:
        """Log in with an identity provider's token; the user token is stored (replacing
        whatever was, unrevoked, as the official SDK does) and returned."""
        form = {"idp_id": idp_id, "idp_client_id": idp_client_id, "idp_token": idp_token}
        for name, value in form.items():
            if not is_str(value) or not value:
                raise ParameterError(name, "must be a non-empty string")
        with deadline_scope(self._deadline(None, None)), self._store_lock():
            token, _ = self._ask_token("multitenant/auth_with_idp", form)
            self.token_store.set(token)
        return token

    def marketplace_client(self) -> MarketplaceClient:
        """A `MarketplaceClient` of the marketplace, with this client's options, connection
        pool, meter and token store: its client ID from `client_data()` (which stores an
        anonymous token if none is stored), read once for each token stored."""
        from flexclient._clients import MarketplaceClient

        known, stored = self._known, self.token_store.get()
        if known is not None and stored is not None and known[0] == stored.access_token:
            found = known[1]
        else:
            found = self.client_data()
        return MarketplaceClient(found.client_id, _parent=self)
