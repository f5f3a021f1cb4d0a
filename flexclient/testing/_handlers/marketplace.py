"""`marketplace`: the marketplace itself."""

from __future__ import annotations

from typing import Any

from flexclient._endpoints.table import IntegrationEndpoints as Integ
from flexclient._endpoints.table import MarketplaceEndpoints as Market
from flexclient.testing._call import Call
from flexclient.testing._routes import handles


@handles(Market.marketplace.cls.show, Integ.marketplace.cls.show)
def show(c: Call) -> dict[str, Any]:
    return c.one(c.state.marketplace)
