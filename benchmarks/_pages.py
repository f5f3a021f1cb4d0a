"""Realistic pages, as the API would send them, for the benchmarks.

`page` is the first benchmarks' page (listings with authors and three images each);
`SHAPES` holds the pages users read most, by name, each as the API answers it (facts from
the Web Template and the API reference, values made here): `encoded_shape` gives a shape's
bytes in JSON and Transit. All seeded: each run reads the same bytes.
"""

from __future__ import annotations

import datetime as dt
import decimal
import random
import uuid
from collections.abc import Callable, Iterator
from typing import Any

from flexclient import LatLng, Money
from flexclient._wire.formats import JSON, TRANSIT
from flexclient.testing._app import keyword_types


def page(listings: int, users: int | None = None, images_each: int = 3) -> dict[str, Any]:
    """`listings` listings by `users` authors (default: as many as listings), with images."""
    rng = random.Random(listings)
    users = users or listings
    ids = (uuid.UUID(int=rng.getrandbits(128), version=4) for _ in iter(int, 1))
    authors = [next(ids) for _ in range(users)]
    created = dt.datetime(2026, 1, 1, tzinfo=dt.UTC)
    data, included = [], []
    for author in authors:
        included.append(
            {
                "id": author,
                "type": "user",
                "attributes": {
                    "banned": False,
                    "deleted": False,
                    "createdAt": created,
                    "profile": {
                        "displayName": "Jane D",
                        "abbreviatedName": "JD",
                        "bio": "Bikes.",
                        "publicData": {"city": "Helsinki"},
                        "metadata": {},
                    },
                },
                "relationships": {"profileImage": {"data": None}},
            }
        )
    for n in range(listings):
        image_ids = [next(ids) for _ in range(images_each)]
        for image in image_ids:
            included.append(
                {
                    "id": image,
                    "type": "image",
                    "attributes": {
                        "variants": {
                            name: {
                                "name": name,
                                "width": w,
                                "height": h,
                                "url": f"https://cdn.example/{image}/{name}.jpg",
                            }
                            for name, w, h in (
                                ("default", 750, 750),
                                ("square-small", 240, 240),
                                ("landscape-crop", 800, 600),
                            )
                        }
                    },
                }
            )
        data.append(
            {
                "id": next(ids),
                "type": "listing",
                "attributes": {
                    "title": f"Bike number {n}",
                    "description": "A fine bike. " * 10,
                    "geolocation": LatLng(60.1 + n / 1000, 24.9),
                    "price": Money(1000 + n, "EUR"),
                    "state": "published",
                    "deleted": False,
                    "createdAt": created,
                    "availabilityPlan": None,
                    "publicData": {"category": "road", "gears": 21, "tags": ["steel", "red"]},
                    "metadata": {},
                },
                "relationships": {
                    "author": {"data": {"id": authors[n % users], "type": "user"}},
                    "images": {"data": [{"id": i, "type": "image"} for i in image_ids]},
                },
            }
        )
    return {
        "data": data,
        "included": included,
        "meta": {"totalItems": listings, "totalPages": 1, "page": 1, "perPage": listings},
    }


def encoded(listings: int, users: int | None = None) -> tuple[bytes, bytes]:
    """The page as (JSON bytes, Transit bytes), resource types as keywords in Transit."""
    body = page(listings, users)
    return JSON.encode(body), TRANSIT.encode(keyword_types(body))


CREATED = dt.datetime(2026, 1, 1, tzinfo=dt.UTC)
# The search page's image variants (the Web Template's `fields.image`: its `listing-card`
# variants, 400 and 800 px wide, and the two scaled ones), and a profile image's.
CARD_VARIANTS = (
    ("scaled-small", 320, 320),
    ("scaled-medium", 750, 750),
    ("listing-card", 400, 400),
    ("listing-card-2x", 800, 800),
)
AVATAR_VARIANTS = (("square-small", 240, 240), ("square-small2x", 480, 480))
TRANSITIONS = ("transition/request-payment", "transition/confirm-payment", "transition/accept")


