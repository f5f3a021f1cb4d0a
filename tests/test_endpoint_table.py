"""Every endpoint of both APIs exists, named by its path, and sends the right request."""

from __future__ import annotations

import csv
import datetime as dt
import inspect
import json
import pydoc
import re
import uuid
import warnings
from collections import Counter
from pathlib import Path
from typing import Any, get_args, get_origin, is_typeddict

import pytest
import requests_mock

from flexclient import IntegrationClient, LatLng, MarketplaceClient, Money
from flexclient._base_client import BaseClient
from flexclient._endpoints.kinds import (
    Command,
    Endpoint,
    ListQuery,
    OptionalCommand,
    OptionalListQuery,
    OptionalQuery,
    Params,
    Query,
    Upload,
)
from flexclient._endpoints.table import MarketplaceEndpoints
from flexclient._endpoints.walk import Api, iter_endpoints
from flexclient._wire.formats import WireFormatName
from flexclient.models import Resource
from flexclient.params import CommandQueryParams
from tests.helpers import IG, MP, NO_WAIT, answer
from tests.test_cold_start import fresh

# The API's endpoint list, copied into the repository (tests/data/README.md says from where).
TSV = Path(__file__).parent / "data" / "endpoints.tsv"
with TSV.open(encoding="utf-8", newline="") as _f:
    ROWS = list(csv.DictReader(_f, delimiter="\t"))
ID = uuid.UUID("0e0b60fe-d9a2-11e6-bf26-cec0c932ce01")
WHEN = dt.datetime(2018, 3, 23, 8, 40, 24, 443000, tzinfo=dt.UTC)


def make(api: str, wire: WireFormatName) -> BaseClient:
    if api == "marketplace":
        return MarketplaceClient("client-id", base_url=MP, wire_format=wire, retry_policy=NO_WAIT)
    return IntegrationClient(
        "client-id", "secret", base_url=IG, wire_format=wire, retry_policy=NO_WAIT
    )


def bound(client: BaseClient, python_method: str) -> Any:
    group_name, action = python_method.split(".")
    return getattr(getattr(client, group_name), action)


def declared(cls: type[BaseClient]) -> set[str]:
    """The methods a client class has: each group's, as the client's attributes."""
    names: set[str] = set()
    for gname in dir(cls):
        group = getattr(getattr(cls, gname), "cls", None)
        if isinstance(group, type):
            names |= {f"{gname}.{a}" for a in dir(group) if isinstance(getattr(group, a), Endpoint)}
    return names


@pytest.mark.parametrize(
    "api,cls", [("marketplace", MarketplaceClient), ("integration", IntegrationClient)]
)
def test_the_table_has_exactly_the_endpoints_of_the_api(api: Api, cls: type[BaseClient]) -> None:
    expected = {r["python_method"] for r in ROWS if r["api"] == api}
    assert declared(cls) == expected
    assert {entry.name for entry in iter_endpoints(api)} == expected


def test_the_data_lists_each_endpoint_once_and_the_clients_have_one_method_each() -> None:
    # Sets above would hide a row listed twice; counting from the data keeps them honest
    # without a number to edit when an endpoint is added.
    assert ROWS, f"{TSV} has no rows"
    assert len({(r["api"], r["python_method"]) for r in ROWS}) == len(ROWS)
    assert len({(r["api"], r["method"], r["path"]) for r in ROWS}) == len(ROWS)
    assert len(declared(MarketplaceClient)) + len(declared(IntegrationClient)) == len(ROWS)


