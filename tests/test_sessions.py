"""Sessions are never silently lost, logout behaves as the official SDKs', and secrets stay
out of errors. Unit tests on requests-mock; the hostile servers over real HTTP are in
tests/integration/test_trust.py."""

from __future__ import annotations

import json
import logging
import os
import threading
import time
from collections.abc import Callable
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
    ServerError,
    Token,
    TokenStoreError,
    TransportError,
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
    token_json,
)

TOKEN = f"{MP}/v1/auth/token"
REVOKE = f"{MP}/v1/auth/revoke"
USER = Token(access_token="user-access", scope="user", refresh_token="user-refresh")


def grants(m: requests_mock.Mocker) -> list[str]:
    return [
        parse_qs(r.text)["grant_type"][0] for r in m.request_history if r.path.endswith("/token")
    ]


def logged_in(store: Any = None) -> MarketplaceClient:
    sdk = MarketplaceClient("client-id", base_url=MP, retry_policy=NO_WAIT, token_store=store)
    sdk.token_store.set(USER)
    return sdk


# --- a refresh that fails for another reason than a refused refresh token ------------------


@pytest.mark.parametrize(
    "failure",
    [
        {"status_code": 503, "text": "maintenance"},
        {"status_code": 500, "json": {"error": "server_error"}},
        {"status_code": 401, "json": {"error": "invalid_client"}},  # the client, not the token
        {"exc": requests.exceptions.ConnectionError("connection reset")},
    ],
)
def test_a_failed_refresh_raises_and_keeps_the_session(failure: dict[str, Any]) -> None:
    sdk = logged_in()
    with requests_mock.Mocker() as m:
        m.get(QUERY, **UNAUTHORIZED)
        m.post(TOKEN, **failure)
        with pytest.raises((AuthError, TransportError)):
            sdk.listings.query()
        assert grants(m) == ["refresh_token"]  # no anonymous token was fetched
    assert sdk.token_store.get() == USER


def test_a_401_after_a_good_refresh_is_raised_and_the_refreshed_session_kept() -> None:
    sdk = logged_in()
    refreshed = token_json("user", "new-access", "new-refresh")
    with requests_mock.Mocker() as m:
        m.get(QUERY, **UNAUTHORIZED)
        m.post(TOKEN, json=refreshed)
        with pytest.raises(UnauthorizedError):
            sdk.listings.query()
        assert grants(m) == ["refresh_token"]
        assert [r.headers["Authorization"] for r in m.request_history if "query" in r.path] == [
            "Bearer user-access",
            "Bearer new-access",
        ]
    stored = sdk.token_store.get()
    assert stored is not None and stored.refresh_token == "new-refresh"
    assert not sdk.auth_info().is_anonymous


def test_a_refused_refresh_token_ends_the_session_as_the_official_sdk_does() -> None:
    sdk = logged_in()
    with requests_mock.Mocker() as m:
        m.get(QUERY, [UNAUTHORIZED, OK])
        m.post(TOKEN, [REFUSED, {"json": token_json()}])
        assert sdk.listings.query().status == 200
        assert grants(m) == ["refresh_token", "client_credentials"]
    assert sdk.auth_info().is_anonymous


class Meanwhile(MemoryTokenStore):
    """A store into which another client writes a newer token while this one refreshes."""

    def __init__(self, token: Token, newer: Token) -> None:
        super().__init__(token)
        self.newer = newer
        self.reads = 0

    def get(self) -> Token | None:
        self.reads += 1
        if self.reads == 3:  # after the call's read and the refresh's re-read
            self.set(self.newer)
        return super().get()


def test_a_refused_refresh_never_replaces_a_token_stored_meanwhile() -> None:
    newer = Token(access_token="other-access", scope="user", refresh_token="other-refresh")
    sdk = logged_in(Meanwhile(USER, newer))
    with requests_mock.Mocker() as m:
        m.get(QUERY, [UNAUTHORIZED, OK])
        m.post(TOKEN, **REFUSED)
        assert sdk.listings.query().status == 200
        assert grants(m) == ["refresh_token"]  # no anonymous token
        assert m.request_history[-1].headers["Authorization"] == "Bearer other-access"
    assert sdk.token_store.get() == newer


