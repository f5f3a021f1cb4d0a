"""Assets: the content pages made in Console, as `sitemap_data.query_assets` lists them."""

from __future__ import annotations

from typing import ClassVar

from pydantic import Field

from flexclient.models._resource import Attributes, Resource


class AssetAttributes(Attributes):
    asset_path: str | None = None


class Asset(Resource):
    """A content asset: `asset_path` is its path (`/content/pages/about.json`)."""

    resource_type: ClassVar[str | None] = "asset"
    attributes: AssetAttributes = Field(default_factory=AssetAttributes)