def _ids(seed: str) -> Iterator[uuid.UUID]:
    rng = random.Random(seed)
    while True:
        yield uuid.UUID(int=rng.getrandbits(128), version=4)


def _ref(rtype: str, rid: uuid.UUID) -> dict[str, Any]:
    return {"id": rid, "type": rtype}


def _money(amount: int) -> Money:
    return Money(amount, "EUR")


def _meta(n: int) -> dict[str, Any]:
    return {"totalItems": n * 10, "totalPages": 10, "page": 1, "perPage": n}


def _image(rid: uuid.UUID, variants: tuple[tuple[str, int, int], ...]) -> dict[str, Any]:
    return {
        "id": rid,
        "type": "image",
        "attributes": {
            "variants": {
                name: {
                    "name": name,
                    "width": w,
                    "height": h,
                    "url": f"https://sharetribe.imgix.net/{rid}/{name}.jpg?auto=format&w={w}",
                }
                for name, w, h in variants
            }
        },
    }


def _user(rid: uuid.UUID, n: int, image: uuid.UUID | None) -> dict[str, Any]:
    return {
        "id": rid,
        "type": "user",
        "attributes": {
            "banned": False,
            "deleted": False,
            "createdAt": CREATED,
            "profile": {
                "displayName": f"Jane {n}",
                "abbreviatedName": "JD",
                "bio": "Rides and rents bikes. " * 4,
                "publicData": {"userType": "provider", "city": "Helsinki"},
                "metadata": {},
            },
        },
        "relationships": {
            "profileImage": {"data": None if image is None else _ref("image", image)}
        },
    }


def _public_data(rng: random.Random, n: int) -> dict[str, Any]:
    """A listing's publicData as a configured marketplace holds it: a dozen keys, the
    template's own (listing type, process, unit type, delivery) and custom fields."""
    return {
        "listingType": "daily-rental",
        "transactionProcessAlias": "default-booking/release-1",
        "unitType": "day",
        "categoryLevel1": rng.choice(["bikes", "skis", "boards"]),
        "categoryLevel2": rng.choice(["road", "city", "mountain", "kids"]),
        "brand": rng.choice(["cube", "trek", "canyon", "giant"]),
        "frameSize": rng.randint(48, 62),
        "pickupEnabled": rng.random() < 0.5,
        "shippingEnabled": rng.random() < 0.5,
        "accessories": rng.sample(["helmet", "lock", "lights", "bag", "pump"], 3),
        "location": {"address": f"Mannerheimintie {n}, Helsinki", "building": f"B {n % 7}"},
        "priceVariants": [
            {"name": "day", "priceInSubunits": 2500 + n, "bookingLengthInMinutes": 1440},
            {"name": "week", "priceInSubunits": 14000 + n, "bookingLengthInMinutes": 10080},
        ],
    }


def _listing(
    rid: uuid.UUID, n: int, rng: random.Random, relationships: dict[str, Any]
) -> dict[str, Any]:
    return {
        "id": rid,
        "type": "listing",
        "attributes": {
            "title": f"Bike number {n}",
            "description": "A fine bike, serviced every spring. " * 6,
            "geolocation": LatLng(60.1 + n / 1000, 24.9 + n / 1000),
            "price": _money(2500 + n),
            "state": "published",
            "deleted": False,
            "createdAt": CREATED + dt.timedelta(minutes=n),
            "availabilityPlan": None,
            "publicData": _public_data(rng, n),
            "metadata": {},
        },
        "relationships": relationships,
    }