def test_a_refresh_uses_the_token_another_client_refreshed_meanwhile() -> None:
    store = MemoryTokenStore(USER)
    sdk = logged_in(store)
    other = Token(access_token="other-access", scope="user", refresh_token="other-refresh")

    with requests_mock.Mocker() as m:

        def unauthorized_then_other(request: Any, context: Any) -> bytes:
            if request.headers["Authorization"] == "Bearer user-access":
                store.set(other)  # another client refreshed while this request was out
                context.status_code = 401
                return b""
            context.headers["Content-Type"] = TRANSIT_CT
            return b'["^ ","~:data",[]]'

        m.get(QUERY, content=unauthorized_then_other)
        assert sdk.listings.query().status == 200
        assert grants(m) == []  # its stale refresh token was never sent
    assert store.get() == other


def test_a_trusted_token_that_cannot_be_refreshed_is_not_replaced_by_an_anonymous_one() -> None:
    trusted = Token(access_token="trusted-access", scope="trusted:user")
    sdk = MarketplaceClient("client-id", base_url=MP, token_store=MemoryTokenStore(trusted))
    with requests_mock.Mocker() as m:
        m.get(QUERY, **UNAUTHORIZED)
        with pytest.raises(UnauthorizedError):
            sdk.listings.query()
        assert grants(m) == []
    assert sdk.token_store.get() == trusted


# --- logout as the official SDKs ----------------------------------------------------------


def test_logout_refreshes_an_expired_token_and_revokes_again() -> None:
    sdk = logged_in()
    with requests_mock.Mocker() as m:
        m.post(REVOKE, [UNAUTHORIZED, {"json": {"action": "revoked"}}])
        m.post(TOKEN, json=token_json("user", "new-access", "new-refresh"))
        sdk.logout()
        revokes = [r for r in m.request_history if r.path.endswith("/revoke")]
        assert [parse_qs(r.text)["token"][0] for r in revokes] == ["user-refresh", "new-refresh"]
        assert revokes[1].headers["Authorization"] == "Bearer new-access"
    assert sdk.token_store.get() is None


def test_logout_with_a_refused_refresh_token_forgets_the_token_and_returns() -> None:
    sdk = logged_in()
    with requests_mock.Mocker() as m:
        m.post(REVOKE, **UNAUTHORIZED)
        m.post(TOKEN, **REFUSED)
        sdk.logout()  # no error: the session is over on the server as well
        assert grants(m) == ["refresh_token"]
    assert sdk.token_store.get() is None


def test_logout_that_fails_raises_and_keeps_the_token_to_try_again() -> None:
    sdk = logged_in()
    with requests_mock.Mocker() as m:
        m.post(REVOKE, status_code=500, text="boom")
        with pytest.raises(AuthError) as info:
            sdk.logout()
        assert info.value.status == 500
    assert sdk.token_store.get() == USER


def test_integration_revoke_behaves_the_same() -> None:
    integ = IntegrationClient("client-id", "client-secret", base_url=IG, retry_policy=NO_WAIT)
    integ.token_store.set(Token(access_token="integ-access", scope="integ", refresh_token="r1"))
    with requests_mock.Mocker() as m:
        m.post(f"{IG}/v1/auth/revoke", [UNAUTHORIZED, {"json": {"action": "revoked"}}])
        m.post(f"{IG}/v1/auth/token", json=token_json("integ", "integ-new", "r2"))
        integ.revoke()
        assert [parse_qs(r.text)["token"][0] for r in m.request_history[::2]] == ["r1", "r2"]
    assert integ.token_store.get() is None


# --- secrets out of errors ----------------------------------------------------------------

ACCESS = "eyJhbGciOiJIUzI1NiJ9.secret-access-part"
REFRESH = "secret-refresh-1234"


