"""The demo data (`seed="demo"`): a few users with known logins and 250 listings with images,
shaped as the fake's default assets describe a listing (`default_assets/listings/`): each
listing's type, the process and unit type that go with it, its category and its fields."""

from __future__ import annotations

import datetime as dt
import random
import struct
import uuid
import zlib
from typing import Any

from flexclient._wire.value_types import LatLng, Money
from flexclient.models import CurrentUserAttributes, ImageAttributes, ListingAttributes
from flexclient.testing import _state as s
from flexclient.testing._stock import set_quantity

DEMO_USERS: list[tuple[str, str, str, str]] = [
    # email, password, first name, last name
    ("aino@example.com", "aino-demo-pass", "Aino", "Korhonen"),
    ("ben@example.com", "ben-demo-pass", "Ben", "Okafor"),
    ("chloe@example.com", "chloe-demo-pass", "Chloé", "Martin"),
    ("dev@example.com", "dev-demo-pass", "Dev", "Patel"),
]
CATEGORIES = ["road", "city", "mountain", "kids", "electric"]
ADJECTIVES = ["Fast", "Sturdy", "Vintage", "Light", "Folding", "Comfortable", "Restored", "Compact"]
# The listing types of the default assets (listings/listing-types.json): type -> (process
# alias, unit type), in the share of the listings each gets (of every ten, six, three, one).
LISTING_TYPES: dict[str, tuple[str, str]] = {
    "rent-a-bike": ("default-booking/release-1", "day"),
    "sell-a-bike": ("default-purchase/release-1", "item"),
    "ask-about-a-bike": ("default-inquiry/release-1", "inquiry"),
}
_TYPE_OF_TENTH = ["rent-a-bike"] * 6 + ["sell-a-bike"] * 3 + ["ask-about-a-bike"]
# The user type of the default assets (users/user-types.json) that every demo user has.
USER_TYPE = "rider"
# Bookable every day, all day, in UTC (the demo's bookings run from midnight to midnight UTC).
ALL_DAYS_PLAN: dict[str, Any] = {
    "type": "availability-plan/time",
    "timezone": "Etc/UTC",
    "entries": [
        {"dayOfWeek": day, "startTime": "00:00", "endTime": "00:00", "seats": 1}
        for day in ("mon", "tue", "wed", "thu", "fri", "sat", "sun")
    ],
}
PLACES = [
    LatLng(60.1699, 24.9384),
    LatLng(52.52, 13.405),
    LatLng(40.7128, -74.006),
    LatLng(51.5074, -0.1278),
]
# Where each place is, as a listing's address (`publicData.location`, as the web template
# keeps it beside the geolocation).
PLACE_NAMES = ["Helsinki, Finland", "Berlin, Germany", "New York, USA", "London, UK"]
# How a bike that is sold reaches its buyer: picked up, or shipped for these fees (the web
# template's keys, in the listing's currency's minor units).
DELIVERY: dict[str, Any] = {
    "pickupEnabled": True,
    "shippingEnabled": True,
    "shippingPriceInSubunitsOneItem": 1500,
    "shippingPriceInSubunitsAdditionalItems": 500,
}


def png(width: int, height: int, rgb: tuple[int, int, int]) -> bytes:
    """A valid PNG of one colour."""

    def chunk(kind: bytes, data: bytes) -> bytes:
        return (
            struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
        )

    row = b"\x00" + bytes(rgb) * width
    return (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0))
        + chunk(b"IDAT", zlib.compress(row * height))
        + chunk(b"IEND", b"")
    )


def seed_demo(state: s.State) -> None:
    rng = random.Random(2026)
    ids = (uuid.UUID(int=rng.getrandbits(128), version=4) for _ in iter(int, 1))
    start = dt.datetime(2026, 1, 1, tzinfo=dt.UTC)
    authors: list[s.Record[CurrentUserAttributes]] = []
    for i, (email, password, first, last) in enumerate(DEMO_USERS):
        user = s.new_user(
            email,
            first,
            last,
            f"{first} {last[0]}",
            created_at=start + dt.timedelta(days=i),
            email_verified=True,
            bio=f"{first} sells bikes.",
            public_data={"userType": USER_TYPE},
        )
        user.id = next(ids)
        avatar = _image(state, next(ids), png(8, 8, (40 * i, 120, 200)), 8, 8)
        user.link("profileImage", "image", avatar.id)
        state.users[user.id] = user
        state.passwords[user.id] = password
        authors.append(user)
    for n in range(250):
        author = authors[n % len(authors)]
        category = CATEGORIES[n % len(CATEGORIES)]
        listing_type = _TYPE_OF_TENTH[n % len(_TYPE_OF_TENTH)]
        process, unit = LISTING_TYPES[listing_type]
        color = (rng.randrange(256), rng.randrange(256), rng.randrange(256))
        image = _image(state, next(ids), png(16, 12, color), 16, 12)
        base = rng.choice(PLACES)
        values: dict[str, Any] = {
            "title": f"{rng.choice(ADJECTIVES)} {category} bike #{n + 1}",
            "description": f"A {category} bike in good condition.",
            "geolocation": LatLng(
                round(base.lat + rng.uniform(-0.05, 0.05), 5),
                round(base.lng + rng.uniform(-0.05, 0.05), 5),
            ),
            "price": Money(rng.randrange(50, 2000) * 100, "EUR"),
            "state": "published",
            "created_at": start + dt.timedelta(hours=n),
            "public_data": {
                "listingType": listing_type,
                "transactionProcessAlias": process,
                "unitType": unit,
                "categoryLevel1": category,
                "category": category,
                "location": {"address": PLACE_NAMES[PLACES.index(base)], "building": ""},
                "gears": rng.choice([1, 3, 7, 21]),
                "tags": rng.sample(["steel", "carbon", "aluminium", "red", "blue"], 2),
            },
        }
        if unit == "day":
            values["availability_plan"] = ALL_DAYS_PLAN
        if unit == "item":
            values["public_data"].update(DELIVERY)
        listing = s.new("listing", ListingAttributes, values, next(ids))
        listing.link("marketplace", "marketplace", s.MARKETPLACE_ID)
        listing.link("author", "user", author.id)
        listing.link_many("images", "image", [image.id])
        state.listings[listing.id] = listing
        items = rng.randrange(0, 5)  # drawn for every listing, so the rest stays as it was
        if unit == "item":  # only what is sold has stock
            set_quantity(state, listing, items)


def _image(
    state: s.State, rid: uuid.UUID, content: bytes, width: int, height: int
) -> s.Record[ImageAttributes]:
    image = s.new("image", ImageAttributes, rid=rid)
    state.images[image.id] = image
    state.blobs[image.id] = s.Blob(content, "image/png", width, height)
    return image
