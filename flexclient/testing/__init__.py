"""Test against a fake Sharetribe marketplace served over real HTTP.

>>> from flexclient import MarketplaceClient
>>> from flexclient.testing import FakeMarketplace
>>> with FakeMarketplace(seed="demo") as fake:
...     sdk = MarketplaceClient(fake.client_id, base_url=fake.url)
...     sdk.listings.query({"perPage": 5}).data.meta.total_items
250

Needs werkzeug and edn-format, the `testing` extra (`pip install werkzeug edn-format`).
See docs/testing.md.
"""

from flexclient._errors import ProcessFileError, require

require("werkzeug", "testing", "the fake marketplace (flexclient.testing)")
require("edn_format", "testing", "the fake marketplace's transaction processes")

from flexclient.testing._asset_cdn import FakeAssetCDN  # noqa: E402
from flexclient.testing._asset_trees import (  # noqa: E402
    AssetTrees,
    default_assets,
    read_asset_folder,
)
from flexclient.testing._seed import DEMO_USERS  # noqa: E402
from flexclient.testing._serve_process import Served, fake_process  # noqa: E402
from flexclient.testing._server import FakeMarketplace  # noqa: E402

__all__ = [
    "DEMO_USERS",
    "AssetTrees",
    "FakeAssetCDN",
    "FakeMarketplace",
    "ProcessFileError",
    "Served",
    "default_assets",
    "fake_process",
    "read_asset_folder",
]
