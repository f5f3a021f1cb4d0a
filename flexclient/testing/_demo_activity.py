"""The demo's activity (`seed="demo"`): transactions in several states, with their messages and
reviews, and a Stripe account for every demo user, so that every demo listing can be booked.

They are made as the marketplace's users and operator would make them: through the fake's own
API, called in process before it serves, on the fake's clock run from two months back to now.
So the process engine checks every step, and each change leaves its event. The IDs come from a
seeded sequence and the times from the moment the fake starts, so the data is the same on
every run, its times counted back from then: a booking that ended four days ago is always
awaiting its provider's review, an accepted one always ten days ahead.
"""

from __future__ import annotations

import datetime as dt
import random
import secrets
import uuid
from collections.abc import Callable, Generator, Iterator
from contextlib import contextmanager
from typing import Any

from werkzeug.test import EnvironBuilder
from werkzeug.wrappers import Request

from flexclient._wire.formats import TRANSIT
from flexclient._wire.value_types import Money
from flexclient.models import ListingAttributes
from flexclient.testing import _state as s
from flexclient.testing._app import FakeApp
from flexclient.testing._context import TRANSACTION, Context
from flexclient.testing._engine import run_due
from flexclient.testing._render import Api
from flexclient.testing._routes import SEGMENTS
from flexclient.testing._seed import DEMO_USERS, LISTING_TYPES, seed_demo
from flexclient.testing._stock import quantity
from flexclient.testing._stripe.browser import FakeStripe

Listing = s.Record[ListingAttributes]
HISTORY = dt.timedelta(days=60)  # how far back the demo's activity begins
COMMISSION_PERCENT = 10
# Where each demo user's Stripe account is, in the order of DEMO_USERS.
STRIPE_COUNTRIES = ("FI", "GB", "FR", "US")
BOOKING = "default-booking/release-1"
PURCHASE = "default-purchase/release-1"
INQUIRY = "default-inquiry/release-1"


def seed_demo_marketplace(app: FakeApp) -> None:
    """The demo data: users and listings (`seed_demo`), then their activity."""
    everything = s.State()
    seed_demo(everything)
    state = app.state
    # The activity runs on its users and the few listings it needs: every transition copies
    # the marketplace (to undo it if it fails), and 250 listings make that slow.
    _copy_users(everything, state)
    demo = _Activity(app, everything)
    for listing in demo.listings.values():
        _copy_listing(everything, state, listing)
    with demo.running():
        demo.run()
    _merge(everything, state)


def _copy_users(source: s.State, target: s.State) -> None:
    target.users.update(source.users)
    target.passwords.update(source.passwords)
    for user in source.users.values():
        avatar = user.one("profileImage")
        if avatar is not None:
            target.images[avatar] = source.images[avatar]
            target.blobs[avatar] = source.blobs[avatar]


def _copy_listing(source: s.State, target: s.State, listing: Listing) -> None:
    target.listings[listing.id] = listing
    for image in listing.many("images"):
        target.images[image] = source.images[image]
        target.blobs[image] = source.blobs[image]
    stock = source.stocks.get(s.stock_id(listing.id))
    if stock is not None:
        target.stocks[stock.id] = stock


def _merge(everything: s.State, state: s.State) -> None:
    """The rest of the users' listings added to `state`, in the order they were made; the
    records the activity changed stay as it left them."""
    for name in ("listings", "images", "stocks", "blobs"):
        changed: dict[uuid.UUID, Any] = getattr(state, name)
        merged = {
            rid: changed.get(rid, record) for rid, record in getattr(everything, name).items()
        }
        merged.update((rid, record) for rid, record in changed.items() if rid not in merged)
        setattr(state, name, merged)


def _items(code: str, price: Money, quantity: int) -> list[dict[str, Any]]:
    """Line items as the web template's server prices an order: the days or items, and the
    provider's commission taken from the provider's share."""
    total = Money(price.amount * quantity, price.currency)
    return [
        {
            "code": code,
            "unitPrice": price,
            "quantity": quantity,
            "includeFor": ["customer", "provider"],
        },
        {
            "code": "line-item/provider-commission",
            "unitPrice": total,
            "percentage": -COMMISSION_PERCENT,
            "includeFor": ["provider"],
        },
    ]


