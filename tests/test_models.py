"""Responses become typed models, identically from Transit and JSON."""

from __future__ import annotations

import datetime as dt
import uuid

import pytest
import requests_mock
from pydantic import ValidationError

from flexclient import LatLng, MarketplaceClient, Money
from flexclient._wire.formats import FORMATS, WireFormatName
from flexclient.models import (
    Asset,
    Event,
    File,
    FileAttachment,
    FileDownload,
    FileUpload,
    Image,
    Listing,
    OwnFile,
    OwnFileDownload,
    OwnListing,
    PasswordReset,
    PermissionSet,
    Ref,
    Resource,
    StripeAccount,
    StripeAccountLink,
    StripeCustomer,
    StripePaymentMethod,
    StripePerson,
    StripeSetupIntent,
    Transaction,
    User,
    resource_from,
)
from flexclient.models._envelope import Envelope, build_envelope
from tests import sample
from tests.helpers import MP, NO_WAIT
from tests.shapes import is_dict


def fetch(wire: WireFormatName, body: dict[str, object] | None = None) -> Envelope[list[Listing]]:
    client = MarketplaceClient("client-id", base_url=MP, wire_format=wire, retry_policy=NO_WAIT)
    content_type = "application/transit+json" if wire == "transit" else "application/json"
    with requests_mock.Mocker() as m:
        m.post(f"{MP}/v1/auth/token", json={"access_token": "t", "scope": "public-read"})
        m.get(
            f"{MP}/v1/api/listings/query",
            content=sample.encoded(body or sample.page(), wire),
            headers={"Content-Type": content_type},
        )
        return client.listings.query({"include": ["author", "images"]}).data


@pytest.fixture(params=["transit", "json"])
def page(request: pytest.FixtureRequest) -> Envelope[list[Listing]]:
    return fetch(request.param)


def test_typed_attributes(page: Envelope[list[Listing]]) -> None:
    listing = page.data[0]
    assert isinstance(listing, Listing)
    assert listing.id == sample.LISTING and isinstance(listing.id, uuid.UUID)
    assert listing.type == "listing"
    a = listing.attributes
    assert a.title == "Road bike"
    assert a.price == Money(5000, "USD")
    assert a.geolocation == LatLng(60.16, 24.93)
    assert (
        a.created_at == sample.CREATED
        and a.created_at is not None
        and a.created_at.tzinfo is not None
    )
    assert a.public_data == {"category": "road", "gears": 21}
    assert a.metadata == {}  # sent, and empty
    # The second listing was sent without extended data: None, told apart from empty.
    assert page.data[1].attributes.public_data is None and page.data[1].attributes.metadata is None
    assert a.private_data is None


def test_meta(page: Envelope[list[Listing]]) -> None:
    m = page.meta
    assert (m.total_items, m.total_pages, m.page, m.per_page, m.pagination_limit) == (
        2,
        1,
        1,
        100,
        100,
    )
    assert m.model_extra == {"newMetaKey": "kept"}


def test_unknown_attributes_types_and_enum_values_are_kept(page: Envelope[list[Listing]]) -> None:
    assert page.data[0].attributes.model_extra == {"someFutureAttribute": {"x": 1}}
    assert page.data[1].attributes.state == "brandNewState"
    unknown = page.included[-1]
    assert type(unknown) is Resource and unknown.type == "someNewType"
    assert unknown.attributes.model_extra == {"anything": [1, 2]}


@pytest.mark.parametrize("wire", ["transit", "json"])
def test_unknown_members_of_relationships_and_references_are_kept_and_dumped(
    wire: WireFormatName,
) -> None:
    body = sample.page()
    author = body["data"][0]["relationships"]["author"]
    author["links"] = {"related": "/users/1"}
    author["data"]["futureMember"] = [1, 2]
    relationship = fetch(wire, body).data[0].relationships["author"]
    assert vars(relationship)["links"] == {"related": "/users/1"}
    assert relationship.data == Ref(id=sample.USER, type="user")
    assert vars(relationship.data)["futureMember"] == [1, 2]
    dumped = fetch(wire, body).data[0].model_dump(mode="json", by_alias=True)["relationships"]
    assert dumped["author"] == {
        "data": {"id": str(sample.USER), "type": "user", "futureMember": [1, 2]},
        "links": {"related": "/users/1"},
    }
    assert dumped["images"]["data"][0] == {"id": str(sample.IMAGE), "type": "image"}


def test_model_dump_by_alias_gives_wire_names(page: Envelope[list[Listing]]) -> None:
    dumped = page.data[0].model_dump(by_alias=True, exclude_unset=True)
    assert set(dumped["attributes"]) >= {"createdAt", "publicData", "someFutureAttribute"}
    assert "created_at" in page.data[0].model_dump()["attributes"]


def test_transit_and_json_give_identical_models() -> None:
    t, j = fetch("transit"), fetch("json")
    assert t.model_dump() == j.model_dump()
    assert t.data[0].author.model_dump() == j.data[0].author.model_dump()


