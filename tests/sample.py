"""A realistic listings page (with included authors and images), in both wire formats."""

from __future__ import annotations

import datetime as dt
import decimal
import json
import uuid
from typing import Any

from flexclient import LatLng, Money
from flexclient._wire.formats import TRANSIT
from tests.shapes import is_dict, is_list

LISTING = uuid.UUID("11111111-1111-4111-8111-111111111111")
LISTING2 = uuid.UUID("11111111-1111-4111-8111-222222222222")
USER = uuid.UUID("22222222-2222-4222-8222-222222222222")
IMAGE = uuid.UUID("33333333-3333-4333-8333-333333333333")
IMAGE2 = uuid.UUID("33333333-3333-4333-8333-444444444444")
AVATAR = uuid.UUID("44444444-4444-4444-8444-444444444444")
CREATED = dt.datetime(2024, 5, 1, 12, 0, tzinfo=dt.UTC)


def ref(id: uuid.UUID, type: str) -> dict[str, object]:
    return {"id": id, "type": type}


def variant(name: str, size: int) -> dict[str, object]:
    return {"name": name, "width": size, "height": size, "url": f"https://img.test/{name}.jpg"}


def page() -> dict[str, Any]:
    """Listing 1 by USER with two images; listing 2 by the same user, no images."""
    return {
        "data": [
            {
                "id": LISTING,
                "type": "listing",
                "attributes": {
                    "title": "Road bike",
                    "description": "Fast",
                    "geolocation": LatLng(60.16, 24.93),
                    "price": Money(5000, "USD"),
                    "state": "published",
                    "deleted": False,
                    "createdAt": CREATED,
                    "publicData": {"category": "road", "gears": 21},
                    "metadata": {},
                    "someFutureAttribute": {"x": 1},
                },
                "relationships": {
                    "author": {"data": ref(USER, "user")},
                    "images": {"data": [ref(IMAGE, "image"), ref(IMAGE2, "image")]},
                    "currentStock": {"data": None},
                },
            },
            {
                "id": LISTING2,
                "type": "listing",
                "attributes": {"title": "Old bike", "state": "brandNewState"},
                "relationships": {"author": {"data": ref(USER, "user")}, "images": {"data": []}},
            },
        ],
        "included": [
            {
                "id": USER,
                "type": "user",
                "attributes": {
                    "banned": False,
                    "deleted": False,
                    "createdAt": CREATED,
                    "profile": {
                        "displayName": "Jane D",
                        "abbreviatedName": "JD",
                        "bio": None,
                        "publicData": {},
                    },
                },
                "relationships": {"profileImage": {"data": ref(AVATAR, "image")}},
            },
            {
                "id": IMAGE,
                "type": "image",
                "attributes": {"variants": {"square-small": variant("square-small", 240)}},
            },
            {
                "id": IMAGE2,
                "type": "image",
                "attributes": {"variants": {"default": variant("default", 750)}},
            },
            {
                "id": AVATAR,
                "type": "image",
                "attributes": {"variants": {"square-small": variant("square-small", 240)}},
            },
            {
                "id": uuid.UUID("55555555-5555-4555-8555-555555555555"),
                "type": "someNewType",
                "attributes": {"anything": [1, 2]},
            },
        ],
        "meta": {
            "totalItems": 2,
            "totalPages": 1,
            "page": 1,
            "perPage": 100,
            "paginationLimit": 100,
            "newMetaKey": "kept",
        },
    }


def jsonable(value: object) -> object:
    """Our value types in the JSON forms the API documents (written out here, not by the
    code under test)."""
    if is_dict(value):
        return {k: jsonable(v) for k, v in value.items()}
    if is_list(value):
        return [jsonable(v) for v in value]
    if isinstance(value, uuid.UUID | decimal.Decimal):
        return str(value)
    if isinstance(value, Money):
        return {"amount": value.amount, "currency": value.currency}
    if isinstance(value, LatLng):
        return {"lat": value.lat, "lng": value.lng}
    if isinstance(value, dt.datetime):
        return value.strftime("%Y-%m-%dT%H:%M:%S.") + f"{value.microsecond // 1000:03d}Z"
    return value


def encoded(body: dict[str, Any], wire: str) -> bytes:
    """The body as the API sends it: Transit with keyword types, or JSON."""
    if wire == "json":
        return json.dumps(jsonable(body)).encode()
    return TRANSIT.encode(body)
