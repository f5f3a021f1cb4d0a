"""Hostile servers over real HTTP on loopback: redirects carry no credential elsewhere, every
call ends by its deadline, error bodies stay bounded, and processes sharing a token file keep
their session through fast token expiry."""

from __future__ import annotations

import contextlib
import json
import socket
import subprocess
import sys
import threading
import time
import tracemalloc
from collections.abc import Callable, Generator
from pathlib import Path

import pytest
import requests

from flexclient import (
    FileTokenStore,
    MarketplaceClient,
    RedirectError,
    RequestTimeoutError,
    RetryPolicy,
    ServerError,
    Token,
)
from flexclient.testing import FakeMarketplace

Handler = Callable[[socket.socket, bytes], None]


class Server:
    """A loopback HTTP server answering each connection with `handler(conn, request)`, and
    keeping every request it received."""

    def __init__(self, handler: Handler) -> None:
        self.handler = handler
        self.requests: list[bytes] = []
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.listener.settimeout(0.1)
        self.url = f"http://127.0.0.1:{self.listener.getsockname()[1]}"
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._serve, daemon=True)
        self._thread.start()

    def _serve(self) -> None:
        while not self._stop.is_set():
            try:
                conn, _ = self.listener.accept()
            except TimeoutError:
                continue
            threading.Thread(target=self._answer, args=(conn,), daemon=True).start()

    def _answer(self, conn: socket.socket) -> None:
        with conn, contextlib.suppress(OSError):
            conn.settimeout(5)
            request = conn.recv(65536)
            self.requests.append(request)
            self.handler(conn, request)

    def close(self) -> None:
        self._stop.set()
        self._thread.join()
        self.listener.close()


@contextlib.contextmanager
def serving(handler: Handler) -> Generator[Server, None, None]:
    server = Server(handler)
    try:
        yield server
    finally:
        server.close()


def answer(status: str, headers: dict[str, str], body: bytes = b"") -> Handler:
    def handle(conn: socket.socket, _: bytes) -> None:
        head = "".join(
            f"{k}: {v}\r\n" for k, v in {**headers, "Content-Length": str(len(body))}.items()
        )
        conn.sendall(f"HTTP/1.1 {status}\r\n{head}Connection: close\r\n\r\n".encode() + body)

    return handle


def client(url: str, **options: object) -> MarketplaceClient:
    return MarketplaceClient(
        "client-id",
        client_secret="the-client-secret",
        base_url=url,
        retry_policy=RetryPolicy(sleep=lambda _: None),
        **options,  # type: ignore[arg-type]
    )


# --- redirects ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    "status", ["307 Temporary Redirect", "308 Permanent Redirect", "302 Found"]
)
def test_a_redirected_token_request_sends_nothing_elsewhere(status: str) -> None:
    with serving(answer("200 OK", {"Content-Type": "application/json"}, b"{}")) as elsewhere:
        redirect = answer(status, {"Location": elsewhere.url + "/v1/auth/token"})
        with serving(redirect) as api:
            sdk = client(api.url)
            with pytest.raises(RedirectError) as info:
                sdk.login(username="jane@example.com", password="the-password")
            with pytest.raises(RedirectError):
                sdk.listings.query()  # the anonymous token request, redirected too
        assert elsewhere.requests == []
    assert info.value.location == elsewhere.url + "/v1/auth/token"
    assert info.value.status == int(status.split()[0])
    assert sdk.token_store.get() is None


def test_a_redirected_command_is_not_sent_again_elsewhere() -> None:
    with serving(answer("200 OK", {"Content-Type": "application/json"}, b"{}")) as elsewhere:
        moved = answer("307 Temporary Redirect", {"Location": elsewhere.url + "/steal"})
        with serving(moved) as api:
            sdk = client(api.url)
            sdk.token_store.set(Token(access_token="user-access", scope="user"))
            with pytest.raises(RedirectError) as info:
                sdk.own_listings.create({"title": "Bike"})
            assert len(api.requests) == 1 and b"Bearer user-access" in api.requests[0]
        assert elsewhere.requests == []
    assert info.value.location == elsewhere.url + "/steal"
    assert "redirect" in str(info.value) and "user-access" not in str(info.value)


# --- deadlines ----------------------------------------------------------------------------


def trickle(head: bytes, body: bytes, every: float = 0.1) -> Handler:
    """Send the answer a byte at a time: each read gets a byte well within its timeout."""

    def handle(conn: socket.socket, _: bytes) -> None:
        for i in range(len(head + body)):
            conn.sendall((head + body)[i : i + 1])
            time.sleep(every)

    return handle


