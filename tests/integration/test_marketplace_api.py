"""The Marketplace API end to end: what a user of the official SDK would do, in both formats."""

from __future__ import annotations

import datetime as dt
import uuid
from pathlib import Path
from typing import Any, cast

import pytest
import requests

from flexclient import (
    BadRequestError,
    ConflictError,
    ForbiddenError,
    LatLng,
    LatLngBounds,
    MarketplaceClient,
    Money,
    NotFoundError,
)
from flexclient.models import CurrentUser, Image, Listing, OwnListing, Transaction, User
from flexclient.params import StockAdjustmentsQueryParams
from flexclient.testing import DEMO_USERS, FakeMarketplace
from flexclient.testing._seed import png
from tests.integration.conftest import connect_stripe, items

AINO, AINO_PASS = DEMO_USERS[0][0], DEMO_USERS[0][1]


def signup(sdk: MarketplaceClient, email: str = "new@example.com") -> CurrentUser:
    res = sdk.current_user.create(
        {"email": email, "password": "long-password", "firstName": "New", "lastName": "Person"},
        {"expand": True},
    )
    sdk.login(username=email, password="long-password")
    return res.data.data


def test_marketplace_and_users_show(demo_sdk: MarketplaceClient) -> None:
    assert demo_sdk.marketplace.show().data.data.attributes.name == "Fake Marketplace"
    author = demo_sdk.listings.query({"perPage": 1, "include": ["author"]}).data.data[0].author
    user = demo_sdk.users.show({"id": author.id, "include": ["profileImage"]}).data.data
    assert (
        isinstance(user, User)
        and user.attributes.profile.display_name == author.attributes.profile.display_name
    )
    assert user.attributes.email is None  # private to the user
    assert isinstance(user.profile_image, Image)


def test_listings_query_includes_and_pagination(demo_sdk: MarketplaceClient) -> None:
    res = demo_sdk.listings.query(
        {"perPage": 100, "page": 3, "include": ["author", "images", "author.profileImage"]}
    )
    page = res.data
    assert (page.meta.total_items, page.meta.total_pages, page.meta.page, page.meta.per_page) == (
        250,
        3,
        3,
        100,
    )
    assert page.meta.pagination_limit == 100
    assert len(page.data) == 50
    first = page.data[0]
    assert isinstance(first, Listing) and first.attributes.created_at is not None
    assert first.author.profile_image is not None
    url = first.images[0].attributes.variants["square-small"].url
    assert url is not None and requests.get(url, timeout=5).content.startswith(b"\x89PNG")


def test_listings_query_filters(demo_sdk: MarketplaceClient) -> None:
    # Custom keys in the dict, as the official SDKs write them: the type checkers refuse
    # them (docs/typing.md), the client sends them.
    road = demo_sdk.listings.query({"pub_category": "road"}).data  # type: ignore[typeddict-unknown-key]
    assert road.meta.total_items == 50 and all(
        (lst.attributes.public_data or {}).get("category") == "road" for lst in road.data
    )
    tagged = demo_sdk.listings.query({"pub_tags": "has_all:steel,red", "perPage": 100}).data.data  # type: ignore[typeddict-unknown-key]
    assert tagged and all(
        {"steel", "red"} <= set((lst.attributes.public_data or {}).get("tags", []))
        for lst in tagged
    )
    cheap = demo_sdk.listings.query({"price": "5000,20000", "sort": "-price"}).data.data
    prices = [lst.attributes.price.amount for lst in cheap if lst.attributes.price]
    assert prices == sorted(prices) and all(5000 <= p < 20000 for p in prices)  # lowest first
    helsinki = LatLngBounds(ne=LatLng(60.3, 25.1), sw=LatLng(60.0, 24.8))
    near = demo_sdk.listings.query({"bounds": helsinki}).data.data
    assert near and all(
        lst.attributes.geolocation and 60.0 <= lst.attributes.geolocation.lat <= 60.3
        for lst in near
    )
    words = demo_sdk.listings.query({"keywords": "vintage kids"}).data.data
    assert all("vintage" in (lst.attributes.title or "").lower() for lst in words)
    ids = [lst.id for lst in near[:2]]
    assert [lst.id for lst in demo_sdk.listings.query({"ids": ids}).data.data] == ids
    author = near[0].relationships
    assert author == {}  # nothing included, no relationships sent


