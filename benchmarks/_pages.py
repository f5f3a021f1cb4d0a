"""Realistic listing pages, as the API would send them, for the benchmarks."""

from __future__ import annotations

import datetime as dt
import random
import uuid
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
