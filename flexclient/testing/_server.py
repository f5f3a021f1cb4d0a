"""`FakeMarketplace`: the fake served over real HTTP on 127.0.0.1."""

from __future__ import annotations

import dataclasses
import datetime as dt
import json
import os
import uuid
from collections.abc import Iterable, Mapping
from typing import Any, Literal

from flexclient._http.limits import RateLimits
from flexclient.testing import _engine, _state
from flexclient.testing._app import FakeApp, Fault, ServerLimits
from flexclient.testing._asset_trees import AssetTrees, default_assets, read_asset_folder
from flexclient.testing._auth_api import Clients
from flexclient.testing._call import ApiFailure
from flexclient.testing._context import CONSOLE, TRANSACTION, Context
from flexclient.testing._loopback import LoopbackServer
from flexclient.testing._metering import Metered
from flexclient.testing._processes import ProcessSources, load, load_all
from flexclient.testing._stripe.browser import FakeStripe


class FakeMarketplace(Metered, LoopbackServer):
    """An in-memory stand-in for Sharetribe, served over HTTP on 127.0.0.1.

    It speaks both APIs and the Authentication API, in Transit and JSON, with the API's
    envelopes and errors; every endpoint of the endpoint table answers. Transactions run by
    the web template's default processes, or your own (`processes=`).

    >>> with FakeMarketplace(seed="demo") as fake:  # doctest: +SKIP
    ...     sdk = MarketplaceClient(fake.client_id, base_url=fake.url)
    ...     sdk.listings.query({"perPage": 5})

    Options: `port` (0 picks a free one), `seed` (`"demo"` for the demo data; see
    `flexclient.testing.DEMO_USERS`), `token_ttl` (seconds an access token lives),
    `rate_limits="dev"` (answer 429 past the buckets of the clients' `"dev"` preset, the
    official Integration SDK's; or a `RateLimits` of buckets of your own), `processes` (your
    own transaction processes, process.edn files: a list of paths, each under
    `<folder>/release-1`, or a mapping of aliases to paths), `event_retention` (how long
    events are kept: 90 days by default, as on Live; 7 days on Dev and Test; None keeps them
    all), `assets` (the asset tree the Asset Delivery API serves on the fake's port: a
    mapping of paths to JSON data or image bytes, or a folder of such files; by default the
    fake's own, a whole web template configuration that matches the demo data).

    Transactions run by their processes on a clock of the fake's own (`now`, `advance`),
    which also ages the events; `stripe` is Stripe's side of payments (the browser
    confirming a payment, as Stripe.js).

    `hostname` and `multitenant_client_secret` are what a `MultitenantClient` of the fake
    names it by (`MultitenantClient(fake.hostname, fake.multitenant_client_secret,
    base_url=fake.url)`).

    `usage` counts the credits its answers would cost on Sharetribe, as Sharetribe bills them
    (docs/credits.md): the requests to both APIs and the Authentication API by the status
    answered (injected faults too), image uploads with their image's bytes, and the bytes
    stored or served by the file storage under the endpoint that gave the URL.

    >>> with FakeMarketplace() as fake:  # doctest: +SKIP
    ...     MarketplaceClient(fake.client_id, base_url=fake.url).listings.query()
    ...     fake.usage  # a token request (1 credit) and a listing query (5)
    <UsageMeter 2 requests, 6 credits>
    """

    _what = "the fake marketplace"

    def __init__(
        self,
        *,
        port: int = 0,
        seed: Literal["demo"] | None = None,
        token_ttl: float = 3600.0,
        rate_limits: Literal["dev"] | RateLimits | None = None,
        processes: ProcessSources = (),
        event_retention: dt.timedelta | None = _state.DEFAULT_EVENT_RETENTION,
        assets: Mapping[str, Any] | str | os.PathLike[str] | None = None,
    ) -> None:
        if event_retention is not None and event_retention <= dt.timedelta(0):
            raise ValueError("event_retention is a positive time, or None to keep every event")
        self.client_id: str = str(uuid.UUID(int=0xC11E47))
        self.client_secret = "fake-client-secret"
        self.state: _state.State = _state.State(event_retention=event_retention)
        for process in load_all(processes):  # a bad file fails here, before anything starts
            self.state.processes[process.alias] = process
        self.stripe: FakeStripe = FakeStripe(self.state)
        self.clients: Clients = Clients(self.client_id, self.client_secret, token_ttl)
        # What a `MultitenantClient` names this marketplace with.
        self.hostname: str = self.clients.hostname
        self.multitenant_client_secret: str = self.clients.multitenant_client_secret
        self.app: FakeApp = FakeApp(self.state, self.clients, ServerLimits.of(rate_limits))
        self._meters = self.app.meters
        tree = (
            default_assets()
            if assets is None
            else read_asset_folder(assets)
            if isinstance(assets, (str, os.PathLike))
            else assets
        )
        self.app.assets = AssetTrees(self.client_id, tree)
        super().__init__(port)
        if seed == "demo":
            from flexclient.testing._demo_activity import seed_demo_marketplace

            seed_demo_marketplace(self.app)

    def __repr__(self) -> str:
        where = self.url if self._server is not None else "not started"
        return f"FakeMarketplace({where})"

    @property
    def assets(self) -> AssetTrees:
        """The marketplace's asset trees, served by the Asset Delivery API on the fake's own
        port (`asset_cdn_base_url=fake.url`): `fake.assets.publish({...})` makes a new version."""
        return self.app.assets

    def _wsgi(self, environ: dict[str, Any], start_response: Any) -> Iterable[bytes]:
        return self.app(environ, start_response)

    def _started(self) -> None:
        self.app.base_url = self.url

    def _clock(self) -> float:
        # Answers are dated by the marketplace's clock, as Sharetribe's are by its own.
        return self.state.time().timestamp()

    # --- test controls -------------------------------------------------------------------------

    def inject(
        self,
        path: str,
        *,
        status: int | None = None,
        body: bytes | str | dict[str, Any] = b"",
        content_type: str | None = None,
        delay: float = 0.0,
        times: int = 1,
    ) -> None:
        """Make the next `times` requests to `path` answer `status` with `body` (a dict is sent
        as JSON), after waiting `delay` seconds; with no status, only the delay applies.

        >>> fake.inject("/v1/api/listings/query", status=503, times=2)  # doctest: +SKIP
        """
        if isinstance(body, dict):
            raw, kind = json.dumps(body).encode(), content_type or "application/json"
        else:
            raw = body.encode() if isinstance(body, str) else body
            kind = content_type or "text/plain"
        self.app.add_fault(Fault(path, status, raw, kind, delay, times))

    @property
    def requests(self) -> list[tuple[str, str]]:
        """Every request received so far, as (method, path)."""
        return list(self.app.requests)

    def add_user(
        self,
        email: str,
        password: str,
        *,
        first_name: str = "Test",
        last_name: str = "User",
        display_name: str | None = None,
        **attributes: Any,
    ) -> uuid.UUID:
        """Add a user who can log in; returns the user's ID. `attributes` are more of the
        user's attributes or profile fields, by their Python names (`email_verified=True`,
        `bio="..."`, `public_data={...}`), and `profile_image_id`."""
        image_id = attributes.pop("profile_image_id", None)
        user = _state.new_user(email, first_name, last_name, display_name, **attributes)
        user.link("profileImage", "image", image_id)
        with self.state.lock:
            self.state.users[user.id] = user
            self.state.passwords[user.id] = password
        return user.id

    def expire_tokens(self) -> None:
        """Expire every access token now, as their lifetime passing would: the next call
        with one is answered 401, and the client refreshes (refresh tokens stay valid).
        Tests of refreshing need no sleep."""
        with self.state.lock:
            past = _state.now() - dt.timedelta(seconds=1)
            tokens = self.state.access_tokens
            for token, grant in tokens.items():
                tokens[token] = dataclasses.replace(grant, expires_at=past)

    def login_as_code(self, user_id: uuid.UUID) -> str:
        """An authorization code for `login_as` of that user."""
        code = uuid.uuid4().hex
        with self.state.lock:
            self.state.login_as_codes[code] = user_id
        return code

    def add_idp_token(self, idp_id: str, idp_token: str, user_id: uuid.UUID) -> None:
        """Make `login_with_idp` with this identity-provider token log in as the user."""
        with self.state.lock:
            self.state.idp_tokens[(idp_id, idp_token)] = user_id

    def add_idp_identity(
        self,
        idp_id: str,
        idp_token: str,
        *,
        email: str,
        first_name: str = "Test",
        last_name: str = "User",
        idp_user_id: str | None = None,
    ) -> None:
        """Make the identity provider `idp_id` vouch for a person not yet in the marketplace
        with this token, so that `current_user.create_with_idp` can make them a user (and
        `login_with_idp` log them in afterwards)."""
        identity = {
            "email": email.lower(),
            "first_name": first_name,
            "last_name": last_name,
            "user_id": idp_user_id or uuid.uuid4().hex,
        }
        with self.state.lock:
            self.state.idp_identities[(idp_id, idp_token)] = identity

    # --- time, transactions and email ---------------------------------------------------------

    @property
    def now(self) -> dt.datetime:
        """The marketplace's time (the real time, moved forward by `advance`)."""
        return self.state.time()

    def advance(self, by: dt.timedelta | float) -> None:
        """Move the marketplace's clock forward (a timedelta, or seconds); the delayed
        transitions that fall due are taken, in order, as the system takes them."""
        step = by if isinstance(by, dt.timedelta) else dt.timedelta(seconds=by)
        if step < dt.timedelta(0):
            raise ValueError("time only moves forward")
        with self.state.lock:
            self.state.offset += step
            _engine.run_due(self._context(TRANSACTION))

    def transition(
        self,
        transaction_id: uuid.UUID,
        transition: str,
        params: dict[str, Any] | None = None,
        *,
        by: Literal["operator", "system"] = "operator",
    ) -> None:
        """Take a transition of a transaction as the operator would in Console, or as the
        system (`by="system"`, for a delayed transition without waiting for its time).

        A transition the process does not allow raises ValueError naming the API's error
        code (`transaction-invalid-transition`, `forbidden`, ...).

        >>> fake.transition(tx_id, "transition/complete", by="system")  # doctest: +SKIP
        """
        with self.state.lock:
            tx = self.state.transactions.get(transaction_id)
            if tx is None:
                raise KeyError(f"no transaction {transaction_id}")
            ctx = self._context(CONSOLE)
            try:
                _engine.transition(ctx, tx, transition, params or {}, by=by, trusted=True)
            except ApiFailure as failure:
                raise ValueError(f"{failure.code}: {failure.title}") from None

    def load_process(self, source: str | os.PathLike[str], alias: str | None = None) -> str:
        """Run transactions by the process in a process.edn file (or in a folder's), under
        `alias` (by default `<folder>/release-1`), replacing one of the same alias; returns
        the alias. ProcessFileError if the fake cannot run it."""
        process = load(source, alias)
        with self.state.lock:
            self.state.processes[process.alias] = process
        return process.alias

    @property
    def processes(self) -> list[str]:
        """The aliases of the processes transactions can be started with."""
        with self.state.lock:
            return sorted(self.state.processes)

    def scheduled(self, transaction_id: uuid.UUID) -> list[tuple[str, dt.datetime]]:
        """The delayed transitions the system will take from the transaction's state, soonest
        first, with when each is due (the first due is the one taken)."""
        with self.state.lock:
            progress = self.state.progress[transaction_id]
            return [(name, due) for due, name in progress.scheduled]

    def lock_transaction(self, transaction_id: uuid.UUID, times: int = 1) -> None:
        """Make the next `times` transitions of the transaction fail with 409
        `transaction-locked`, as when another operation on it is under way."""
        with self.state.lock:
            self.state.progress[transaction_id].locked += times

    def ban_user(self, user_id: uuid.UUID) -> None:
        """Ban a user, as an operator does in Console: their listings' transactions cannot
        start, and their transactions cannot move on by their parties' hands
        (`transaction-provider-banned-or-deleted`, `transaction-customer-banned-or-deleted`)."""
        with self.state.lock:
            self.state.users[user_id].set(banned=True, state="banned")

    @property
    def outbox(self) -> list[_state.Email]:
        """The emails the marketplace would have sent with tokens in them (password resets,
        email verifications), oldest first: `.to`, `.kind`, `.token`, `.user_id`."""
        with self.state.lock:
            return list(self.state.outbox)

    def _context(self, source: str) -> Context:
        return Context(self.state, self.app.base_url, source)