def test_sparse_fields_and_image_variants(demo_sdk: MarketplaceClient) -> None:
    res = demo_sdk.listings.query(
        {  # type: ignore[typeddict-unknown-key]
            "perPage": 1,
            "include": ["images"],
            "fields.listing": ["title"],
            "fields.image": ["variants.my-variant"],
            # a custom key in the dict: the type checkers refuse it (docs/typing.md)
            "imageVariant.my-variant": "w:320;h:640;fit:scale",  # pyright: ignore[reportArgumentType]
        }
    )
    listing = res.data.data[0]
    assert listing.attributes.title and listing.attributes.price is None
    # Only what was asked for came: extended data left out is None, not an empty dict.
    assert listing.attributes.model_fields_set == {"title"}
    assert listing.attributes.public_data is None and listing.attributes.metadata is None
    variants = listing.images[0].attributes.variants
    assert list(variants) == ["my-variant"] and (
        variants["my-variant"].width,
        variants["my-variant"].height,
    ) == (320, 640)


def test_extended_data_not_asked_for_differs_from_empty(demo_sdk: MarketplaceClient) -> None:
    full = demo_sdk.listings.query({"perPage": 1}).data.data[0].attributes
    # The demo listings have public data and no metadata; privateData is the author's only.
    assert full.public_data and full.metadata == {} and full.private_data is None
    sparse = (
        demo_sdk.listings.query({"perPage": 1, "fields.listing": ["title", "price"]})
        .data.data[0]
        .attributes
    )
    assert sparse.model_fields_set == {"title", "price"}
    assert sparse.title == full.title and sparse.price == full.price
    assert (sparse.public_data, sparse.metadata, sparse.private_data) == (None, None, None)
    none = demo_sdk.listings.query({"perPage": 1, "fields.listing": "none"}).data.data[0]
    assert none.attributes.model_fields_set == set() and none.attributes.public_data is None


def test_one_key_of_extended_data_and_of_the_profile(demo_sdk: MarketplaceClient) -> None:
    res = demo_sdk.listings.query(
        {
            "perPage": 3,
            "include": ["author"],
            "fields.listing": ["title", "publicData.category", "publicData.no-such-key"],
            "fields.user": ["profile.displayName"],
        }
    )
    for listing in res.data.data:
        a = listing.attributes
        assert a.model_fields_set == {"title", "public_data"} and a.metadata is None
        assert a.public_data is not None and list(a.public_data) == ["category"]
        profile = listing.author.attributes.profile
        assert profile.display_name and profile.model_fields_set == {"display_name"}
        assert profile.public_data is None and profile.metadata is None
        assert profile.abbreviated_name is None


def test_current_user_lifecycle(sdk: MarketplaceClient) -> None:
    me = signup(sdk)
    assert isinstance(me, CurrentUser) and me.attributes.email == "new@example.com"
    updated = sdk.current_user.update_profile(
        {"displayName": "Newbie", "publicData": {"age": 30}}, {"expand": True}
    ).data.data
    assert (
        updated.attributes.profile.display_name == "Newbie"
        and updated.attributes.profile.public_data == {"age": 30}
    )
    # Never set, so sent empty; left out by fields.currentUser, so None.
    assert me.attributes.profile.private_data == {} and me.attributes.profile.metadata == {}
    sparse = sdk.current_user.show({"fields.currentUser": ["email", "profile.publicData"]})
    profile = sparse.data.data.attributes.profile
    assert sparse.data.data.attributes.email == "new@example.com"
    assert profile.public_data == {"age": 30} and profile.display_name is None
    assert (profile.protected_data, profile.private_data, profile.metadata) == (None, None, None)
    assert sdk.current_user.show().data.data.id == me.id
    sdk.current_user.change_password(
        {"currentPassword": "long-password", "newPassword": "even-longer-password"}
    )
    sdk.logout()
    sdk.login(username="new@example.com", password="even-longer-password")
    with pytest.raises(ConflictError) as taken:
        signup(sdk)
    assert taken.value.codes == ["email-taken"]


