"""The request path: a session flexclient made sends each request the direct way (its
environment read when the client is made), and a `session=` of the user's takes the whole path
of `requests` as it always did: proxies from the environment, its hooks, cookies and headers.
Over real HTTP on 127.0.0.1 (a proxy is seen only by a server), and on requests-mock."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import pytest
import requests
import requests_mock

from flexclient import MarketplaceClient, Token
from tests.helpers import MP, NO_WAIT, OK, QUERY


class Recorder:
    """A loopback HTTP server answering every GET with an empty page, recording the request
    targets it was sent (a proxy is sent the whole URL, a server only the path) and the
    cookies; it sets `set_cookie`, if given."""

    def __init__(self, set_cookie: str | None = None) -> None:
        seen = self.seen = list[str]()
        cookies = self.cookies = list[str | None]()

        class Answer(BaseHTTPRequestHandler):
            def do_GET(self) -> None:
                seen.append(self.path)
                cookies.append(self.headers.get("Cookie"))
                body = b'{"data": []}'
                self.send_response(200)
                if set_cookie:
                    self.send_header("Set-Cookie", set_cookie)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def log_message(self, format: str, *args: Any) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Answer)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()


@pytest.fixture
def origin_and_proxy(monkeypatch: pytest.MonkeyPatch) -> Iterator[tuple[Recorder, Recorder]]:
    for name in ("http_proxy", "HTTP_PROXY", "all_proxy", "ALL_PROXY", "no_proxy", "NO_PROXY"):
        monkeypatch.delenv(name, raising=False)
    origin, proxy = Recorder(), Recorder()
    yield origin, proxy
    for made in (origin, proxy):
        made.server.shutdown()
        made.server.server_close()


def client(url: str, **options: Any) -> MarketplaceClient:
    sdk = MarketplaceClient("client-id", base_url=url, wire_format="json", **options)
    sdk.token_store.set(Token(access_token="t", scope="public-read"))
    return sdk


def test_a_proxy_in_the_environment_when_the_client_is_made_is_used(
    origin_and_proxy: tuple[Recorder, Recorder], monkeypatch: pytest.MonkeyPatch
) -> None:
    origin, proxy = origin_and_proxy
    monkeypatch.setenv("HTTP_PROXY", proxy.url)
    with client(origin.url) as sdk:
        sdk.listings.query()
        sdk.listings.query()
        derived = sdk.with_options(timeout=20)
        derived.listings.query()
    assert proxy.seen == [f"{origin.url}/v1/api/listings/query"] * 3
    assert origin.seen == []


def test_a_host_no_proxy_names_is_reached_directly(
    origin_and_proxy: tuple[Recorder, Recorder], monkeypatch: pytest.MonkeyPatch
) -> None:
    origin, proxy = origin_and_proxy
    monkeypatch.setenv("HTTP_PROXY", proxy.url)
    monkeypatch.setenv("NO_PROXY", "localhost")
    with client(origin.url.replace("127.0.0.1", "localhost")) as sdk:
        sdk.listings.query()
    assert origin.seen == ["/v1/api/listings/query"] and proxy.seen == []


def test_the_environment_is_read_when_the_client_is_made_not_for_each_request(
    origin_and_proxy: tuple[Recorder, Recorder], monkeypatch: pytest.MonkeyPatch
) -> None:
    origin, proxy = origin_and_proxy
    with client(origin.url) as sdk:
        monkeypatch.setenv("HTTP_PROXY", proxy.url)  # too late for this client
        sdk.listings.query()
        with client(origin.url) as later:  # a client made now reads it
            later.listings.query()
    assert origin.seen == ["/v1/api/listings/query"]
    assert proxy.seen == [f"{origin.url}/v1/api/listings/query"]


def test_a_session_of_yours_reads_the_environment_for_each_request(
    origin_and_proxy: tuple[Recorder, Recorder], monkeypatch: pytest.MonkeyPatch
) -> None:
    origin, proxy = origin_and_proxy
    with client(origin.url, session=requests.Session()) as sdk:
        sdk.listings.query()
        monkeypatch.setenv("HTTP_PROXY", proxy.url)
        sdk.listings.query()
    assert origin.seen == ["/v1/api/listings/query"]
    assert proxy.seen == [f"{origin.url}/v1/api/listings/query"]


def test_cookies_the_api_sets_are_sent_back() -> None:
    origin = Recorder(set_cookie="lb=a1; Path=/")
    try:
        with client(origin.url) as sdk:
            sdk.listings.query()
            sdk.listings.query()
    finally:
        origin.server.shutdown()
        origin.server.server_close()
    assert origin.cookies == [None, "lb=a1"]


def test_a_session_of_yours_lends_its_hooks_cookies_headers_and_parameters() -> None:
    session = requests.Session()
    answered: list[int] = []

    def hook(response: requests.Response, *args: object, **kwargs: object) -> None:
        answered.append(response.status_code)

    session.hooks["response"].append(hook)
    session.cookies["theirs"] = "c1"
    session.headers["X-Trace"] = "t1"
    session.params = {"via": "proxy-a"}
    sdk = MarketplaceClient("client-id", base_url=MP, session=session, retry_policy=NO_WAIT)
    sdk.token_store.set(Token(access_token="t", scope="public-read"))
    with requests_mock.Mocker() as m:
        m.get(QUERY, **OK)
        sdk.listings.query({"perPage": 5})
    (sent,) = m.request_history
    assert answered == [200]
    assert sent.headers["Cookie"] == "theirs=c1" and sent.headers["X-Trace"] == "t1"
    assert sent.qs == {"perpage": ["5"], "via": ["proxy-a"]}
    assert sent.headers["Authorization"] == "Bearer t"
