"""The Sharetribe Web Template's calls, ported to flexclient as a user would port them.

`data/web_template_calls.json` lists every Marketplace API and Authentication API call of
the template's `src/` and `server/` (its header says which commit): the SDK method, the keys
of its parameters and the kind of each value. Here each call is made with flexclient:

- the method exists, and takes the call's keys without a warning; a snake_case key
  (`listing_id`) is sent as it is, with a warning naming the key to write (`listingId`);
- the JS SDK's habits that do not translate say what to write instead: a query's second
  argument, which the JS SDK drops, and a list of parameter parts, which it merges;
- the request is the one the official JS SDK sends for the same call: the same path, the
  same query string to the byte, the same body (`parity/template_requests.json`, recorded
  by `parity/template_capture.js`; docs/development.md says how to record it again).

`tests/integration/test_web_template_replay.py` replays the same calls against the fake
marketplace.
"""

from __future__ import annotations

import inspect
import json
import re
import warnings
from pathlib import Path
from typing import Any

import pytest
import requests_mock

from flexclient import MarketplaceClient, ParameterError, UnknownParameterWarning
from flexclient._endpoints.checks import camel_case, is_custom_key
from flexclient._endpoints.kinds import Bound, ListQuery
from flexclient._wire.formats import TRANSIT
from tests.helpers import NO_WAIT
from tests.test_js_sdk_parity import normalize, revive

DATA = Path(__file__).parent / "data"
CORPUS: dict[str, Any] = json.loads((DATA / "web_template_calls.json").read_text())
CALLS: list[dict[str, Any]] = CORPUS["calls"]
RECORDED: list[dict[str, Any]] = json.loads(
    (Path(__file__).parent / "parity" / "template_requests.json").read_text()
)
BASE = "https://api.test"
AUTH = {"authInfo", "login", "logout", "loginWithIdp", "loginAs", "exchangeToken"}
API_CALLS = [c for c in CALLS if "." in c["call"]]


def call_id(call: dict[str, Any]) -> str:
    return f"{call['call']}@{call['file'].rsplit('/', 1)[-1]}:{call['line']}"


def snake(name: str) -> str:
    """A JS SDK name as flexclient spells it: `ownListings` -> `own_listings`."""
    return re.sub(r"(?<!^)([A-Z])", r"_\1", name).lower()


def method_of(client: object, call: str) -> Any:
    """The flexclient method of a JS SDK call (`ownListings.createDraft`)."""
    found: Any = client
    for part in call.split("."):
        found = getattr(found, snake(part))
    return found


def example(keys: dict[str, str], values: dict[str, Any]) -> dict[str, Any]:
    """Arguments of a call: the value the template fixes, else its kind's example value, as
    the JS capture makes them."""
    made = {k: values[k] if k in values else CORPUS["_examples"][kind] for k, kind in keys.items()}
    revived = revive(made)
    assert isinstance(revived, dict)
    return revived  # pyright: ignore[reportUnknownVariableType]


def snake_case_keys(params: dict[str, Any]) -> dict[str, str]:
    """The keys written in snake_case where the API documents the camelCase one."""
    return {k: camel_case(k) for k in params if camel_case(k) != k and not is_custom_key(k)}


def test_the_corpus_is_every_api_and_auth_call_of_the_template() -> None:
    # 121 calls, less the 7 of the Asset Delivery API (listed with the fake's assets).
    assert len(CALLS) == 114
    assert len({(c["file"], c["line"], c["call"]) for c in CALLS}) == len(CALLS)
    assert {c["call"] for c in CALLS} & AUTH == AUTH
    for call in CALLS:
        assert call["file"].startswith(("src/", "server/")) and call["line"] > 0
        assert set(call) <= {"file", "line", "call", "params", "note", *CORPUS["_fields"]}
        kinds = [*call["params"].values(), *call.get("query", {}).values()]
        kinds += call.get("second", {}).values()
        assert set(kinds) <= set(CORPUS["_kinds"]) == set(CORPUS["_examples"]), call_id(call)
        assert set(call.get("values", {})) <= {*call["params"], *call.get("query", {})}
    # The habits the issue counted: five second arguments, one list of parts, six
    # snake_case keys or own listings' states.
    assert sum("second" in c for c in CALLS) == 5
    assert sum(bool(c.get("parts")) for c in CALLS) == 1


