"""The fake marketplace's data: users, listings, images, transactions, stock, events, tokens.

Everything lives in memory behind one lock; handlers hold it for the whole request, so the
fake behaves as if requests ran one after another.
"""

from __future__ import annotations

import datetime as dt
import itertools
import secrets
import threading
import uuid
from dataclasses import dataclass, field
from typing import Any

from flexclient._types import LatLng, Money


def now() -> dt.datetime:
    # The API's timestamps have millisecond precision.
    t = dt.datetime.now(dt.UTC)
    return t.replace(microsecond=t.microsecond // 1000 * 1000)


@dataclass
class User:
    id: uuid.UUID
    email: str
    password: str
    first_name: str
    last_name: str
    display_name: str
    created_at: dt.datetime = field(default_factory=now)
    bio: str | None = None
    public_data: dict[str, Any] = field(default_factory=dict)
    protected_data: dict[str, Any] = field(default_factory=dict)
    private_data: dict[str, Any] = field(default_factory=dict)
    metadata: dict[str, Any] = field(default_factory=dict)
    state: str = "active"
    email_verified: bool = False
    banned: bool = False
    deleted: bool = False
    profile_image_id: uuid.UUID | None = None
    permissions: dict[str, Any] = field(
        default_factory=lambda: {"postListings": "permission/allow", "read": "permission/allow"}
    )

    @property
    def abbreviated_name(self) -> str:
        return (self.first_name[:1] + self.last_name[:1]).upper()


@dataclass
class Image:
    id: uuid.UUID
    content: bytes
    content_type: str
    width: int = 0
    height: int = 0
    owner_id: uuid.UUID | None = None


@dataclass
class Listing:
    id: uuid.UUID
    author_id: uuid.UUID
    title: str
    description: str = ""
    geolocation: LatLng | None = None
    price: Money | None = None
    state: str = "published"
    created_at: dt.datetime = field(default_factory=now)
    availability_plan: dict[str, Any] | None = None
    public_data: dict[str, Any] = field(default_factory=dict)
    private_data: dict[str, Any] = field(default_factory=dict)
    metadata: dict[str, Any] = field(default_factory=dict)
    image_ids: list[uuid.UUID] = field(default_factory=list)
    deleted: bool = False
    stock: int | None = None


@dataclass
class AvailabilityException:
    id: uuid.UUID
    listing_id: uuid.UUID
    start: dt.datetime
    end: dt.datetime
    seats: int


@dataclass
class StockAdjustment:
    id: uuid.UUID
    listing_id: uuid.UUID
    quantity: int
    at: dt.datetime = field(default_factory=now)


@dataclass
class Transaction:
    id: uuid.UUID
    listing_id: uuid.UUID
    customer_id: uuid.UUID
    provider_id: uuid.UUID
    process_name: str
    process_version: int
    last_transition: str
    created_at: dt.datetime = field(default_factory=now)
    transitions: list[dict[str, Any]] = field(default_factory=list)
    line_items: list[dict[str, Any]] = field(default_factory=list)
    protected_data: dict[str, Any] = field(default_factory=dict)
    metadata: dict[str, Any] = field(default_factory=dict)

    @property
    def last_transitioned_at(self) -> dt.datetime:
        return self.transitions[-1]["createdAt"] if self.transitions else self.created_at


@dataclass
class Event:
    id: uuid.UUID
    sequence_id: int
    created_at: dt.datetime
    event_type: str
    source: str
    resource_id: uuid.UUID
    resource_type: str
    resource: dict[str, Any] | None
    previous_values: dict[str, Any] | None
    audit_data: dict[str, Any]


@dataclass
class Grant:
    """A token the fake issued: who it is for and what it allows."""

    scope: str
    user_id: uuid.UUID | None
    expires_at: dt.datetime
    client_id: str
    is_logged_in_as: bool = False


@dataclass
class State:
    marketplace_id: uuid.UUID = field(default_factory=lambda: uuid.UUID(int=1))
    marketplace_name: str = "Fake Marketplace"
    users: dict[uuid.UUID, User] = field(default_factory=dict)
    listings: dict[uuid.UUID, Listing] = field(default_factory=dict)
    images: dict[uuid.UUID, Image] = field(default_factory=dict)
    exceptions: dict[uuid.UUID, AvailabilityException] = field(default_factory=dict)
    adjustments: dict[uuid.UUID, StockAdjustment] = field(default_factory=dict)
    transactions: dict[uuid.UUID, Transaction] = field(default_factory=dict)
    events: list[Event] = field(default_factory=list)
    access_tokens: dict[str, Grant] = field(default_factory=dict)
    refresh_tokens: dict[str, Grant] = field(default_factory=dict)
    login_as_codes: dict[str, uuid.UUID] = field(default_factory=dict)
    idp_tokens: dict[tuple[str, str], uuid.UUID] = field(default_factory=dict)
    lock: threading.RLock = field(default_factory=threading.RLock)
    _sequence: itertools.count[int] = field(default_factory=lambda: itertools.count(1))

    def user_by_email(self, email: str) -> User | None:
        return next((u for u in self.users.values() if u.email == email.lower()), None)

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
        client_id: str,
    ) -> None:
        self.events.append(
            Event(
                id=uuid.uuid4(),
                sequence_id=next(self._sequence),
                created_at=now(),
                event_type=event_type,
                source=source,
                resource_id=resource_id,
                resource_type=resource_type,
                resource=resource,
                previous_values=previous,
                audit_data={
                    "userId": user_id,
                    "adminId": None,
                    "requestId": uuid.uuid4(),
                    "clientId": client_id,
                },
            )
        )
