"""End-to-end tests: flexclient against the fake marketplace over real HTTP, both formats."""

from __future__ import annotations

from typing import cast

import pytest

from flexclient import IntegrationClient, MarketplaceClient
from flexclient._wire import WireFormatName
from flexclient.testing import FakeMarketplace
from tests.conftest import NO_WAIT


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
