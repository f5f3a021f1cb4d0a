"""pytest fixtures for testing code that uses flexclient against the fake marketplace.

Installing flexclient registers it with pytest (an entry point), so the fixtures need no
`conftest.py` line. It imports the fake marketplace only when a fixture is used: without the
`testing` extra, pytest starts as usual and only a test using these fixtures fails, with the
hint to install it.

Fixtures: `fake_marketplace` (a fresh, empty fake for each test), `demo_marketplace` (one fake
with the demo data for the whole session: do not change its data), and clients bound to the
fresh fake: `marketplace_client` and `integration_client`.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

import pytest

from flexclient import IntegrationClient, MarketplaceClient, RetryPolicy

if TYPE_CHECKING:
    from flexclient.testing import FakeMarketplace

_NO_WAIT = RetryPolicy(sleep=lambda _: None)


@pytest.fixture
def fake_marketplace() -> Iterator[FakeMarketplace]:
    """A fake marketplace with no data, served on 127.0.0.1 for one test."""
    from flexclient.testing import FakeMarketplace

    with FakeMarketplace() as fake:
        yield fake


@pytest.fixture(scope="session")
def demo_marketplace() -> Iterator[FakeMarketplace]:
    """A fake marketplace with the demo data, shared by the whole session."""
    from flexclient.testing import FakeMarketplace

    with FakeMarketplace(seed="demo") as fake:
        yield fake


@pytest.fixture
def marketplace_client(fake_marketplace: FakeMarketplace) -> MarketplaceClient:
    """A Marketplace API client of `fake_marketplace`; retries do not wait."""
    return MarketplaceClient(
        fake_marketplace.client_id,
        client_secret=fake_marketplace.client_secret,
        base_url=fake_marketplace.url,
        retry_policy=_NO_WAIT,
    )


@pytest.fixture
def integration_client(fake_marketplace: FakeMarketplace) -> IntegrationClient:
    """An Integration API client of `fake_marketplace`; retries do not wait."""
    return IntegrationClient(
        fake_marketplace.client_id,
        fake_marketplace.client_secret,
        base_url=fake_marketplace.url,
        retry_policy=_NO_WAIT,
    )