class _Activity:
    """The demo's story, told through the fake's API on the fake's clock."""

    def __init__(self, app: FakeApp, everything: s.State) -> None:
        self.app, self.state = app, app.state
        self.stripe = FakeStripe(app.state)
        self.start = s.now()  # the fake's "now" once the story is told
        self.midnight = self.start.replace(hour=0, minute=0, second=0, microsecond=0)
        self.tokens: dict[tuple[uuid.UUID | None, str], str] = {}
        users = [everything.user_by_email(email) for email, *_ in DEMO_USERS]
        self.aino, self.ben, self.chloe, self.dev = (u.id for u in users if u is not None)
        # The listings the story needs: early ones (the newest of each author stay free for
        # whoever explores), each used once, with stock where something is bought.
        self.listings: dict[str, Listing] = {}
        taken: set[uuid.UUID] = set()
        rent, sell, ask = LISTING_TYPES  # each listing is used by its type's process
        wanted = {
            "aino-rents-bens": (self.ben, rent),
            "chloe-rents-devs": (self.dev, rent),
            "dev-rents-ainos": (self.aino, rent),
            "ben-buys-chloes": (self.chloe, sell),
            "dev-rents-chloes": (self.chloe, rent),
            "chloe-rents-bens": (self.ben, rent),
            "ben-rents-ainos": (self.aino, rent),
            "aino-rents-devs": (self.dev, rent),
            "dev-buys-bens": (self.ben, sell),
            "aino-asks-chloe": (self.chloe, rent),
            "ben-asks-dev": (self.dev, ask),
        }
        for name, (author, listing_type) in wanted.items():
            found = next(
                lst
                for lst in everything.listings.values()
                if lst.id not in taken
                and lst.one("author") == author
                and (lst.attributes.public_data or {}).get("listingType") == listing_type
                and (listing_type != sell or (quantity(everything, lst.id) or 0) >= 1)
            )
            taken.add(found.id)
            self.listings[name] = found

    # --- the clock and the API -------------------------------------------------------------

    @contextmanager
    def running(self) -> Generator[None]:
        """The fake's clock at the start of the story, its IDs from a seeded sequence, no
        rate limits; afterwards the clock runs from now on and the story's tokens are gone."""
        rng = random.Random(2031)
        limits, self.app.limits = self.app.limits, None
        self.state.pinned = self.start - HISTORY
        try:
            with s.ids_from(lambda: uuid.UUID(int=rng.getrandbits(128), version=4)):
                yield
                self.wait_until(self.start)
        finally:
            self.state.pinned = None
            self.app.limits = limits
            for token in self.tokens.values():
                self.state.access_tokens.pop(token, None)

    def days_ago(self, days: float, hour: int = 10) -> dt.datetime:
        """A time of the story: `days` before the fake starts, at `hour` o'clock (UTC)."""
        return self.midnight - dt.timedelta(days=days) + dt.timedelta(hours=hour)

    def day(self, days: int) -> dt.datetime:
        """Midnight (UTC) `days` from the day the fake starts (negative: before)."""
        return self.midnight + dt.timedelta(days=days)

    def wait_until(self, when: dt.datetime) -> None:
        """Move the clock to `when`, the delayed transitions taken at the times they fall
        due."""
        self.state.pinned = when
        run_due(Context(self.state, self.app.base_url, TRANSACTION))

    def token(self, user: uuid.UUID | None, scope: str) -> str:
        key = (user, scope)
        if key not in self.tokens:
            token = self.tokens[key] = f"demo-{secrets.token_urlsafe(16)}"
            expires = s.now() + dt.timedelta(hours=1)
            self.state.access_tokens[token] = s.Grant(
                scope, user, expires, self.app.clients.client_id
            )
        return self.tokens[key]

    def call(
        self, user: uuid.UUID | None, path: str, body: dict[str, Any], *, trusted: bool = False
    ) -> dict[str, Any]:
        """A command of the Marketplace API as `user` (None: the Integration API, as the
        operator); its answer's body."""
        api: Api = "integration" if user is None else "marketplace"
        scope = "integ" if user is None else "trusted:user" if trusted else "user"
        environ = EnvironBuilder(
            method="POST",
            path=f"/v1/{SEGMENTS[api]}/{path}",
            data=TRANSIT.encode(body),
            headers=[
                ("Authorization", f"Bearer {self.token(user, scope)}"),
                ("Content-Type", "application/transit+json"),
                ("Accept", "application/transit+json"),
            ],
        ).get_environ()
        return self.app.api_call(Request(environ), api, path)

    # --- what the users do ---------------------------------------------------------------------

    def book(
        self,
        customer: uuid.UUID,
        listing: str,
        start: dt.datetime,
        days: int,
        *,
        pay: bool = True,
    ) -> uuid.UUID:
        """`customer` requests a booking of `days` days from `start` (and pays for it)."""
        found = self.listings[listing]
        price = found.attributes.price
        assert price is not None
        params = {
            "listingId": found.id,
            "bookingStart": start,
            "bookingEnd": start + dt.timedelta(days=days),
            "lineItems": _items("line-item/day", price, days),
        }
        return self._start(customer, BOOKING, "transition/request-payment", params, pay=pay)

    def buy(self, customer: uuid.UUID, listing: str) -> uuid.UUID:
        """`customer` buys one of the listing's items, to be shipped, and pays."""
        found = self.listings[listing]
        price = found.attributes.price
        assert price is not None
        params = {
            "listingId": found.id,
            "stockReservationQuantity": 1,
            "lineItems": _items("line-item/item", price, 1),
            "protectedData": {"deliveryMethod": "shipping"},
        }
        return self._start(customer, PURCHASE, "transition/request-payment", params, pay=True)

    def ask(self, customer: uuid.UUID, listing: str, process: str, transition: str) -> uuid.UUID:
        """`customer` starts an inquiry about the listing."""
        params = {"listingId": self.listings[listing].id}
        return self._start(customer, process, transition, params, pay=False)

    def _start(
        self, customer: uuid.UUID, alias: str, transition: str, params: dict[str, Any], *, pay: bool
    ) -> uuid.UUID:
        body = {"processAlias": alias, "transition": transition, "params": params}
        answer = self.call(customer, "transactions/initiate", body, trusted=True)
        tx_id: uuid.UUID = answer["data"]["id"]
        if pay:
            # The customer's browser confirms the card payment with Stripe.js, then tells the
            # marketplace.
            self.stripe.confirm_payment_intent(tx_id)
            self.take(customer, tx_id, "transition/confirm-payment")
        return tx_id

    def take(
        self,
        user: uuid.UUID | None,
        tx_id: uuid.UUID,
        transition: str,
        params: dict[str, Any] | None = None,
    ) -> None:
        """`user` (None: the operator) takes a transition of the transaction."""
        body = {"id": tx_id, "transition": transition, "params": params or {}}
        self.call(user, "transactions/transition", body)

    def say(self, user: uuid.UUID, tx_id: uuid.UUID, content: str) -> None:
        self.call(user, "messages/send", {"transactionId": tx_id, "content": content})

    def review(
        self, user: uuid.UUID, tx_id: uuid.UUID, transition: str, rating: int, content: str
    ) -> None:
        params = {"reviewRating": rating, "reviewContent": content}
        self.take(user, tx_id, transition, params)

    # --- the story -----------------------------------------------------------------------------

    def run(self) -> None:
        """Two months of the marketplace, oldest first: each step at its time."""
        for index, user in enumerate((self.aino, self.ben, self.chloe, self.dev)):
            account = {"country": STRIPE_COUNTRIES[index], "accountToken": "ct_demo",
                       "bankAccountToken": "btok_demo"}  # fmt: skip
            self.call(user, "stripe_account/create", account)
        for when, step in sorted(self._steps(), key=lambda pair: pair[0]):
            self.wait_until(when)
            step()

    def _steps(self) -> Iterator[tuple[dt.datetime, Callable[[], object]]]:
        yield from self._reviewed_booking()
        yield from self._declined_booking()
        yield from self._expired_payment()
        yield from self._reviewed_purchase()
        yield from self._cancelled_booking()
        yield from self._delivered_booking()
        yield from self._accepted_booking()
        yield from self._booking_to_answer()
        yield from self._purchase_to_ship()
        yield from self._inquiries()

    def _reviewed_booking(self) -> Iterator[tuple[dt.datetime, Callable[[], object]]]:
        """Aino rented Ben's bike for a long weekend; both reviewed."""
        tx: list[uuid.UUID] = []

        def request() -> None:
            tx.append(self.book(self.aino, "aino-rents-bens", self.day(-40), 3))
            self.say(self.aino, tx[0], "Hi Ben! Could I pick the bike up on Friday morning?")

        yield self.days_ago(45), request
        yield self.days_ago(44, 9), lambda: self.take(self.ben, tx[0], "transition/accept")
        yield self.days_ago(44, 9), lambda: self.say(self.ben, tx[0], "Sure, any time after 8.")
        # Completed by the marketplace two days after the booking ends, then reviewed.
        yield self.days_ago(34), lambda: self.review(
            self.aino, tx[0], "transition/review-1-by-customer", 5,
            "A great bike and a friendly owner. The saddle bag was a nice touch.",
        )  # fmt: skip
        yield self.days_ago(33), lambda: self.review(
            self.ben, tx[0], "transition/review-2-by-provider", 5,
            "Aino brought the bike back clean and on time.",
        )  # fmt: skip

    def _declined_booking(self) -> Iterator[tuple[dt.datetime, Callable[[], object]]]:
        """Dev could not take Chloé's booking, and said so."""
        tx: list[uuid.UUID] = []
        yield (
            self.days_ago(30),
            lambda: tx.append(self.book(self.chloe, "chloe-rents-devs", self.day(-25), 2)),
        )

        def decline() -> None:
            self.take(self.dev, tx[0], "transition/decline")
            self.say(self.dev, tx[0], "Sorry Chloé, the bike is in for repairs that week.")

        yield self.days_ago(29, 18), decline

    def _expired_payment(self) -> Iterator[tuple[dt.datetime, Callable[[], object]]]:
        """Dev started a booking of Aino's bike and never paid: it expired 15 minutes later."""
        yield (
            self.days_ago(25, 21),
            lambda: self.book(self.dev, "dev-rents-ainos", self.day(-20), 1, pay=False),
        )

    def _reviewed_purchase(self) -> Iterator[tuple[dt.datetime, Callable[[], object]]]:
        """Ben bought one of Chloé's bikes; it was shipped and received, and Ben reviewed it.
        Chloé never did: the review period ended and Ben's review was published."""
        tx: list[uuid.UUID] = []
        yield self.days_ago(20), lambda: tx.append(self.buy(self.ben, "ben-buys-chloes"))
        yield (
            self.days_ago(19, 15),
            lambda: self.take(self.chloe, tx[0], "transition/mark-delivered"),
        )
        yield self.days_ago(17), lambda: self.take(self.ben, tx[0], "transition/mark-received")
        yield self.days_ago(16), lambda: self.review(
            self.ben, tx[0], "transition/review-1-by-customer", 4,
            "Arrived well packed. One brake needed adjusting.",
        )  # fmt: skip

    def _cancelled_booking(self) -> Iterator[tuple[dt.datetime, Callable[[], object]]]:
        """Chloé accepted Dev's booking; the operator cancelled it on Dev's request."""
        tx: list[uuid.UUID] = []
        yield (
            self.days_ago(14),
            lambda: tx.append(self.book(self.dev, "dev-rents-chloes", self.day(5), 2)),
        )
        yield self.days_ago(13), lambda: self.take(self.chloe, tx[0], "transition/accept")
        yield self.days_ago(10), lambda: self.say(self.dev, tx[0], "My trip was cancelled, sorry!")
        yield self.days_ago(10, 14), lambda: self.take(None, tx[0], "transition/cancel")

    def _delivered_booking(self) -> Iterator[tuple[dt.datetime, Callable[[], object]]]:
        """Chloé's booking of Ben's bike ended four days ago; she has reviewed, Ben not yet."""
        tx: list[uuid.UUID] = []
        yield (
            self.days_ago(12),
            lambda: tx.append(self.book(self.chloe, "chloe-rents-bens", self.day(-6), 2)),
        )
        yield self.days_ago(11), lambda: self.take(self.ben, tx[0], "transition/accept")
        yield self.days_ago(1), lambda: self.review(
            self.chloe, tx[0], "transition/review-1-by-customer", 5,
            "Smooth ride along the coast. Would rent again.",
        )  # fmt: skip

    def _accepted_booking(self) -> Iterator[tuple[dt.datetime, Callable[[], object]]]:
        """Ben booked Aino's bike for ten days from now; Aino accepted."""
        tx: list[uuid.UUID] = []

        def request() -> None:
            tx.append(self.book(self.ben, "ben-rents-ainos", self.day(10), 2))
            self.say(self.ben, tx[0], "Does it have a bell? Asking for my kids.")

        yield self.days_ago(5), request

        def accept() -> None:
            self.take(self.aino, tx[0], "transition/accept")
            self.say(self.aino, tx[0], "It does! See you then.")

        yield self.days_ago(4), accept

    def _booking_to_answer(self) -> Iterator[tuple[dt.datetime, Callable[[], object]]]:
        """Aino asked yesterday for Dev's bike in three weeks: Dev has yet to accept."""
        yield self.days_ago(1, 16), lambda: self.book(self.aino, "aino-rents-devs", self.day(20), 1)

    def _purchase_to_ship(self) -> Iterator[tuple[dt.datetime, Callable[[], object]]]:
        """Dev bought one of Ben's bikes two days ago: Ben has yet to ship it."""
        yield self.days_ago(2), lambda: self.buy(self.dev, "dev-buys-bens")

    def _inquiries(self) -> Iterator[tuple[dt.datetime, Callable[[], object]]]:
        """Questions before booking: Aino's to Chloé (answered), Ben's to Dev (last night)."""
        tx: list[uuid.UUID] = []

        def ask_chloe() -> None:
            tx.append(self.ask(self.aino, "aino-asks-chloe", BOOKING, "transition/inquire"))
            self.say(self.aino, tx[0], "Is this one free in early summer?")

        yield self.days_ago(3), ask_chloe
        yield (
            self.days_ago(3, 12),
            lambda: self.say(self.chloe, tx[0], "Most of June, yes. Just book the days you want."),
        )

        def ask_dev() -> None:
            asked = self.ask(
                self.ben, "ben-asks-dev", INQUIRY, "transition/inquire-without-payment"
            )
            self.say(self.ben, asked, "Does it come with a helmet?")

        yield self.days_ago(0, 0), ask_dev
