"""The optional mypy plugin: one-dict code (`{"perPage": 5, "pub_color": "red"}`) passes mypy
with it, its documented keys still checked; without it, mypy refuses such a dict."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.checkers import mypy_errors

# Runs the type checkers as users do: slow; `pytest -m 'not typecheck'` leaves it out.
pytestmark = pytest.mark.typecheck

CODE = """\
import uuid
from flexclient import MarketplaceClient

sdk = MarketplaceClient("id")
sdk.listings.query({"perPage": 5, "pub_color": "red", "include": ["author"]})
sdk.listings.query.iter({"perPage": 5, "meta_rank": "1"})
sdk.listings.show({"id": uuid.uuid4(), "imageVariant.x": "w:1"})
sdk.own_listings.create({"title": "T"}, {"expand": True, "imageVariant.x": "w:1"})
sdk.listings.query({"perPage": "five", "pub_color": "red"})
sdk.listings.query({"perpage": 5, "pub_color": "red"})
sdk.listings.show({"fields.listing": "title", "imageVariant.x": "w:1"})
sdk.timeslots.query.pages({"listingId": uuid.uuid4(), "pub_a": "b"})
sdk.own_listings.close({"id": uuid.uuid4()}, {"expnad": True, "imageVariant.x": "w:1"})
"""


def run(tmp: Path, plugins: str) -> dict[int, str]:
    """mypy's errors on CODE with these plugin settings, by line."""
    code = tmp / "user_code.py"
    code.write_text(CODE)
    return {line: "".join(msgs) for (_, line), msgs in mypy_errors(tmp, [code], plugins).items()}


def test_with_the_plugin_custom_keys_pass_and_documented_keys_are_checked(
    tmp_path: Path,
) -> None:
    errors = run(tmp_path, "plugins = flexclient.mypy_plugin")
    assert set(errors) == {9, 10, 11, 12, 13}, errors
    assert 'Value of "perPage" has incompatible type "str"; expected "int"' in errors[9]
    assert '"ListingsQueryParams" has no key "perpage"' in errors[10]
    assert """Missing key 'id' for "ListingsShowParams\"""" in errors[11]
    assert "Missing keys 'end', 'start'" in errors[12]
    assert '"CommandQueryParams" has no key "expnad"' in errors[13]


@pytest.mark.parametrize("plugins", ["", "plugins = pydantic.mypy"])
def test_without_it_mypy_refuses_custom_keys_in_the_dict(tmp_path: Path, plugins: str) -> None:
    errors = run(tmp_path, plugins)
    assert {5, 6, 7, 8} <= set(errors)
    assert 'Extra key "pub_color" for TypedDict "ListingsQueryParams"' in errors[5]
