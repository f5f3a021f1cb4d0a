"""Test against a fake Sharetribe marketplace served over real HTTP.

>>> from flexclient import MarketplaceClient
>>> from flexclient.testing import FakeMarketplace
>>> with FakeMarketplace(seed="demo") as fake:  # doctest: +SKIP
...     sdk = MarketplaceClient(fake.client_id, base_url=fake.url)
...     sdk.listings.query({"perPage": 5}).data.meta.total_items
250

Needs the `testing` extra: `pip install "flexclient[testing]"`. See docs/testing.md.
"""

from flexclient.testing._process import Served, fake_process
from flexclient.testing._seed import DEMO_USERS
from flexclient.testing._server import FakeMarketplace

__all__ = ["DEMO_USERS", "FakeMarketplace", "Served", "fake_process"]