@pytest.mark.parametrize(
    "answer",
    [
        # truncated mid-token: not JSON
        {"text": f'{{"access_token":"{ACCESS}","refresh_token":"{REFRESH}'},
        # oddly shaped: the token is a list
        {"json": {"access_token": [ACCESS], "refresh_token": REFRESH}},
        # an error answer that quotes what it was sent and what it made
        {"status_code": 400, "text": f"bad request: {REFRESH} / {ACCESS}"},
        # a token that is not a valid header value
        {"json": {"access_token": ACCESS + "\r\nX-Evil: 1", "refresh_token": REFRESH}},
        {"json": {"access_token": ACCESS, "refresh_token": REFRESH + "\n"}},
    ],
)
def test_token_answers_never_put_tokens_in_errors(answer: dict[str, Any]) -> None:
    sdk = MarketplaceClient("client-id", base_url=MP, retry_policy=NO_WAIT)
    sdk.token_store.set(Token(access_token="old", scope="user", refresh_token=REFRESH))
    with requests_mock.Mocker() as m:
        m.get(QUERY, **UNAUTHORIZED)
        m.post(TOKEN, **answer)
        with pytest.raises(AuthError) as info:
            sdk.listings.query()
    error = info.value
    shown = " ".join([str(error), repr(error), error.body, repr(error.__cause__)])
    assert ACCESS not in shown and REFRESH not in shown
    assert "secret-access-part" not in shown
    stored = sdk.token_store.get()
    assert stored is not None and stored.access_token == "old"  # nothing unusable was stored


def test_a_token_that_is_not_a_header_value_is_never_stored_or_sent() -> None:
    sdk = MarketplaceClient("client-id", base_url=MP, retry_policy=NO_WAIT)
    with requests_mock.Mocker() as m:
        m.post(TOKEN, json={"access_token": "abc\r\ndef", "scope": "public-read"})
        with pytest.raises(AuthError, match="not a valid header value"):
            sdk.listings.query()
        assert not any("query" in r.path for r in m.request_history)
    assert sdk.token_store.get() is None
    with pytest.raises(ValueError, match="access_token"):
        Token(access_token="a b")


def test_auth_errors_say_what_the_api_said() -> None:
    sdk = MarketplaceClient("client-id", base_url=MP, retry_policy=NO_WAIT)
    with requests_mock.Mocker() as m:
        m.post(TOKEN, status_code=401, json={"error": "invalid_grant", "error_description": "Bad"})
        with pytest.raises(AuthError) as info:
            sdk.login(username="jane@example.com", password="a-secret-password")
    assert info.value.error == "invalid_grant" and info.value.error_description == "Bad"
    assert str(info.value) == "401 Unauthorized from POST /v1/auth/token - invalid_grant: Bad"


def test_transport_errors_hold_no_request_with_the_authorization_header() -> None:
    sdk = MarketplaceClient("client-id", base_url=MP, retry_policy=NO_WAIT, max_retries=0)
    sdk.token_store.set(Token(access_token="the-bearer-token", scope="public-read"))

    def reset(request: Any, context: Any) -> bytes:
        # As requests raises it: holding the request sent, Authorization header and all.
        assert request.headers["Authorization"] == "Bearer the-bearer-token"
        raise requests.exceptions.ConnectionError(
            "reset by peer", request=request, response=requests.Response()
        )

    with requests_mock.Mocker() as m:
        m.get(QUERY, content=reset)
        with pytest.raises(TransportError) as info:
            sdk.listings.query()
    cause = info.value.__cause__
    assert isinstance(cause, requests.RequestException)
    assert cause.request is None and cause.response is None
    assert "the-bearer-token" not in str(info.value)


# --- credentials only over HTTPS or to loopback --------------------------------------------


@pytest.mark.parametrize(
    "url", ["http://flex-api.example.com", "http://10.0.0.5:8080", "ftp://example.com"]
)
def test_plain_http_elsewhere_is_refused_before_any_connection(url: str) -> None:
    with requests_mock.Mocker() as m:  # any request would fail the test: none is registered
        with pytest.raises(ParameterError) as info:
            MarketplaceClient("client-id", base_url=url)
        assert info.value.param == "base_url"
        with pytest.raises(ParameterError, match="base_url"):
            IntegrationClient("client-id", "secret", base_url=url)
        assert m.request_history == []