def test_show_response_data_is_one_resource() -> None:
    body = {
        "data": {
            "id": sample.LISTING,
            "type": "ownListing",
            "attributes": {"title": "Mine", "privateData": {"k": 1}},
        }
    }
    env = build_envelope(FORMATS["transit"].decode(sample.encoded(body, "transit")))
    assert isinstance(env.data, OwnListing) and isinstance(env.data, Listing)
    assert env.data.attributes.private_data == {"k": 1}
    assert env.meta.total_items is None and env.included == []


@pytest.mark.parametrize("attributes", [{}, {"attributes": None}])
def test_command_without_expand_has_empty_attributes(attributes: dict[str, None]) -> None:
    env = build_envelope({"data": {"id": str(sample.LISTING), "type": "listing", **attributes}})
    assert isinstance(env.data, Listing) and env.data.attributes.title is None
    assert env.data.has_attributes is False
    assert env.data.attributes.public_data is None and env.data.attributes.model_extra == {}


def test_attributes_sent_even_empty_are_told_apart_from_none_sent() -> None:
    env = build_envelope({"data": {"id": str(sample.LISTING), "type": "listing", "attributes": {}}})
    assert isinstance(env.data, Listing) and env.data.has_attributes is True
    assert resource_from({"id": str(sample.LISTING), "type": "listing"}).has_attributes is False


def test_transaction_line_items() -> None:
    body = {
        "data": {
            "id": str(sample.LISTING),
            "type": "transaction",
            "attributes": {
                "lastTransition": "transition/accept",
                "payinTotal": {"amount": 10500, "currency": "EUR"},
                "lineItems": [
                    {
                        "code": "line-item/night",
                        "unitPrice": {"amount": 5000, "currency": "EUR"},
                        "quantity": "2",
                        "lineTotal": {"amount": 10000, "currency": "EUR"},
                        "reversal": False,
                        "includeFor": ["customer", "provider"],
                    },
                    {
                        "code": "line-item/fee",
                        "percentage": 5.0,
                        "lineTotal": {"amount": 500, "currency": "EUR"},
                        "includeFor": ["customer"],
                    },
                ],
                "transitions": [
                    {
                        "transition": "transition/accept",
                        "createdAt": "2024-05-01T12:00:00.000Z",
                        "by": "provider",
                    }
                ],
            },
        }
    }
    tx = build_envelope(body).data
    assert isinstance(tx, Transaction)
    items = tx.attributes.line_items
    assert items[0].unit_price == Money(5000, "EUR") and str(items[0].quantity) == "2"
    assert items[1].percentage is not None and float(items[1].percentage) == 5.0
    assert tx.attributes.transitions[0].created_at == dt.datetime(2024, 5, 1, 12, tzinfo=dt.UTC)


def test_event_resource_is_typed_by_its_resource_type() -> None:
    body = {
        "data": [
            {
                "id": str(uuid.uuid4()),
                "type": "event",
                "attributes": {
                    "sequenceId": 7,
                    "eventType": "listing/updated",
                    "resourceType": "listing",
                    "resourceId": str(sample.LISTING),
                    "resource": {
                        "id": str(sample.LISTING),
                        "type": "listing",
                        "attributes": {"title": "New"},
                    },
                    "previousValues": {"attributes": {"title": "Old"}},
                    "auditData": {"userId": str(sample.USER), "adminId": None},
                },
            },
            {
                "id": str(uuid.uuid4()),
                "type": "event",
                "attributes": {
                    "sequenceId": 8,
                    "eventType": "thing/invented-later",
                    "resource": None,
                },
            },
        ]
    }
    events = build_envelope(body).data
    assert isinstance(events[0], Event)
    res = events[0].attributes.resource
    assert isinstance(res, Listing) and res.attributes.title == "New"
    assert events[0].attributes.previous_values == {"attributes": {"title": "Old"}}
    assert (
        events[0].attributes.audit_data is not None
        and events[0].attributes.audit_data.user_id == sample.USER
    )
    assert (
        events[1].attributes.event_type == "thing/invented-later"
        and events[1].attributes.resource is None
    )


def test_image_variants(page: Envelope[list[Listing]]) -> None:
    image = page.data[0].images[0]
    assert isinstance(image, Image)
    v = image.attributes.variants["square-small"]
    assert (v.name, v.width, v.height, v.url) == (
        "square-small",
        240,
        240,
        "https://img.test/square-small.jpg",
    )


def test_user_is_typed(page: Envelope[list[Listing]]) -> None:
    author = page.data[0].author
    assert isinstance(author, User)
    assert author.attributes.profile.display_name == "Jane D"


def test_resource_from_a_stored_resource() -> None:
    listing = resource_from({"id": str(sample.LISTING), "type": "listing", "attributes": None})
    assert isinstance(listing, Listing) and listing.attributes.title is None
    other = resource_from(
        {"id": str(sample.LISTING), "type": "somethingNew", "attributes": {"x": 1}}
    )
    assert type(other) is Resource and other.attributes.model_extra == {"x": 1}
    with pytest.raises(ValidationError, match="type"):
        resource_from({"id": str(sample.LISTING), "type": ["listing"]})


