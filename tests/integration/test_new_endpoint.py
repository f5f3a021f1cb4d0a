"""A new endpoint is its line in the endpoint table (and, if billed, its line in the credits
table): the one walk of the table (`iter_endpoints`) carries it to the client, the command
line's `call`, the fake marketplace (501 until a handler registers for it), `help()`, the
docs site and the credits. docs/development.md, "Adding an endpoint", lists these steps."""

from __future__ import annotations

import pydoc
import uuid
from collections.abc import Iterator
from types import MappingProxyType
from typing import Any

import pytest

import flexclient.credits
from flexclient import MarketplaceClient, ServerError
from flexclient._cli import main
from flexclient._endpoints.kinds import Group, Query, group
from flexclient._endpoints.table import MarketplaceEndpoints
from flexclient._endpoints.walk import by_path, iter_endpoints
from flexclient.models import Listing
from flexclient.params import ListingsShowParams
from flexclient.testing import FakeMarketplace
from scripts.docs_site import endpoint_pages
from tests.helpers import NO_WAIT

PATH = "/v1/api/widgets/show"


class MarketplaceWidgets(Group):
    """`widgets` endpoints: a group of no API, added to the table for these tests."""

    show: Query[ListingsShowParams, Listing] = Query("widgets/show", "Show one widget.")


@pytest.fixture(autouse=True)
def widgets(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """The table with the `widgets` group as its last line, billed as a Simple read."""
    slot = group(MarketplaceWidgets)
    slot.__set_name__(MarketplaceEndpoints, "widgets")
    monkeypatch.setattr(MarketplaceEndpoints, "widgets", slot, raising=False)
    billed = {**flexclient.credits.USAGE_TYPES, PATH: "Simple read"}
    monkeypatch.setattr(flexclient.credits, "USAGE_TYPES", MappingProxyType(billed))
    # The fake's index of paths is made once a process, as if the table had been imported.
    by_path.cache_clear()
    yield
    by_path.cache_clear()


def widget_method(client: MarketplaceClient) -> Query[Any, Any]:
    """`client.widgets.show`, found by the walk of the table (the checkers know no `widgets`)."""
    (entry,) = [e for e in iter_endpoints("marketplace") if e.group == "widgets"]
    assert entry.name == "widgets.show"
    bound: Any = entry.bound(client)
    method: Query[Any, Any] = bound
    assert isinstance(method, Query)
    return method


def test_the_client_has_its_method_with_its_path_credits_and_help() -> None:
    method = widget_method(MarketplaceClient("id"))
    assert repr(method) == f"<query {PATH} (Simple read, 1 credits)>"
    shown = pydoc.plain(pydoc.render_doc(method))
    assert "Show one widget." in shown and f"GET {PATH} answers a Listing." in shown
    assert "Credits: 1 a call (Simple read)." in shown


def test_the_fake_routes_it_and_answers_501_until_a_handler_registers(
    fake_marketplace: FakeMarketplace,
) -> None:
    sdk = MarketplaceClient(
        fake_marketplace.client_id, base_url=fake_marketplace.url, retry_policy=NO_WAIT
    )
    method = widget_method(sdk)
    with pytest.raises(ServerError) as failed:
        method({"id": uuid.uuid4()})
    assert failed.value.status == 501
    assert failed.value.codes == ["not-implemented"]


def test_the_command_line_calls_and_suggests_it(
    cli: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    assert main([*cli, "call", "widgets.show", f"id={uuid.uuid4()}"]) == 1
    assert "error 501: not-implemented" in capsys.readouterr().err
    assert main([*cli, "call", "widgets.shwo"]) == 2
    assert "did you mean 'widgets.show'" in capsys.readouterr().err


def test_the_docs_site_documents_it() -> None:
    page = endpoint_pages()["reference/marketplace-api.md"]
    section = page[page.index("\n### widgets.show {#") :].split("\n### ")[1]
    assert "Show one widget." in section
    assert "1 a call (Simple read)" in section
