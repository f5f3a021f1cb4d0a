"""`CookieTokenStore`: the official SDK's session cookie, read and written the same way.

The interoperability tests run the official SDK's own cookie stores in node (its browser
store through js-cookie, its Express store) against the fake marketplace: a session one side
starts, the other side continues, both ways, and "login as" too.
"""

from __future__ import annotations

import datetime as dt
import json
import logging
import uuid
from collections.abc import Iterator
from http.cookies import SimpleCookie
from typing import Any
from urllib.parse import quote, unquote

import pytest
import requests_mock
from werkzeug.http import parse_cookie
from werkzeug.wrappers import Response as WerkzeugResponse

from flexclient import (
    CookieTokenStore,
    MarketplaceClient,
    ParameterError,
    Token,
    TokenCookie,
)
from flexclient._auth.cookies import COOKIE_MAX_AGE, decode_token, encode_token
from flexclient.testing import FakeMarketplace
from tests.helpers import MP, NO_WAIT, token_json
from tests.js_sdks import ROOT, run_js

SCRIPT = ROOT / "tests" / "js_sdk_features" / "cookie_store.js"
CLIENT = "08ec69f6-d37e-414d-83eb-324e94afddf0"
NAME = f"st-{CLIENT}-token"
USER_TOKEN = Token(
    access_token="eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ1In0.c2ln",
    expires_in=86400,
    scope="user",
    refresh_token="refresh-1",
)


# --- the format ---------------------------------------------------------------------------------


def test_the_cookie_name_and_value_are_the_sdks() -> None:
    store = CookieTokenStore(CLIENT)
    assert store.name == NAME
    value = encode_token(USER_TOKEN)
    text = (
        '{"access_token":"eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ1In0.c2ln","scope":"user",'
        '"token_type":"bearer","expires_in":86400,"refresh_token":"refresh-1"}'
    )
    assert value == quote(text, safe="")
    assert value.startswith("%7B%22access_token%22%3A%22eyJ")
    assert decode_token(value) == USER_TOKEN


def test_login_as_is_kept_as_the_sdk_keeps_it() -> None:
    token = Token(access_token="a", scope="user", refresh_token="r", is_logged_in_as=True)
    value = encode_token(token)
    assert json.loads(unquote(value))["isLoggedInAs"] is True
    assert decode_token(value) == token
    # The SDK writes `"isLoggedInAs": false` after a password login.
    plain = quote('{"access_token":"a","scope":"user","isLoggedInAs":false}', safe="")
    read = decode_token(plain)
    assert read is not None and read.is_logged_in_as is False and read.extra == {}


def test_values_as_js_cookie_writes_them_are_read() -> None:
    # js-cookie leaves { } : and some others unencoded; a framework may hand the value over
    # in double quotes.
    js_cookie = "{%22access_token%22:%22a.b.c%22%2C%22scope%22:%22public-read%22}"
    for value in (js_cookie, f'"{js_cookie}"'):
        token = decode_token(value)
        assert token is not None and token.access_token == "a.b.c"
        assert token.scope == "public-read"


@pytest.mark.parametrize(
    "value",
    [
        "",
        '""',
        "not json",
        "%7B",
        "%FF%FE",
        quote("[1]"),
        quote('{"scope":"user"}'),
        quote('{"access_token":"a\\nb"}'),
        "[" * 5000,
    ],
)
def test_a_cookie_without_a_token_counts_as_none(
    value: str, caplog: pytest.LogCaptureFixture
) -> None:
    with caplog.at_level(logging.WARNING, logger="flexclient"):
        store = CookieTokenStore(CLIENT, {NAME: value})
        assert store.get() is None
    if value.strip('"'):
        assert value not in caplog.text  # the value may be half a token: never logged