@pytest.mark.parametrize("row", ROWS, ids=[f"{r['api']}:{r['python_method']}" for r in ROWS])
@pytest.mark.parametrize("wire", ["transit", "json"])
@pytest.mark.filterwarnings("ignore:.* is deprecated:DeprecationWarning")  # the legacy two
def test_each_endpoint_sends_its_method_path_query_and_body(
    row: dict[str, str], wire: WireFormatName
) -> None:
    client = make(row["api"], wire)
    method = bound(client, row["python_method"])
    base = MP if row["api"] == "marketplace" else IG
    url = base + row["path"]
    accept = "application/transit+json" if wire == "transit" else "application/json"
    with requests_mock.Mocker() as m:
        m.post(f"{base}/v1/auth/token", json={"access_token": "tok", "scope": "public-read"})
        resource: dict[str, object] = {"id": str(ID), "type": "thing", "attributes": {}}
        listed = isinstance(method, ListQuery)
        answer(m, row["method"], url, {"data": [resource] if listed else resource}, wire=wire)
        if row["method"] == "GET":
            query: Query[Any, Any] = method
            assert isinstance(query, Query)
            res = query({"id": ID, "include": ["author", "images"], "perPage": 3})
            sent = m.request_history[-1]
            assert sent.method == "GET"
            assert sent.url == f"{url}?id={ID}&include=author,images&perPage=3"
            assert sent.body is None
        elif row["python_method"].endswith("images.upload"):
            upload: Upload[Any, Any] = method
            assert isinstance(upload, Upload)
            res = upload({"image": b"\x89PNG data"}, {"expand": True})
            sent = m.request_history[-1]
            assert sent.url == f"{url}?expand=true"
            assert sent.headers["Content-Type"].startswith("multipart/form-data; boundary=")
            body = sent.body.read()
            assert b'name="image"; filename="image"' in body and b"\x89PNG data" in body
        else:
            command: Command[Any, Any] = method
            assert isinstance(command, Command)
            res = command(
                {"id": ID, "price": Money(100, "EUR"), "geolocation": LatLng(1.5, 2), "at": WHEN},
                {"expand": True},
            )
            sent = m.request_history[-1]
            assert sent.method == "POST"
            assert sent.url == f"{url}?expand=true"
            assert sent.headers["Content-Type"] == accept
            if wire == "transit":
                assert sent.body == (
                    b'["^ ","~:id","~u0e0b60fe-d9a2-11e6-bf26-cec0c932ce01",'
                    b'"~:price",["~#mn",[100,"EUR"]],'
                    b'"~:geolocation",["~#geo",[1.5,2.0]],"~:at","~m1521794424443"]'
                )
            else:
                assert json.loads(sent.body) == {
                    "id": str(ID),
                    "price": {"amount": 100, "currency": "EUR"},
                    "geolocation": {"lat": 1.5, "lng": 2.0},
                    "at": "2018-03-23T08:40:24.443Z",
                }
        assert sent.headers["Accept"] == accept
        assert sent.headers["Authorization"] == "Bearer tok"
    assert res.status == 200
    assert (res.data.data[0] if listed else res.data.data).id == ID


def test_group_and_method_reprs_name_their_paths(sdk: MarketplaceClient) -> None:
    assert (
        repr(sdk.own_listings.create_draft)
        == "<command /v1/api/own_listings/create_draft (Standard write, 10 credits)>"
    )
    assert "compare_and_set" in repr(IntegrationClient("a", "b").stock)


def test_groups_and_their_methods_are_made_once_per_client(sdk: MarketplaceClient) -> None:
    assert sdk.listings is sdk.listings
    assert sdk.listings.query is sdk.listings.query
    other = MarketplaceClient("x")
    assert other.listings is not sdk.listings
    assert other.listings.query is not sdk.listings.query
    # A method is a copy of the table's declaration, bound to its client.
    declared = vars(MarketplaceEndpoints.listings.cls)["query"]
    assert type(sdk.listings.query) is type(declared) is OptionalListQuery
    assert sdk.listings.query.endpoint is declared and declared.endpoint is declared
    assert repr(declared) == "<query listings/query>"


ENDPOINTS = [(entry.api, entry.name, entry.endpoint) for entry in iter_endpoints()]
ENDPOINT_IDS = [f"{api}:{name}" for api, name, _ in ENDPOINTS]

# Endpoints whose answer the API documents nothing about, and so return a plain `Resource`.
RETURNS_UNDOCUMENTED: set[str] = set()


def camel(python_method: str) -> str:
    return "".join(part.capitalize() for part in re.split(r"[._]", python_method))