def test_every_typed_resource_can_be_built_without_attributes() -> None:
    from flexclient.models._resource import _REGISTRY

    for rtype, cls in _REGISTRY.items():
        made = cls.model_validate({"id": str(sample.LISTING), "type": rtype})
        assert type(made) is cls and made.attributes.model_dump(exclude_unset=True) == {}


NEWER_TYPES: dict[str, tuple[type[Resource], dict[str, object]]] = {
    "stripeAccount": (StripeAccount, {"stripeAccountId": "acct_1", "stripeAccountData": {"x": 1}}),
    "stripeAccountLink": (StripeAccountLink, {"url": "https://s.test", "expiresAt": "~when"}),
    "stripePerson": (StripePerson, {"stripePersonId": "person_1"}),
    "stripeSetupIntent": (StripeSetupIntent, {"stripeSetupIntentId": "seti", "clientSecret": "c"}),
    "stripeCustomer": (StripeCustomer, {"stripeCustomerId": "cus_1"}),
    "stripePaymentMethod": (StripePaymentMethod, {"type": "stripe-payment-method/card"}),
    "file": (File, {"name": "a.pdf", "mimeType": "application/pdf", "size": 3, "state": "x"}),
    "ownFile": (OwnFile, {"name": "a.pdf", "size": 3, "stateUpdatedAt": "~when"}),
    "fileAttachment": (FileAttachment, {"scope": "public", "deleted": False}),
    "fileUpload": (FileUpload, {"fileId": "~id", "method": "PUT", "headers": {"A": "b"}}),
    "fileDownload": (FileDownload, {"fileId": "~id", "url": "https://d.test"}),
    "ownFileDownload": (OwnFileDownload, {"fileId": "~id", "expiresAt": "~when"}),
    "asset": (Asset, {"assetPath": "/content/pages/about.json"}),
    "permissionSet": (PermissionSet, {"postListings": "permission/deny"}),
    "passwordReset": (PasswordReset, {}),
}


def _filled(value: object) -> object:
    if value == "~when":
        return sample.CREATED
    if value == "~id":
        return sample.USER
    if is_dict(value):
        return {k: _filled(v) for k, v in value.items()}
    return value


@pytest.mark.parametrize("wire", ["transit", "json"])
@pytest.mark.parametrize("rtype", sorted(NEWER_TYPES))
def test_newer_resource_types_have_typed_models(rtype: str, wire: WireFormatName) -> None:
    cls, attributes = NEWER_TYPES[rtype]
    raw = {"data": {"id": sample.LISTING, "type": rtype, "attributes": _filled(attributes)}}
    res = build_envelope(FORMATS[wire].decode(sample.encoded(raw, wire))).data
    assert type(res) is cls and res.has_attributes
    dumped = res.attributes.model_dump(by_alias=True, exclude_unset=True)
    assert dumped == _filled(attributes)
    assert res.attributes.model_extra == {}  # every attribute sent is a typed one


def test_every_field_has_the_wire_name_pydantics_to_camel_gives_it() -> None:
    # flexclient spells the API's camelCase names itself (pydantic's alias_generators cost
    # about 0.8 ms at import): the same names, for every field of every model using it.
    import importlib
    import pkgutil

    from pydantic import BaseModel
    from pydantic.alias_generators import to_camel

    import flexclient.models
    from flexclient.models._resource import wire_name

    for info in pkgutil.iter_modules(flexclient.models.__path__):
        importlib.import_module(f"flexclient.models.{info.name}")
    importlib.import_module("flexclient._assets")
    seen: set[type[BaseModel]] = set()
    todo = list(BaseModel.__subclasses__())
    while todo:
        model = todo.pop()
        todo.extend(model.__subclasses__())
        if model.model_config.get("alias_generator") is wire_name:
            seen.add(model)
    names = {name for model in seen for name in model.model_fields}
    assert len(seen) > 30 and len(names) > 100
    assert {name: wire_name(name) for name in names} == {name: to_camel(name) for name in names}


def test_a_dump_reads_back_into_the_same_attributes(page: Envelope[list[Listing]]) -> None:
    # A program keeping attributes as it dumped them (snake_case, or the API's names) reads
    # them back either way.
    attributes = page.data[0].attributes
    by_name = type(attributes).model_validate(attributes.model_dump())
    by_alias = type(attributes).model_validate(attributes.model_dump(by_alias=True))
    assert by_name == attributes == by_alias
    assert by_name.public_data == attributes.public_data and by_name.public_data


def test_list_fields_a_body_leaves_out_are_empty_lists_of_their_own() -> None:
    body = {
        "data": {
            "id": "c6ff7190-bdf7-47a0-8a2b-e3136e74334f",
            "type": "currentUser",
            "attributes": {"email": "jane@example.com"},
        }
    }
    first, second = build_envelope(body).data, build_envelope(body).data
    assert first.attributes.identity_providers == []
    first.attributes.identity_providers.append({"idpId": "facebook"})
    assert second.attributes.identity_providers == []  # not one list shared by all
    assert Envelope[list[object]](data=[]).included == []
