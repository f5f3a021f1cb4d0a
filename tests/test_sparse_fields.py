"""Sparse `fields.*`: extended data not sent is None, sent and empty is {}, in both formats."""

from __future__ import annotations

import uuid
from typing import Any
from urllib.parse import urlsplit

import pytest
import requests_mock

from flexclient import IntegrationClient, MarketplaceClient, Money
from flexclient._wire.formats import WireFormatName
from flexclient.models import CurrentUser, Listing, OwnListing, Transaction, User
from flexclient.models._envelope import build_envelope
from tests import sample
from tests.helpers import IG, MP, NO_WAIT

ID = uuid.UUID("0e0b60fe-d9a2-11e6-bf26-cec0c932ce01")


@pytest.fixture(params=["transit", "json"])
def wire(request: pytest.FixtureRequest) -> WireFormatName:
    name: WireFormatName = request.param
    return name


def one(rtype: str, attributes: dict[str, Any]) -> dict[str, Any]:
    return {"data": {"id": ID, "type": rtype, "attributes": attributes}}


def reply(m: requests_mock.Mocker, url: str, body: dict[str, Any], wire: WireFormatName) -> None:
    """Answer GET `url` with `body` as the API writes it in `wire`."""
    content_type = "application/transit+json" if wire == "transit" else "application/json"
    m.get(url, content=sample.encoded(body, wire), headers={"Content-Type": content_type})


def mp_show(
    wire: WireFormatName, path: str, body: dict[str, Any], params: dict[str, Any]
) -> tuple[Any, str]:
    """Call a Marketplace API show endpoint answered by `body`; its data and the query sent."""
    sdk = MarketplaceClient("client-id", base_url=MP, wire_format=wire, retry_policy=NO_WAIT)
    group, action = path.split("/")
    with requests_mock.Mocker() as m:
        m.post(f"{MP}/v1/auth/token", json={"access_token": "t", "scope": "public-read"})
        reply(m, f"{MP}/v1/api/{path}", body, wire)
        res = getattr(getattr(sdk, group), action)(params)
        url: str = m.request_history[-1].url
        query = urlsplit(url).query
    return res.data.data, query


def test_listing_fields_left_out_are_none_not_empty(wire: WireFormatName) -> None:
    # What the API sends for `fields.listing=title,price`: those two attributes and no others.
    body = one("listing", {"title": "Bike", "price": Money(5000, "USD")})
    listing, query = mp_show(
        wire, "listings/show", body, {"id": ID, "fields.listing": ["title", "price"]}
    )
    assert query == f"id={ID}&fields.listing=title,price"
    assert isinstance(listing, Listing)
    a = listing.attributes
    assert a.title == "Bike" and a.price == Money(5000, "USD")
    assert (a.public_data, a.private_data, a.metadata) == (None, None, None)
    assert a.state is None and a.description is None


def test_listing_extended_data_sent_empty_is_an_empty_dict(wire: WireFormatName) -> None:
    body = one("listing", {"title": "Bike", "publicData": {}, "metadata": {}})
    listing, _ = mp_show(wire, "listings/show", body, {"id": ID})
    assert isinstance(listing, Listing)
    assert listing.attributes.public_data == {} and listing.attributes.metadata == {}
    # A public listing never carries privateData: not sent, so None rather than a fake {}.
    assert listing.attributes.private_data is None


def test_one_key_of_extended_data_asked_for(wire: WireFormatName) -> None:
    body = one("listing", {"publicData": {"category": "road"}})
    listing, query = mp_show(
        wire, "listings/show", body, {"id": ID, "fields.listing": "publicData.category"}
    )
    assert query == f"id={ID}&fields.listing=publicData.category"
    assert isinstance(listing, Listing)
    assert listing.attributes.public_data == {"category": "road"}
    assert listing.attributes.metadata is None and listing.attributes.title is None


def test_own_listing_private_data_absent_or_empty(wire: WireFormatName) -> None:
    sparse, _ = mp_show(wire, "own_listings/show", one("ownListing", {"title": "Mine"}), {"id": ID})
    full, _ = mp_show(
        wire,
        "own_listings/show",
        one("ownListing", {"title": "Mine", "privateData": {}, "publicData": {"a": 1}}),
        {"id": ID},
    )
    assert isinstance(sparse, OwnListing) and isinstance(full, OwnListing)
    assert sparse.attributes.private_data is None and full.attributes.private_data == {}
    assert sparse.attributes.public_data is None and full.attributes.public_data == {"a": 1}


def test_user_profile_keys_left_out_are_none(wire: WireFormatName) -> None:
    # `fields.user=profile.displayName`: the profile holds only that key.
    body = one("user", {"profile": {"displayName": "Jane D"}})
    user, query = mp_show(
        wire, "users/show", body, {"id": ID, "fields.user": "profile.displayName"}
    )
    assert query == f"id={ID}&fields.user=profile.displayName"
    assert isinstance(user, User)
    p = user.attributes.profile
    assert p.display_name == "Jane D"
    assert (p.public_data, p.protected_data, p.private_data, p.metadata) == (None,) * 4


def test_current_user_extended_data_sent_empty(wire: WireFormatName) -> None:
    profile: dict[str, object] = {
        "displayName": "Me",
        "publicData": {},
        "protectedData": {},
        "privateData": {},
    }
    body = one("currentUser", {"email": "me@example.com", "profile": {**profile, "metadata": {}}})
    me, _ = mp_show(wire, "current_user/show", body, {})
    assert isinstance(me, CurrentUser)
    p = me.attributes.profile
    assert (p.public_data, p.protected_data, p.private_data, p.metadata) == ({},) * 4
    sparse, _ = mp_show(
        wire, "current_user/show", one("currentUser", {"email": "me@example.com"}), {}
    )
    assert isinstance(sparse, CurrentUser) and sparse.attributes.profile.metadata is None


def test_transaction_extended_data_absent_or_empty(wire: WireFormatName) -> None:
    integ = IntegrationClient(
        "client-id", "secret", base_url=IG, wire_format=wire, retry_policy=NO_WAIT
    )
    url = f"{IG}/v1/integration_api/transactions/show"
    with requests_mock.Mocker() as m:
        m.post(f"{IG}/v1/auth/token", json={"access_token": "t", "scope": "integ"})
        reply(m, url, one("transaction", {"lastTransition": "t/x"}), wire)
        sparse = integ.transactions.show({"id": ID, "fields.transaction": "lastTransition"})
        body = one("transaction", {"protectedData": {}, "metadata": {"refund": "none"}})
        reply(m, url, body, wire)
        full = integ.transactions.show({"id": ID})
    tx, tx_full = sparse.data.data, full.data.data
    assert isinstance(tx, Transaction) and isinstance(tx_full, Transaction)
    assert tx.attributes.protected_data is None and tx.attributes.metadata is None
    assert tx_full.attributes.protected_data == {}
    assert tx_full.attributes.metadata == {"refund": "none"}


def test_a_dump_gives_back_only_what_was_sent() -> None:
    listing = build_envelope(one("listing", {"title": "Bike", "metadata": {}})).data
    assert listing.model_dump(by_alias=True, exclude_unset=True)["attributes"] == {
        "title": "Bike",
        "metadata": {},
    }


def test_records_tell_left_out_from_empty() -> None:
    sparse = build_envelope(one("listing", {"title": "Bike"})).data
    empty = build_envelope(one("listing", {"title": "Bike", "publicData": {}})).data
    assert sparse.to_record()["public_data"] is None
    assert empty.to_record()["public_data"] == {}
