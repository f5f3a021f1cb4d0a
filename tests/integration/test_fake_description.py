"""The fake describes nothing twice: it answers the endpoints of the endpoint table, checks
parameters against their TypedDicts, and sends a resource's attributes as its model names
them."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest
import requests

from flexclient import BadRequestError, IntegrationClient, MarketplaceClient, Money
from flexclient._endpoints.kinds import Endpoint
from flexclient._endpoints.walk import TABLES, by_path, iter_endpoints
from flexclient.models import Listing, ListingAttributes, UserAttributes
from flexclient.testing import FakeMarketplace
from flexclient.testing._routes import handler_for
from flexclient.testing._seed import png


def body(values: dict[str, Any]) -> Any:
    """Parameters the type checker would refuse, sent to see the fake refuse them."""
    return values


def wire_names(model: Any) -> set[str]:
    return {info.alias or name for name, info in model.model_fields.items()}


def test_routes_come_from_the_endpoint_table() -> None:
    for api in TABLES:
        table = list(iter_endpoints(api))
        assert table and len(by_path(api)) == len(table)
        for route in table:
            assert isinstance(route.endpoint, Endpoint)
            assert by_path(api)[route.endpoint.path] == route
            assert route.endpoint.path.startswith(f"{route.group}/")
    # The handlers are keyed by the table's own entries.
    shown = by_path("marketplace")["listings/show"].endpoint
    registered, same = (
        handler_for(shown),
        handler_for(by_path("integration")["listings/show"].endpoint),
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


def test_every_endpoint_of_the_table_has_a_handler() -> None:
    missing = [
        f"{route.api} {route.endpoint.path}"
        for route in iter_endpoints()
        if handler_for(route.endpoint) is None
    ]
    assert missing == []


def test_no_endpoint_answers_501(fake_marketplace: FakeMarketplace) -> None:
    # Each endpoint called with no parameters: an answer or an API error, never "not
    # implemented".
    fake_marketplace.add_user("any@example.com", "any-password")
    tokens = {
        "marketplace": _token(fake_marketplace, grant_type="password", scope="user"),
        "integration": _token(fake_marketplace, grant_type="client_credentials", scope="integ"),
    }
    prefix = {"marketplace": "/v1/api/", "integration": "/v1/integration_api/"}
    statuses: dict[tuple[str, str], int] = {}
    for route in iter_endpoints():
        api = route.api
        url = fake_marketplace.url + prefix[api] + route.endpoint.path
        headers = {"Authorization": f"Bearer {tokens[api]}", "Accept": "application/json"}
        if route.endpoint.kind == "query":
            res = requests.get(url, headers=headers, timeout=10)
        else:
            res = requests.post(url, json={}, headers=headers, timeout=10)
        statuses[route.endpoint.path, api] = res.status_code
        assert res.status_code != 501 and res.status_code < 500, (route, res.text)
        assert "data" in res.json() or "errors" in res.json()
    assert len(statuses) == len(list(iter_endpoints()))


def _token(fake: FakeMarketplace, **form: str) -> str:
    form = {"client_id": fake.client_id, **form}
    if form["grant_type"] == "password":
        form.update(username="any@example.com", password="any-password")
    else:
        form["client_secret"] = fake.client_secret
    answer = requests.post(f"{fake.url}/v1/auth/token", data=form, timeout=10).json()
    token: str = answer["access_token"]
    return token


def test_relationships_are_the_models(
    marketplace_client: MarketplaceClient,
    integration_client: IntegrationClient,
    fake_marketplace: FakeMarketplace,
) -> None:
    fake_marketplace.add_user("r@example.com", "r-password")
    marketplace_client.login(username="r@example.com", password="r-password")
    me = marketplace_client.current_user.show(
        {"include": ["stripeCustomer", "effectivePermissionSet"]}
    ).data.data
    # Declared by the model, not linked yet: sent empty; the permissions always.
    assert me.stripe_customer is None
    assert me.effective_permission_set.attributes.post_listings == "permission/allow"
    listing = marketplace_client.own_listings.create({"title": "Hut"}).data.data
    start = dt.datetime(2030, 5, 1, tzinfo=dt.UTC)
    made = marketplace_client.availability_exceptions.create(
        {"listingId": listing.id, "start": start, "end": start + dt.timedelta(days=1), "seats": 0},
        {"expand": True, "include": ["ownListing"]},
    ).data.data
    # The model names it after the owner's view of the listing: so does the fake.
    assert made.own_listing.type == "ownListing" and made.own_listing.id == listing.id
    image = marketplace_client.images.upload({"image": png(2, 2, (1, 1, 1))}).data.data
    marketplace_client.own_listings.add_image({"id": listing.id, "imageId": image.id})
    update = integration_client.events.query({"eventTypes": ["listing/updated"]}).data.data[-1]
    resource = update.attributes.resource
    assert isinstance(resource, Listing)
    images = resource.relationships["images"].data
    assert isinstance(images, list) and [i.id for i in images] == [image.id]
    assert update.attributes.previous_values == {
        "attributes": {},
        "relationships": {"images": {"data": []}},
    }
