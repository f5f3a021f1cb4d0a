"""The fake marketplace's data.

Every resource is a `Record`: its ID and type, its attributes as an instance of the attribute
model of its type (`flexclient.models`), and its relationships as the references the API
sends. What the API never shows (passwords, an image's bytes) lives beside the records.
Everything is in memory behind one lock; handlers hold it for the whole request, so the fake
behaves as if requests ran one after another.
"""

from __future__ import annotations

import copy
import datetime as dt
import secrets
import threading
import uuid
from collections.abc import Callable, Generator, Iterable, Mapping
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Generic, TypeVar

from pydantic import BaseModel

from flexclient.models import (
    AvailabilityExceptionAttributes,
    CurrentUserAttributes,
    EventAttributes,
    ImageAttributes,
    ListingAttributes,
    MarketplaceAttributes,
    StockAdjustmentAttributes,
    StockAttributes,
    TransactionAttributes,
)
from flexclient.testing._schema import changed, stored

if TYPE_CHECKING:
    from flexclient.testing._processes import Process
    from flexclient.testing._stripe.payment_intents import PaymentIntent

A = TypeVar("A", bound=BaseModel)
MARKETPLACE_ID = uuid.UUID(int=1)
Ref = dict[str, Any]
Link = Ref | list[Ref] | None


DEFAULT_EVENT_RETENTION = dt.timedelta(days=90)
# Where the IDs of new records come from: random, or a seeded sequence while the demo data is
# made (`ids_from`), so that it is the same on every run.
_ID_SOURCE: ContextVar[Callable[[], uuid.UUID]] = ContextVar("id_source", default=uuid.uuid4)


def new_id() -> uuid.UUID:
    """The ID of a new resource."""
    return _ID_SOURCE.get()()


@contextmanager
def ids_from(source: Callable[[], uuid.UUID]) -> Generator[None]:
    """New records made in this block (in this thread) take their IDs from `source`."""
    token = _ID_SOURCE.set(source)
    try:
        yield
    finally:
        _ID_SOURCE.reset(token)


