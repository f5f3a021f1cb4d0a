"""Checks before sending: IDs are UUIDs, `custom=` keys are of the open families; each
refused parameter is named, and nothing is sent."""

from __future__ import annotations

import uuid
from collections.abc import Callable, Iterator
from typing import Any

import pytest
import requests_mock

from flexclient import (
    IntegrationClient,
    MarketplaceClient,
    ParameterError,
    UnknownParameterWarning,
)
from flexclient._endpoints.checks import alias_of, camel_case, id_keys, is_custom_key
from flexclient.params import (
    AvailabilityExceptionsQueryParams,
    CurrentUserCreateWithIdpParams,
    EventsQueryParams,
    ListingsQueryParams,
    ListingsShowParams,
    OwnListingsCreateParams,
    StripeCustomerAddPaymentMethodParams,
)
from tests.helpers import IG, MP, NO_WAIT, token_json

ID = uuid.UUID("0e0b60fe-d9a2-11e6-bf26-cec0c932ce01")
EMPTY = {"content": b'["^ ","~:data",[]]', "headers": {"Content-Type": "application/transit+json"}}
ONE = {
    "content": b'["^ ","~:data",["^ ","~:id","~u0e0b60fe-d9a2-11e6-bf26-cec0c932ce01","~:type",'
    b'"~:listing"]]',
    "headers": {"Content-Type": "application/transit+json"},
}


@pytest.fixture
def offline() -> Iterator[requests_mock.Mocker]:
    """A mocker with no routes: any request at all fails the test."""
    with requests_mock.Mocker() as m:
        yield m


@pytest.fixture
def sdk() -> MarketplaceClient:
    return MarketplaceClient("client-id", base_url=MP, retry_policy=NO_WAIT)


@pytest.fixture
def integ() -> IntegrationClient:
    return IntegrationClient("client-id", "secret", base_url=IG, retry_policy=NO_WAIT)


def refused(call: Callable[[], object], param: str, offline: requests_mock.Mocker) -> str:
    with pytest.raises(ParameterError) as info:
        call()
    assert info.value.param == param
    assert offline.call_count == 0
    return str(info.value)


BAD_IDS: list[tuple[str, Callable[[MarketplaceClient], object], str]] = [
    ("show id", lambda s: s.listings.show({"id": "not-a-uuid"}), "id"),
    ("query authorId", lambda s: s.listings.query({"authorId": "42"}), "authorId"),
    ("one of ids", lambda s: s.listings.query({"ids": [ID, "x"]}), "ids[1]"),
    ("ids as text", lambda s: s.listings.query({"ids": f"{ID},nope"}), "ids"),
    ("an int", lambda s: s.listings.show({"id": 5}), "id"),  # type: ignore[typeddict-item]
    ("32 hex digits", lambda s: s.listings.show({"id": ID.hex}), "id"),
    ("body id", lambda s: s.own_listings.close({"id": "x"}), "id"),
    (
        "body listingId",
        lambda s: s.stock.compare_and_set({"listingId": "x", "oldTotal": None, "newTotal": 1}),
        "listingId",
    ),
    (
        "image ids",
        lambda s: s.own_listings.create({"title": "t", "images": [ID, "x"]}),
        "images[1]",
    ),
    (
        "profile image",
        lambda s: s.current_user.update_profile({"profileImageId": "x"}),
        "profileImageId",
    ),
    ("iter", lambda s: next(s.transactions.query.iter({"listingId": "x"})), "listingId"),
]


@pytest.mark.parametrize("case,call,param", BAD_IDS, ids=[c[0] for c in BAD_IDS])
def test_an_id_that_is_no_uuid_is_refused_before_sending(
    offline: requests_mock.Mocker,
    sdk: MarketplaceClient,
    case: str,
    call: Callable[[MarketplaceClient], object],
    param: str,
) -> None:
    message = refused(lambda: call(sdk), param, offline)
    assert "must be a UUID or a UUID string" in message


def test_the_message_shows_the_value_short() -> None:
    with pytest.raises(ParameterError) as info:
        MarketplaceClient("c").listings.show({"id": "y" * 500})
    assert len(str(info.value)) < 150 and "'yyy" in str(info.value)


def test_uuids_and_their_text_pass(sdk: MarketplaceClient) -> None:
    with requests_mock.Mocker() as m:
        m.post(f"{MP}/v1/auth/token", json=token_json())
        m.get(f"{MP}/v1/api/listings/query", **EMPTY)
        sdk.listings.query({"ids": [ID, str(ID), str(ID).upper()], "authorId": str(ID)})
        sdk.listings.query({"ids": f"{ID},{ID}"})
        sdk.listings.query({"ids": ID})
        assert m.last_request is not None and f"ids={ID}" in m.last_request.url


