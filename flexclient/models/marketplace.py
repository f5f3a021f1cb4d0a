"""The marketplace resource."""

from __future__ import annotations

from typing import ClassVar

from pydantic import Field

from flexclient.models._resource import Attributes, Resource


class MarketplaceAttributes(Attributes):
    name: str | None = None
    description: str | None = None


class Marketplace(Resource):
    """The marketplace itself (`marketplace.show`)."""

    resource_type: ClassVar[str | None] = "marketplace"
    attributes: MarketplaceAttributes = Field(default_factory=MarketplaceAttributes)