def test_every_endpoint_is_in_the_list_above() -> None:
    assert len(ENDPOINTS) == len(ROWS)


@pytest.mark.parametrize("api,name,ep", ENDPOINTS, ids=ENDPOINT_IDS)
def test_every_endpoint_takes_its_own_typeddict(
    api: str, name: str, ep: Endpoint[Any, Any]
) -> None:
    params = ep.params_type
    assert params is not Params and is_typeddict(params), f"{name} takes {params!r}"
    assert params.__module__.startswith("flexclient.params"), params
    # Named after the endpoint, with the Integration API's own variants prefixed.
    assert params.__name__ in {f"{camel(name)}Params", f"Integration{camel(name)}Params"}
    assert params.__doc__ and f"`{name}`" in params.__doc__, params.__doc__
    # The kind says whether the method can be called without parameters: data, checked here.
    assert ep.params_required == bool(params.__required_keys__), (name, params.__required_keys__)
    assert ep.query_params_type is (params if ep.kind == "query" else CommandQueryParams)


@pytest.mark.parametrize("api,name,ep", ENDPOINTS, ids=ENDPOINT_IDS)
def test_every_endpoint_returns_a_typed_model(api: str, name: str, ep: Endpoint[Any, Any]) -> None:
    data = ep.data_type
    listed = isinstance(ep, ListQuery)
    model = get_args(data)[0] if listed else data
    assert listed == (get_origin(data) is list)
    assert isinstance(model, type) and issubclass(model, Resource)
    if name in RETURNS_UNDOCUMENTED:
        assert model is Resource
    else:
        assert model is not Resource and model.resource_type is not None, name


def test_the_optional_kinds_are_the_endpoints_whose_typeddict_requires_nothing() -> None:
    # Counted from the table and the TypedDicts, not numbers to edit with each endpoint.
    assert not RETURNS_UNDOCUMENTED
    optional = Counter(type(ep) for _, _, ep in ENDPOINTS if not ep.params_required)
    required_nothing = [ep for _, _, ep in ENDPOINTS if not ep.params_type.__required_keys__]
    assert sum(optional.values()) == len(required_nothing) > 0
    assert set(optional) == {OptionalQuery, OptionalListQuery, OptionalCommand}


def test_each_optional_kind_widens_its_kind() -> None:
    # A subclass may accept more than its base, never less: the optional forms are
    # subclasses, so `isinstance(method, Query)` holds for every GET, and so on.
    assert issubclass(OptionalQuery, Query) and issubclass(OptionalListQuery, ListQuery)
    assert issubclass(OptionalCommand, Command) and issubclass(Upload, Command)
    assert Query.kind == OptionalQuery.kind == ListQuery.kind == OptionalListQuery.kind == "query"
    assert (Command.kind, OptionalCommand.kind, Upload.kind) == ("command", "command", "upload")


def help_text(obj: object) -> str:
    """What `help(obj)` shows, its words and signs read as a reader reads them: the lines
    pydoc and the docstrings break are not part of what is said."""
    return " ".join(pydoc.plain(pydoc.render_doc(obj)).split())


