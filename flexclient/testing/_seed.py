"""The demo data (`seed="demo"`): a few users with known logins and 250 listings with images."""

from __future__ import annotations

import datetime as dt
import random
import struct
import uuid
import zlib

from flexclient._types import LatLng, Money
from flexclient.testing import _state as s

DEMO_USERS: list[tuple[str, str, str, str]] = [
    # email, password, first name, last name
    ("aino@example.com", "aino-demo-pass", "Aino", "Korhonen"),
    ("ben@example.com", "ben-demo-pass", "Ben", "Okafor"),
    ("chloe@example.com", "chloe-demo-pass", "Chloé", "Martin"),
    ("dev@example.com", "dev-demo-pass", "Dev", "Patel"),
]
CATEGORIES = ["road", "city", "mountain", "kids", "electric"]
ADJECTIVES = ["Fast", "Sturdy", "Vintage", "Light", "Folding", "Comfortable", "Restored", "Compact"]
PLACES = [
    LatLng(60.1699, 24.9384),
    LatLng(52.52, 13.405),
    LatLng(40.7128, -74.006),
    LatLng(51.5074, -0.1278),
]


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
    authors = []
    for i, (email, password, first, last) in enumerate(DEMO_USERS):
        user = s.User(
            next(ids),
            email,
            password,
            first,
            last,
            f"{first} {last[0]}",
            created_at=start + dt.timedelta(days=i),
            email_verified=True,
            bio=f"{first} sells bikes.",
        )
        avatar = s.Image(next(ids), png(8, 8, (40 * i, 120, 200)), "image/png", 8, 8, user.id)
        state.images[avatar.id] = avatar
        user.profile_image_id = avatar.id
        state.users[user.id] = user
        authors.append(user)
    for n in range(250):
        author = authors[n % len(authors)]
        category = CATEGORIES[n % len(CATEGORIES)]
        color = (rng.randrange(256), rng.randrange(256), rng.randrange(256))
        image = s.Image(next(ids), png(16, 12, color), "image/png", 16, 12, author.id)
        state.images[image.id] = image
        base = rng.choice(PLACES)
        listing = s.Listing(
            next(ids),
            author.id,
            f"{rng.choice(ADJECTIVES)} {category} bike #{n + 1}",
            description=f"A {category} bike in good condition.",
            geolocation=LatLng(
                round(base.lat + rng.uniform(-0.05, 0.05), 5),
                round(base.lng + rng.uniform(-0.05, 0.05), 5),
            ),
            price=Money(rng.randrange(50, 2000) * 100, "EUR"),
            created_at=start + dt.timedelta(hours=n),
            public_data={
                "category": category,
                "gears": rng.choice([1, 3, 7, 21]),
                "tags": rng.sample(["steel", "carbon", "aluminium", "red", "blue"], 2),
            },
            image_ids=[image.id],
            stock=rng.randrange(0, 5),
        )
        state.listings[listing.id] = listing
