"""End-to-end tests: flexclient against the fake marketplace over real HTTP, both formats."""

from __future__ import annotations

import datetime as dt
import uuid
from pathlib import Path
from typing import Any, cast

import pytest

from flexclient import IntegrationClient, MarketplaceClient, Money
from flexclient._wire.formats import WireFormatName
from flexclient.models import OwnListing, Transaction
from flexclient.testing import FakeMarketplace
from tests.helpers import NO_WAIT


@pytest.fixture(params=["transit", "json"])
def wire(request: pytest.FixtureRequest) -> WireFormatName:
    return cast(WireFormatName, request.param)


@pytest.fixture
def sdk(fake_marketplace: FakeMarketplace, wire: WireFormatName) -> MarketplaceClient:
    return MarketplaceClient(
        fake_marketplace.client_id,
        client_secret=fake_marketplace.client_secret,
        base_url=fake_marketplace.url,
        wire_format=wire,
        retry_policy=NO_WAIT,
    )


@pytest.fixture
def integ(fake_marketplace: FakeMarketplace, wire: WireFormatName) -> IntegrationClient:
    return IntegrationClient(
        fake_marketplace.client_id,
        fake_marketplace.client_secret,
        base_url=fake_marketplace.url,
        wire_format=wire,
        retry_policy=NO_WAIT,
    )


@pytest.fixture
def demo_sdk(demo_marketplace: FakeMarketplace, wire: WireFormatName) -> MarketplaceClient:
    return MarketplaceClient(
        demo_marketplace.client_id, base_url=demo_marketplace.url, wire_format=wire
    )


@pytest.fixture
def cli(
    fake_marketplace: FakeMarketplace, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> list[str]:
    """The `flexclient` command's options that point it at `fake_marketplace` (its client ID
    and secret in the environment)."""
    for prefix in ("SHARETRIBE_SDK", "FLEX_INTEGRATION"):
        monkeypatch.setenv(f"{prefix}_CLIENT_ID", fake_marketplace.client_id)
        monkeypatch.setenv(f"{prefix}_CLIENT_SECRET", fake_marketplace.client_secret)
    return ["--base-url", fake_marketplace.url, "--token-file", str(tmp_path / "token.json")]


# --- transactions: what a booking or a purchase needs before it can start --------------------


ROOM_PRICE = Money(5000, "EUR")


def login(fake: FakeMarketplace, email: str, wire: WireFormatName = "transit") -> MarketplaceClient:
    """A user of `fake` logged in with a client that has the client secret (for trusted
    calls); the user is added first."""
    fake.add_user(email, f"{email}-pass", first_name=email.split("@")[0].capitalize())
    sdk = MarketplaceClient(
        fake.client_id,
        client_secret=fake.client_secret,
        base_url=fake.url,
        wire_format=wire,
        retry_policy=NO_WAIT,
    )
    sdk.login(username=email, password=f"{email}-pass")
    return sdk


def connect_stripe(sdk: MarketplaceClient) -> None:
    """Give the logged-in user a Stripe account, as providers need to be paid."""
    sdk.stripe_account.create(
        {"country": "FI", "accountToken": "ct_test", "bankAccountToken": "btok_test"}
    )


def hosted_room(
    fake: FakeMarketplace, price: Money = ROOM_PRICE
) -> tuple[MarketplaceClient, OwnListing, MarketplaceClient]:
    """A host who can be paid, a room of theirs at `price` a day, and a guest: both users
    logged in."""
    host = login(fake, "host@example.com")
    connect_stripe(host)
    room = host.own_listings.create({"title": "Room", "price": price}).data.data
    return host, room, login(fake, "guest@example.com")


def midnight(fake: FakeMarketplace, days: int) -> dt.datetime:
    """Midnight (UTC) `days` after the fake's day."""
    return (fake.now + dt.timedelta(days=days)).replace(hour=0, minute=0, second=0, microsecond=0)


def items(price: Money, quantity: int = 1, commission_percent: int = 0) -> list[dict[str, Any]]:
    """Line items as a marketplace's server computes them: the price times the quantity, and
    the provider's commission as a negative percentage of it."""
    lines: list[dict[str, Any]] = [
        {
            "code": "line-item/units",
            "unitPrice": price,
            "quantity": quantity,
            "includeFor": ["customer", "provider"],
        }
    ]
    if commission_percent:
        total = Money(-price.amount * quantity, price.currency)
        lines.append(
            {
                "code": "line-item/provider-commission",
                "unitPrice": total,
                "percentage": commission_percent,
                "includeFor": ["provider"],
            }
        )
    return lines


def paid_booking(
    fake: FakeMarketplace,
    customer: MarketplaceClient,
    listing_id: uuid.UUID,
    start: dt.datetime,
    length: dt.timedelta,
    price: Money,
) -> Transaction:
    """A default-booking transaction that `customer` requested (through the trusted client,
    with the line items a server would compute) and paid for: Stripe.js confirms the payment
    in the browser, then the customer confirms it to the marketplace."""
    tx = (
        customer.trusted_client()
        .transactions.initiate(
            {
                "processAlias": "default-booking/release-1",
                "transition": "transition/request-payment",
                "params": {
                    "listingId": listing_id,
                    "bookingStart": start,
                    "bookingEnd": start + length,
                    "lineItems": items(price),
                },
            }
        )
        .data.data
    )
    fake.stripe.confirm_payment_intent(tx.id)
    customer.transactions.transition({"id": tx.id, "transition": "transition/confirm-payment"})
    return tx
