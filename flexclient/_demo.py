"""`python -m flexclient demo`: a tour of flexclient against the built-in fake marketplace."""

from __future__ import annotations

import random
import struct
import sys
import time
import uuid
import zlib

from flexclient import (
    IntegrationClient,
    LatLng,
    MarketplaceClient,
    Money,
    NotFoundError,
    UploadProgress,
)
from flexclient._wire.values import display


def _photo(width: int = 320, height: int = 240) -> bytes:
    """A PNG of noise (so it does not compress), about 230 kB."""
    rng = random.Random(7)

    def chunk(kind: bytes, data: bytes) -> bytes:
        crc = struct.pack(">I", zlib.crc32(kind + data))
        return struct.pack(">I", len(data)) + kind + data + crc

    rows = b"".join(b"\x00" + rng.randbytes(width * 3) for _ in range(height))
    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", header)
        + chunk(b"IDAT", zlib.compress(rows, 0))
        + chunk(b"IEND", b"")
    )


def _bar(progress: UploadProgress) -> None:
    # Redrawn in place on a terminal; elsewhere (a log, a pipe) only the finished bar.
    finished = progress.loaded == progress.total
    if not (sys.stdout.isatty() or finished):
        return
    done = int(30 * progress.loaded / progress.total)
    bar = f"   uploading [{'#' * done}{'.' * (30 - done)}] {progress.loaded:>7}/{progress.total} B"
    sys.stdout.write(("\r" if sys.stdout.isatty() else "") + bar + ("\n" if finished else ""))
    sys.stdout.flush()


def _money(value: Money | None) -> str:
    return display(value) if value else "-"


def run() -> None:
    from flexclient.testing import DEMO_USERS, FakeMarketplace

    started = time.monotonic()
    with FakeMarketplace(seed="demo") as fake:
        print(f"Fake marketplace running at {fake.url}\n")
        sdk = MarketplaceClient(fake.client_id, base_url=fake.url)

        print("1. Anonymous query, with authors and images included")
        res = sdk.listings.query(
            {"perPage": 5, "include": ["author", "images"], "sort": "price"},
            custom={"pub_category": "road"},
        )
        page = res.data
        total, shown = page.meta.total_items, len(page.data)
        print(f"   {res.status} {res.status_text}: {total} road bikes, showing {shown}")
        print(f"   {'title':<28} {'price':>14}  {'author':<12} images")
        for listing in page.data:
            a = listing.attributes
            author = listing.author.attributes.profile.display_name or "?"
            price = _money(a.price)
            print(f"   {a.title or '':<28} {price:>14}  {author:<12} {len(listing.images)}")

        email, password = DEMO_USERS[0][0], DEMO_USERS[0][1]
        print(f"\n2. Log in as {email}")
        sdk.login(username=email, password=password)
        me = sdk.current_user.show().data.data
        print(
            f"   logged in as {me.attributes.profile.display_name}; scopes {sdk.auth_info().scopes}"
        )

        print("\n3. Upload an image and create a listing with a price and a location")
        image = sdk.images.upload(
            {"image": _photo()}, {"expand": True}, {"on_upload_progress": _bar}
        ).data.data
        created = sdk.own_listings.create(
            {
                "title": "Demo bike",
                "price": Money(12500, "EUR"),
                "geolocation": LatLng(60.1699, 24.9384),
                "images": [image.id],
            },
            {"expand": True, "include": ["images"]},
        ).data.data
        c = created.attributes
        print(f"   created {created.id}: {c.title}, {_money(c.price)},")
        print(f"   at {c.geolocation}, with {len(created.images)} image")

        print("\n4. Update it through the Integration API")
        integ = IntegrationClient(fake.client_id, fake.client_secret, base_url=fake.url)
        updated = integ.listings.update(
            {"id": created.id, "title": "Demo bike (checked)", "metadata": {"checked": True}},
            {"expand": True},
        ).data.data
        print(f"   title now {updated.attributes.title!r}, metadata {updated.attributes.metadata}")

        print("\n5. The events those changes produced")
        for event in integ.events.query({"resourceId": created.id}).data.data:
            ev = event.attributes
            print(f"   #{ev.sequence_id} {ev.event_type:<16} from {ev.source}")
            print(f"      previous values: {ev.previous_values}")

        print("\n6. An error, as the API reports it")
        try:
            sdk.listings.show({"id": uuid.uuid4()})
        except NotFoundError as e:
            print(
                f"   {type(e).__name__}: {e.status} {e.status_text}, code {e.data.errors[0].code!r}"
            )

    print(f"\nDone in {time.monotonic() - started:.1f} s.")
