"""`MultitenantClient`: its JWT, its requests next to the official SDK's, its errors.

`parity/multitenant_requests.json` was recorded by running `parity/multitenant.js` with the
official sharetribe-flex-sdk 1.24.2 over `parity/multitenant_cases.json`, its clock stopped
at the cases' `now`; the JWTs it signed are in it, so the comparison is to the byte.
"""

from __future__ import annotations

import base64
import email.utils
import json
import logging
import pickle
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import parse_qsl

import pytest
import requests
import requests_mock

from flexclient import (
    AuthError,
    ClientData,
    MemoryTokenStore,
    MultitenantClient,
    ParameterError,
    Token,
)
from flexclient._auth import jwt
from flexclient._multitenant import clock_skew
from tests.helpers import NO_WAIT

HERE = Path(__file__).parent / "parity"
SPEC = json.loads((HERE / "multitenant_cases.json").read_text())
RECORDED: list[dict[str, Any]] = json.loads((HERE / "multitenant_requests.json").read_text())
BASE = "https://api.test"
SNAKE = {"clientData": "client_data", "tokenExchange": "token_exchange"}


@pytest.fixture
def frozen(monkeypatch: pytest.MonkeyPatch) -> int:
    """The JWTs' clock stopped where the recording's was."""
    now: int = SPEC["now"]
    monkeypatch.setattr(jwt, "now", lambda: now)
    return now


def _unpadded(segment: str) -> Any:
    return json.loads(base64.urlsafe_b64decode(segment + "=" * (-len(segment) % 4)))


def test_hs256_matches_the_published_example() -> None:
    # The HS256 example of jwt.io, which every JWT library reproduces.
    claims = {"sub": "1234567890", "name": "John Doe", "iat": 1516239022}
    assert jwt.sign_hs256(claims, "your-256-bit-secret") == (
        "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIiwibmFtZSI6IkpvaG4gRG9lIiwia"
        "WF0IjoxNTE2MjM5MDIyfQ.SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c"
    )


def test_the_assertion_names_the_hostname_for_sixty_seconds(frozen: int) -> None:
    header, claims, _ = jwt.multitenant_assertion("shop.example.com", "s").split(".")
    assert _unpadded(header) == {"alg": "HS256", "typ": "JWT"}
    assert _unpadded(claims) == {"hostname": "shop.example.com", "iat": frozen, "exp": frozen + 60}


def test_every_case_was_recorded() -> None:
    assert [c["call"] for c in SPEC["cases"]] == [r["call"] for r in RECORDED]


@pytest.mark.parametrize(
    "case,js",
    list(zip(SPEC["cases"], RECORDED, strict=True)),
    ids=[c["call"] for c in SPEC["cases"]],
)
def test_request_matches_the_official_sdk(
    frozen: int, case: dict[str, Any], js: dict[str, Any]
) -> None:
    stored = MemoryTokenStore(Token.from_wire(case["stored"]) if case["stored"] else None)
    client = MultitenantClient(
        case["hostname"], case["secret"], base_url=BASE, token_store=stored, retry_policy=NO_WAIT
    )
    with requests_mock.Mocker() as m:
        m.post(f"{BASE}/v1/auth/multitenant/token", json=SPEC["answers"]["token"])
        m.post(f"{BASE}/v1/auth/multitenant/auth_with_idp", json=SPEC["answers"]["token"])
        m.get(f"{BASE}/v1/auth/multitenant/client_data", json=SPEC["answers"]["client_data"])
        if case["call"] == "loginWithIdp":
            (idp,) = case["args"]
            returned: object = client.login_with_idp(
                idp_id=idp["idpId"], idp_client_id=idp["idpClientId"], idp_token=idp["idpToken"]
            )
        else:
            returned = getattr(client, SNAKE[case["call"]])()
        (sent,) = m.request_history
    assert sent.method == js["httpMethod"]
    assert sent.path == js["path"]
    assert sent.headers["Accept"] == js["accept"]
    assert sent.headers.get("Content-Type") == js["contentType"]
    assert sent.headers.get("Authorization") == js["authorization"]
    body = sent.body
    assert (body.decode() if isinstance(body, bytes) else body) == js["body"]  # to the byte
    after = client.token_store.get()
    assert (after.to_wire() if after else None) == js["stored"]
    if isinstance(returned, ClientData):
        assert {"client_data": {"client_id": returned.client_id, **returned.extra}} == js[
            "returned"
        ]
    else:
        assert returned == after