def test_keys_not_typed_as_ids_are_not_checked(integ: IntegrationClient) -> None:
    # `startAfterSequenceId` is a number, `idpId` and Stripe's IDs are not UUIDs: none is an
    # ID of the API, whatever its name ends with.
    assert "startAfterSequenceId" not in id_keys(EventsQueryParams)
    assert {"idpId", "idpClientId"}.isdisjoint(id_keys(CurrentUserCreateWithIdpParams))
    assert id_keys(StripeCustomerAddPaymentMethodParams) == {}
    assert id_keys(ListingsShowParams) == {"id": "one"}
    assert id_keys(ListingsQueryParams) == {"ids": "many", "authorId": "one"}
    assert id_keys(OwnListingsCreateParams) == {"images": "many"}
    assert id_keys(AvailabilityExceptionsQueryParams) == {"listingId": "one"}
    with requests_mock.Mocker() as m:
        m.post(f"{IG}/v1/auth/token", json=token_json("integ", "t", "r"))
        m.get(f"{IG}/v1/integration_api/events/query", **EMPTY)
        integ.events.query({"startAfterSequenceId": 7})


def test_keys_the_typeddict_does_not_know_are_the_apis_to_judge(sdk: MarketplaceClient) -> None:
    # Code ported from JS runs as it is: any mapping, any key.
    loose: dict[str, Any] = {"id": ID, "somethingId": "not checked"}
    with requests_mock.Mocker() as m:
        m.post(f"{MP}/v1/auth/token", json=token_json())
        m.get(f"{MP}/v1/api/listings/show", **ONE)
        sdk.listings.show(loose)  # type: ignore[arg-type]
        assert m.last_request is not None and "somethingId=not%20checked" in m.last_request.url


@pytest.mark.parametrize(
    "key", ["pub_color", "meta_rank", "priv_x", "prot_y", "fields.image", "imageVariant.a-b"]
)
def test_keys_of_the_open_families(key: str) -> None:
    assert is_custom_key(key)


@pytest.mark.parametrize("key", ["pub_", "perPage", "fields", "pubcolor", "limit", 3])
def test_keys_outside_the_open_families(key: object) -> None:
    assert not is_custom_key(key)


def test_custom_keys_join_the_query(sdk: MarketplaceClient) -> None:
    with requests_mock.Mocker() as m:
        m.post(f"{MP}/v1/auth/token", json=token_json())
        m.get(f"{MP}/v1/api/listings/query", **EMPTY)
        m.post(f"{MP}/v1/api/own_listings/create", **ONE)
        sdk.listings.query({"perPage": 5}, custom={"pub_category": "road", "limit.images": 1})
        assert m.last_request is not None
        assert m.last_request.url.endswith("?perPage=5&pub_category=road&limit.images=1")
        sdk.listings.query(custom={"meta_rank": "has_any:1,2"})
        assert m.last_request.url.endswith("?meta_rank=has_any%3A1,2")
        list(sdk.listings.query.iter({"perPage": 2}, custom={"pub_a": "b"}))
        assert m.last_request.url.endswith("?perPage=2&pub_a=b&page=1")
        list(sdk.listings.query.pages(custom={"pub_a": "c"}, max_pages=1))
        assert m.last_request.url.endswith("?pub_a=c&page=1")
        sdk.own_listings.create(
            {"title": "t"}, {"expand": True}, custom={"imageVariant.x": "w:1;h:2"}
        )
        assert m.last_request.url.endswith("?expand=true&imageVariant.x=w%3A1%3Bh%3A2")
        sdk.own_listings.create({"title": "t"}, custom={"fields.ownListing": "title"})
        assert m.last_request.url.endswith("?fields.ownListing=title")


@pytest.mark.parametrize(
    "custom,param",
    [({"perPage": 5}, "perPage"), ({"pub_": 1}, "pub_"), ({"pub_a": 1, "colour": 2}, "colour")],
)
def test_a_custom_key_outside_the_families_is_refused(
    offline: requests_mock.Mocker, sdk: MarketplaceClient, custom: dict[str, Any], param: str
) -> None:
    message = refused(lambda: sdk.listings.query(custom=custom), param, offline)
    assert "pub_, meta_, priv_, prot_, fields., imageVariant., limit." in message
    refused(lambda: sdk.own_listings.close({"id": ID}, custom=custom), param, offline)


def test_a_key_given_twice_is_refused(
    offline: requests_mock.Mocker, sdk: MarketplaceClient
) -> None:
    message = refused(
        lambda: sdk.listings.query({"fields.listing": "title"}, custom={"fields.listing": "x"}),
        "fields.listing",
        offline,
    )
    assert "both" in message
    refused(
        lambda: sdk.own_listings.close(
            {"id": ID}, {"fields.ownListing": "a"}, custom={"fields.ownListing": "b"}
        ),
        "fields.ownListing",
        offline,
    )
    refused(lambda: sdk.listings.query(custom=[("pub_a", 1)]), "custom", offline)  # type: ignore[arg-type]


# --- the JS SDK's habits, as the official web template has them ----------------------------