@pytest.mark.parametrize("url", ["http://127.0.0.1:8080", "http://localhost", "http://[::1]:9"])
def test_plain_http_to_loopback_is_allowed(url: str) -> None:
    assert MarketplaceClient("client-id", client_secret="s", base_url=url).base_url == url


# --- timeouts and deadlines are checked ------------------------------------------------------


@pytest.mark.parametrize(
    "timeout", [None, 0, -1, (2, None), (None, 5), float("inf"), float("nan"), True, "5", (1, 2, 3)]
)
def test_timeouts_that_could_wait_for_ever_are_refused(timeout: Any) -> None:
    with pytest.raises(ParameterError, match="timeout"):
        MarketplaceClient("client-id", timeout=timeout)
    if timeout is None:
        return  # per call, None means "the client's timeout"
    sdk = MarketplaceClient("client-id", base_url=MP)
    with requests_mock.Mocker() as m:
        with pytest.raises(ParameterError, match="timeout"):
            sdk.listings.query(timeout=timeout)
        with pytest.raises(ParameterError, match="timeout"):
            sdk.own_listings.create({"title": "t"}, {}, {"timeout": timeout})
        assert m.request_history == []


@pytest.mark.parametrize("deadline", [0, -5, float("inf"), "10"])
def test_deadlines_must_be_positive_and_finite(deadline: Any) -> None:
    with pytest.raises(ParameterError) as option:
        MarketplaceClient("client-id", deadline=deadline)
    sdk = MarketplaceClient("client-id", base_url=MP)
    with pytest.raises(ParameterError) as per_call:
        sdk.listings.query(deadline=deadline)
    assert option.value.param == per_call.value.param == "deadline"


# --- token files ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    "content",
    [b"\xff\xfe not utf-8", b"[" * 100_000, b'{"access_token": "a\\r\\nb"}', b"[1, 2]"],
    ids=["invalid-utf8", "deeply-nested", "token-not-a-header-value", "not-an-object"],
)
def test_bad_token_files_are_warned_about_and_replaced(
    tmp_path: Path, content: bytes, caplog: pytest.LogCaptureFixture
) -> None:
    path = tmp_path / "token.json"
    path.write_bytes(content)
    store = FileTokenStore(path)
    with caplog.at_level(logging.WARNING, logger="flexclient"):
        assert store.get() is None
    assert "ignoring unreadable token file" in caplog.text
    sdk = MarketplaceClient("client-id", base_url=MP, token_store=store)
    with requests_mock.Mocker() as m:
        m.post(TOKEN, json=token_json())
        m.get(QUERY, **OK)
        sdk.listings.query()
    assert json.loads(path.read_text())["access_token"] == "anon-token"


def test_a_token_file_path_that_is_a_folder_is_a_clear_error(tmp_path: Path) -> None:
    with pytest.raises(TokenStoreError, match="is a folder"):
        FileTokenStore(tmp_path)
    path = tmp_path / "later"
    store = FileTokenStore(path)
    path.mkdir()
    with pytest.raises(TokenStoreError, match="is a folder"):
        store.get()


def test_error_bodies_are_kept_as_a_bounded_excerpt() -> None:
    sdk = MarketplaceClient("client-id", base_url=MP, max_retries=0)
    sdk.token_store.set(Token(access_token="t", scope="public-read"))
    with requests_mock.Mocker() as m:
        m.get(QUERY, status_code=502, content=b"x" * (5 * 1024 * 1024))
        with pytest.raises(ServerError) as info:
            sdk.listings.query()
    assert info.value.body_truncated and len(info.value.body) == 64 * 1024


# --- token files that are not what they seem ----------------------------------------------------