def _line_items(rng: random.Random) -> list[dict[str, Any]]:
    """A booking's price breakdown: nights, a cleaning fee, both commissions."""
    nights, price = rng.randint(1, 7), rng.randint(40, 120) * 100
    subtotal = price * nights + 2000

    def item(code: str, unit: int, total: int, parties: list[str], **more: object) -> Any:
        base = {"code": code, "unitPrice": _money(unit), "lineTotal": _money(total)}
        return base | more | {"reversal": False, "includeFor": parties}

    both = ["customer", "provider"]
    quantity = decimal.Decimal(nights)
    return [
        item("line-item/night", price, price * nights, both, quantity=quantity, units=quantity),
        item("line-item/cleaning-fee", 2000, 2000, both, quantity=decimal.Decimal(1)),
        item(
            "line-item/provider-commission",
            subtotal,
            -subtotal // 10,
            ["provider"],
            percentage=decimal.Decimal("-10.0"),
        ),
        item(
            "line-item/customer-commission",
            subtotal,
            subtotal // 20,
            ["customer"],
            percentage=decimal.Decimal("5.0"),
        ),
    ]


def _transaction(
    rid: uuid.UUID, n: int, rng: random.Random, relationships: dict[str, Any]
) -> dict[str, Any]:
    items = _line_items(rng)
    start = CREATED + dt.timedelta(days=n)
    payin = sum(i["lineTotal"].amount for i in items if "customer" in i["includeFor"])
    payout = sum(i["lineTotal"].amount for i in items if "provider" in i["includeFor"])
    return {
        "id": rid,
        "type": "transaction",
        "attributes": {
            "createdAt": start - dt.timedelta(days=1),
            "processName": "default-booking",
            "processVersion": 3,
            "lastTransition": TRANSITIONS[-1],
            "lastTransitionedAt": start - dt.timedelta(hours=1),
            "payinTotal": _money(payin),
            "payoutTotal": _money(payout),
            "lineItems": items,
            "protectedData": {"bookingNote": "Arriving late."},
            "metadata": {},
            "transitions": [
                {
                    "transition": name,
                    "createdAt": start - dt.timedelta(hours=10 - t),
                    "by": "provider" if name == "transition/accept" else "customer",
                }
                for t, name in enumerate(TRANSITIONS)
            ],
        },
        "relationships": relationships,
    }


def _booking(rid: uuid.UUID, n: int, relationships: dict[str, Any]) -> dict[str, Any]:
    start = CREATED + dt.timedelta(days=n)
    end = start + dt.timedelta(days=2)
    return {
        "id": rid,
        "type": "booking",
        "attributes": {
            "seats": 1,
            "start": start,
            "end": end,
            "displayStart": start,
            "displayEnd": end,
            "state": "accepted",
        },
        "relationships": relationships,
    }


