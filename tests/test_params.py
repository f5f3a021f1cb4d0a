"""Bad parameters fail before any request is sent, naming the parameter."""

from __future__ import annotations

import datetime as dt
import io
import json
import typing
import uuid
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest
import requests_mock

import flexclient.params
from flexclient import IntegrationClient, LatLng, LatLngBounds, MarketplaceClient, ParameterError
from flexclient.params import Sort
from tests.helpers import MP


@pytest.fixture
def offline() -> Any:
    """A mocker with no routes: any request at all fails the test."""
    with requests_mock.Mocker() as m:
        yield m


CASES: list[tuple[str, tuple[Any, ...], str]] = [
    ("listings.query", ({"start": dt.datetime(2020, 1, 1)},), "start"),
    ("listings.query", ({"perPage": object()},), "perPage"),
    ("listings.query", ({"origin": {"lat": 1}},), "origin"),
    (
        "own_listings.create",
        ({"title": "x", "publicData": {"when": dt.date(2020, 1, 1)}},),
        "publicData.when",
    ),
    (
        "own_listings.create",
        ({"title": "x", "bounds": LatLngBounds(ne=LatLng(1, 1), sw=LatLng(0, 0))},),
        "bounds",
    ),
    ("own_listings.create", ({"title": "x"}, {"at": dt.datetime(2020, 1, 1)}), "at"),
    ("own_listings.create", ("not a mapping",), "body_params"),
    ("listings.query", (["perPage", 5],), "query_params"),
    ("images.upload", ({"image": "/no/such/file.png"},), "image"),
    ("images.upload", ({},), "image"),
    ("images.upload", ({"image": 42},), "image"),
    ("images.upload", ({"image": b"x", "meta": {"a": 1}},), "meta"),
]


@pytest.mark.parametrize("method,args,param", CASES, ids=[f"{c[0]}:{c[2]}" for c in CASES])
def test_bad_parameters_fail_before_sending(
    offline: requests_mock.Mocker, method: str, args: tuple[Any, ...], param: str
) -> None:
    sdk = MarketplaceClient("client-id", base_url=MP)
    group, action = method.split(".")
    with pytest.raises(ParameterError) as info:
        getattr(getattr(sdk, group), action)(*args)
    assert info.value.param == param
    assert param in str(info.value)
    assert isinstance(info.value, ValueError)
    assert offline.call_count == 0


def test_unrewindable_stream_is_refused_for_a_retry(offline: requests_mock.Mocker) -> None:
    class Pipe(io.RawIOBase):
        def readable(self) -> bool:
            return True

        def readinto(self, b: Any) -> int:
            return 0

        def tell(self) -> int:
            raise OSError("not seekable")

    sdk = MarketplaceClient("client-id", base_url=MP)
    with pytest.raises(ParameterError, match="seekable"):
        sdk.images.upload({"image": Pipe()})
    assert offline.call_count == 0


@pytest.mark.parametrize(
    "kwargs,param",
    [
        ({"wire_format": "xml"}, "wire_format"),
        ({"max_retries": -1}, "max_retries"),
        ({"base_url": "ftp://x"}, "base_url"),
        ({"base_url": "http://api.example.com", "client_secret": "s"}, "base_url"),
        ({"client_secret": ""}, "client_secret"),
    ],
)
def test_bad_client_options(kwargs: dict[str, Any], param: str) -> None:
    with pytest.raises(ParameterError) as info:
        MarketplaceClient("client-id", **kwargs)
    assert info.value.param == param


def test_client_id_and_integration_secret_are_required() -> None:
    with pytest.raises(ParameterError, match="client_id"):
        MarketplaceClient("")
    with pytest.raises(ParameterError, match="client_secret"):
        IntegrationClient("id", "")


def test_secret_allowed_over_http_to_loopback_only() -> None:
    assert (
        IntegrationClient("id", "s", base_url="http://127.0.0.1:8000").base_url
        == "http://127.0.0.1:8000"
    )
    assert (
        MarketplaceClient("id", client_secret="s", base_url="http://localhost:1/").base_url
        == "http://localhost:1"
    )


def test_ids_as_strings_are_sent_as_is(offline: requests_mock.Mocker) -> None:
    sdk = MarketplaceClient("client-id", base_url=MP)
    offline.post(f"{MP}/v1/auth/token", json={"access_token": "t", "scope": "public-read"})
    offline.get(
        f"{MP}/v1/api/listings/show",
        content=b'["^ ","~:data",null]',
        headers={"Content-Type": "application/transit+json"},
    )
    ident = str(uuid.uuid4())
    sdk.listings.show({"id": ident})
    assert offline.last_request is not None and offline.last_request.url.endswith(f"?id={ident}")


def test_the_closed_value_sets_are_the_apis() -> None:
    # The Literal types of flexclient.params hold exactly the values the API defines (the
    # type tests under tests/typing show the checkers holding code to them).
    facts = json.loads((Path(__file__).parent / "data" / "closed_values.json").read_text())
    del facts["_source"]
    for name, values in facts.items():
        assert list(typing.get_args(getattr(flexclient.params, name))) == values, name


def test_several_values_of_a_closed_set_are_sent_comma_joined(
    offline: requests_mock.Mocker,
) -> None:
    integ = IntegrationClient("client-id", "secret", base_url=MP)
    offline.post(f"{MP}/v1/auth/token", json={"access_token": "t", "scope": "integ"})
    offline.get(
        f"{MP}/v1/integration_api/listings/query",
        content=b'["^ ","~:data",[]]',
        headers={"Content-Type": "application/transit+json"},
    )
    integ.listings.query({"states": ["draft", "published"], "sort": ["-price", "createdAt"]})
    assert offline.last_request is not None
    assert (
        urlsplit(str(offline.last_request.url)).query
        == "states=draft,published&sort=-price,createdAt"
    )
    # Extended-data keys go in a Sort, as the API reads them.
    integ.listings.query({"sort": Sort("pub_rank,-createdAt")})
    assert urlsplit(str(offline.last_request.url)).query == "sort=pub_rank,-createdAt"