def in_thread(call: Callable[[], object]) -> BaseException | None:
    """Run `call` in a thread and return what it raised; a call still blocked after 10 s
    (reading a FIFO waits for a writer for ever) fails the test instead of hanging it."""
    raised: list[BaseException | None] = []

    def run() -> None:
        try:
            call()
            raised.append(None)
        except BaseException as exc:
            raised.append(exc)

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    thread.join(10)
    assert not thread.is_alive(), "the call blocked"
    return raised[0]


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs here")
def test_a_token_path_that_is_a_fifo_is_refused_at_once(tmp_path: Path) -> None:
    path = tmp_path / "token.json"
    os.mkfifo(path)
    error = in_thread(FileTokenStore(path).get)
    assert isinstance(error, TokenStoreError)
    assert "is a FIFO, not a regular file" in str(error) and str(path) in str(error)


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs here")
def test_a_lock_path_that_cannot_be_a_lock_is_a_token_store_error_from_the_call(
    tmp_path: Path,
) -> None:
    folder_lock = tmp_path / "a" / "token.json"
    (tmp_path / "a" / "token.json.lock").mkdir(parents=True)
    fifo_lock = tmp_path / "b" / "token.json"
    fifo_lock.parent.mkdir()
    os.mkfifo(tmp_path / "b" / "token.json.lock")
    in_a_file = tmp_path / "c"
    in_a_file.write_text("a file where a folder should be")
    for path in (folder_lock, fifo_lock, in_a_file / "token.json"):
        sdk = MarketplaceClient("id", base_url=MP, token_store=FileTokenStore(path))
        with requests_mock.Mocker() as m:
            m.post(TOKEN, json=token_json())
            m.get(QUERY, **OK)
            error = in_thread(sdk.listings.query)
            assert m.call_count == 0  # nothing was sent
        assert isinstance(error, TokenStoreError), repr(error)
        assert str(path.parent) in str(error)


def test_a_token_file_in_a_file_is_a_token_store_error(tmp_path: Path) -> None:
    blocker = tmp_path / "not-a-folder"
    blocker.write_text("")
    store = FileTokenStore(blocker / "token.json")
    for call in (store.get, lambda: store.set(USER), store.remove):
        error = in_thread(call)
        assert isinstance(error, TokenStoreError) and "Not a directory" in str(error)


AS_ROOT = getattr(os, "geteuid", lambda: -1)() == 0


@pytest.mark.skipif(not AS_ROOT, reason="giving a file to another user takes root")
def test_a_token_file_of_another_user_is_refused_unless_shared(tmp_path: Path) -> None:
    path = tmp_path / "token.json"
    FileTokenStore(path).set(USER)
    os.chown(path, 65534, 65534)
    with pytest.raises(TokenStoreError, match="owned by another user") as error:
        FileTokenStore(path).get()
    assert "shared=True" in str(error.value) and "user-access" not in str(error.value)
    assert FileTokenStore(path, shared=True).get() == USER


def test_a_token_file_others_could_write_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "token.json"
    FileTokenStore(path).set(USER)
    assert path.stat().st_mode & 0o777 == 0o600
    path.chmod(0o620)
    with pytest.raises(TokenStoreError, match="writable by its group"):
        FileTokenStore(path).get()
    assert FileTokenStore(path, shared=True).get() == USER
    path.chmod(0o602)
    for shared in (False, True):
        with pytest.raises(TokenStoreError, match="writable by others"):
            FileTokenStore(path, shared=shared).get()
    FileTokenStore(path, shared=True).set(USER)
    assert path.stat().st_mode & 0o777 == 0o660


def age(path: Path, seconds: float) -> None:
    then = time.time() - seconds
    os.utime(path, (then, then))


def leftovers(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir() if p.name.startswith(".token.json-"))


def test_temporary_token_files_a_killed_writer_left_are_removed(tmp_path: Path) -> None:
    path = tmp_path / "token.json"
    store = FileTokenStore(path)
    # What a process killed between writing and renaming leaves: a live token, mode 0600.
    for name in (".token.json-k1ll3d_a", ".token.json-k1ll3d_b"):
        (tmp_path / name).write_text(json.dumps(USER.to_wire()))
    (tmp_path / ".token.json-notours").write_text("someone else's")
    age(tmp_path / ".token.json-k1ll3d_a", 3600)
    age(tmp_path / ".token.json-k1ll3d_b", 10)
    # A write outside the lock leaves one of the last minute alone (a live write's, perhaps).
    store.set(USER)
    assert leftovers(tmp_path) == [".token.json-k1ll3d_b", ".token.json-notours"]
    # A client writes under the lock every client write takes: then only a direct set() of
    # the last seconds could be under way, and anything older is a dead writer's.
    sdk = MarketplaceClient("id", base_url=MP, token_store=store, retry_policy=NO_WAIT)
    with requests_mock.Mocker() as m:
        m.post(TOKEN, json=token_json("user", "new", "r2"))
        m.get(QUERY, [UNAUTHORIZED, OK])
        sdk.listings.query()
    assert leftovers(tmp_path) == [".token.json-notours"]


