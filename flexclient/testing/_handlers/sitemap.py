"""`sitemap_data`: what a marketplace's sitemap lists."""

from __future__ import annotations

import uuid
from typing import Any

from flexclient._endpoints.table import MarketplaceEndpoints as Market
from flexclient.testing._call import Call
from flexclient.testing._routes import handles

# The listings a sitemap holds: the newest published ones, at most this many.
SITEMAP_LISTINGS = 10_000


@handles(Market.sitemap_data.cls.query_listings)
def query_listings(c: Call) -> dict[str, Any]:
    published = [
        lst
        for lst in c.state.listings.values()
        if lst.attributes.state == "published" and not lst.attributes.deleted
    ]
    published.sort(key=_created, reverse=True)
    # Only the references: a sitemap needs the IDs.
    data = [{"id": lst.id, "type": "listing"} for lst in published[:SITEMAP_LISTINGS]]
    return {"data": data, "meta": {"totalItems": len(data)}}


@handles(Market.sitemap_data.cls.query_assets)
def query_assets(c: Call) -> dict[str, Any]:
    # The assets of the latest tree (`fake.assets`) under the prefix: the content pages, as
    # the web template's sitemap asks for them (`pathPrefix=/content/pages/`).
    prefix = c.params.get("pathPrefix", "/")
    tree: list[str] = list(c.assets.tree().assets) if c.assets is not None else []
    paths = sorted(f"/{path}" for path in tree if f"/{path}".startswith(prefix))
    data = [
        {
            "id": uuid.uuid5(uuid.NAMESPACE_URL, path),
            "type": "asset",
            "attributes": {"assetPath": path},
        }
        for path in paths
    ]
    return {"data": data, "meta": {"totalItems": len(data)}}


def _created(listing: Any) -> Any:
    return listing.attributes.created_at