@pytest.mark.parametrize(
    "key,documented",
    [("listing_id", "listingId"), ("transaction_id", "transactionId"), ("subject_id", "subjectId")],
)
def test_a_snake_case_key_is_sent_as_it_is_with_the_key_to_write(
    sdk: MarketplaceClient, key: str, documented: str
) -> None:
    # The web template sends `reviews.query({listing_id})`, which the API reads as listingId.
    loose: dict[str, Any] = {key: ID}
    with requests_mock.Mocker() as m:
        m.post(f"{MP}/v1/auth/token", json=token_json())
        m.get(f"{MP}/v1/api/reviews/query", **EMPTY)
        with pytest.warns(UnknownParameterWarning) as caught:
            sdk.reviews.query(loose)  # type: ignore[arg-type]
        assert m.last_request is not None and m.last_request.qs == {key: [str(ID)]}
    (message,) = [str(w.message) for w in caught]
    assert f"'{key}' is the snake_case spelling of '{documented}'" in message
    assert f"write '{documented}'" in message


def test_a_snake_case_id_is_checked_as_the_id_it_spells(
    offline: requests_mock.Mocker, sdk: MarketplaceClient
) -> None:
    loose: dict[str, Any] = {"author_id": "42"}
    message = refused(lambda: sdk.listings.query(loose), "author_id", offline)  # type: ignore[arg-type]
    assert "must be a UUID" in message


def test_a_snake_case_key_of_no_documented_key_is_unknown(sdk: MarketplaceClient) -> None:
    loose: dict[str, Any] = {"listing_ids": ID}
    with requests_mock.Mocker() as m:
        m.post(f"{MP}/v1/auth/token", json=token_json())
        m.get(f"{MP}/v1/api/reviews/query", **EMPTY)
        with pytest.warns(UnknownParameterWarning, match="'listing_ids' is not a documented"):
            sdk.reviews.query(loose)  # type: ignore[arg-type]


def test_a_second_argument_to_a_query_says_what_to_write(
    offline: requests_mock.Mocker, sdk: MarketplaceClient
) -> None:
    # `transactions.show({id}, {expand: true})`: the JS SDK drops the second argument.
    call: Any = sdk.transactions.show
    message = refused(lambda: call({"id": ID}, {"expand": True}), "query_params", offline)
    assert "transactions/show is a query" in message
    assert "no second argument" in message and "drops a query's second argument" in message
    optional: Any = sdk.marketplace.show
    refused(lambda: optional({}, {"expand": True}), "query_params", offline)


def test_a_list_of_parameter_parts_says_to_merge_them(
    offline: requests_mock.Mocker, sdk: MarketplaceClient
) -> None:
    # `listings.query([part, part])`: the JS SDK merges the parts into one query string.
    parts: Any = [{"perPage": 5}, {"page": 2}]
    message = refused(lambda: sdk.listings.query(parts), "query_params", offline)
    assert "list of parameter parts" in message and "{**part1, **part2}" in message
    refused(lambda: sdk.own_listings.close({"id": ID}, parts), "query_params", offline)


def test_a_query_string_says_how_to_make_it_a_mapping(
    offline: requests_mock.Mocker, sdk: MarketplaceClient
) -> None:
    # The JS SDK takes a query string as a query's parameters, or as a part of a list: the
    # template's featured listings add a section's saved search so.
    text: Any = "?pub_category=sauna&perPage=5"
    message = refused(lambda: sdk.listings.query(text), "query_params", offline)
    assert "is a query string" in message and "parse_qsl" in message
    parts: Any = [text, {"perPage": 8}]
    message = refused(lambda: sdk.listings.query(parts), "query_params", offline)
    assert "{**part1, **part2}" in message and "parse_qsl" in message
    maps: Any = [{}, {"perPage": 8}]
    assert "parse_qsl" not in refused(lambda: sdk.listings.query(maps), "query_params", offline)


@pytest.mark.parametrize(
    "key,camel",
    [
        ("listing_id", "listingId"),
        ("per_page", "perPage"),
        ("a_b_c", "aBC"),
        ("perPage", "perPage"),
        ("_private", "_private"),
        ("trailing_", "trailing_"),
        ("two__marks", "two__marks"),
        ("pub_color", "pubColor"),
    ],
)
def test_camel_case(key: str, camel: str) -> None:
    assert camel_case(key) == camel


def test_a_snake_case_alias_is_only_of_a_documented_key() -> None:
    assert alias_of("listing_id", {"listingId"}) == "listingId"
    assert alias_of("listingId", {"listingId"}) is None  # the key itself is no alias
    assert alias_of("author_id", {"listingId"}) is None
    assert alias_of(5, {"listingId"}) is None  # an untyped caller's key


@pytest.mark.parametrize("given", [[{"perPage": 5}], "perPage=5", 5])
def test_pages_and_iter_refuse_what_a_query_refuses(
    offline: requests_mock.Mocker, sdk: MarketplaceClient, given: object
) -> None:
    loose: Any = given
    refused(lambda: sdk.listings.query.iter(loose), "query_params", offline)
    refused(lambda: sdk.listings.query.pages(loose), "query_params", offline)
    refused(lambda: sdk.listings.query(loose), "query_params", offline)