def test_the_value_survives_every_frameworks_cookie_writer() -> None:
    token = Token(access_token="x.y.z", scope="user", refresh_token="r", extra={"k": "ö ;,\"'()!*"})
    value = encode_token(token)
    assert set(value) <= set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789%-_.~")
    # Django and Starlette write cookies with SimpleCookie, Flask with Werkzeug: none quotes it.
    jar: SimpleCookie = SimpleCookie()
    jar[NAME] = value
    assert jar.output(header="").strip() == f"{NAME}={value}"
    response = WerkzeugResponse()
    CookieTokenStore(CLIENT).apply_to(response)  # nothing to write yet
    assert response.headers.get("Set-Cookie") is None
    store = CookieTokenStore(CLIENT, secure=True)
    store.set(token)
    store.apply_to(response)
    header = response.headers["Set-Cookie"]
    assert header.startswith(f"{NAME}={value};") and "Secure" in header
    assert f"Max-Age={COOKIE_MAX_AGE}" in header and "Path=/" in header
    assert "HttpOnly" not in header
    # ... and the frameworks' cookie parsers give it back as written.
    assert decode_token(parse_cookie(f"{NAME}={value}")[NAME]) == token


def test_the_store_reads_once_and_writes_every_change() -> None:
    written: list[TokenCookie] = []
    cookies = {NAME: encode_token(USER_TOKEN), "other": "1"}
    store = CookieTokenStore(CLIENT, cookies, written.append, max_age=3600, same_site="Lax")
    assert store.get() == USER_TOKEN
    cookies[NAME] = "changed"  # read once, as the SDK's Express store
    assert store.get() == USER_TOKEN and store.pending is None
    newer = Token(access_token="new", scope="user", refresh_token="r2")
    store.set(newer)
    assert store.get() == newer
    store.remove()
    assert store.get() is None
    assert [c.removed for c in written] == [False, True] and store.changes == written
    set_cookie, removed = written
    assert decode_token(set_cookie.value) == newer
    assert (set_cookie.max_age, set_cookie.secure, set_cookie.same_site) == (3600, False, "Lax")
    assert (removed.value, removed.max_age) == ("", 0)
    assert store.pending is removed
    now = dt.datetime(2024, 1, 2, 3, 4, 5, tzinfo=dt.UTC)
    assert set_cookie.header(now) == (
        f"{NAME}={set_cookie.value}; Max-Age=3600; Path=/; "
        "Expires=Tue, 02 Jan 2024 04:04:05 GMT; SameSite=Lax"
    )
    assert removed.header(now) == (
        f"{NAME}=; Max-Age=0; Path=/; Expires=Thu, 01 Jan 1970 00:00:00 GMT; SameSite=Lax"
    )


def test_no_token_in_reprs() -> None:
    store = CookieTokenStore(CLIENT, {NAME: encode_token(USER_TOKEN)})
    store.set(USER_TOKEN)
    shown = repr(store) + repr(store.changes) + repr(store.pending)
    assert "eyJ" not in shown and "refresh-1" not in shown


@pytest.mark.parametrize(
    ("make", "param"),
    [
        (lambda: CookieTokenStore("bad id"), "client_id"),
        (lambda: CookieTokenStore("a;b"), "client_id"),
        (lambda: CookieTokenStore(CLIENT, [("a", "b")]), "cookies"),  # type: ignore[arg-type]
        (lambda: CookieTokenStore(CLIENT, max_age=0), "max_age"),
        (lambda: CookieTokenStore(CLIENT, path="x"), "path"),
        (lambda: CookieTokenStore(CLIENT, domain="a b"), "domain"),
        (lambda: CookieTokenStore(CLIENT, same_site="lax"), "same_site"),  # type: ignore[arg-type]
        (lambda: CookieTokenStore(CLIENT, same_site="None"), "same_site"),
    ],
)
def test_bad_options_fail_naming_them(make: Any, param: str) -> None:
    with pytest.raises(ParameterError) as err:
        make()
    assert err.value.param == param


