"""The official JS SDKs, driven against the fake, decode what it sends: the fake speaks the
real protocol. And flexclient reads the same things from it."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path
from typing import Any

from flexclient import IntegrationClient, MarketplaceClient, Money
from flexclient.testing import DEMO_USERS, FakeMarketplace
from flexclient.testing._seed import png
from tests.js_sdks import ROOT, node_env

SCRIPT = ROOT / "tests" / "parity" / "drive_fake.js"


def drive(fake: FakeMarketplace, tmp_path: Path) -> dict[str, Any]:
    photo = tmp_path / "photo.png"
    photo.write_bytes(png(24, 16, (9, 99, 199)))
    email, password = DEMO_USERS[0][0], DEMO_USERS[0][1]
    done = subprocess.run(
        [
            "node",
            str(SCRIPT),
            fake.url,
            fake.client_id,
            fake.client_secret,
            email,
            password,
            str(photo),
        ],
        capture_output=True,
        text=True,
        timeout=120,
        env=node_env(),
    )
    assert done.returncode == 0, done.stderr[-3000:]
    result: dict[str, Any] = json.loads(done.stdout)
    return result


def test_official_sdks_decode_what_the_fake_sends(tmp_path: Path) -> None:
    with FakeMarketplace(seed="demo") as fake:
        # Read first: the JS run adds a listing that this query would otherwise find.
        ours = MarketplaceClient(fake.client_id, base_url=fake.url)
        page = ours.listings.query(
            {"perPage": 3, "include": ["author", "images"], "sort": "price"}
        ).data
        first = page.data[0]
        js = drive(fake, tmp_path)
        q = js["query"]
        assert (q["status"], q["count"], q["totalItems"]) == (200, 3, 250)
        assert (
            q["idIsUUID"]
            and q["priceIsMoney"]
            and q["geolocationIsLatLng"]
            and q["createdAtIsDate"]
        )
        assert q["firstId"] == str(first.id) and q["title"] == first.attributes.title
        assert first.attributes.price == Money(*q["price"])
        assert first.attributes.created_at is not None
        assert q["createdAt"] == first.attributes.created_at.isoformat(
            timespec="milliseconds"
        ).replace("+00:00", "Z")
        assert q["authorName"] == first.author.attributes.profile.display_name

        assert js["authInfo"]["scopes"] == ["user"] and js["authInfo"]["isAnonymous"] is False
        assert js["upload"]["type"] == "image" and "default" in js["upload"]["variants"]

        c = js["create"]
        assert c["type"] == "ownListing" and c["priceIsMoney"] and c["price"] == [5000, "EUR"]
        assert (
            c["geolocation"] == [60.16, 24.93]
            and c["publicData"] == {"gears": 7}
            and len(c["images"]) == 1
        )
        assert js["update"] == {"title": "JS bike, renamed", "metadata": {"rank": 2}}

        # flexclient sees the listing the JS SDK made, and the events of both SDKs' changes.
        integ = IntegrationClient(fake.client_id, fake.client_secret, base_url=fake.url)
        made = integ.listings.show({"id": c["id"], "include": ["images"]}).data.data
        assert made.attributes.title == "JS bike, renamed" and made.attributes.price == Money(
            5000, "EUR"
        )
        assert [str(i.id) for i in made.images] == c["images"]
        events = integ.events.query({"resourceId": c["id"]}).data.data
        assert [(e.attributes.sequence_id, e.attributes.event_type) for e in events] == [
            (e["sequenceId"], e["eventType"]) for e in js["events"]
        ]
        assert js["events"][1]["previousValues"] == {
            "attributes": {"title": "JS bike", "metadata": {}}
        }
        assert js["error"] == {"status": 404, "code": "not-found"}