@pytest.mark.parametrize("call", [c for c in CALLS if c["call"] in AUTH], ids=call_id)
def test_each_auth_call_is_a_method_taking_the_keys_as_keywords(call: dict[str, Any]) -> None:
    method = method_of(MarketplaceClient("client-id"), call["call"])
    taken = inspect.signature(method).parameters
    assert {snake(k) for k in call["params"]} == {
        name for name, p in taken.items() if p.default is inspect.Parameter.empty
    }
    if call["params"]:
        # The JS SDK's mapping says which keywords to write, and sends nothing.
        keys = ", ".join(f"{snake(k)}=..." for k in call["params"])
        with requests_mock.Mocker(), pytest.raises(ParameterError, match=re.escape(keys)):
            method(example(call["params"], {}))


@pytest.fixture
def sdk() -> MarketplaceClient:
    return MarketplaceClient("client-id", base_url=BASE, retry_policy=NO_WAIT)


@pytest.mark.parametrize("call", API_CALLS, ids=call_id)
def test_the_ported_call_is_taken_and_sent_as_the_js_sdk_sends_it(
    sdk: MarketplaceClient, call: dict[str, Any]
) -> None:
    method = method_of(sdk, call["call"])
    bound: object = method
    assert isinstance(bound, Bound)
    values = call.get("values", {})
    params = example(call["params"], values)
    if "image" in params:
        params["image"] = b"\x89PNG\r\n\x1a\n an image"
    query = example(call["query"], values) if "query" in call else None
    args = [params] if query is None else [params, query]
    with requests_mock.Mocker() as m:
        m.post(f"{BASE}/v1/auth/token", json={"access_token": "token", "scope": "user"})
        m.register_uri(
            "GET" if bound.endpoint.kind == "query" else "POST",
            BASE + bound.url_path,
            content=b'["^ ","~:data",[]]'
            if isinstance(bound, ListQuery)
            else b'["^ ","~:data",null]',
            headers={"Content-Type": "application/transit+json"},
        )
        # What does not translate says what to write, and sends nothing.
        if "second" in call:
            second = example(call["second"], values)
            with pytest.raises(ParameterError, match="no second argument"):
                method(params, second)
        if call.get("parts"):
            with pytest.raises(ParameterError, match=re.escape("{**part1, **part2}")):
                method([params])
        assert m.call_count == 0
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            method(*args)
        sent = m.request_history[-1]
    # No word, but for a snake_case key: sent as it is, with the key to write.
    expected = [
        f"{key!r} is the snake_case spelling of {documented!r}"
        for key, documented in snake_case_keys(params).items()
    ]
    said = [str(w.message) for w in caught]
    assert len(said) == len(expected) and all(e in s for e, s in zip(expected, said, strict=True))
    assert all(w.category is UnknownParameterWarning for w in caught)
    if "image" in params:
        return  # a browser File: the JS capture leaves uploads out
    (js,) = [
        r
        for r in RECORDED
        if (r["file"], r["line"], r["call"]) == (call["file"], call["line"], call["call"])
    ]
    path, _, query_string = sent.url[len(BASE) :].partition("?")
    assert (sent.method, path) == (js["httpMethod"], js["path"])
    assert query_string == js["query"]
    assert sent.headers.get("Content-Type") == js["contentType"]
    if js["body"] is None:
        assert sent.body is None
    else:
        assert normalize(TRANSIT.decode(sent.body)) == normalize(
            TRANSIT.decode(js["body"].encode())
        )


def test_every_recorded_request_is_a_call_of_the_corpus() -> None:
    uploads = [c for c in API_CALLS if "file" in c["params"].values()]
    recorded = [(r["file"], r["line"], r["call"]) for r in RECORDED]
    assert recorded == [(c["file"], c["line"], c["call"]) for c in API_CALLS if c not in uploads]


def test_the_recording_matches_the_installed_sdk() -> None:
    """Run the capture again with the SDK .ci/run installed: the recording is current."""
    from tests.js_sdks import run_js

    assert run_js(Path(__file__).parent / "parity" / "template_capture.js") == RECORDED