def test_own_listing_lifecycle(sdk: MarketplaceClient, tmp_path: Path) -> None:
    signup(sdk)
    photo = tmp_path / "bike.png"
    photo.write_bytes(png(30, 20, (200, 10, 10)))
    loaded: list[int] = []
    image = sdk.images.upload(
        {"image": photo},
        {"expand": True},
        {"on_upload_progress": lambda p: loaded.append(p.loaded)},
    ).data.data
    assert isinstance(image, Image) and loaded and loaded == sorted(loaded)
    draft = sdk.own_listings.create_draft(
        {"title": "Draft bike", "price": Money(5000, "USD"), "images": [image.id]}, {"expand": True}
    ).data.data
    assert isinstance(draft, OwnListing) and draft.attributes.state == "draft"
    published = sdk.own_listings.publish_draft({"id": draft.id}, {"expand": True}).data.data
    assert published.attributes.state == "published"
    assert published.attributes.private_data == {} and published.attributes.metadata == {}
    only_title = sdk.own_listings.show({"id": draft.id, "fields.ownListing": "title"}).data.data
    assert only_title.attributes.title == "Draft bike"
    assert only_title.attributes.private_data is None and only_title.attributes.public_data is None
    minimal = sdk.own_listings.update(
        {
            "id": draft.id,
            "title": "Fixed",
            "geolocation": LatLng(60.2, 24.9),
            "privateData": {"serial": "X1"},
        }
    )
    assert (
        minimal.data.data.id == draft.id and minimal.data.data.attributes.title is None
    )  # no expand
    sdk.own_listings.close({"id": draft.id})
    with pytest.raises(ConflictError, match="listing-invalid-state"):
        sdk.own_listings.close({"id": draft.id})
    sdk.own_listings.open({"id": draft.id})
    second = sdk.images.upload({"image": png(4, 4, (1, 2, 3))}, {"expand": True}).data.data
    sdk.own_listings.add_image({"id": draft.id, "imageId": second.id})
    shown = sdk.own_listings.show({"id": draft.id, "include": ["images"]}).data.data
    assert shown.attributes.title == "Fixed" and shown.attributes.private_data == {"serial": "X1"}
    assert [i.id for i in shown.images] == [image.id, second.id]
    assert shown.attributes.geolocation == LatLng(60.2, 24.9)
    assert [lst.id for lst in sdk.own_listings.query().data.data] == [draft.id]


def test_upload_rejects_non_images(sdk: MarketplaceClient) -> None:
    signup(sdk)
    with pytest.raises(BadRequestError) as info:
        sdk.images.upload({"image": b"%PDF-1.4 not an image"})
    assert info.value.codes == ["image-invalid-content"]


def test_availability_exceptions(sdk: MarketplaceClient) -> None:
    signup(sdk)
    listing = sdk.own_listings.create({"title": "Sauna"}).data.data
    start = dt.datetime(2027, 1, 1, tzinfo=dt.UTC)
    created = sdk.availability_exceptions.create(
        {"listingId": listing.id, "start": start, "end": start + dt.timedelta(days=2), "seats": 0},
        {"expand": True},
    ).data.data
    assert created.attributes.start == start and created.attributes.seats == 0
    found = sdk.availability_exceptions.query(
        {"listingId": listing.id, "start": start, "end": start + dt.timedelta(days=30)}
    ).data.data
    assert [e.id for e in found] == [created.id]
    sdk.availability_exceptions.delete({"id": created.id})
    assert (
        sdk.availability_exceptions.query(
            {"listingId": listing.id, "start": start, "end": start + dt.timedelta(days=30)}
        ).data.data
        == []
    )


