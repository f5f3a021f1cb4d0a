"""Tokens: fetched on first use, sent as Bearer, refreshed or replaced on a 401, never shown."""

from __future__ import annotations

import contextlib
import json
import logging
import pickle
import threading
from collections.abc import Generator
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs

import pytest
import requests
import requests_mock

from flexclient import (
    AuthError,
    FileTokenStore,
    IntegrationClient,
    MarketplaceClient,
    MemoryTokenStore,
    ParameterError,
    SessionAuthWarning,
    Token,
    UnauthorizedError,
)
from tests.helpers import (
    IG,
    MP,
    NO_WAIT,
    OK,
    QUERY,
    REFUSED,
    TRANSIT_CT,
    UNAUTHORIZED,
    Scripted,
    token_json,
)


def form(request: requests_mock.Request) -> dict[str, str]:
    return {k: v[0] for k, v in parse_qs(request.text).items()}


def token_requests(m: requests_mock.Mocker) -> list[dict[str, str]]:
    return [form(r) for r in m.request_history if r.path.endswith("/auth/token")]


def test_anonymous_token_is_fetched_once_and_sent(
    mock: requests_mock.Mocker, sdk: MarketplaceClient
) -> None:
    mock.get(QUERY, **OK)
    sdk.listings.query()
    sdk.listings.query()
    assert token_requests(mock) == [
        {"client_id": "client-id", "grant_type": "client_credentials", "scope": "public-read"}
    ]
    auth = mock.request_history[0]
    assert auth.headers["Content-Type"] == "application/x-www-form-urlencoded"
    assert auth.headers["Accept"] == "application/json"
    assert mock.request_history[-1].headers["Authorization"] == "Bearer anon-token"
    assert sdk.auth_info().is_anonymous and sdk.auth_info().scopes == ["public-read"]