def test_the_recording_matches_the_installed_sdk() -> None:
    """Run the capture again with the SDK .ci/run installed: the recording is current."""
    from tests.js_sdks import run_js

    assert run_js(HERE / "multitenant.js") == RECORDED


def test_a_new_jwt_for_each_request(monkeypatch: pytest.MonkeyPatch) -> None:
    clock = iter([1000, 1001])
    monkeypatch.setattr(jwt, "now", lambda: next(clock))
    client = MultitenantClient("shop.example.com", "secret", base_url=BASE)
    with requests_mock.Mocker() as m:
        m.post(f"{BASE}/v1/auth/multitenant/token", json=SPEC["answers"]["token"])
        m.get(f"{BASE}/v1/auth/multitenant/client_data", json=SPEC["answers"]["client_data"])
        client.client_data()
        client.client_data()
        first = m.request_history[0].text.rpartition("client_secret=")[2]
        second = m.request_history[1].headers["Authorization"].removeprefix("Bearer ")
    assert _unpadded(first.split(".")[1])["iat"] == 1000
    assert _unpadded(second.split(".")[1])["iat"] == 1001


def test_token_exchange_needs_a_stored_user_token_and_sends_nothing_without() -> None:
    anonymous = MemoryTokenStore(Token("anon", scope="public-read"))
    with requests_mock.Mocker() as m:  # no answer is registered: a request would fail
        for store in (MemoryTokenStore(), anonymous):
            client = MultitenantClient("shop.example.com", "s", base_url=BASE, token_store=store)
            with pytest.raises(ParameterError) as info:
                client.token_exchange()
            assert info.value.param == "token_store"
        assert m.request_history == []


@pytest.mark.parametrize(
    "args,name",
    [
        (("", "secret"), "hostname"),
        ((" shop.example.com", "secret"), "hostname"),
        (("shop.example.com", ""), "multitenant_client_secret"),
    ],
)
def test_bad_arguments_name_themselves(args: tuple[str, str], name: str) -> None:
    with pytest.raises(ParameterError) as info:
        MultitenantClient(*args)
    assert info.value.param == name


def test_plain_http_elsewhere_is_refused() -> None:
    with pytest.raises(ParameterError) as info:
        MultitenantClient("shop.example.com", "s", base_url="http://api.example.com")
    assert info.value.param == "base_url"


def echo(request: requests_mock.Request, context: object) -> str:
    return json.dumps({"error": "invalid_client", "echo": request.text})


def test_failures_carry_no_secret(caplog: pytest.LogCaptureFixture) -> None:
    secret = "multitenant-secret-value"
    client = MultitenantClient("shop.example.com", secret, base_url=BASE)
    caplog.set_level(logging.DEBUG)
    with requests_mock.Mocker() as m:
        # An answer that repeats what it was sent, the JWT included.
        m.post(
            f"{BASE}/v1/auth/multitenant/auth_with_idp",
            status_code=401,
            text=echo,
        )
        with pytest.raises(AuthError) as info:
            client.login_with_idp(idp_id="google", idp_client_id="c", idp_token="idp-secret-tok")
        m.get(f"{BASE}/v1/auth/multitenant/client_data", status_code=404, text="Not Found")
        client.token_store.set(Token("stored-access-token"))
        with pytest.raises(AuthError) as missing:
            client.client_data()
    assert info.value.status == 401 and info.value.error == "invalid_client"
    assert missing.value.status == 404
    shown = " ".join(
        [str(info.value), repr(info.value), info.value.body or "", repr(client), caplog.text]
    )
    for leaked in (secret, "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9", "idp-secret-tok"):
        assert leaked not in shown


def test_an_answer_without_client_data_is_an_auth_error() -> None:
    client = MultitenantClient("shop.example.com", "s", base_url=BASE)
    client.token_store.set(Token("stored"))
    with requests_mock.Mocker() as m:
        m.get(f"{BASE}/v1/auth/multitenant/client_data", json={"something": "else"})
        with pytest.raises(AuthError, match="client_id"):
            client.client_data()