def test_help_says_what_the_endpoint_does_its_path_its_credits_and_its_keys(
    sdk: MarketplaceClient,
) -> None:
    shown = help_text(sdk.own_listings.create)
    assert "create(body_params: 'OwnListingsCreateParams', query_params: " in shown
    assert "= None) -> 'Response[Envelope[OwnListing]]'" in shown
    assert "Create a listing of the logged-in user" in shown
    assert "POST /v1/api/own_listings/create answers an OwnListing" in shown
    assert "Credits: 10 a call (Standard write)." in shown
    assert (
        "keys: title (required), description, geolocation, price, availabilityPlan, publicData,"
        " privateData, images, protectedFileAttachments"
    ) in shown
    assert "keys: expand, include, fields.<type>, limit.<relationship>" in shown
    assert "Options, as keywords or in opts: timeout, deadline, credit_budget." in shown
    assert "A POST endpoint" not in shown  # the kind's docstring, which says nothing of it
    listed = help_text(sdk.listings.query)
    assert "query(params: 'ListingsQueryParams' = None, /, *, custom: " in listed
    assert "GET /v1/api/listings/query answers a page of Listings; `.iter()`" in listed
    assert "Credits: 5 a call (Heavy read)." in listed
    # An upload takes the options of its progress too.
    upload = help_text(IntegrationClient("a", "b").images.upload)
    assert (
        "Options, as keywords or in opts: timeout, deadline, credit_budget, on_upload_progress,"
        " progress_bar."
    ) in upload
    assert "Credits: 30 a call (Image upload), and its data transfer." in upload
    # A group's help shows each of its methods so.
    group = help_text(sdk.own_listings)
    assert "create(body_params: 'OwnListingsCreateParams'" in group
    assert "Create a listing of the logged-in user" in group
    # The kinds keep their own docstrings.
    assert (Command.__doc__ or "").startswith("A POST endpoint whose body has required keys")


@pytest.mark.parametrize("api,name,ep", ENDPOINTS, ids=ENDPOINT_IDS)
def test_every_endpoint_documents_itself(api: str, name: str, ep: Endpoint[Any, Any]) -> None:
    assert ep.summary.endswith(".") and ep.summary[0].isupper(), ep.summary
    method = bound(make(api, "json"), name)
    doc = method.__doc__
    assert doc.startswith(f"{ep.summary}\n\n{'GET' if ep.kind == 'query' else 'POST'} ")
    billed = f"Credits: {method.credits} a call" if method.usage_type else "Credits: none."
    assert method.url_path in doc and billed in doc
    assert all(key in doc for key in ep.params_type.__required_keys__)
    # A query's `*extra`, there only to refuse a second argument, is left out of its help.
    called = inspect.signature(type(method).__call__).parameters
    assert inspect.signature(method).parameters.keys() == {
        name for name, p in called.items() if p.kind is not p.VAR_POSITIONAL
    } - {"self"}


def test_a_method_reads_its_types_when_first_used_and_not_before() -> None:
    modules = fresh(
        "from flexclient import MarketplaceClient\n"
        "sdk = MarketplaceClient('id')\n"
        "print(repr(sdk.stripe_account.fetch), sdk.stripe_account.fetch.credits)\n"
        "import sys\n"
        "print('before', 'flexclient.params.stripe' in sys.modules)\n"
        "print(sdk.stripe_account.fetch.params_type.__name__)"
    )
    assert modules[:3] == [
        "<query /v1/api/stripe_account/fetch (Heavy read, 5 credits)> 5",
        "before False",
        "StripeAccountFetchParams",
    ]
    assert "flexclient.params.stripe" in modules
    assert "flexclient._endpoints.docs" not in modules  # help() imports it when asked


DEPRECATED = {"listings.search", "current_user.delete_stripe_account"}


@pytest.mark.parametrize("api,name,ep", ENDPOINTS, ids=ENDPOINT_IDS)
def test_only_the_legacy_endpoints_warn_and_say_so_in_help(
    api: str, name: str, ep: Endpoint[Any, Any]
) -> None:
    # The two the official SDK has and the API reference no longer lists.
    assert bool(ep.deprecated) == (api == "marketplace" and name in DEPRECATED)
    shown = " ".join((ep.__doc__ or "").split())
    assert ("A call warns (DeprecationWarning)" in shown) == bool(ep.deprecated)


def test_a_deprecated_endpoint_warns_at_the_callers_line(mock: requests_mock.Mocker) -> None:
    sdk = MarketplaceClient("client-id", base_url=MP, retry_policy=NO_WAIT)
    for path in ("listings/search", "listings/query"):
        answer(mock, "GET", f"{MP}/v1/api/{path}", {"data": []})
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        sdk.listings.query({"perPage": 1})
        sdk.listings.search({"perPage": 1})
    (warning,) = caught
    assert warning.category is DeprecationWarning and warning.filename == __file__
    assert "listings/search is deprecated" in str(warning.message)
    assert "listings.query" in str(warning.message)