SLOW_BODY = b'{"data": []}' + b" " * 600  # a minute at a byte every 0.1 s
HEAD = b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: %d\r\n\r\n" % len(
    SLOW_BODY
)


def slow_body(conn: socket.socket, request: bytes) -> None:
    conn.sendall(HEAD)  # the headers at once, then the body a byte at a time
    trickle(b"", SLOW_BODY)(conn, request)


@pytest.mark.parametrize("handler", [trickle(HEAD, SLOW_BODY), slow_body], ids=["head", "body"])
def test_a_trickling_server_is_cut_at_the_deadline(handler: Handler) -> None:
    with serving(handler) as api:
        sdk = client(api.url, timeout=(1, 1), deadline=1.5)
        sdk.token_store.set(Token(access_token="t", scope="public-read"))
        with pytest.raises(RequestTimeoutError, match="deadline") as info:
            sdk.listings.query()
        assert info.value.retries == 0  # no retry is started past the deadline
        # per call, too
        sdk = client(api.url, timeout=(1, 1))
        sdk.token_store.set(Token(access_token="t", scope="public-read"))
        with pytest.raises(RequestTimeoutError, match="deadline"):
            sdk.listings.query(deadline=1.0)
        with pytest.raises(RequestTimeoutError, match="deadline"):
            sdk.own_listings.create({"title": "a"}, {}, {"deadline": 1.0})


def test_a_trickling_server_is_cut_at_the_deadline_over_a_session_of_yours() -> None:
    # A plain session of yours gets the adapter that keeps each read within the deadline.
    with serving(slow_body) as api:
        sdk = client(api.url, timeout=(1, 1), deadline=1.5, session=requests.Session())
        sdk.token_store.set(Token(access_token="t", scope="public-read"))
        with pytest.raises(RequestTimeoutError, match="deadline"):
            sdk.listings.query()


def test_the_token_request_shares_the_calls_deadline() -> None:
    with serving(trickle(HEAD, SLOW_BODY)) as api:
        sdk = client(api.url, timeout=(1, 1), deadline=1.0)
        with pytest.raises(RequestTimeoutError, match="deadline"):
            sdk.listings.query()  # stuck in fetching the anonymous token


# --- error bodies -------------------------------------------------------------------------


@pytest.mark.parametrize("yours", [False, True], ids=["own-session", "your-session"])
def test_a_huge_error_body_is_kept_as_an_excerpt_without_reading_it_whole(yours: bool) -> None:
    size = 60 * 1024 * 1024
    sent: list[int] = []

    def huge(conn: socket.socket, request: bytes) -> None:
        conn.sendall(b"HTTP/1.1 500 Internal Server Error\r\nContent-Length: %d\r\n\r\n" % size)
        chunk = b"e" * 65536
        for _ in range(size // len(chunk)):
            conn.sendall(chunk)
            sent.append(len(chunk))

    with serving(huge) as api:
        # A session of yours takes all of requests' path, which must stream the body too.
        session = {"session": requests.Session()} if yours else {}
        sdk = client(api.url, max_retries=0, **session)
        sdk.token_store.set(Token(access_token="t", scope="public-read"))
        tracemalloc.start()
        try:
            with pytest.raises(ServerError) as info:
                sdk.listings.query()
            _, peak = tracemalloc.get_traced_memory()
        finally:
            tracemalloc.stop()
    assert info.value.body_truncated and len(info.value.body) == 64 * 1024
    assert peak < 8 * 1024 * 1024  # far below the 60 MB sent (or the 64 MiB success cap)
    assert sum(sent) < size  # the connection was dropped, not drained


# --- two processes sharing a token file --------------------------------------------------


def test_two_processes_sharing_a_token_file_stay_logged_in(tmp_path: Path) -> None:
    path = tmp_path / "token.json"
    with FakeMarketplace(token_ttl=0.5) as fake:
        fake.add_user("shared@example.com", "shared-password")
        sdk = MarketplaceClient(fake.client_id, base_url=fake.url, token_store=FileTokenStore(path))
        sdk.login(username="shared@example.com", password="shared-password")
        worker = Path(__file__).with_name("share_token_file.py")
        procs = [
            subprocess.Popen(
                [sys.executable, str(worker), fake.url, fake.client_id, str(path), "150"],
                stdout=subprocess.PIPE,
                text=True,
                cwd=Path(__file__).parents[2],
            )
            for _ in range(2)
        ]
        results = [json.loads(proc.communicate(timeout=120)[0]) for proc in procs]
    for result in results:
        assert result == {"outcomes": {"ok": 150}, "anonymous": False}
    stored = FileTokenStore(path).get()
    assert stored is not None and stored.scope == "user"