def test_writers_killed_mid_write_leave_no_token_copies_behind(tmp_path: Path) -> None:
    import signal
    import subprocess
    import sys

    path = tmp_path / "token.json"
    script = (
        "import sys\n"
        "from flexclient import FileTokenStore, Token\n"
        "store = FileTokenStore(sys.argv[1])\n"
        "token = Token(access_token='a' * 4000, scope='user', refresh_token='r')\n"
        "print('writing', flush=True)\n"
        "while True:\n"
        "    store.set(token)\n"
    )
    for _ in range(5):
        writer = subprocess.Popen(
            [sys.executable, "-c", script, str(path)], stdout=subprocess.PIPE, text=True
        )
        assert writer.stdout is not None and writer.stdout.readline() == "writing\n"
        writer.send_signal(signal.SIGKILL)
        writer.wait(10)
    for leftover in leftovers(tmp_path):
        age(tmp_path / leftover, 6)  # the next write comes a few seconds later
    store = FileTokenStore(path)
    with store.lock():
        store.set(USER)
    assert leftovers(tmp_path) == []
    assert store.get() == USER


def test_a_direct_write_under_way_outside_the_lock_is_not_swept_away(tmp_path: Path) -> None:
    path = tmp_path / "token.json"
    store = FileTokenStore(path)
    # Another process's set(), called outside the lock, has just written its temporary file.
    live = tmp_path / ".token.json-l1vewr1t"
    live.write_text(json.dumps(USER.to_wire()))
    with store.lock():
        store.set(USER)
    assert live.exists()


@pytest.mark.skipif(not AS_ROOT, reason="acting as two accounts takes root")
def test_accounts_of_a_group_share_a_shared_token_file() -> None:
    import tempfile

    # Not in tmp_path: pytest's folder for it is root's alone, so the other accounts could
    # not reach anything inside.
    with tempfile.TemporaryDirectory() as top:
        Path(top).chmod(0o755)
        folder = Path(top) / "shared"
        folder.mkdir()
        folder.chmod(0o770)
        os.chown(folder, 0, 5000)
        share_between_accounts(folder)


def share_between_accounts(folder: Path) -> None:
    import subprocess
    import sys

    script = (
        # Everything imported first: the interpreter's own files may be root's alone.
        "import fcntl, json, os, sys\n"
        "from flexclient import FileTokenStore, Token\n"
        "os.setgid(5000); os.setuid(int(sys.argv[2]))\n"
        "store = FileTokenStore(sys.argv[1], shared=True)\n"
        "with store.lock():\n"
        "    store.set(Token(access_token='t' + sys.argv[2], scope='user', refresh_token='r'))\n"
        "print(store.get().access_token)\n"
    )
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).parents[1])}
    for uid in ("2001", "2002"):
        done = subprocess.run(
            [sys.executable, "-c", script, str(folder / "token.json"), uid],
            capture_output=True, text=True, env=env, timeout=60,
        )  # fmt: skip
        assert done.returncode == 0 and done.stdout == f"t{uid}\n", done.stderr
    assert (folder / "token.json.lock").stat().st_mode & 0o777 == 0o660


def test_login_can_leave_the_replaced_session_alone() -> None:
    sdk = MarketplaceClient("client-id", base_url=MP, retry_policy=NO_WAIT)
    sdk.token_store.set(USER)
    with requests_mock.Mocker() as m:
        m.post(TOKEN, json=token_json("user", "again", "r-again"))
        sdk.login(username="u@example.com", password="pw", revoke_replaced=False)
        assert [r.path for r in m.request_history] == ["/v1/auth/token"]  # no revoke
