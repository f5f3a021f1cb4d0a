"""Custom image variants: `ImageVariantSpec`, `image_variants` and `object_query` write what the
official SDK's `util.objectQueryString` writes, and the query string carries them as its
`util.queryString` does."""

from __future__ import annotations

from typing import Any

import pytest
import requests_mock

from flexclient import (
    ImageVariantSpec,
    MarketplaceClient,
    ParameterError,
    image_variants,
)
from flexclient._wire.query import write_query
from flexclient.params import object_query
from tests.helpers import MP, TRANSIT_CT, transit_body
from tests.js_sdks import ROOT, run_js

SCRIPT = ROOT / "tests" / "js_sdk_features" / "object_query.js"

# Objects both sides can write; their values are what JSON can carry to node.
OBJECTS: list[dict[str, Any]] = [
    {"w": 640, "h": 1280, "fit": "scale"},
    {"w": 320, "h": 640, "fit": "crop"},
    {"fit": "scale", "w": 1, "h": 3072},
    {"w": 400, "h": None, "fit": "scale"},
    {},
    {"a": "foo", "b": "150", "c": None, "d": ["foo", "bar"]},
    {"n": 0.1, "big": 1e21, "small": 1e-7, "neg": -2.5, "whole": 5.0, "zero": -0.0},
    {"t": True, "f": False},
    {"list": [1, None, "x"], "nested": [[1, 2], [3, [4]]], "empty": []},
    {"text": "ü ; : , / & = ?", "emoji": "\U0001f600"},
    {"ä-key": "v", "key with space": 1},
]

# Query strings with imageVariant.* parameters (ASCII names: the SDK leaves names unencoded
# and leaves encoding other ones to the HTTP library).
QUERIES: list[dict[str, Any]] = [
    {"imageVariant.my-variant": "w:640;h:1280;fit:scale"},
    {
        "include": ["images"],
        "fields.image": ["variants.card", "variants.card-2x"],
        "imageVariant.card": "w:400;h:300;fit:crop",
        "imageVariant.card-2x": "w:800;h:600;fit:crop",
    },
]


def run_node(cases: list[dict[str, Any]]) -> list[dict[str, str]]:
    result: list[dict[str, str]] = run_js(SCRIPT, given=cases, timeout=60)
    return result


def test_object_query_writes_what_the_official_sdk_writes() -> None:
    js = run_node([{"object": o} for o in OBJECTS])
    for obj, theirs in zip(OBJECTS, js, strict=True):
        assert object_query(obj) == theirs["value"], obj


def test_image_variants_write_what_the_official_sdk_writes() -> None:
    variants = [
        ImageVariantSpec(640, 1280),
        ImageVariantSpec(320, 640, "crop"),
        ImageVariantSpec(1, 3072),
    ]
    js = run_node([{"object": {"w": v.width, "h": v.height, "fit": v.fit}} for v in variants])
    assert [v.value for v in variants] == [r["value"] for r in js]


def test_query_strings_with_variants_are_written_as_the_official_sdk_writes_them() -> None:
    params = {
        "include": ["images"],
        **image_variants({"card": ImageVariantSpec(400, 300, "crop"), "tall": {"w": 10, "h": 99}}),
    }
    cases = [*QUERIES, params]
    js = run_node([{"query": q} for q in cases])
    for query, theirs in zip(cases, js, strict=True):
        assert write_query(query) == theirs["value"], query


def test_a_nested_mapping_is_refused_as_the_official_sdk_refuses_it() -> None:
    js = run_node([{"object": {"w": 1, "f": {"x": 1}}}])
    assert "Nested object" in js[0]["error"]
    with pytest.raises(ParameterError) as err:
        object_query({"w": 1, "f": {"x": 1}})
    assert err.value.param == "f"


def test_image_variant_value_and_helpers() -> None:
    v = ImageVariantSpec(320, 640)
    assert v.value == str(v) == "w:320;h:640;fit:scale"
    assert v.scaled(2) == ImageVariantSpec(640, 1280, "scale")
    assert image_variants({"a": v, "b": ImageVariantSpec(8, 8, "crop")}) == {
        "imageVariant.a": "w:320;h:640;fit:scale",
        "imageVariant.b": "w:8;h:8;fit:crop",
    }
    assert image_variants({}) == {}


@pytest.mark.parametrize(
    ("make", "param"),
    [
        (lambda: ImageVariantSpec(0, 10), "width"),
        (lambda: ImageVariantSpec(10, -1), "height"),
        (lambda: ImageVariantSpec(True, 10), "width"),
        (lambda: ImageVariantSpec(10.5, 10), "width"),  # type: ignore[arg-type]
        (lambda: ImageVariantSpec(10, 10, "sc;ale"), "fit"),  # type: ignore[arg-type]
        (lambda: ImageVariantSpec(10, 10, ""), "fit"),  # type: ignore[arg-type]
        (lambda: ImageVariantSpec(10, 10).scaled(0), "factor"),
        (lambda: image_variants({"a;b": ImageVariantSpec(1, 1)}), "variants"),
        (lambda: image_variants({"": ImageVariantSpec(1, 1)}), "variants"),
        (lambda: image_variants({"a": 5}), "imageVariant.a"),  # type: ignore[dict-item]
        (lambda: image_variants([("a", ImageVariantSpec(1, 1))]), "variants"),  # type: ignore[arg-type]
    ],
)
def test_bad_variants_fail_naming_the_parameter(make: Any, param: str) -> None:
    with pytest.raises(ParameterError) as err:
        make()
    assert err.value.param == param


def test_a_query_with_custom_variants_sends_them(mock: requests_mock.Mocker) -> None:
    mock.get(
        f"{MP}/v1/api/listings/query",
        content=transit_body({"data": [], "meta": {}}),
        headers={"Content-Type": TRANSIT_CT},
    )
    sdk = MarketplaceClient("client-id", base_url=MP)
    card = ImageVariantSpec(400, 300, "crop")
    sdk.listings.query(
        {"include": ["images"], "fields.image": ["variants.card"]},
        custom=image_variants({"card": card}),
    )
    assert mock.last_request is not None
    assert mock.last_request.query.endswith("imagevariant.card=w%3a400%3bh%3a300%3bfit%3acrop")
    # Merged into a dict built at run time, as well.
    params: Any = {"include": ["images"], **image_variants({"card": card})}
    sdk.listings.query(params)
    assert mock.last_request.query.endswith("imagevariant.card=w%3a400%3bh%3a300%3bfit%3acrop")
