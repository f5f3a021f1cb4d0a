"""The fake answers queries as the API does: its orders, its filters, its validation errors."""

from __future__ import annotations

import pytest

from flexclient import ApiError, IntegrationClient, LatLng, LatLngBounds, MarketplaceClient
from flexclient.testing import FakeMarketplace

# --- values the API refuses, refused in its words --------------------------------------------


def refusal(error: ApiError) -> tuple[int, str, list[str] | None]:
    first = error.data.errors[0]
    path = first.source.path if first.source is not None else None
    return error.status, first.code, path


@pytest.mark.parametrize(
    ("params", "where", "expected"),
    [
        ({"perPage": "abc"}, "perPage", "expected an integer"),
        ({"page": "1.5"}, "page", "expected an integer"),
        ({"minStock": "x"}, "minStock", "expected an integer"),
        ({"origin": "60.1"}, "origin", "expected a location"),
        ({"start": "tomorrow", "end": "later"}, "start", "expected a time in ISO 8601"),
        ({"price": "cheap"}, "price", "expected amounts in minor units"),
    ],
)
def test_a_value_of_the_wrong_type_is_named_not_quoted_from_python(
    marketplace_client: MarketplaceClient, params: dict[str, str], where: str, expected: str
) -> None:
    with pytest.raises(ApiError) as info:
        marketplace_client.listings.query(params)  # type: ignore[arg-type]
    assert refusal(info.value) == (400, "validation-invalid-value", ["query", where])
    title = info.value.data.errors[0].title
    assert f"Invalid value for {where}: {expected}" in title
    assert "literal" not in title and "could not convert" not in title


def test_events_per_page_of_the_wrong_type(integration_client: IntegrationClient) -> None:
    with pytest.raises(ApiError) as info:
        integration_client.events.query({"perPage": "ten"})  # type: ignore[typeddict-item]
    assert refusal(info.value) == (400, "validation-invalid-value", ["query", "perPage"])
    assert info.value.data.errors[0].title == "Invalid value for perPage: expected an integer"


@pytest.mark.parametrize(
    "point",
    [LatLng(600, 24.9), LatLng(-90.5, 0), LatLng(60, 180.01), LatLng(0, -181)],
)
def test_a_place_off_the_earth_is_refused(
    fake_marketplace: FakeMarketplace, marketplace_client: MarketplaceClient, point: LatLng
) -> None:
    with pytest.raises(ApiError) as info:
        marketplace_client.listings.query({"origin": point})
    assert refusal(info.value) == (400, "validation-invalid-value", ["query", "origin"])
    fake_marketplace.add_user("geo@example.com", "geo-password")
    marketplace_client.login(username="geo@example.com", password="geo-password")
    with pytest.raises(ApiError) as info:
        marketplace_client.own_listings.create({"title": "Lost", "geolocation": point})
    assert refusal(info.value) == (400, "validation-invalid-value", ["body", "geolocation"])
    assert "not within" in info.value.data.errors[0].title


def test_bounds_off_the_earth_are_refused_and_the_poles_are_not(
    marketplace_client: MarketplaceClient,
) -> None:
    with pytest.raises(ApiError) as info:
        marketplace_client.listings.query(
            {"bounds": LatLngBounds(ne=LatLng(95, 25), sw=LatLng(60, 24))}
        )
    assert refusal(info.value) == (400, "validation-invalid-value", ["query", "bounds"])
    whole = LatLngBounds(ne=LatLng(90, 180), sw=LatLng(-90, -180))
    assert marketplace_client.listings.query({"bounds": whole}).status == 200
