"""A page of 100 mixed Integration API events, as the API would send them, for the benchmarks.

The mix is a busy booking marketplace's: listings created, updated (a price, the title, the
extended data) and now and then deleted; users updating their profiles; transactions started
and moved along (line items, transitions); bookings, messages and reviews. Each event carries
its resource after the change as the API does, with a realistic share of attributes, the
previous values of what changed, and its audit data.
"""

from __future__ import annotations

import datetime as dt
import decimal
import random
import uuid
from collections.abc import Callable
from typing import Any

from flexclient import LatLng, Money
from flexclient._wire.formats import JSON, TRANSIT
from flexclient.testing._edn import Keyword

PER_PAGE = 100
# The first page's sequence IDs are FIRST_SEQUENCE_ID + 1 ... + PER_PAGE: ten digits, which
# the server finds in the encoded bytes and moves along for each page it serves.
FIRST_SEQUENCE_ID = 1_000_000_000
START = dt.datetime(2026, 11, 1, 9, 0, tzinfo=dt.UTC)

Json = dict[str, Any]


def _ref(rid: uuid.UUID, rtype: str) -> Json:
    return {"data": {"id": rid, "type": rtype}}


class _Maker:
    """Resources of one made-up marketplace, from one seed."""

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)
        self.users = [self.uuid() for _ in range(20)]
        self.listings = [self.uuid() for _ in range(30)]

    def uuid(self) -> uuid.UUID:
        return uuid.UUID(int=self.rng.getrandbits(128), version=4)

    def when(self, n: int) -> dt.datetime:
        return START + dt.timedelta(minutes=7 * n, milliseconds=self.rng.randrange(60_000))

    def listing(self, n: int) -> Json:
        rid = self.listings[n % len(self.listings)]
        return {
            "id": rid,
            "type": "listing",
            "attributes": {
                "title": f"Sunny two-room flat near the harbour, no. {n}",
                "description": "Bright, quiet, a balcony over the bay; bikes included. " * 6,
                "geolocation": LatLng(60.15 + n / 10_000, 24.93 - n / 10_000),
                "createdAt": self.when(n - 500),
                "price": Money(9_500 + 100 * (n % 17), "EUR"),
                "availabilityPlan": {
                    "type": "availability-plan/time",
                    "timezone": "Europe/Helsinki",
                    "entries": [
                        {"dayOfWeek": day, "startTime": "09:00", "endTime": "17:00", "seats": 1}
                        for day in ("mon", "tue", "wed", "thu", "fri")
                    ],
                },
                "state": "published",
                "deleted": False,
                "publicData": {
                    "listingType": "daily-booking",
                    "transactionProcessAlias": "default-booking/release-1",
                    "unitType": "day",
                    "category": "apartments",
                    "subcategory": "two-rooms",
                    "rooms": 2,
                    "size": 54,
                    "floor": n % 6,
                    "amenities": ["wifi", "balcony", "sauna", "dishwasher"],
                    "rules": {"pets": False, "smoking": False, "checkIn": "15:00"},
                    "location": {"address": "Satamakatu 4, Helsinki", "building": "B"},
                    "pickupEnabled": n % 2 == 0,
                },
                "privateData": {"keyBox": "4412"},
                "metadata": {"verified": True, "score": n % 100},
            },
            "relationships": {
                "author": _ref(self.users[n % len(self.users)], "user"),
                "marketplace": _ref(uuid.UUID(int=1), "marketplace"),
            },
        }

    def user(self, n: int) -> Json:
        rid = self.users[n % len(self.users)]
        return {
            "id": rid,
            "type": "user",
            "attributes": {
                "banned": False,
                "deleted": False,
                "createdAt": self.when(n - 900),
                "email": f"member{n % 20}@example.com",
                "emailVerified": True,
                "pendingEmail": None,
                "stripeConnected": n % 3 == 0,
                "identityProviders": [],
                "profile": {
                    "firstName": "Aino",
                    "lastName": f"Virtanen {n % 20}",
                    "displayName": f"Aino V{n % 20}",
                    "abbreviatedName": "AV",
                    "bio": "Host in Helsinki since 2021. I answer within the hour.",
                    "publicData": {"userType": "host", "languages": ["fi", "en", "sv"]},
                    "protectedData": {"phoneNumber": "+358 40 123 4567"},
                    "privateData": {"discoveredServiceVia": "friend"},
                    "metadata": {"superhost": n % 5 == 0},
                },
            },
            "relationships": {"profileImage": _ref(self.uuid(), "image")},
        }

    def transaction(self, n: int, transition: str) -> Json:
        nights = 1 + n % 5
        price = Money(9_500, "EUR")
        total = Money(9_500 * nights, "EUR")
        fee = Money(-(9_500 * nights) // 10, "EUR")
        return {
            "id": self.uuid(),
            "type": "transaction",
            "attributes": {
                "createdAt": self.when(n - 3),
                "processName": "default-booking",
                "processVersion": 3,
                "lastTransition": transition,
                "lastTransitionedAt": self.when(n),
                "lineItems": [
                    {
                        "code": "line-item/night",
                        "unitPrice": price,
                        "quantity": decimal.Decimal(nights),
                        "units": decimal.Decimal(nights),
                        "seats": 1,
                        "lineTotal": total,
                        "reversal": False,
                        "includeFor": ["customer", "provider"],
                    },
                    {
                        "code": "line-item/provider-commission",
                        "unitPrice": total,
                        "percentage": decimal.Decimal("-10.0"),
                        "lineTotal": fee,
                        "reversal": False,
                        "includeFor": ["provider"],
                    },
                ],
                "payinTotal": total,
                "payoutTotal": Money(total.amount + fee.amount, "EUR"),
                "protectedData": {"customerNote": "Arriving late, around 22."},
                "metadata": {},
                "transitions": [
                    {"transition": t, "createdAt": self.when(n - 3 + i), "by": by}
                    for i, (t, by) in enumerate(
                        [
                            ("transition/request-payment", "customer"),
                            ("transition/confirm-payment", "system"),
                            (transition, "provider"),
                        ]
                    )
                ],
            },
            "relationships": {
                "listing": _ref(self.listings[n % len(self.listings)], "listing"),
                "provider": _ref(self.users[n % len(self.users)], "user"),
                "customer": _ref(self.users[(n + 7) % len(self.users)], "user"),
                "booking": _ref(self.uuid(), "booking"),
            },
        }

    def booking(self, n: int) -> Json:
        start = dt.datetime(2026, 12, 1 + n % 20, tzinfo=dt.UTC)
        end = start + dt.timedelta(days=1 + n % 5)
        return {
            "id": self.uuid(),
            "type": "booking",
            "attributes": {
                "seats": 1,
                "start": start,
                "end": end,
                "displayStart": start,
                "displayEnd": end,
                "state": "pending",
            },
            "relationships": {"transaction": _ref(self.uuid(), "transaction")},
        }

    def message(self, n: int) -> Json:
        return {
            "id": self.uuid(),
            "type": "message",
            "attributes": {
                "content": "Hi! Is the flat free the weekend after? We would be two adults.",
                "createdAt": self.when(n),
            },
            "relationships": {
                "sender": _ref(self.users[(n + 7) % len(self.users)], "user"),
                "transaction": _ref(self.uuid(), "transaction"),
            },
        }

    def review(self, n: int) -> Json:
        return {
            "id": self.uuid(),
            "type": "review",
            "attributes": {
                "type": "ofProvider",
                "state": "public",
                "rating": 4 + n % 2,
                "content": "Spotless, as pictured, and the host met us at the door. Would return.",
                "createdAt": self.when(n),
                "deleted": False,
            },
            "relationships": {
                "author": _ref(self.users[(n + 7) % len(self.users)], "user"),
                "subject": _ref(self.users[n % len(self.users)], "user"),
                "listing": _ref(self.listings[n % len(self.listings)], "listing"),
            },
        }


def _change(maker: _Maker, n: int) -> tuple[str, Json | None, Json | None, uuid.UUID, str]:
    """The n-th event's type, resource, previous values, resource ID and resource type."""
    kind = n % 20
    if kind < 3:
        res = maker.listing(n)
        return "listing/created", res, None, res["id"], "listing"
    if kind < 8:
        res = maker.listing(n)
        before = {"attributes": {"price": Money(9_000, "EUR"), "title": "Two-room flat"}}
        if n % 2:
            before = {"attributes": {"publicData": {"rooms": 1, "amenities": ["wifi"]}}}
        return "listing/updated", res, before, res["id"], "listing"
    if kind == 8:
        return "listing/deleted", None, None, maker.listings[n % 30], "listing"
    if kind < 11:
        res = maker.user(n)
        before = {"attributes": {"profile": {"bio": "New host.", "publicData": {}}}}
        return "user/updated", res, before, res["id"], "user"
    if kind < 13:
        res = maker.transaction(n, "transition/request-payment")
        return "transaction/initiated", res, None, res["id"], "transaction"
    if kind < 16:
        res = maker.transaction(n, "transition/accept")
        before = {"attributes": {"lastTransition": "transition/confirm-payment"}}
        return "transaction/transitioned", res, before, res["id"], "transaction"
    make: Callable[[int], Json] = (maker.booking, maker.message, maker.message, maker.review)[
        kind - 16
    ]
    res = make(n)
    return f"{res['type']}/created", res, None, res["id"], res["type"]


def page() -> dict[str, Any]:
    """The first page: PER_PAGE events after FIRST_SEQUENCE_ID, in order."""
    maker = _Maker(PER_PAGE)
    events = []
    for n in range(PER_PAGE):
        event_type, resource, before, rid, rtype = _change(maker, n)
        events.append(
            {
                "id": maker.uuid(),
                "type": "event",
                "attributes": {
                    "sequenceId": FIRST_SEQUENCE_ID + 1 + n,
                    "createdAt": maker.when(n),
                    "eventType": event_type,
                    "source": "source/marketplace-api" if n % 3 else "source/console",
                    "resourceId": rid,
                    "resourceType": rtype,
                    "marketplaceId": uuid.UUID(int=1),
                    "resource": resource,
                    "previousValues": before,
                    "auditData": {
                        "userId": maker.users[n % 20],
                        "adminId": None,
                        "requestId": maker.uuid(),
                        "clientId": uuid.UUID(int=2),
                    },
                },
            }
        )
    return {"data": events, "meta": {"perPage": PER_PAGE, "paginationUnsupported": True}}


def _keywords(body: dict[str, Any]) -> dict[str, Any]:
    """`body` with each resource's `type` a Transit keyword, as the API writes them."""
    data = []
    for event in body["data"]:
        attributes = dict(event["attributes"])
        resource = attributes["resource"]
        if resource is not None:
            relationships = {
                name: {"data": {**rel["data"], "type": Keyword(rel["data"]["type"])}}
                for name, rel in resource["relationships"].items()
            }
            attributes["resource"] = {
                **resource,
                "type": Keyword(resource["type"]),
                "relationships": relationships,
            }
        data.append({**event, "type": Keyword("event"), "attributes": attributes})
    return {**body, "data": data}


def encoded() -> tuple[bytes, bytes]:
    """The first page as (JSON bytes, Transit bytes)."""
    body = page()
    return JSON.encode(body), TRANSIT.encode(_keywords(body))


def empty() -> tuple[bytes, bytes]:
    """A page with no event (the feed has caught up), as (JSON bytes, Transit bytes)."""
    body: dict[str, Any] = {
        "data": [],
        "meta": {"perPage": PER_PAGE, "paginationUnsupported": True},
    }
    return JSON.encode(body), TRANSIT.encode(body)