def test_netrc_entries_and_a_sessions_auth_or_header_never_replace_the_bearer_token(
    mock: requests_mock.Mocker, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # requests applies either one by default, overwriting the Authorization header it is given.
    netrc = tmp_path / "netrc"
    netrc.write_text("machine mp.test login someone password netrc-secret\n")
    netrc.chmod(0o600)
    monkeypatch.setenv("NETRC", str(netrc))
    assert requests.utils.get_netrc_auth(QUERY) == ("someone", "netrc-secret")
    mock.get(QUERY, **OK)
    MarketplaceClient("client-id", base_url=MP).listings.query()
    session = requests.Session()
    session.auth = ("session-user", "session-secret")
    session.headers["Authorization"] = "Basic c2Vzc2lvbi1kZWZhdWx0"
    with pytest.warns(SessionAuthWarning, match="the session's `auth` is not applied") as warned:
        client = MarketplaceClient("client-id", base_url=MP, session=session)
    assert warned[0].filename == __file__  # the user's line, not flexclient's
    assert str(warned[0].message) == (
        "the session's `auth` is not applied: it would replace the bearer token (a proxy's"
        " credentials go in its URL, `https://user:password@proxy`)"
    )
    client.listings.query()
    sent = [r.headers.get("Authorization") for r in mock.request_history]
    assert sent == [None, "Bearer anon-token", None, "Bearer anon-token"]


def test_integration_client_credentials(
    mock: requests_mock.Mocker, integ: IntegrationClient
) -> None:
    mock.get(
        f"{IG}/v1/integration_api/marketplace/show",
        content=b'["^ ","~:data",null]',
        headers={"Content-Type": TRANSIT_CT},
    )
    integ.marketplace.show()
    assert token_requests(mock) == [
        {
            "client_id": "client-id",
            "client_secret": "client-secret",
            "grant_type": "client_credentials",
            "scope": "integ",
        }
    ]
    assert integ.auth_info().scopes == ["integ"]


def test_login_then_logout(mock: requests_mock.Mocker, sdk: MarketplaceClient) -> None:
    mock.post(f"{MP}/v1/auth/token", json=token_json("user", "user-token", "user-refresh"))
    mock.post(f"{MP}/v1/auth/revoke", json={"action": "revoked"})
    sdk.login(username="jane@example.com", password="secret-pass")
    assert token_requests(mock)[-1] == {
        "client_id": "client-id",
        "grant_type": "password",
        "username": "jane@example.com",
        "password": "secret-pass",
        "scope": "user",
    }
    assert sdk.auth_info().is_anonymous is False and sdk.auth_info().is_user_logged_in
    sdk.logout()
    assert not sdk.auth_info().is_user_logged_in
    revoke = mock.request_history[-1]
    assert (
        form(revoke) == {"token": "user-refresh"}
        and revoke.headers["Authorization"] == "Bearer user-token"
    )
    assert sdk.token_store.get() is None


def test_wrong_password_and_unknown_client_are_told_apart(
    mock: requests_mock.Mocker, sdk: MarketplaceClient
) -> None:
    mock.post(f"{MP}/v1/auth/token", status_code=401, text="Invalid username or password")
    with pytest.raises(AuthError) as wrong:
        sdk.login(username="a", password="b")
    mock.post(f"{MP}/v1/auth/token", status_code=400, json={"error": "invalid_client"})
    with pytest.raises(AuthError) as unknown:
        sdk.login(username="a", password="b")
    assert (wrong.value.status, unknown.value.status) == (401, 400)
    assert "Invalid username" in wrong.value.body and "invalid_client" in unknown.value.body


def test_401_refreshes_and_retries_once(mock: requests_mock.Mocker, sdk: MarketplaceClient) -> None:
    sdk.token_store.set(Token(access_token="old", scope="user", refresh_token="r1"))
    mock.post(f"{MP}/v1/auth/token", json=token_json("user", "new", "r2"))
    mock.get(QUERY, [UNAUTHORIZED, OK])
    assert sdk.listings.query().status == 200
    assert token_requests(mock) == [
        {"client_id": "client-id", "grant_type": "refresh_token", "refresh_token": "r1"}
    ]
    assert [
        r.headers["Authorization"] for r in mock.request_history if r.path.endswith("query")
    ] == ["Bearer old", "Bearer new"]
    stored = sdk.token_store.get()
    assert stored is not None and stored.refresh_token == "r2"


def test_refused_refresh_falls_back_to_an_anonymous_token(
    mock: requests_mock.Mocker, sdk: MarketplaceClient
) -> None:
    sdk.token_store.set(Token(access_token="old", scope="user", refresh_token="revoked"))
    mock.post(f"{MP}/v1/auth/token", [REFUSED, {"json": token_json()}])
    mock.get(QUERY, [UNAUTHORIZED, OK])
    assert sdk.listings.query().status == 200
    assert [f["grant_type"] for f in token_requests(mock)] == [
        "refresh_token",
        "client_credentials",
    ]


def test_no_more_than_the_official_retries(
    mock: requests_mock.Mocker, sdk: MarketplaceClient
) -> None:
    mock.get(QUERY, **UNAUTHORIZED)
    with pytest.raises(UnauthorizedError):
        sdk.listings.query()
    assert (
        sum(1 for r in mock.request_history if r.path.endswith("query")) == 2
    )  # anonymous: one retry


def test_concurrent_first_calls_share_one_token_request(
    mock: requests_mock.Mocker, sdk: MarketplaceClient
) -> None:
    mock.get(QUERY, **OK)
    barrier = threading.Barrier(16)
    errors: list[BaseException] = []

    def call() -> None:
        try:
            barrier.wait()
            sdk.listings.query()
        except BaseException as exc:  # pragma: no cover - reported below
            errors.append(exc)

    threads = [threading.Thread(target=call) for _ in range(16)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []
    assert len(token_requests(mock)) == 1


def test_trusted_token_is_returned_not_stored(mock: requests_mock.Mocker) -> None:
    sdk = MarketplaceClient(
        "client-id", client_secret="client-secret", base_url=MP, retry_policy=NO_WAIT
    )
    sdk.token_store.set(Token(access_token="user-token", scope="user", refresh_token="r"))
    mock.post(f"{MP}/v1/auth/token", json=token_json("trusted:user", "trusted-token"))
    trusted = sdk.exchange_token()
    assert token_requests(mock)[-1] == {
        "client_id": "client-id",
        "client_secret": "client-secret",
        "grant_type": "token_exchange",
        "subject_token": "user-token",
    }
    assert trusted.scopes == ["trusted:user"]
    stored = sdk.token_store.get()
    assert stored is not None and stored.access_token == "user-token"


SECRETS = (
    "client-secret",
    "anon-token",
    "user-token",
    "user-refresh",
    "integ-token",
    "integ-refresh",
)


def test_secrets_never_appear_in_reprs_errors_or_logs(
    mock: requests_mock.Mocker,
    integ: IntegrationClient,
    caplog: pytest.LogCaptureFixture,
    tmp_path: Path,
) -> None:
    caplog.set_level(logging.DEBUG, logger="flexclient")
    mock.get(f"{IG}/v1/integration_api/listings/query", status_code=500, text="upstream failed")
    with pytest.raises(Exception) as info:
        integ.listings.query()
    token = integ.token_store.get()
    store = FileTokenStore(tmp_path / "t.json")
    assert token is not None
    store.set(token)
    shown = " ".join(
        [
            repr(integ),
            repr(token),
            str(token),
            repr(info.value),
            str(info.value),
            repr(integ.token_store),
            repr(store),
            caplog.text,
        ]
    )
    for secret in SECRETS:
        assert secret not in shown


def test_file_store_round_trip_mode_and_corruption(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    path = tmp_path / "sub" / "token.json"
    store = FileTokenStore(path)
    assert store.get() is None
    store.set(Token(access_token="a", scope="integ", refresh_token="r", expires_in=10))
    assert (path.stat().st_mode & 0o777) == 0o600
    assert store.get() == Token(access_token="a", scope="integ", refresh_token="r", expires_in=10)
    path.write_text("")
    assert store.get() is None
    path.write_text("{not json")
    assert store.get() is None
    assert "unreadable token file" in caplog.text
    store.remove()
    assert not path.exists()
    assert MemoryTokenStore().get() is None


def test_login_as_uses_the_authorization_code_grant(
    mock: requests_mock.Mocker, sdk: MarketplaceClient
) -> None:
    mock.post(
        f"{MP}/v1/auth/token",
        [
            {"json": token_json("user", "as-token", "as-refresh")},
            {"json": token_json("user", "as2", "r2")},
        ],
    )
    sdk.login_as(code="the-code", redirect_uri="https://op.example/cb", code_verifier="verifier")
    assert token_requests(mock)[-1] == {
        "client_id": "client-id",
        "grant_type": "authorization_code",
        "code": "the-code",
        "redirect_uri": "https://op.example/cb",
        "code_verifier": "verifier",
    }
    assert sdk.auth_info().is_logged_in_as
    # A refreshed "login as" token is still one.
    mock.get(QUERY, [UNAUTHORIZED, OK])
    sdk.listings.query()
    assert token_requests(mock)[-1]["grant_type"] == "refresh_token"
    assert sdk.auth_info().is_logged_in_as


def test_login_with_an_identity_provider(mock: requests_mock.Mocker) -> None:
    sdk = MarketplaceClient(
        "client-id", client_secret="client-secret", base_url=MP, retry_policy=NO_WAIT
    )
    mock.post(f"{MP}/v1/auth/auth_with_idp", json=token_json("user", "idp-token", "idp-refresh"))
    sdk.login_with_idp(idp_id="facebook", idp_client_id="fb-app", idp_token="fb-token")
    sent = mock.request_history[-1]
    assert sent.path == "/v1/auth/auth_with_idp"
    assert form(sent) == {
        "client_id": "client-id",
        "client_secret": "client-secret",
        "idp_id": "facebook",
        "idp_client_id": "fb-app",
        "idp_token": "fb-token",
    }
    stored = sdk.token_store.get()
    assert stored is not None and stored.access_token == "idp-token"


def test_secret_needing_calls_say_so_without_a_secret(
    mock: requests_mock.Mocker, sdk: MarketplaceClient
) -> None:
    from flexclient import ParameterError

    with pytest.raises(ParameterError, match="client secret"):
        sdk.login_with_idp(idp_id="a", idp_client_id="b", idp_token="c")
    sdk.token_store.set(Token(access_token="u", scope="user", refresh_token="r"))
    with pytest.raises(ParameterError, match="client secret"):
        sdk.exchange_token()
    assert mock.call_count == 0


def test_trusted_client_acts_with_the_trusted_token(mock: requests_mock.Mocker) -> None:
    sdk = MarketplaceClient(
        "client-id", client_secret="client-secret", base_url=MP, retry_policy=NO_WAIT
    )
    sdk.token_store.set(Token(access_token="user-token", scope="user", refresh_token="r"))
    mock.post(f"{MP}/v1/auth/token", json=token_json("trusted:user", "trusted-token"))
    mock.get(QUERY, **OK)
    trusted = sdk.trusted_client()
    trusted.listings.query()
    assert mock.request_history[-1].headers["Authorization"] == "Bearer trusted-token"
    assert trusted.auth_info().scopes == ["trusted:user"]
    assert repr(trusted) == repr(sdk)


def test_a_refused_trusted_token_says_how_to_get_a_new_one(mock: requests_mock.Mocker) -> None:
    trusted = Token(access_token="trusted-token", scope="trusted:user")
    sdk = MarketplaceClient(
        "client-id", base_url=MP, retry_policy=NO_WAIT, token_store=MemoryTokenStore(trusted)
    )
    mock.get(QUERY, status_code=401)
    with pytest.raises(
        UnauthorizedError, match=r"cannot be refreshed: make a new one .*trusted_client"
    ):
        sdk.listings.query()
    assert sdk.token_store.get() == trusted  # kept, as before
    assert mock.call_count == 1  # no refresh, no anonymous token


def test_auth_info_without_a_token_is_empty(sdk: MarketplaceClient) -> None:
    info = sdk.auth_info()
    assert (info.scopes, info.is_anonymous, info.is_logged_in_as, info.has_token) == (
        [],
        False,
        False,
        False,
    )
    sdk.token_store.set(Token(access_token="a", scope=""))
    assert (
        sdk.auth_info().is_anonymous
    )  # no scope and no refresh token, as the official SDK reads it


@pytest.mark.parametrize(
    ("scope", "refresh_token", "anonymous"),
    [
        ("public-read", None, True),
        ("public-read", "r", True),
        ("user", None, False),
        ("", None, True),
        ("", "r", False),
        ("user public-read", "r", False),
    ],
)
def test_a_token_is_anonymous_as_the_official_sdks_decide(
    sdk: MarketplaceClient, scope: str, refresh_token: str | None, anonymous: bool
) -> None:
    token = Token(access_token="a", scope=scope, refresh_token=refresh_token)
    sdk.token_store.set(token)
    assert token.is_anonymous is sdk.auth_info().is_anonymous is anonymous


def test_concurrent_401s_share_one_refresh(
    mock: requests_mock.Mocker, sdk: MarketplaceClient
) -> None:
    sdk.token_store.set(Token(access_token="old", scope="user", refresh_token="r1"))
    mock.post(f"{MP}/v1/auth/token", json=token_json("user", "new", "r2"))

    def answer(request: requests_mock.Request, context: Any) -> bytes:
        context.headers["Content-Type"] = TRANSIT_CT
        if request.headers["Authorization"] == "Bearer old":
            context.status_code = 401
            return b'["^ ","~:errors",[]]'
        return b'["^ ","~:data",[]]'

    mock.get(QUERY, content=answer)
    barrier = threading.Barrier(16)
    results: list[int] = []

    def call() -> None:
        barrier.wait()
        results.append(sdk.listings.query().status)

    threads = [threading.Thread(target=call) for _ in range(16)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert results == [200] * 16
    assert [f["grant_type"] for f in token_requests(mock)] == ["refresh_token"]


def test_an_upload_sent_again_after_a_401_is_the_same_whole_body(
    mock: requests_mock.Mocker, sdk: MarketplaceClient, tmp_path: Path
) -> None:
    photo = tmp_path / "photo.jpg"
    photo.write_bytes(b"\xff\xd8" + bytes(range(256)) * 400)
    bodies: list[bytes] = []

    def answer(request: requests_mock.Request, context: Any) -> bytes:
        bodies.append(request.body.read())
        context.headers["Content-Type"] = TRANSIT_CT
        if len(bodies) == 1:
            context.status_code = 401
            return b'["^ ","~:errors",[]]'
        return b'["^ ","~:data",null]'

    mock.post(f"{MP}/v1/api/images/upload", content=answer)
    progress: list[int] = []
    with photo.open("rb") as f:
        sdk.images.upload(
            {"image": f}, {}, {"on_upload_progress": lambda p: progress.append(p.loaded)}
        )
    assert len(bodies) == 2 and bodies[0] == bodies[1]
    assert photo.read_bytes() in bodies[1]
    assert b'filename="photo.jpg"\r\nContent-Type: image/jpeg' in bodies[0]


def test_an_unrewindable_stream_is_refused_when_it_must_be_sent_again(
    mock: requests_mock.Mocker, sdk: MarketplaceClient, tmp_path: Path
) -> None:
    from flexclient import ParameterError

    photo = tmp_path / "photo.png"
    photo.write_bytes(b"\x89PNG" + b"x" * 1000)

    class OneWay:
        """A file that can be read once, from where it stands, but not rewound."""

        def __init__(self) -> None:
            self.f = photo.open("rb")
            self.name = str(photo)

        def read(self, n: int = -1) -> bytes:
            return self.f.read(n)

        def fileno(self) -> int:
            return self.f.fileno()

        def tell(self) -> int:
            raise OSError("not seekable")

    mock.post(
        f"{MP}/v1/api/images/upload",
        [
            {"status_code": 401, "json": {"errors": []}},
            {"content": b'["^ ","~:data",null]', "headers": {"Content-Type": TRANSIT_CT}},
        ],
    )
    with pytest.raises(ParameterError, match="cannot be rewound"):
        sdk.images.upload({"image": OneWay()})
    # The first attempt was sent whole.
    mock.reset_mock()
    mock.post(
        f"{MP}/v1/api/images/upload",
        content=b'["^ ","~:data",null]',
        headers={"Content-Type": TRANSIT_CT},
    )
    assert sdk.images.upload({"image": OneWay()}).status == 200


WRITER = """
import sys
from flexclient import FileTokenStore, Token
store = FileTokenStore(sys.argv[1])
for i in range(150):
    token = f"{sys.argv[2]}-{i}-" + "x" * 2000
    store.set(Token(access_token=token, scope="integ", refresh_token="r"))
"""


def test_file_store_shared_by_two_processes_never_shows_a_torn_token(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    import subprocess
    import sys

    path = tmp_path / "token.json"
    store = FileTokenStore(path)
    store.set(Token(access_token="start", scope="integ"))
    writers = [
        subprocess.Popen([sys.executable, "-c", WRITER, str(path), name]) for name in ("a", "b")
    ]
    seen: set[str] = set()
    while any(w.poll() is None for w in writers):
        token = store.get()
        assert token is not None
        seen.add(token.access_token.split("-")[0])
    assert [w.wait() for w in writers] == [0, 0]
    assert "unreadable" not in caplog.text
    final = store.get()
    assert final is not None and final.access_token.split("-")[1] == "149"
    assert seen <= {"start", "a", "b"} and len(seen) > 1
    assert [p.name for p in tmp_path.iterdir()] == ["token.json"]  # no temporary files left


def test_integration_401_refreshes_then_fetches_client_credentials(
    mock: requests_mock.Mocker, integ: IntegrationClient
) -> None:
    url = f"{IG}/v1/integration_api/listings/query"
    integ.token_store.set(Token(access_token="old", scope="integ", refresh_token="r1"))
    mock.post(
        f"{IG}/v1/auth/token",
        [REFUSED, {"json": token_json("integ", "fresh", "r9")}],
    )
    mock.get(url, [UNAUTHORIZED, OK])
    assert integ.listings.query().status == 200
    assert token_requests(mock) == [
        {"client_id": "client-id", "grant_type": "refresh_token", "refresh_token": "r1"},
        {
            "client_id": "client-id",
            "client_secret": "client-secret",
            "grant_type": "client_credentials",
            "scope": "integ",
        },
    ]
    assert mock.request_history[-1].headers["Authorization"] == "Bearer fresh"


# --- logout is final ----------------------------------------------------------------------------


def revoked(m: requests_mock.Mocker) -> list[str]:
    return [form(r)["token"] for r in m.request_history if r.path.endswith("/auth/revoke")]


def test_a_refresh_under_way_when_logout_starts_is_waited_for_and_its_token_revoked(
    mock: requests_mock.Mocker, sdk: MarketplaceClient
) -> None:
    sdk.token_store.set(Token(access_token="old", scope="user", refresh_token="r1"))
    refreshing, finish = threading.Event(), threading.Event()

    def slow_refresh(request: requests_mock.Request, context: Any) -> dict[str, Any]:
        refreshing.set()
        finish.wait(10)
        return token_json("user", "new", "r2")

    mock.post(f"{MP}/v1/auth/token", json=slow_refresh)
    mock.post(f"{MP}/v1/auth/revoke", json={})
    mock.get(QUERY, [UNAUTHORIZED, OK])
    caller = threading.Thread(target=sdk.listings.query)
    caller.start()
    assert refreshing.wait(10)
    logging_out = threading.Thread(target=sdk.logout)
    logging_out.start()
    logging_out.join(0.3)
    assert logging_out.is_alive()  # waits for the refresh rather than race it
    finish.set()
    caller.join(10)
    logging_out.join(10)
    assert sdk.token_store.get() is None
    assert revoked(mock) == ["r2"]  # the session the refresh made is the one revoked


def body_form(request: requests.PreparedRequest) -> dict[str, str]:
    body = request.body if isinstance(request.body, bytes) else b""
    return {k: v[0] for k, v in parse_qs(body.decode()).items()}


def test_a_401_after_logout_brings_no_session_back() -> None:
    sent, answer = threading.Event(), threading.Event()

    def server(request: requests.PreparedRequest) -> tuple[int, bytes]:
        if request.path_url.endswith("/auth/revoke"):
            return 200, b"{}"
        if request.path_url.endswith("/auth/token"):
            # The server would still refresh r1: only the client can keep the session ended.
            if body_form(request)["grant_type"] == "client_credentials":
                return 200, json.dumps(token_json("public-read", "anon")).encode()
            return 200, json.dumps(token_json("user", "revived", "r3")).encode()
        if request.headers["Authorization"] == "Bearer old":
            sent.set()
            answer.wait(10)  # the answer arrives after logout() returned
            return 401, b'{"errors": []}'
        return 200, b'{"data": []}'

    adapter = Scripted(server)
    sdk = MarketplaceClient(
        "client-id", base_url=MP, session=adapter.session(), retry_policy=NO_WAIT
    )
    sdk.token_store.set(Token(access_token="old", scope="user", refresh_token="r1"))
    caller = threading.Thread(target=sdk.listings.query)
    caller.start()
    assert sent.wait(10)
    sdk.logout()
    answer.set()
    caller.join(10)
    grants = [body_form(r)["grant_type"] for r in adapter.sent if r.path_url.endswith("/token")]
    assert grants == ["client_credentials"]  # r1 was never used again
    assert sdk.auth_info().is_anonymous  # the call went on as anyone, not as the user
    revokes = [body_form(r)["token"] for r in adapter.sent if r.path_url.endswith("/revoke")]
    assert revokes == ["r1"]


def test_login_over_a_session_revokes_the_session_it_replaces(
    mock: requests_mock.Mocker, sdk: MarketplaceClient, caplog: pytest.LogCaptureFixture
) -> None:
    sdk.token_store.set(Token(access_token="a", scope="user", refresh_token="ra"))
    mock.post(f"{MP}/v1/auth/token", json=token_json("user", "b", "rb"))
    mock.post(f"{MP}/v1/auth/revoke", json={})
    sdk.login(username="b@example.com", password="secret-b")
    assert revoked(mock) == ["ra"]
    stored = sdk.token_store.get()
    assert stored is not None and stored.refresh_token == "rb"
    # A failure to revoke the old one is logged, without the token; the new session stays.
    mock.post(f"{MP}/v1/auth/token", json=token_json("user", "c", "rc"))
    mock.post(f"{MP}/v1/auth/revoke", status_code=503, text="busy")
    with caplog.at_level(logging.WARNING, logger="flexclient"):
        sdk.login(username="c@example.com", password="secret-c")
    assert "could not revoke the session that login replaced" in caplog.text
    assert "rb" not in caplog.text.replace("revoke", "")
    stored = sdk.token_store.get()
    assert stored is not None and stored.refresh_token == "rc"


def test_logout_racing_a_login_leaves_no_session_unrevoked(
    mock: requests_mock.Mocker, sdk: MarketplaceClient
) -> None:
    for _ in range(20):
        mock.reset_mock()
        sdk.token_store.set(Token(access_token="a", scope="user", refresh_token="ra"))
        mock.post(f"{MP}/v1/auth/token", json=token_json("user", "b", "rb"))
        mock.post(f"{MP}/v1/auth/revoke", json={})
        barrier = threading.Barrier(2)

        def log_in(barrier: threading.Barrier = barrier) -> None:
            barrier.wait()
            sdk.login(username="b@example.com", password="secret-b")

        def log_out(barrier: threading.Barrier = barrier) -> None:
            barrier.wait()
            sdk.logout()

        threads = [threading.Thread(target=log_in), threading.Thread(target=log_out)]
        for t in threads:
            t.start()
        for t in threads:
            t.join(10)
        left = sdk.token_store.get()
        # Every session is revoked, or it is the one in the store (login came last).
        live = {"ra", "rb"} - set(revoked(mock))
        assert live == ({left.refresh_token} if left is not None else set())


def test_logout_waits_for_another_process_refreshing_a_shared_token_file(
    mock: requests_mock.Mocker, tmp_path: Path
) -> None:
    import subprocess
    import sys

    path = tmp_path / "token.json"
    store = FileTokenStore(path)
    store.set(Token(access_token="old", scope="user", refresh_token="r1"))
    # Another process refreshing: it holds the file's lock, then stores a new session.
    script = (
        "import sys, time\n"
        "from flexclient import FileTokenStore, Token\n"
        "store = FileTokenStore(sys.argv[1])\n"
        "with store.lock():\n"
        "    print('locked', flush=True)\n"
        "    time.sleep(0.5)\n"
        "    store.set(Token(access_token='new', scope='user', refresh_token='r2'))\n"
    )
    other = subprocess.Popen(
        [sys.executable, "-c", script, str(path)], stdout=subprocess.PIPE, text=True
    )
    assert other.stdout is not None and other.stdout.readline() == "locked\n"
    mock.post(f"{MP}/v1/auth/revoke", json={})
    sdk = MarketplaceClient("client-id", base_url=MP, token_store=store, retry_policy=NO_WAIT)
    sdk.logout()
    assert other.wait(10) == 0
    assert store.get() is None and not path.exists()
    assert revoked(mock) == ["r2"]


@pytest.mark.parametrize(
    ("token", "logged_in"),
    [
        (None, False),
        (Token(access_token="a", scope="public-read"), False),
        (Token(access_token="a", scope="user", refresh_token="r"), True),
        (Token(access_token="a", scope="trusted:user", refresh_token="r"), True),
        (Token(access_token="a", scope="user", refresh_token="r", is_logged_in_as=True), True),
        (Token(access_token="a", scope="integ"), False),
    ],
)
def test_auth_info_says_whether_a_user_is_logged_in(
    sdk: MarketplaceClient, token: Token | None, logged_in: bool
) -> None:
    if token is not None:
        sdk.token_store.set(token)
    info = sdk.auth_info()
    assert info.is_user_logged_in is logged_in


class StoreWithItsOwnLock:
    """A token store of a user's own whose `lock()` is a plain context manager (as a Redis
    lock would be), recording what happens under it."""

    def __init__(self) -> None:
        self.token: Token | None = None
        self.held = False
        self.events: list[str] = []

    def get(self) -> Token | None:
        self.events.append(f"get held={self.held}")
        return self.token

    def set(self, token: Token) -> None:
        self.events.append(f"set held={self.held}")
        self.token = token

    def remove(self) -> None:
        self.token = None

    @contextlib.contextmanager
    def lock(self) -> Generator[None]:
        self.events.append("lock")
        self.held = True
        try:
            yield
        finally:
            self.held = False
            self.events.append("unlock")


def test_a_stores_own_lock_is_held_while_the_token_is_fetched(
    mock: requests_mock.Mocker,
) -> None:
    store = StoreWithItsOwnLock()
    sdk = MarketplaceClient("client-id", base_url=MP, retry_policy=NO_WAIT, token_store=store)
    mock.get(QUERY, **OK)
    sdk.listings.query()
    # No token: the lock is taken, the store read again under it, the new token stored.
    assert store.events == ["get held=False", "lock", "get held=True", "set held=True", "unlock"]
    assert mock.request_history[-1].headers["Authorization"] == "Bearer anon-token"


def test_credentials_utf8_cannot_carry_are_refused_without_repeating_them(
    mock: requests_mock.Mocker,
) -> None:
    with pytest.raises(ParameterError) as made:
        MarketplaceClient("client-id", client_secret="secret-\udcff-value", base_url=MP)
    sdk = MarketplaceClient("client-id", base_url=MP)
    with pytest.raises(ParameterError) as login:
        sdk.login(username="joe@example.com", password="pass-\ud800-word")
    assert mock.call_count == 0
    assert (made.value.param, login.value.param) == ("client_secret", "password")
    for error, secret in ((made.value, "-value"), (login.value, "-word")):
        assert secret not in repr(error) and secret not in str(pickle.dumps(error))
        assert error.__context__ is None and error.__cause__ is None


def test_an_untyped_callers_number_in_a_form_is_written_as_text(
    mock: requests_mock.Mocker,
) -> None:
    mock.post(f"{MP}/v1/auth/token", json=token_json("user"))
    sdk = MarketplaceClient("client-id", base_url=MP)
    sdk.login(username="joe@example.com", password=1234)  # type: ignore[arg-type]
    assert "password=1234" in mock.request_history[0].text