def now() -> dt.datetime:
    # The API's timestamps have millisecond precision.
    t = dt.datetime.now(dt.UTC)
    return t.replace(microsecond=t.microsecond // 1000 * 1000)


def ref(rtype: str, rid: uuid.UUID) -> Ref:
    return {"id": rid, "type": rtype}


@dataclass(eq=False)
class Record(Generic[A]):
    """One stored resource: `type` is the type it is stored as (`listing`, also when its
    author sees it as an `ownListing`)."""

    id: uuid.UUID
    type: str
    attributes: A
    relationships: dict[str, Link] = field(default_factory=lambda: {})

    def one(self, name: str) -> uuid.UUID | None:
        """The ID a to-one relationship refers to, or None."""
        link = self.relationships.get(name)
        return link["id"] if isinstance(link, dict) else None

    def many(self, name: str) -> list[uuid.UUID]:
        """The IDs a to-many relationship refers to, in order."""
        link = self.relationships.get(name)
        return [r["id"] for r in link] if isinstance(link, list) else []

    def link(self, name: str, rtype: str, rid: uuid.UUID | None) -> None:
        self.relationships[name] = ref(rtype, rid) if rid is not None else None

    def link_many(self, name: str, rtype: str, ids: Iterable[uuid.UUID]) -> None:
        self.relationships[name] = [ref(rtype, i) for i in ids]

    def set(self, **values: Any) -> None:
        """Change attributes (by field name); the result is validated against the model."""
        self.attributes = changed(self.attributes, values)


def new(
    rtype: str,
    model: type[A],
    values: Mapping[str, Any] | None = None,
    rid: uuid.UUID | None = None,
) -> Record[A]:
    """A record of a new resource; `values` by field name over blank attributes."""
    return Record(rid or new_id(), rtype, stored(model, values))


def stock_id(listing_id: uuid.UUID) -> uuid.UUID:
    """A listing's stock is a resource of its own, one per listing."""
    return uuid.uuid5(listing_id, "stock")


def abbreviation(first_name: str | None, last_name: str | None) -> str:
    return ((first_name or "")[:1] + (last_name or "")[:1]).upper()


def default_display_name(first_name: str | None, last_name: str | None) -> str:
    """The name shown of a user who has set no display name: the first name and the last
    name's initial."""
    return f"{first_name or ''} {(last_name or '')[:1]}"


def new_user(
    email: str,
    first_name: str,
    last_name: str,
    display_name: str | None = None,
    **values: Any,
) -> Record[CurrentUserAttributes]:
    """A user, as signing up makes one; `values` are more attributes by field name, and
    profile fields (`bio`, `public_data`, ...) go into the profile."""
    profile_fields = CurrentUserAttributes.model_fields["profile"].annotation
    assert isinstance(profile_fields, type) and issubclass(profile_fields, BaseModel)
    profile = {k: values.pop(k) for k in list(values) if k in profile_fields.model_fields}
    profile.update(
        first_name=first_name,
        last_name=last_name,
        display_name=display_name or default_display_name(first_name, last_name),
        abbreviated_name=abbreviation(first_name, last_name),
    )
    attributes = {
        "email": email.lower(),
        "created_at": now(),
        "state": "active",
        "permissions": {
            "postListings": "permission/allow",
            "initiateTransactions": "permission/allow",
            "read": "permission/allow",
        },
        **values,
        "profile": stored(profile_fields, profile),
    }
    user = new("user", CurrentUserAttributes, attributes)
    user.link("marketplace", "marketplace", MARKETPLACE_ID)
    user.link("effectivePermissionSet", "permissionSet", permission_set_id(user.id))
    return user


def permission_set_id(user_id: uuid.UUID) -> uuid.UUID:
    """A user's effective permissions are a resource of their own, one per user."""
    return uuid.uuid5(user_id, "permissions")


@dataclass
class Blob:
    """Bytes the API keeps but does not show as attributes: an image's, a file's."""

    content: bytes
    content_type: str
    width: int = 0
    height: int = 0


@dataclass
class Progress:
    """Where a transaction is in its process: the state, the timepoints its delayed
    transitions are timed by (when it started, when each state was first and last entered,
    when each transition was first taken), and what the system will take next, when."""

    alias: str
    state: str | None = None
    initiated_at: dt.datetime | None = None
    first_entered: dict[str, dt.datetime] = field(default_factory=lambda: {})
    last_entered: dict[str, dt.datetime] = field(default_factory=lambda: {})
    first_transitioned: dict[str, dt.datetime] = field(default_factory=lambda: {})
    # The delayed transitions from the current state, (due, transition) soonest first, fixed
    # when the state was entered; emptied when one fails (the system then takes no more).
    scheduled: list[tuple[dt.datetime, str]] = field(default_factory=lambda: [])
    payment_intent: str | None = None  # the ID of its Stripe PaymentIntent
    payment: str | None = None  # how far the payment is: created, confirmed, captured, refunded
    paid_out: bool = False
    locked: int = 0  # the next `locked` calls to transition it answer `transaction-locked`


def _built_in_processes() -> dict[str, Process]:
    from flexclient.testing._processes import built_in

    return {p.alias: p for p in built_in()}


def add(state: State, stored_type: str, values: Mapping[str, Any]) -> Record[Any]:
    """A new record of a type kept in `state.others`; `values` by wire or field name,
    validated by the type's attribute model."""
    from flexclient.testing._schema import attributes_model, by_field_name

    model = attributes_model(stored_type)
    made = new(stored_type, model, by_field_name(model, values))
    state.table(stored_type)[made.id] = made
    return made


@dataclass
class StorageToken:
    """What a storage URL lets its bearer do: upload or download one file, until when."""

    kind: str
    file_id: uuid.UUID
    expires_at: dt.datetime
    issuer: str = ""  # the path of the endpoint that gave the URL, which bills its transfer


@dataclass
class Email:
    """A message the fake would have sent: a test reads the token in it."""

    to: str
    kind: str  # "password-reset", "email-verification"
    token: str
    user_id: uuid.UUID


@dataclass
class Grant:
    """A token the fake issued: who it is for and what it allows."""

    scope: str
    user_id: uuid.UUID | None
    expires_at: dt.datetime
    client_id: str
    is_logged_in_as: bool = False


def _marketplace() -> Record[MarketplaceAttributes]:
    values = {"name": "Fake Marketplace", "description": "An in-memory marketplace"}
    return new("marketplace", MarketplaceAttributes, values, MARKETPLACE_ID)


@dataclass
class State:
    # Empty containers come from `lambda: {}` rather than `dict`: given the bare class,
    # pyright (strict) takes the container's type arguments for unknown.
    marketplace: Record[MarketplaceAttributes] = field(default_factory=_marketplace)
    users: dict[uuid.UUID, Record[CurrentUserAttributes]] = field(default_factory=lambda: {})
    listings: dict[uuid.UUID, Record[ListingAttributes]] = field(default_factory=lambda: {})
    images: dict[uuid.UUID, Record[ImageAttributes]] = field(default_factory=lambda: {})
    stocks: dict[uuid.UUID, Record[StockAttributes]] = field(default_factory=lambda: {})
    exceptions: dict[uuid.UUID, Record[AvailabilityExceptionAttributes]] = field(
        default_factory=lambda: {}
    )
    adjustments: dict[uuid.UUID, Record[StockAdjustmentAttributes]] = field(
        default_factory=lambda: {}
    )
    transactions: dict[uuid.UUID, Record[TransactionAttributes]] = field(default_factory=lambda: {})
    progress: dict[uuid.UUID, Progress] = field(default_factory=lambda: {})
    processes: dict[str, Process] = field(default_factory=_built_in_processes)
    payment_intents: dict[str, PaymentIntent] = field(default_factory=lambda: {})
    # Resources of types the fake creates in the course of transactions and account flows,
    # by the type they are stored as (`booking`, `review`, `stripeAccount`, `file`, ...).
    others: dict[str, dict[uuid.UUID, Record[Any]]] = field(default_factory=lambda: {})
    events: list[Record[EventAttributes]] = field(default_factory=lambda: [])
    # What a handler keeps to answer big tables quickly, rebuilt when a table changes
    # (`_handlers._sorting.CreatedOrder`, by table): never part of the state itself.
    query_indexes: dict[str, Any] = field(default_factory=lambda: {}, repr=False, compare=False)
    # The resources each event is related to, by the event's ID (`relatedResourceId`).
    event_relations: dict[uuid.UUID, frozenset[uuid.UUID]] = field(default_factory=lambda: {})
    # How long events are kept (None: for ever); older ones are no longer answered.
    event_retention: dt.timedelta | None = DEFAULT_EVENT_RETENTION
    outbox: list[Email] = field(default_factory=lambda: [])
    storage_tokens: dict[str, StorageToken] = field(default_factory=lambda: {})
    # Identities an identity provider vouches for: (IdP ID, token) -> email, names, IdP user.
    idp_identities: dict[tuple[str, str], dict[str, str]] = field(default_factory=lambda: {})
    # The marketplace's clock runs this far ahead of the real one (tests move it forward).
    offset: dt.timedelta = field(default_factory=dt.timedelta)
    # While the system takes a delayed transition, the time it was due (`at`); while the
    # demo's history is made, the time of its story.
    pinned: dt.datetime | None = None
    passwords: dict[uuid.UUID, str] = field(default_factory=lambda: {})
    blobs: dict[uuid.UUID, Blob] = field(default_factory=lambda: {})
    access_tokens: dict[str, Grant] = field(default_factory=lambda: {})
    refresh_tokens: dict[str, Grant] = field(default_factory=lambda: {})
    login_as_codes: dict[str, uuid.UUID] = field(default_factory=lambda: {})
    idp_tokens: dict[tuple[str, str], uuid.UUID] = field(default_factory=lambda: {})
    lock: threading.RLock = field(default_factory=threading.RLock)
    last_sequence_id: int = 0

    @property
    def marketplace_id(self) -> uuid.UUID:
        return self.marketplace.id

    def time(self) -> dt.datetime:
        """The marketplace's time: now, moved forward by what a test asked for (or, while a
        delayed transition is taken, the time it was due)."""
        return self.pinned if self.pinned is not None else now() + self.offset

    @contextmanager
    def at(self, when: dt.datetime) -> Generator[None]:
        """The marketplace's clock pinned to `when` for the block."""
        was, self.pinned = self.pinned, when
        try:
            yield
        finally:
            self.pinned = was

    def fork(self) -> State:
        """A copy to try changes on and throw away (speculative transactions)."""
        # The processes are read-only: shared, not copied. Events are never changed once
        # recorded: the copy shares them (in lists of its own), which keeps a fork quick
        # however long the marketplace's history.
        memo: dict[int, object] = {
            id(self.lock): threading.RLock(),
            id(self.processes): self.processes,
            id(self.events): list(self.events),
            id(self.event_relations): dict(self.event_relations),
        }
        return copy.deepcopy(self, memo)

    def restore(self, saved: State) -> None:
        """Go back to a copy made by `fork`: a failed transition leaves nothing behind."""
        for name in self.__dataclass_fields__:
            if name != "lock":
                setattr(self, name, getattr(saved, name))

    def table(self, stored_type: str) -> dict[uuid.UUID, Record[Any]]:
        """The records of a type kept in `others`."""
        return self.others.setdefault(stored_type, {})

    def tables(self) -> dict[str, Mapping[uuid.UUID, Record[Any]]]:
        """Every kind of stored record, by the type it is stored as."""
        return {
            "marketplace": {self.marketplace.id: self.marketplace},
            "user": self.users,
            "listing": self.listings,
            "image": self.images,
            "stock": self.stocks,
            "availabilityException": self.exceptions,
            "stockAdjustment": self.adjustments,
            "transaction": self.transactions,
            **self.others,
        }

    def find(self, stored_type: str, rid: uuid.UUID) -> Record[Any] | None:
        if stored_type == "permissionSet":
            return self._permission_set(rid)
        return self.tables().get(stored_type, {}).get(rid)

    def _permission_set(self, rid: uuid.UUID) -> Record[Any] | None:
        # Made from the user's own permissions when asked for, so it never lags behind them.
        from flexclient.testing._schema import attributes_model, by_field_name

        # Found by the link, not by `permission_set_id`: a user's ID may be set after the link.
        user = next(
            (u for u in self.users.values() if u.one("effectivePermissionSet") == rid), None
        )
        if user is None:
            return None
        model = attributes_model("permissionSet")
        values = by_field_name(model, user.attributes.permissions)
        return Record(rid, "permissionSet", stored(model, values))

    def user_by_email(self, email: str) -> Record[CurrentUserAttributes] | None:
        wanted = email.lower()
        return next((u for u in self.users.values() if u.attributes.email == wanted), None)

    def issue(self, grant: Grant, *, refreshable: bool) -> dict[str, Any]:
        """Store a grant under fresh tokens; the token response of the Authentication API."""
        access = secrets.token_urlsafe(24)
        self.access_tokens[access] = grant
        lifetime = int((grant.expires_at - now()).total_seconds())
        answer: dict[str, Any] = {
            "access_token": access,
            "token_type": "bearer",
            "expires_in": lifetime,
            "scope": grant.scope,
        }
        if refreshable:
            refresh = secrets.token_urlsafe(24)
            self.refresh_tokens[refresh] = grant
            answer["refresh_token"] = refresh
        return answer

    def record(
        self,
        event_type: str,
        source: str,
        resource_type: str,
        resource_id: uuid.UUID,
        resource: dict[str, Any] | None,
        previous: dict[str, Any] | None,
        user_id: uuid.UUID | None,
        client_id: str | None,
        related: frozenset[uuid.UUID] = frozenset(),
    ) -> None:
        """Append an event; `resource` and `previous` are kept exactly as rendered, and
        `related` are the IDs of the resources it is related to."""
        values: dict[str, Any] = {
            "sequence_id": self.last_sequence_id + 1,
            "created_at": self.time(),
            "event_type": event_type,
            "source": source,
            "resource_id": resource_id,
            "resource_type": resource_type,
            "marketplace_id": self.marketplace.id,
            "resource": resource,
            "previous_values": previous,
            "audit_data": {
                "userId": user_id,
                "adminId": None,
                "requestId": new_id(),
                "clientId": client_id,
            },
        }
        # Constructed, not validated: the resource stays as it was rendered, to the byte.
        attributes = EventAttributes.model_construct(**values)
        self.last_sequence_id += 1
        event = Record(new_id(), "event", attributes)
        self.events.append(event)
        self.event_relations[event.id] = related | {resource_id}

    def kept_events(self) -> list[Record[EventAttributes]]:
        """The events still kept: those of the retention period before the marketplace's
        time (Sharetribe keeps 90 days of events on Live, 7 on Dev and Test)."""
        if self.event_retention is None:
            return self.events
        oldest = self.time() - self.event_retention
        return [
            e for e in self.events if e.attributes.created_at and e.attributes.created_at >= oldest
        ]