def test_a_client_writes_its_logins_refreshes_and_logout_to_the_cookie() -> None:
    written: list[TokenCookie] = []
    store = CookieTokenStore("client-id", {}, written.append, secure=True)
    sdk = MarketplaceClient("client-id", base_url=MP, token_store=store, retry_policy=NO_WAIT)
    with requests_mock.Mocker() as m:
        m.post(
            f"{MP}/v1/auth/token",
            [
                {"json": token_json("user", "user-1", "refresh-1")},
                {"json": token_json("user", "user-2", "refresh-2")},
            ],
        )
        m.get(
            f"{MP}/v1/api/current_user/show",
            [
                {"status_code": 401},
                {"json": {"data": None}, "headers": {"Content-Type": "application/json"}},
            ],
        )
        m.post(f"{MP}/v1/auth/revoke", json={})
        sdk.login(username="u", password="p")
        sdk.current_user.show()  # a 401, a refresh, a new token in the cookie
        sdk.logout()
    tokens = [decode_token(c.value) for c in written]
    assert [t.access_token if t else None for t in tokens] == ["user-1", "user-2", None]
    assert all(c.secure for c in written) and written[-1].removed


# --- with the official SDK's stores ----------------------------------------------------------


def sdk_stores(fake: FakeMarketplace, steps: list[dict[str, Any]]) -> list[dict[str, Any]]:
    given = {"clientId": fake.client_id, "baseUrl": fake.url, "steps": steps}
    result: list[dict[str, Any]] = run_js(SCRIPT, given=given)
    return result


def browser_value(written: dict[str, Any], name: str) -> str:
    """The value a browser keeps from what js-cookie wrote to document.cookie."""
    pair = written["header"].split(";")[0]
    assert pair.startswith(f"{name}=")
    return str(pair[len(name) + 1 :])


@pytest.fixture(scope="module")
def fake() -> Iterator[FakeMarketplace]:
    with FakeMarketplace() as marketplace:
        marketplace.add_user("jane@example.com", "secret-pass-1")
        yield marketplace


def python_client(fake: FakeMarketplace, store: CookieTokenStore) -> MarketplaceClient:
    return MarketplaceClient(fake.client_id, base_url=fake.url, token_store=store)


@pytest.mark.parametrize("kind", ["browser", "express"])
def test_a_session_the_official_sdk_started_is_continued_by_flexclient(
    fake: FakeMarketplace, kind: str
) -> None:
    (login,) = sdk_stores(
        fake,
        [
            {
                "store": kind,
                "secure": True,
                "action": "login",
                "username": "jane@example.com",
                "password": "secret-pass-1",
            }
        ],
    )
    name = f"st-{fake.client_id}-token"
    written = login["written"]
    if kind == "express":
        assert written["name"] == name
        assert written["options"] == {"maxAge": COOKIE_MAX_AGE * 1000, "secure": True}
        value = written["value"]
    else:
        assert "; secure" in written["header"] and "; expires=" in written["header"]
        value = browser_value(written, name)
    store = CookieTokenStore(fake.client_id, {name: value, "unrelated": "x"})
    token = store.get()
    assert token is not None and token.access_token == login["token"]["access_token"]
    assert token.refresh_token == login["token"]["refresh_token"]
    sdk = python_client(fake, store)
    info = sdk.auth_info()
    assert (info.scopes, info.is_anonymous, info.is_logged_in_as) == (
        login["authInfo"]["scopes"],
        False,
        False,
    )
    me = sdk.current_user.show().data.data
    assert me.attributes.email == "jane@example.com"


