"""The reference site's generated pages (scripts/docs_site.py), without a build: every
endpoint with its keys, credits and errors; the navigation from README; links out of docs/.
`.ci/run` builds the whole site with `mkdocs build --strict`."""

from __future__ import annotations

import csv
import re
import typing
from pathlib import Path

import pytest

from flexclient import IntegrationClient, MarketplaceClient
from flexclient.credits import credits_for, usage_type
from scripts.docs_site import (
    ROOT,
    endpoint_pages,
    fence_doctests,
    home_page,
    navigation,
    outside_links,
    python_pages,
)

TSV = Path(__file__).parent / "data" / "endpoints.tsv"
with TSV.open(encoding="utf-8", newline="") as _f:
    ROWS = list(csv.DictReader(_f, delimiter="\t"))
PAGES = endpoint_pages()
PAGE_OF_API = {
    "marketplace": PAGES["reference/marketplace-api.md"],
    "integration": PAGES["reference/integration-api.md"],
}


def section(api: str, method: str) -> str:
    """The part of an API's page about one method: from its heading to the next."""
    page = PAGE_OF_API[api]
    start = page.index(f"\n### {method} {{#")
    end = page.find("\n### ", start + 1)
    return page[start : end if end > 0 else None]


@pytest.mark.parametrize("row", ROWS, ids=[f"{r['api']}:{r['python_method']}" for r in ROWS])
def test_every_endpoint_has_its_request_keys_credits_and_errors(row: dict[str, str]) -> None:
    text = section(row["api"], row["python_method"])
    assert f"`{row['method']} {row['path']}" in text
    billed = usage_type(row["path"])
    if billed is None:
        assert "credits | none" in text
    else:
        assert f"| credits | {credits_for(row['path'])} a call ({billed})" in text
    client = MarketplaceClient("x") if row["api"] == "marketplace" else IntegrationClient("x", "y")
    group, action = row["python_method"].split(".")
    endpoint = getattr(getattr(client, group), action)
    for key in typing.get_type_hints(endpoint.params_type):
        shown = re.sub(
            r"^fields\..*", "fields.<type>", re.sub(r"^limit\..*", "limit.<relationship>", key)
        )
        assert f"| `{shown}` |" in text, key
    for key in endpoint.params_type.__required_keys__:
        assert re.search(rf"\| `{re.escape(key)}` \| `[^`]*` \| required \|", text), key
    assert "| raises |" in text and "[those of every call](#errors-of-every-call)" in text


def test_errors_follow_the_endpoint() -> None:
    assert "NotFoundError" in section("marketplace", "listings.show")
    assert "NotFoundError" not in section("marketplace", "listings.query")
    upload = section("integration", "images.upload")
    assert "PayloadTooLargeError" in upload and "(multipart)" in upload
    assert "`email-taken`" in section("marketplace", "current_user.create")
    assert "PaymentRequiredError" in section("marketplace", "transactions.initiate")


def test_transfer_and_deprecation_are_said() -> None:
    assert "and 230,000 a GB of the data it moves" in section("marketplace", "images.upload")
    search = section("marketplace", "listings.search")
    assert "Deprecated" in search and "credits | none" in search


def test_the_python_pages_list_each_package_s_public_names() -> None:
    page = python_pages()["reference/python/flexclient.md"]
    assert "::: flexclient\n" in page
    members = page.split("members: [")[1].split("]")[0].split(", ")
    assert {"MarketplaceClient", "ConflictError", "Money"} <= set(members)
    assert "CreditBudgetExceededError" in python_pages()["reference/python/flexclient.md"]


def test_navigation_follows_where_to_read_then_the_other_pages() -> None:
    readme = (
        "# x\n\n## Where to read\n\n| page | what |\n|---|---|\n"
        "| [Using](docs/usage.md) | a |\n| [Errors](docs/errors.md) · [Old](docs/gone.md) | b |\n"
        "\n## Installing\n\n[not in the table](docs/cli.md)\n"
    )
    nav = navigation(readme, ["cli.md", "errors.md", "new.md", "usage.md"])
    assert nav[0] == {"Home": "index.md"}
    assert nav[1] == {
        "Guides": [{"Using": "usage.md"}, {"Errors": "errors.md"}, "cli.md", "new.md"]
    }
    assert [next(iter(entry)) for entry in nav[2:]] == ["Endpoints", "Python API"]


def test_the_real_readme_links_every_page_in_the_navigation() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    pages = sorted(p.name for p in (ROOT / "docs").glob("*.md"))
    guides = navigation(readme, pages)[1]["Guides"]
    assert all(isinstance(entry, dict) for entry in guides), "a page README does not link"
    assert sorted(next(iter(entry.values())) for entry in guides) == pages


def test_the_home_page_is_the_readme_with_site_links() -> None:
    assert home_page("see [usage](docs/usage.md#x)") == "see [usage](usage.md#x)"


def test_links_out_of_docs_become_paths_and_missing_files_stay_links() -> None:
    docs = ROOT / "docs"
    text = "[nb](../examples/explore.ipynb) [g](usage.md) [w](https://x.org) [no](../nothing.md)"
    assert outside_links(text, docs) == (
        "nb (`examples/explore.ipynb`) [g](usage.md) [w](https://x.org) [no](../nothing.md)"
    )


def test_doctest_lines_become_code() -> None:
    text = "Reads.\n\n>>> a = 1\n... b\n2\n\nMore."
    assert fence_doctests(text) == "Reads.\n\n```pycon\n>>> a = 1\n... b\n2\n```\n\nMore."
