"""The official JS SDKs, driven against the fake, decode what it sends: the fake speaks the
real protocol. And flexclient reads the same things from it."""

from __future__ import annotations

import datetime as dt
from pathlib import Path
from typing import Any

from flexclient import MarketplaceClient, Money
from flexclient.testing import DEMO_USERS, FakeMarketplace
from flexclient.testing._seed import png
from tests.helpers import integration
from tests.js_sdks import ROOT, run_js

SCRIPT = ROOT / "tests" / "parity" / "drive_fake.js"


def drive(
    fake: FakeMarketplace, tmp_path: Path, listing: str, start: dt.datetime
) -> dict[str, Any]:
    photo = tmp_path / "photo.png"
    photo.write_bytes(png(24, 16, (9, 99, 199)))
    email, password = DEMO_USERS[0][0], DEMO_USERS[0][1]
    when = start.isoformat().replace("+00:00", "Z")
    result: dict[str, Any] = run_js(
        SCRIPT, fake.url, fake.client_id, fake.client_secret, email, password, str(photo),
        listing, when,
    )  # fmt: skip
    return result


def test_official_sdks_decode_what_the_fake_sends(tmp_path: Path) -> None:
    with FakeMarketplace(seed="demo") as fake:
        # Read first: the JS run adds a listing that this query would otherwise find.
        ours = MarketplaceClient(fake.client_id, base_url=fake.url)
        page = ours.listings.query(
            {"perPage": 3, "include": ["author", "images"], "sort": "price"}
        ).data
        first = page.data[0]
        # Another demo user's listing, bookable: its author can be paid (a demo Stripe account).
        provider = MarketplaceClient(
            fake.client_id, client_secret=fake.client_secret, base_url=fake.url
        )
        provider.login(username=DEMO_USERS[1][0], password=DEMO_USERS[1][1])
        bookable = provider.own_listings.query({"perPage": 1}).data.data[0]
        start = (fake.now + dt.timedelta(days=30)).replace(
            hour=0, minute=0, second=0, microsecond=0
        )
        js = drive(fake, tmp_path, str(bookable.id), start)
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
        integ = integration(fake)
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

        # The booking, as the official SDK reads what the fake sends for it.
        assert js["timeSlot"] == {
            "type": "timeSlot",
            "slotType": "time-slot/day",
            "seats": 1,
            "startIsDate": True,
        }
        t = js["transaction"]
        assert t["speculativePayin"] == [6000, "EUR"] and t["payin"] == 6000
        assert t["payinIsMoney"] and t["lineTotalIsMoney"] and t["transitionCreatedAtIsDate"]
        assert t["quantityIsBigDecimal"] and t["quantity"] == "2"
        assert t["lastTransition"] == "transition/request-payment"
        assert t["bookingState"] == "pending" and t["bookingStartIsDate"]
        assert t["bookingStart"] == start.isoformat(timespec="milliseconds").replace("+00:00", "Z")
        assert js["stripe"] == {"status": 200, "intent": "requires_capture"}
        assert js["confirmed"] == "transition/confirm-payment"
        assert js["transitionError"] == {"status": 409, "code": "transaction-invalid-transition"}
        assert ["processTransition", "transition/accept", ["provider"]] in js["processTransitions"]
        assert js["messages"] == [
            {"content": "See you!", "createdAtIsDate": True, "senderType": "user"}
        ]
        assert js["operator"] == {"by": "operator", "bookingState": "accepted"}
        assert js["permissions"]["initiateTransactions"] == "permission/deny"
        assert js["stripeAccount"] == {"type": "stripeAccount", "id": "acct_", "country": "FI"}
        assert js["paymentMethod"] == {
            "type": "stripePaymentMethod",
            "card": {
                "brand": "visa",
                "last4Digits": "4242",
                "expirationMonth": 12,
                "expirationYear": 2034,
            },
        }
        assert js["passwordReset"] == "requested" and fake.outbox[-1].to == DEMO_USERS[0][0]
        # flexclient reads the same transaction.
        tx = provider.transactions.query({"include": ["booking"]}).data.data[0]
        assert tx.attributes.payin_total == Money(6000, "EUR")
        assert tx.booking is not None and tx.booking.attributes.start == start
