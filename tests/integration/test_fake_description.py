"""The fake describes nothing twice: it answers the endpoints of the endpoint table, checks
parameters against their TypedDicts, and sends a resource's attributes as its model names
them."""

from __future__ import annotations

from typing import Any

import pytest

from flexclient import BadRequestError, IntegrationClient, MarketplaceClient, Money
from flexclient._endpoint import Endpoint
from flexclient.models import ListingAttributes, UserAttributes
from flexclient.testing import FakeMarketplace
from flexclient.testing._routes import BY_PATH, TABLES, handler_for, routes


def body(values: dict[str, Any]) -> Any:
    """Parameters the type checker would refuse, sent to see the fake refuse them."""
    return values


def wire_names(model: Any) -> set[str]:
    return {info.alias or name for name, info in model.model_fields.items()}


def test_routes_come_from_the_endpoint_table() -> None:
    for api in TABLES:
        table = list(routes(api))
        assert table and len(BY_PATH[api]) == len(table)
        for route in table:
            assert isinstance(route.endpoint, Endpoint)
            assert BY_PATH[api][route.endpoint.path] == route
            assert route.endpoint.path.startswith(f"{route.group}/")
    # The handlers are keyed by the table's own entries.
    shown = BY_PATH["marketplace"]["listings/show"].endpoint
    registered, same = (
        handler_for(shown),
        handler_for(BY_PATH["integration"]["listings/show"].endpoint),
    )
    assert registered is not None and same is not None and registered.handler is same.handler


def test_body_keys_are_checked_against_the_parameter_typeddict(
    marketplace_client: MarketplaceClient, fake_marketplace: FakeMarketplace
) -> None:
    fake_marketplace.add_user("p@example.com", "p-password")
    marketplace_client.login(username="p@example.com", password="p-password")
    with pytest.raises(BadRequestError) as unknown:
        marketplace_client.own_listings.create(body({"title": "x", "colour": "red"}))
    assert unknown.value.codes == ["validation-disallowed-key"]
    assert unknown.value.data.errors[0].source is not None
    assert unknown.value.data.errors[0].source.path == ["body", "colour"]
    with pytest.raises(BadRequestError) as absent:
        marketplace_client.own_listings.create(body({"description": "no title"}))
    assert absent.value.codes == ["validation-missing-key"]
    with pytest.raises(BadRequestError) as wrong:
        marketplace_client.own_listings.create(body({"title": "x", "price": "5 EUR"}))
    assert wrong.value.codes == ["validation-invalid-value"]
    assert wrong.value.data.errors[0].source is not None
    assert wrong.value.data.errors[0].source.path == ["body", "price"]


def test_attributes_are_the_models_fields(
    marketplace_client: MarketplaceClient,
    integration_client: IntegrationClient,
    fake_marketplace: FakeMarketplace,
) -> None:
    seller = fake_marketplace.add_user("s@example.com", "s-password")
    marketplace_client.login(username="s@example.com", password="s-password")
    made = marketplace_client.own_listings.create(
        {"title": "Bike", "price": Money(100, "EUR")}, {"expand": True}
    ).data.data
    # The author's view has every field of the listing model; others' lack private data.
    assert made.attributes.model_fields_set == set(ListingAttributes.model_fields)
    public = marketplace_client.listings.show({"id": made.id}).data.data.attributes
    assert set(ListingAttributes.model_fields) - public.model_fields_set == {"private_data"}
    operator = integration_client.users.show({"id": seller}).data.data.attributes
    assert operator.model_fields_set == set(UserAttributes.model_fields)
    assert not wire_names(UserAttributes) & set(operator.model_extra or {})