@pytest.mark.parametrize("kind", ["browser", "express"])
def test_a_session_flexclient_started_is_continued_by_the_official_sdk(
    fake: FakeMarketplace, kind: str
) -> None:
    store = CookieTokenStore(fake.client_id, {}, secure=False)
    sdk = python_client(fake, store)
    sdk.login(username="jane@example.com", password="secret-pass-1")
    me = sdk.current_user.show().data.data
    cookie = store.pending
    assert cookie is not None and cookie.name == f"st-{fake.client_id}-token"
    # The Cookie header the browser sends back carries the value as it was set.
    (read,) = sdk_stores(
        fake, [{"store": kind, "secure": False, "action": "call", "cookie": cookie.value}]
    )
    assert read["answer"] == {"id": str(me.id), "email": "jane@example.com"}
    assert read["authInfo"]["scopes"] == ["user"] and read["authInfo"]["isAnonymous"] is False
    assert read["authInfo"]["isLoggedInAs"] is False
    token = sdk.token_store.get()
    assert token is not None and read["token"]["access_token"] == token.access_token
    assert read["written"] is None  # the SDK used the token as it was


def test_login_as_crosses_both_ways(fake: FakeMarketplace) -> None:
    user_id = fake.add_user(f"op-{uuid.uuid4().hex[:6]}@example.com", "secret-pass-2")
    name = f"st-{fake.client_id}-token"
    (js_login,) = sdk_stores(
        fake,
        [
            {
                "store": "express",
                "secure": False,
                "action": "loginAs",
                "code": fake.login_as_code(user_id),
            }
        ],
    )
    assert js_login["authInfo"]["isLoggedInAs"] is True
    read = CookieTokenStore(fake.client_id, {name: js_login["written"]["value"]}).get()
    assert read is not None and read.is_logged_in_as
    store = CookieTokenStore(fake.client_id)
    python_client(fake, store).login_as(
        code=fake.login_as_code(user_id), redirect_uri="https://example.test/cb", code_verifier="v"
    )
    assert store.pending is not None
    browser, express = sdk_stores(
        fake,
        [
            {"store": "browser", "secure": False, "action": "read", "cookie": store.pending.value},
            {"store": "express", "secure": False, "action": "read", "cookie": store.pending.value},
        ],
    )
    assert browser["authInfo"]["isLoggedInAs"] is True
    assert express["authInfo"]["isLoggedInAs"] is True


def test_the_same_token_is_written_to_the_same_value(fake: FakeMarketplace) -> None:
    tokens = [USER_TOKEN, Token(access_token="anon", expires_in=86400, scope="public-read")]
    steps = [
        {
            "store": "express",
            "secure": True,
            "action": "set",
            "cookie": None,
            "token": json.loads(unquote(encode_token(t))),
        }
        for t in tokens
    ]
    for token, result in zip(tokens, sdk_stores(fake, steps), strict=True):
        store = CookieTokenStore(fake.client_id, secure=True)
        store.set(token)
        assert store.pending is not None
        assert result["written"]["value"] == store.pending.value
        assert result["written"]["options"]["maxAge"] == store.pending.max_age * 1000
        assert result["written"]["options"]["secure"] is store.pending.secure


def test_a_removed_cookie_is_no_session_for_the_sdk(fake: FakeMarketplace) -> None:
    store = CookieTokenStore(
        fake.client_id, {f"st-{fake.client_id}-token": encode_token(USER_TOKEN)}
    )
    store.remove()
    assert store.pending is not None and store.pending.value == ""
    browser, express = sdk_stores(
        fake,
        [
            {"store": "browser", "secure": False, "action": "read", "cookie": store.pending.value},
            {"store": "express", "secure": False, "action": "read", "cookie": store.pending.value},
        ],
    )
    assert browser["token"] is None and express["token"] is None
    assert browser["authInfo"] == {} and express["authInfo"] == {}
    (js_logout,) = sdk_stores(
        fake,
        [
            {
                "store": "express",
                "secure": False,
                "action": "logout",
                "cookie": encode_token(USER_TOKEN),
            }
        ],
    )
    assert js_logout["written"] == {"name": f"st-{fake.client_id}-token", "cleared": True}