def test_transaction_flow(fake_marketplace: FakeMarketplace, sdk: MarketplaceClient) -> None:
    signup(sdk, "seller@example.com")
    connect_stripe(sdk)
    listing = sdk.own_listings.create({"title": "Bike", "price": Money(1500, "EUR")}).data.data
    sdk.stock.compare_and_set({"listingId": listing.id, "oldTotal": None, "newTotal": 5})
    sdk.logout()
    signup(sdk, "buyer@example.com")
    # Line items are set by a privileged transition: from a trusted (server) context.
    tx = (
        sdk.trusted_client()
        .transactions.initiate(
            {
                "processAlias": "default-purchase/release-1",
                "transition": "transition/request-payment",
                "params": {
                    "listingId": listing.id,
                    "stockReservationQuantity": 2,
                    "lineItems": items(Money(1500, "EUR"), 2),
                },
            },
            {"expand": True, "include": ["listing", "provider", "customer", "stockReservation"]},
        )
        .data.data
    )
    assert isinstance(tx, Transaction) and tx.attributes.payin_total == Money(3000, "EUR")
    assert tx.listing.id == listing.id and tx.customer.attributes.profile.display_name == "New P"
    line = tx.attributes.line_items[0]
    assert line.unit_price == Money(1500, "EUR") and line.quantity == 2
    assert line.line_total == Money(3000, "EUR")
    assert tx.stock_reservation is not None and tx.stock_reservation.attributes.state == "pending"
    # The browser pays with Stripe.js, by the payment intent's secret in the protected data.
    assert tx.attributes.protected_data is not None
    intent = tx.attributes.protected_data["stripePaymentIntents"]["default"]
    paid = requests.post(
        f"{fake_marketplace.url}/stripe/v1/payment_intents/{intent['stripePaymentIntentId']}"
        "/confirm",
        data={
            "client_secret": intent["stripePaymentIntentClientSecret"],
            "payment_method": "pm_card_visa",
        },
        timeout=10,
    )
    assert (paid.status_code, paid.json()["status"]) == (200, "requires_capture")
    moved = sdk.transactions.transition(
        {"id": tx.id, "transition": "transition/confirm-payment"},
        {"expand": True, "include": ["stockReservation"]},
    ).data.data
    assert (
        moved.attributes.last_transition == "transition/confirm-payment"
        and len(moved.attributes.transitions) == 2
    )
    assert moved.stock_reservation is not None
    assert moved.stock_reservation.attributes.state == "accepted"
    assert [t.id for t in sdk.transactions.query({"only": "order"}).data.data] == [tx.id]
    assert (
        sdk.transactions.show({"id": tx.id}).data.data.attributes.process_name == "default-purchase"
    )


def test_errors_of_the_api(demo_sdk: MarketplaceClient) -> None:
    with pytest.raises(NotFoundError):
        demo_sdk.listings.show({"id": uuid.uuid4()})
    with pytest.raises(ForbiddenError):
        demo_sdk.current_user.show()  # anonymous
    with pytest.raises(BadRequestError) as bad:
        demo_sdk.listings.query({"perPage": 101})
    assert bad.value.codes == ["validation-invalid-value"]
    assert bad.value.data.errors[0].source is not None and bad.value.data.errors[0].source.path == [
        "query",
        "perPage",
    ]
    with pytest.raises(BadRequestError) as unknown:
        demo_sdk.listings.query(cast(Any, {"colour": "red"}))
    assert unknown.value.codes == ["validation-disallowed-key"] and "colour" in str(unknown.value)
    with pytest.raises(BadRequestError) as no_id:
        demo_sdk.listings.show(cast(Any, {}))
    assert no_id.value.codes == ["validation-missing-key"]


def test_own_stock(sdk: MarketplaceClient) -> None:
    signup(sdk)
    listing = sdk.own_listings.create({"title": "Gloves"}).data.data
    stock = sdk.stock.compare_and_set(
        {"listingId": listing.id, "oldTotal": None, "newTotal": 3}, {"expand": True}
    ).data.data
    assert stock.attributes.quantity == 3
    sdk.stock_adjustments.create({"listingId": listing.id, "quantity": 2})
    now = dt.datetime.now(dt.UTC)
    window: StockAdjustmentsQueryParams = {
        "listingId": listing.id,
        "start": now - dt.timedelta(hours=1),
        "end": now + dt.timedelta(hours=1),
    }
    assert [a.attributes.quantity for a in sdk.stock_adjustments.query(window).data.data] == [3, 2]
    with pytest.raises(ConflictError):
        sdk.stock_adjustments.create({"listingId": listing.id, "quantity": -10})
    shown = sdk.own_listings.show({"id": listing.id, "include": ["currentStock"]}).data.data
    assert shown.current_stock is not None and shown.current_stock.attributes.quantity == 5