def test_concurrent_first_calls_share_one_token_request() -> None:
    client = MultitenantClient("shop.example.com", "s", base_url=BASE)
    with requests_mock.Mocker() as m:
        m.post(f"{BASE}/v1/auth/multitenant/token", json=SPEC["answers"]["token"])
        m.get(f"{BASE}/v1/auth/multitenant/client_data", json=SPEC["answers"]["client_data"])
        threads = [threading.Thread(target=client.client_data) for _ in range(8)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        posts = [r for r in m.request_history if r.method == "POST"]
    assert len(posts) == 1 and len(m.request_history) == 8


def test_with_options_keeps_the_hostname_and_the_store() -> None:
    client = MultitenantClient("shop.example.com", "s", base_url=BASE)
    patient = client.with_options(timeout=60)
    assert patient.hostname == "shop.example.com" and patient.token_store is client.token_store
    assert patient.options.timeout == 60 and patient.usage is client.usage
    assert "secret" not in repr(patient) and repr(patient).startswith("MultitenantClient(")
    with pytest.raises(ParameterError):
        client.with_options(session=requests.Session())


@pytest.mark.parametrize(
    "args,name",
    [
        (("shop\udc80.example.com", "secret"), "hostname"),
        (("shop.example.com", "sec\udcffret-value"), "multitenant_client_secret"),
    ],
)
def test_text_utf8_cannot_carry_is_refused_without_repeating_it(
    args: tuple[str, str], name: str
) -> None:
    # What os.environ gives for bytes that are not UTF-8: lone surrogates.
    with pytest.raises(ParameterError) as info:
        MultitenantClient(*args)
    assert info.value.param == name
    _assert_holds_no(info.value, args[0] if name == "hostname" else "ret-value")


def _assert_holds_no(error: BaseException, value: str) -> None:
    shown = [repr(error), str(error), repr(error.args), repr(pickle.dumps(error))]
    assert not any(value in text for text in shown), shown
    assert error.__cause__ is None and error.__context__ is None


def test_a_credential_utf8_cannot_carry_is_refused_before_sending() -> None:
    client = MultitenantClient("shop.example.com", "s", base_url=BASE)
    with requests_mock.Mocker() as m:
        with pytest.raises(ParameterError) as info:
            client.login_with_idp(idp_id="google", idp_client_id="c", idp_token="tok\ud800en")
        assert m.request_history == []
    assert info.value.param == "idp_token"
    _assert_holds_no(info.value, "tok\ud800en")


def test_marketplace_client_reads_the_client_data_once_for_each_token() -> None:
    client = MultitenantClient("shop.example.com", "s", base_url=BASE)
    with requests_mock.Mocker() as m:
        m.post(f"{BASE}/v1/auth/multitenant/token", json=SPEC["answers"]["token"])
        m.get(f"{BASE}/v1/auth/multitenant/client_data", json=SPEC["answers"]["client_data"])
        first = client.marketplace_client()  # the token request brings the client data
        client.marketplace_client()
        assert [r.method for r in m.request_history] == ["POST"]
        client.token_store.set(Token("another"))
        client.marketplace_client()
        client.marketplace_client()
        assert [r.method for r in m.request_history] == ["POST", "GET"]
    assert first.client_id == SPEC["answers"]["client_data"]["client_id"]


@pytest.mark.parametrize(
    "stored,request_line",
    [
        (None, "POST /v1/auth/multitenant/token"),
        (Token("user-1", scope="user"), "POST /v1/auth/multitenant/token"),
    ],
)
def test_a_token_answer_without_client_data_stores_nothing(
    stored: Token | None, request_line: str
) -> None:
    client = MultitenantClient(
        "shop.example.com", "s", base_url=BASE, token_store=MemoryTokenStore(stored)
    )
    answer = {k: v for k, v in SPEC["answers"]["token"].items() if k != "client_data"}
    with requests_mock.Mocker() as m:
        m.post(f"{BASE}/v1/auth/multitenant/token", json=answer)
        with pytest.raises(AuthError) as info:
            client.client_data() if stored is None else client.token_exchange()
    assert client.token_store.get() == stored
    assert request_line in str(info.value) and "client_data" in str(info.value)


def test_a_client_data_answer_without_client_id_names_its_request() -> None:
    client = MultitenantClient("shop.example.com", "s", base_url=BASE)
    client.token_store.set(Token("stored"))
    with requests_mock.Mocker() as m:
        m.get(f"{BASE}/v1/auth/multitenant/client_data", json={"something": "else"})
        with pytest.raises(AuthError) as info:
            client.client_data()
    assert "from GET /v1/auth/multitenant/client_data - the client_data has no client_id" in str(
        info.value
    )


REFUSED = {
    "error": "invalid_client",
    "error_description": "Invalid multitenant client secret token",
}


@pytest.mark.parametrize("skew,said", [(600, "600 s behind"), (-90, "90 s ahead of"), (30, "")])
def test_a_refusal_says_when_the_clocks_differ_by_more_than_a_jwt_lives(
    frozen: int, skew: int, said: str
) -> None:
    client = MultitenantClient("shop.example.com", "s", base_url=BASE)
    date = email.utils.formatdate(frozen + skew, usegmt=True)
    with requests_mock.Mocker() as m:
        m.post(
            f"{BASE}/v1/auth/multitenant/token",
            status_code=401,
            json=REFUSED,
            headers={"Date": date},
        )
        with pytest.raises(AuthError) as info:
            client.client_data()
    message = str(info.value)
    assert info.value.error == "invalid_client"
    assert "invalid_client: Invalid multitenant client secret token" in message
    if said:
        assert f"this machine's clock is {said} the API's (its Date: {date})" in message
        assert "60 s" in message
    else:
        assert "clock" not in message


def test_trusted_client_keeps_the_user_session_and_refreshes_it_to_exchange_again() -> None:
    user = Token("user-1", scope="user", refresh_token="refresh-1")
    store = MemoryTokenStore(user)
    client = MultitenantClient("shop.example.com", "s", base_url=BASE, token_store=store)
    trusted: dict[str, Any] = {
        "access_token": "trusted-1",
        "scope": "trusted:user",
        "client_data": {"client_id": "c"},
    }
    exchanges: Iterator[tuple[int, dict[str, Any]]] = iter(
        [(401, {"error": "invalid_grant"}), (200, trusted)]
    )

    def exchange(request: requests_mock.Request, context: Any) -> dict[str, Any]:
        context.status_code, answer = next(exchanges)
        return answer

    with requests_mock.Mocker() as m:
        m.get(f"{BASE}/v1/auth/multitenant/client_data", json={"client_id": "c"})
        m.post(f"{BASE}/v1/auth/multitenant/token", json=exchange)
        m.post(f"{BASE}/v1/auth/token", json={"access_token": "user-2", "scope": "user"})
        shop = client.trusted_client()
        sent = [(r.method, r.path, dict(parse_qsl(r.text or ""))) for r in m.request_history]
    assert shop.auth_info().scopes == ["trusted:user"]
    assert shop.token_store.get() == Token("trusted-1", scope="trusted:user")
    # The user's session stays in the multitenant client's store, refreshed.
    assert store.get() == Token("user-2", scope="user")
    assert [(method, path) for method, path, _ in sent] == [
        ("GET", "/v1/auth/multitenant/client_data"),
        ("POST", "/v1/auth/multitenant/token"),
        ("POST", "/v1/auth/token"),
        ("POST", "/v1/auth/multitenant/token"),
    ]
    assert sent[1][2]["subject_token"] == "user-1" and sent[3][2]["subject_token"] == "user-2"
    assert sent[2][2] == {
        "grant_type": "refresh_token",
        "refresh_token": "refresh-1",
        "client_id": "c",
    }


@pytest.mark.parametrize(
    "date,skew",
    [
        ("Thu, 01 Jan 2026 00:10:00 GMT", 600),
        ("Wed, 31 Dec 2025 23:59:00 +0000", -60),
        ("Thu, 01 Jan 2026 00:10:00 -0000", None),  # RFC 5322's "zone unknown"
        ("yesterday", None),
        ("", None),
        (None, None),
    ],
)
def test_clock_skew_reads_the_date_header(frozen: int, date: str | None, skew: int | None) -> None:
    assert frozen == 1767225600  # 2026-01-01T00:00:00Z
    assert clock_skew(date) == skew