def search_page(listings: int = 24) -> dict[str, Any]:
    """A page of the Web Template's search (`listings.query`; the template's page holds 24):
    listings by half as many authors, each with a dozen publicData keys and one image
    (`limit.images: 1`) of four variants, and its author with a profile image
    (`include: author, author.profileImage, images`)."""
    rng, ids = random.Random(f"search {listings}"), _ids(f"search {listings}")
    included: list[dict[str, Any]] = []
    authors = []
    for n in range(max(1, listings // 2)):
        author, avatar = next(ids), next(ids)
        authors.append(author)
        included += [_image(avatar, AVATAR_VARIANTS), _user(author, n, avatar)]
    data = []
    for n in range(listings):
        image = next(ids)
        included.append(_image(image, CARD_VARIANTS))
        relationships = {
            "author": {"data": _ref("user", authors[n % len(authors)])},
            "images": {"data": [_ref("image", image)]},
        }
        data.append(_listing(next(ids), n, rng, relationships))
    return {"data": data, "included": included, "meta": _meta(listings)}


def transactions_page(transactions: int = 50) -> dict[str, Any]:
    """A `transactions.query` page as an inbox reads it: each transaction with its
    `listing`, `provider`, `customer`, `booking`, `reviews` and `messages` included, line
    items and transitions in its attributes; among 20 listings and 30 users."""
    rng, ids = random.Random(f"tx {transactions}"), _ids(f"tx {transactions}")
    users = [next(ids) for _ in range(30)]
    listings = [next(ids) for _ in range(20)]
    included = [_user(user, n, None) for n, user in enumerate(users)]
    included += [_listing(listing, n, rng, {}) for n, listing in enumerate(listings)]
    data = []
    for n in range(transactions):
        tx, booking = next(ids), next(ids)
        included.append(_booking(booking, n, {}))
        messages = [next(ids) for _ in range(rng.randint(2, 5))]
        for m, message in enumerate(messages):
            at = CREATED + dt.timedelta(days=n, hours=-m)
            text = f"Hello, is the cabin free that weekend? ({m})"
            attributes = {"content": text, "createdAt": at}
            included.append({"id": message, "type": "message", "attributes": attributes})
        reviews = [next(ids) for _ in range(rng.choice((0, 0, 1, 2)))]
        for review in reviews:
            attributes = {
                "type": "ofProvider",
                "state": "public",
                "rating": rng.randint(3, 5),
                "content": "Lovely stay, would book again.",
                "createdAt": CREATED + dt.timedelta(days=n + 3),
                "deleted": False,
            }
            included.append({"id": review, "type": "review", "attributes": attributes})
        provider, customer = rng.sample(users, 2)
        relationships = {
            "listing": {"data": _ref("listing", rng.choice(listings))},
            "provider": {"data": _ref("user", provider)},
            "customer": {"data": _ref("user", customer)},
            "booking": {"data": _ref("booking", booking)},
            "reviews": {"data": [_ref("review", r) for r in reviews]},
            "messages": {"data": [_ref("message", m) for m in messages]},
        }
        data.append(_transaction(tx, n, rng, relationships))
    return {"data": data, "included": included, "meta": _meta(transactions)}


def _changed(n: int, ids: Iterator[uuid.UUID], rng: random.Random) -> tuple[str, Any, Any]:
    """The n-th event's type, resource and previous values, by turns over what the event
    feed reports: listings made, changed and deleted (no resource then), users, transactions
    started and moved on, bookings and availability exceptions."""
    at = CREATED + dt.timedelta(minutes=n)
    kind = n % 8
    if kind < 3:
        listing = _listing(
            next(ids),
            n,
            rng,
            {
                "author": {"data": _ref("user", next(ids))},
                "images": {"data": [_ref("image", next(ids)) for _ in range(3)]},
            },
        )
        listing["attributes"]["privateData"] = {"supplierCode": f"S-{n}"}
        verb = ("created", "updated", "deleted")[kind]
        previous = {
            "created": None,
            "updated": {"attributes": {"title": "An old title", "price": _money(2400 + n)}},
            "deleted": {"attributes": {"deleted": False}},
        }[verb]
        return f"listing/{verb}", None if verb == "deleted" else listing, previous
    if kind == 3:
        previous = {"attributes": {"profile": {"displayName": "An old name", "bio": None}}}
        return "user/updated", _user(next(ids), n, next(ids)), previous
    if kind in (4, 5):
        relationships = {
            name: {"data": _ref(rtype, next(ids))}
            for name, rtype in (
                ("listing", "listing"),
                ("provider", "user"),
                ("customer", "user"),
                ("booking", "booking"),
            )
        }
        tx = _transaction(next(ids), n, rng, relationships)
        if kind == 4:
            return "transaction/initiated", tx, None
        previous = {"attributes": {"lastTransition": TRANSITIONS[1], "lastTransitionedAt": at}}
        return "transaction/transitioned", tx, previous
    if kind == 6:
        relationships = {"transaction": {"data": _ref("transaction", next(ids))}}
        booking = _booking(next(ids), n, relationships)
        return "booking/updated", booking, {"attributes": {"state": "pending"}}
    exception = {
        "id": next(ids),
        "type": "availabilityException",
        "attributes": {"seats": 0, "start": at, "end": at + dt.timedelta(days=rng.randint(1, 9))},
        "relationships": {"listing": {"data": _ref("listing", next(ids))}},
    }
    return "availabilityException/created", exception, None


def events_page(events: int = 100, first_sequence_id: int = 1000) -> dict[str, Any]:
    """An Integration API `events.query` page: `events` events of the kinds `_changed`
    turns over, each with its `resource` and `previousValues` as the event feed sends them,
    their sequence IDs from `first_sequence_id` on."""
    rng, ids = random.Random(f"events {events}"), _ids(f"events {events}")
    marketplace, client = next(ids), next(ids)
    data = []
    for n in range(events):
        event_type, resource, previous = _changed(n, ids, rng)
        rtype = event_type.split("/")[0]
        data.append(
            {
                "id": next(ids),
                "type": "event",
                "attributes": {
                    "sequenceId": first_sequence_id + n,
                    "createdAt": CREATED + dt.timedelta(minutes=n),
                    "eventType": event_type,
                    "source": "source/marketplace-api",
                    "resourceId": resource["id"] if resource else next(ids),
                    "resourceType": rtype,
                    "marketplaceId": marketplace,
                    "resource": resource,
                    "previousValues": previous,
                    "auditData": {
                        "userId": next(ids),
                        "adminId": None,
                        "requestId": next(ids),
                        "clientId": client,
                    },
                },
            }
        )
    return {"data": data, "meta": {"totalItems": None, "totalPages": None, "perPage": events}}


def sparse_page(listings: int = 100) -> dict[str, Any]:
    """A `listings.query` page with `fields.listing: title, price`: each listing's two
    attributes, nothing included."""
    ids = _ids(f"sparse {listings}")
    data = [
        {
            "id": next(ids),
            "type": "listing",
            "attributes": {"title": f"Bike number {n}", "price": _money(2500 + n)},
        }
        for n in range(listings)
    ]
    return {"data": data, "meta": _meta(listings)}


SHAPES: dict[str, Callable[[], dict[str, Any]]] = {
    "listings": lambda: page(100),
    "search": search_page,
    "transactions": transactions_page,
    "events": events_page,
    "sparse": sparse_page,
}
"""The pages the benchmarks read, by name: the first benchmarks' 100 listings with authors
and three images each, and the shapes above, each at its default size."""


def _listings(data: list[Any]) -> None:
    for listing in data:
        _ = listing.author, listing.images


def _search(data: list[Any]) -> None:
    for listing in data:
        _ = listing.author.profile_image, listing.images


def _transactions(data: list[Any]) -> None:
    for tx in data:
        _ = tx.listing, tx.provider, tx.customer, tx.booking, tx.reviews, tx.messages


def _events(data: list[Any]) -> None:
    for event in data:
        _ = event.attributes.resource


def _sparse(data: list[Any]) -> None:
    for listing in data:
        _ = listing.attributes.title, listing.attributes.price


READS: dict[str, Callable[[list[Any]], None]] = {
    "listings": _listings,
    "search": _search,
    "transactions": _transactions,
    "events": _events,
    "sparse": _sparse,
}
"""What a program reads of each shape's `data`, decoded: every included resource each
resource names (a listing's author and images, and the author's profile image on the search
page; a transaction's listing, parties, booking, reviews and messages), an event's resource,
a sparse listing's two attributes."""
assert READS.keys() == SHAPES.keys()


def encoded_shape(shape: str) -> tuple[bytes, bytes]:
    """A shape's page as (JSON bytes, Transit bytes), as the API writes each."""
    return encoded_body(SHAPES[shape]())


def encoded_body(body: dict[str, Any]) -> tuple[bytes, bytes]:
    """A page as (JSON bytes, Transit bytes), as the API writes each: in Transit, the type
    of every resource (an event's resource too) and reference as a keyword."""
    transit = keyword_types(body)
    transit["data"] = [_typed(item) for item in transit["data"]]
    return JSON.encode(body), TRANSIT.encode(transit)


def _typed(item: dict[str, Any]) -> dict[str, Any]:
    """An event with its resource's types as keywords; any other resource as it is."""
    resource = (item.get("attributes") or {}).get("resource")
    if resource is None:
        return item
    typed = keyword_types({"data": resource})["data"]
    return item | {"attributes": item["attributes"] | {"resource": typed}}
