"""Retries, timeouts and hostile answers: every call ends in a result or a typed error, in time."""

from __future__ import annotations

import contextlib
import email.utils
import gzip
import io
import logging
import socket
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any, cast
from unittest.mock import patch

import pytest
import requests
import requests_mock
import urllib3
from hypothesis import given
from hypothesis import strategies as st
from requests.adapters import HTTPAdapter
from urllib3.exceptions import ProtocolError
from urllib3.exceptions import SSLError as Urllib3SSLError

from flexclient import (
    ApiError,
    Bucket,
    FileTokenStore,
    MarketplaceClient,
    ParameterError,
    RateLimitError,
    RateLimits,
    RequestTimeoutError,
    ResponseTooLargeError,
    RetryPolicy,
    ServerError,
    Token,
    TransportError,
    UnexpectedResponseError,
)
from flexclient._http.deadline import DeadlineAdapter
from flexclient._http.transport import Transport, _read_at_once  # pyright: ignore[reportPrivateUsage]
from flexclient.testing import FakeMarketplace
from tests.helpers import CREATE, CREATED, MP, OK, QUERY, Scripted


class Sleeps:
    def __init__(self) -> None:
        self.waits: list[float] = []

    def __call__(self, seconds: float) -> None:
        self.waits.append(seconds)


def client(sleeps: Sleeps, **policy: Any) -> MarketplaceClient:
    return MarketplaceClient(
        "client-id", base_url=MP, retry_policy=RetryPolicy(sleep=sleeps, **policy)
    )


def hits(m: requests_mock.Mocker, url: str) -> int:
    return sum(1 for r in m.request_history if r.url.split("?")[0] == url)


def test_queries_are_retried_on_server_errors(mock: requests_mock.Mocker) -> None:
    sleeps = Sleeps()
    mock.get(
        QUERY,
        [{"status_code": 503, "text": "busy"}, {"status_code": 502, "text": "bad gateway"}, OK],
    )
    res = client(sleeps).listings.query()
    assert res.status == 200 and res.retries == 2 and len(sleeps.waits) == 2
    assert 0 <= sleeps.waits[0] <= 0.5 and 0 <= sleeps.waits[1] <= 1.0  # full jitter, base 0.5


def test_commands_are_not_retried_when_they_may_have_run(mock: requests_mock.Mocker) -> None:
    mock.post(CREATE, [{"status_code": 503, "text": "busy"}, CREATED])
    with pytest.raises(ServerError) as info:
        client(Sleeps()).own_listings.create({"title": "x"})
    assert info.value.retries == 0 and hits(mock, CREATE) == 1
    mock.post(CREATE, exc=requests.exceptions.ConnectionError("connection reset by peer"))
    sleeps = Sleeps()
    with pytest.raises(TransportError):
        client(sleeps).own_listings.create({"title": "x"})
    assert hits(mock, CREATE) == 2 and sleeps.waits == []  # one more attempt, not retried


def test_commands_are_retried_when_they_certainly_did_not_run(mock: requests_mock.Mocker) -> None:
    mock.post(CREATE, [{"status_code": 429, "text": "slow down"}, CREATED])
    assert client(Sleeps()).own_listings.create({"title": "x"}).retries == 1
    mock.post(CREATE, [{"exc": requests.exceptions.ConnectTimeout("no connection")}, CREATED])
    assert client(Sleeps()).own_listings.create({"title": "x"}).retries == 1


def test_retry_after_in_seconds_and_as_a_date(mock: requests_mock.Mocker) -> None:
    sleeps = Sleeps()
    later = email.utils.formatdate(time.time() + 20, usegmt=True)
    mock.get(
        QUERY,
        [
            {"status_code": 429, "headers": {"Retry-After": "3"}},
            {"status_code": 503, "headers": {"Retry-After": later}},
            OK,
        ],
    )
    client(sleeps).listings.query()
    assert sleeps.waits[0] == 3 and 15 < sleeps.waits[1] <= 20


def test_retry_after_above_the_cap_is_raised_at_once(mock: requests_mock.Mocker) -> None:
    sleeps = Sleeps()
    mock.get(
        QUERY,
        status_code=429,
        headers={"Retry-After": "600"},
        json={"errors": [{"status": 429, "code": "too-many-requests", "title": "Slow"}]},
    )
    with pytest.raises(RateLimitError) as info:
        client(sleeps, retry_after_cap=30).listings.query()
    assert info.value.retry_after == 600 and info.value.retries == 0 and sleeps.waits == []


def test_no_retries_with_max_retries_zero(mock: requests_mock.Mocker) -> None:
    mock.get(QUERY, status_code=503, text="busy")
    sdk = MarketplaceClient("client-id", base_url=MP, max_retries=0)
    with pytest.raises(ServerError) as info:
        sdk.listings.query()
    assert info.value.retries == 0 and hits(mock, QUERY) == 1


def test_the_time_budget_stops_retrying(mock: requests_mock.Mocker) -> None:
    sleeps = Sleeps()
    mock.get(QUERY, status_code=503, headers={"Retry-After": "5"}, text="busy")
    with pytest.raises(ServerError) as info:
        client(sleeps, max_retries=10, max_elapsed=12).listings.query()
    assert sleeps.waits == [5, 5] and info.value.retries == 2


def lowest(low: float, high: float) -> float:
    return low


def highest(low: float, high: float) -> float:
    return high


@given(st.integers(0, 20), st.floats(0.01, 5), st.floats(0.1, 60))
def test_backoff_is_full_jitter_within_the_cap(attempt: int, base: float, cap: float) -> None:
    policy = RetryPolicy(backoff_base=base, backoff_cap=cap)
    # The wait is drawn from the whole range: its lowest draw is 0, its highest the bound.
    with patch("random.uniform", lowest):
        assert policy.wait(attempt, None) == 0
    with patch("random.uniform", highest):
        assert policy.wait(attempt, None) == min(cap, base * 2**attempt)
    assert 0 <= policy.wait(attempt, None) <= min(cap, base * 2**attempt)


# --- real sockets ----------------------------------------------------------------------------


@pytest.fixture
def raw_server() -> Iterator[tuple[str, list[bytes], list[int]]]:
    """A loopback TCP server whose answer to each connection is the next script item:
    bytes to send before closing, or b"" to accept and never answer."""
    script: list[bytes] = []
    connections: list[int] = []
    listener = socket.create_server(("127.0.0.1", 0))
    listener.settimeout(0.1)
    stop = threading.Event()
    held: list[socket.socket] = []

    def serve() -> None:
        while not stop.is_set():
            try:
                conn, _ = listener.accept()
            except TimeoutError:
                continue
            connections.append(1)
            conn.settimeout(1)
            with contextlib.suppress(OSError):
                conn.recv(65536)
            answer = script.pop(0) if script else b""
            if answer:
                conn.sendall(answer)
                conn.close()
            else:
                held.append(conn)  # accepted, never answered

    thread = threading.Thread(target=serve, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{listener.getsockname()[1]}", script, connections
    stop.set()
    thread.join()
    for conn in held:
        conn.close()
    listener.close()


def raw_client(url: str, **kwargs: Any) -> MarketplaceClient:
    from flexclient import Token

    sdk = MarketplaceClient(
        "client-id", base_url=url, retry_policy=RetryPolicy(sleep=lambda _: None), **kwargs
    )
    sdk.token_store.set(Token(access_token="t", scope="public-read"))
    return sdk


def test_a_server_that_never_answers_times_out(
    raw_server: tuple[str, list[bytes], list[int]],
) -> None:
    url, _, connections = raw_server
    sdk = raw_client(url, timeout=(1, 0.3), max_retries=1)
    started = time.monotonic()
    with pytest.raises(RequestTimeoutError) as info:
        sdk.listings.query()
    assert isinstance(info.value, TimeoutError) and info.value.retries == 1
    assert time.monotonic() - started < 3 and len(connections) == 2


def test_a_connection_reset_mid_body_is_a_transport_error(
    raw_server: tuple[str, list[bytes], list[int]],
) -> None:
    url, script, connections = raw_server
    cut = (
        b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 5000\r\n\r\n"
        + b'{"data": ['
    )
    script.extend([cut, cut])
    with pytest.raises(TransportError) as info:
        raw_client(url, max_retries=1).listings.query()
    assert info.value.retries == 1 and len(connections) == 2


def test_a_body_over_the_limit_is_refused(raw_server: tuple[str, list[bytes], list[int]]) -> None:
    url, script, _ = raw_server
    body = b'{"data": [' + b'{"id": "x"},' * 20000 + b"]}"
    script.append(
        b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: %d\r\n\r\n"
        % len(body)
        + body
    )
    with pytest.raises(ResponseTooLargeError) as info:
        raw_client(url, max_response_bytes=64 * 1024).listings.query()
    assert isinstance(info.value, UnexpectedResponseError) and info.value.status == 200
    assert info.value.body.startswith('{"data": [')


def chunked(body: bytes, size: int = 4096) -> bytes:
    """`body` in chunks, as a body of unknown length is sent."""
    parts = [body[i : i + size] for i in range(0, len(body), size)]
    return b"".join(b"%x\r\n%s\r\n" % (len(p), p) for p in parts) + b"0\r\n\r\n"


HEAD = b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n"
LISTING = b'{"id": "c6ff7190-bdf7-47a0-8a2b-e3136e74334f", "type": "listing", "attributes": {}}'
PAGE = b'{"data": [' + b",".join([LISTING] * 500) + b"]}"
GZIPPED = gzip.compress(PAGE)


@pytest.mark.parametrize(
    "answer",
    [
        HEAD + b"Content-Length: %d\r\n\r\n" % len(PAGE) + PAGE,
        HEAD + b"Transfer-Encoding: chunked\r\n\r\n" + chunked(PAGE),
        HEAD + b"Connection: close\r\n\r\n" + PAGE,  # its end is the connection's
        HEAD + b"Content-Encoding: gzip\r\nContent-Length: %d\r\n\r\n" % len(GZIPPED) + GZIPPED,
    ],
    ids=["length", "chunked", "until-closed", "gzip"],
)
def test_a_body_within_the_limit_is_read_whole_however_it_is_sent(
    raw_server: tuple[str, list[bytes], list[int]], answer: bytes
) -> None:
    url, script, _ = raw_server
    script.append(answer)
    listings = raw_client(url, max_response_bytes=len(PAGE)).listings.query().data.data
    assert len(listings) == 500 and str(listings[-1].id) == "c6ff7190-bdf7-47a0-8a2b-e3136e74334f"


@pytest.mark.parametrize(
    "answer",
    [
        HEAD + b"Content-Length: %d\r\n\r\n" % len(PAGE) + PAGE,
        HEAD + b"Transfer-Encoding: chunked\r\n\r\n" + chunked(PAGE),
        HEAD + b"Connection: close\r\n\r\n" + PAGE,
        # Announced larger than the limit: refused, whatever follows.
        HEAD + b"Content-Length: %d\r\n\r\n" % (len(PAGE) * 100) + PAGE,
    ],
    ids=["length", "chunked", "until-closed", "announced"],
)
def test_a_body_one_byte_over_the_limit_is_refused_however_it_is_sent(
    raw_server: tuple[str, list[bytes], list[int]], answer: bytes
) -> None:
    url, script, _ = raw_server
    script.append(answer)
    with pytest.raises(ResponseTooLargeError) as info:
        raw_client(url, max_response_bytes=len(PAGE) - 1).listings.query()
    assert info.value.status == 200 and info.value.body.startswith('{"data": [{"id": "c6ff')


def test_an_empty_answer_is_an_unexpected_response_not_a_crash(
    raw_server: tuple[str, list[bytes], list[int]],
) -> None:
    url, script, _ = raw_server
    script.append(HEAD + b"Content-Length: 0\r\n\r\n")
    with pytest.raises(UnexpectedResponseError) as info:
        raw_client(url).listings.query()
    assert info.value.status == 200 and info.value.body == ""
    assert not info.value.body_truncated  # the whole of it, nothing left unread


def test_an_error_body_sent_in_small_chunks_is_kept_to_exactly_its_bound(
    raw_server: tuple[str, list[bytes], list[int]],
) -> None:
    # Chunks that do not end at the bound: the part of the one crossing it is kept too.
    url, script, _ = raw_server
    body = bytes(range(256)) * 400  # 100 KiB, each byte telling its place
    script.append(
        b"HTTP/1.1 500 Internal Server Error\r\nContent-Type: text/plain\r\n"
        b"Transfer-Encoding: chunked\r\n\r\n" + chunked(body, 1000)
    )
    with pytest.raises(ServerError) as info:
        raw_client(url, max_retries=0).listings.query()
    kept = body[: 64 * 1024].decode("utf-8", errors="replace")
    assert info.value.body_truncated and info.value.body == kept


def test_per_call_timeouts(
    fake_marketplace: FakeMarketplace, marketplace_client: MarketplaceClient
) -> None:
    marketplace_client.marketplace.show()  # the token first
    fake_marketplace.inject("/v1/api/listings/query", delay=1.0, times=5)
    sdk = MarketplaceClient(
        fake_marketplace.client_id,
        base_url=fake_marketplace.url,
        max_retries=0,
        token_store=marketplace_client.token_store,
    )
    with pytest.raises(RequestTimeoutError):
        sdk.listings.query({}, timeout=0.2)
    fake_marketplace.inject("/v1/api/current_user/create", delay=1.0)
    with pytest.raises(RequestTimeoutError):
        sdk.current_user.create(
            {"email": "a@b.c", "password": "p" * 8, "firstName": "a", "lastName": "b"},
            {},
            {"timeout": (1, 0.2)},
        )


def test_connections_go_back_to_a_pool_of_one(fake_marketplace: FakeMarketplace) -> None:
    session = requests.Session()
    session.mount("http://", HTTPAdapter(pool_connections=1, pool_maxsize=1, pool_block=True))
    sdk = MarketplaceClient(
        fake_marketplace.client_id,
        base_url=fake_marketplace.url,
        session=session,
        max_retries=0,
        timeout=(2, 2),
    )
    path = "/v1/api/marketplace/show"
    faults: list[dict[str, Any]] = [
        {"status": 502, "body": "<html>proxy</html>", "content_type": "text/html"},
        {"status": 200, "body": '["^ ","~:data"', "content_type": "application/transit+json"},
        {"status": 200, "body": "[1, 2]", "content_type": "application/json"},
        {"status": 200, "body": "<html>login</html>", "content_type": "text/html"},
        {"status": 404, "body": "not json at all", "content_type": "application/json"},
    ]
    for fault in faults:
        fake_marketplace.inject(path, **fault)
        with pytest.raises(ApiError):
            sdk.marketplace.show()
        assert sdk.marketplace.show().status == 200  # the one connection is free again


def test_debug_log_of_each_request(
    caplog: pytest.LogCaptureFixture, mock: requests_mock.Mocker
) -> None:
    caplog.set_level(logging.DEBUG, logger="flexclient")
    mock.get(QUERY, [{"status_code": 503, "text": "busy"}, OK])
    client(Sleeps()).listings.query({"perPage": 1})
    lines = [r.getMessage() for r in caplog.records if r.name == "flexclient"]
    assert any(
        line.startswith("GET /v1/api/listings/query -> 503 in ") and line.endswith("(retries 0)")
        for line in lines
    )
    assert any(
        line.startswith("GET /v1/api/listings/query -> 200 in ") and line.endswith("(retries 1)")
        for line in lines
    )
    assert any("503, retry 1 in" in line for line in lines)
    assert "anon-token" not in caplog.text


# --- every wait inside a call ends by its deadline ----------------------------------------------


class Blocker:
    """Something a call waits for, held until the test lets it go (or 20 s pass, so that a
    call that ignores its deadline fails the test rather than hang it): `held` says whether
    it was still held when the call under test ended."""

    def __init__(self) -> None:
        self.release = threading.Event()
        self.holding = threading.Event()

    def hold(self) -> None:
        self.holding.set()
        self.release.wait(20)

    @property
    def held(self) -> bool:
        return not self.release.is_set()


def deadline_passes(call: Any, blocker: Blocker) -> RequestTimeoutError:
    """Run `call` (whose deadline is 1 s) while `blocker` is held; return its timeout error,
    checking that it came while the blocker was still held."""
    with pytest.raises(RequestTimeoutError) as info:
        call()
    assert blocker.held, "the call waited past its deadline, until the blocker let go"
    blocker.release.set()
    assert info.value.kind == "deadline"
    assert info.value.never_connected  # nothing was sent: a command may be sent again
    return info.value


def json_answer(status: int = 200, body: bytes = b'{"data": []}') -> tuple[int, bytes]:
    return status, body


def one_token_a_30_seconds() -> RateLimits:
    """Limits of one request, then one more every 30 s: the second waits."""
    return RateLimits(queries=Bucket(1, 1, 30.0, 1), commands=Bucket(1, 1, 30.0, 1))


def rate_limited_client() -> tuple[MarketplaceClient, Scripted]:
    """A client whose one request of its rate limit is spent, and its adapter."""
    adapter = Scripted(lambda _: json_answer())
    limits = one_token_a_30_seconds()
    sdk = MarketplaceClient("id", base_url=MP, session=adapter.session(), rate_limits=limits)
    sdk.token_store.set(Token(access_token="t", scope="public-read"))
    sdk.listings.query()
    return sdk, adapter


def client_of_one_busy_connection() -> tuple[
    MarketplaceClient, Scripted, Blocker, threading.Thread
]:
    """A client of one connection, which a query (`perPage=1`, in a thread of its own)
    holds until the blocker lets go: the client, its adapter, the blocker, the thread."""
    blocker = Blocker()

    def server(request: requests.PreparedRequest) -> tuple[int, bytes]:
        if "perPage=1" in request.path_url:
            blocker.hold()  # a slow answer, holding the only connection
        return json_answer()

    adapter = Scripted(server)
    sdk = MarketplaceClient("id", base_url=MP, session=adapter.session(), max_connections=1)
    sdk.token_store.set(Token(access_token="t", scope="public-read"))
    first = threading.Thread(target=lambda: sdk.listings.query({"perPage": 1}))
    first.start()
    assert blocker.holding.wait(10)
    return sdk, adapter, blocker, first


def test_waiting_for_another_threads_token_request_ends_by_the_deadline() -> None:
    blocker = Blocker()

    def server(request: requests.PreparedRequest) -> tuple[int, bytes]:
        if request.path_url.endswith("/auth/token"):
            blocker.hold()  # a slow token request, made by another thread
            return json_answer(body=b'{"access_token": "a", "scope": "public-read"}')
        return json_answer()

    adapter = Scripted(server)
    sdk = MarketplaceClient("id", base_url=MP, session=adapter.session())
    first = threading.Thread(target=sdk.listings.query)
    first.start()
    assert blocker.holding.wait(10)
    error = deadline_passes(lambda: sdk.listings.query(deadline=1), blocker)
    assert str(error) == "the call's total deadline passed while waiting for the token store's lock"
    first.join(10)
    assert [r.path_url.split("?")[0] for r in adapter.sent].count("/v1/api/listings/query") == 1


def test_waiting_for_another_process_holding_the_token_file_ends_by_the_deadline(
    tmp_path: Path,
) -> None:
    import fcntl

    path = tmp_path / "token.json"
    adapter = Scripted(lambda _: json_answer())
    sdk = MarketplaceClient(
        "id", base_url=MP, session=adapter.session(), token_store=FileTokenStore(path)
    )
    blocker = Blocker()

    def other_process() -> None:
        # An OS lock taken through another open file is another process's, to flock.
        with open(tmp_path / "token.json.lock", "w") as other:
            fcntl.flock(other, fcntl.LOCK_EX)
            blocker.hold()

    holder = threading.Thread(target=other_process)
    holder.start()
    assert blocker.holding.wait(10)
    error = deadline_passes(lambda: sdk.listings.query(deadline=1), blocker)
    holder.join(10)
    assert "held by another process" in str(error)
    assert adapter.sent == []


def test_waiting_for_another_thread_holding_the_token_file_ends_by_the_deadline(
    tmp_path: Path,
) -> None:
    store = FileTokenStore(tmp_path / "token.json")
    adapter = Scripted(lambda _: json_answer())
    sdk = MarketplaceClient("id", base_url=MP, session=adapter.session(), token_store=store)
    blocker = Blocker()

    def other_thread() -> None:  # a client of this process, fetching the token
        with store.lock():
            blocker.hold()

    holder = threading.Thread(target=other_thread)
    holder.start()
    assert blocker.holding.wait(10)
    error = deadline_passes(lambda: sdk.listings.query(deadline=1), blocker)
    holder.join(10)
    assert str(error) == "the call's total deadline passed while waiting for the token file's lock"
    assert adapter.sent == []


def test_waiting_for_the_rate_limit_ends_by_the_deadline() -> None:
    sdk, adapter = rate_limited_client()
    with pytest.raises(RequestTimeoutError, match="rate limit") as info:
        sdk.listings.query(deadline=1)  # the next token comes in 30 s: not waited for
    assert info.value.kind == "deadline" and info.value.never_connected
    assert len(adapter.sent) == 1


def test_waiting_for_a_free_connection_ends_by_the_deadline() -> None:
    sdk, adapter, blocker, first = client_of_one_busy_connection()
    error = deadline_passes(lambda: sdk.listings.query({"perPage": 2}, deadline=1), blocker)
    assert str(error) == "the call's total deadline passed while waiting for a free connection"
    first.join(10)
    assert ["perPage=2" in r.path_url for r in adapter.sent] == [False]  # never sent


def test_a_wait_outside_any_call_waits_for_the_semaphore() -> None:
    from flexclient._http.deadline import held

    slots = threading.BoundedSemaphore(1)
    with held(slots, "a slot"):
        pass  # no deadline: a Semaphore given timeout=-1 would not wait at all, and fail
    assert slots.acquire(blocking=False)


@pytest.mark.parametrize(
    ("failure", "raised"),
    [
        (ProtocolError("reset"), requests.exceptions.ChunkedEncodingError),
        (Urllib3SSLError("bad record mac"), requests.exceptions.SSLError),
    ],
)
def test_a_body_read_failing_midway_is_raised_as_requests_raises_it(
    failure: Exception, raised: type[Exception]
) -> None:
    # What the transport turns into a TransportError, as for a body read by requests.
    class Failing:
        def read(self, amt: int, decode_content: bool) -> bytes:
            raise failure

    with pytest.raises(raised):
        _read_at_once(cast(urllib3.HTTPResponse, Failing()), 10)


def test_closing_a_client_closes_the_connections_of_its_own_session_only(
    fake_marketplace: FakeMarketplace,
) -> None:
    yours = requests.Session()
    given_one = MarketplaceClient(
        fake_marketplace.client_id, base_url=fake_marketplace.url, session=yours
    )
    own = MarketplaceClient(fake_marketplace.client_id, base_url=fake_marketplace.url)
    made = own._transport.session  # pyright: ignore[reportPrivateUsage]

    def open_pools(session: requests.Session) -> int:
        adapter = session.get_adapter(fake_marketplace.url + "/")
        assert isinstance(adapter, HTTPAdapter)
        return len(adapter.poolmanager.pools)

    for sdk in (given_one, own):
        sdk.marketplace.show()
    assert open_pools(yours) == open_pools(made) == 1
    given_one.close()
    own.close()
    assert open_pools(yours) == 1 and open_pools(made) == 0
    yours.close()


def test_a_client_with_other_options_shares_the_rate_limit_it_came_from_unless_changed() -> None:
    sdk, adapter = rate_limited_client()  # the one token of the bucket spent
    patient = sdk.with_options(timeout=60)
    with pytest.raises(RequestTimeoutError, match="rate limit"):
        patient.listings.query(deadline=1)
    own_bucket = sdk.with_options(rate_limits=one_token_a_30_seconds())
    own_bucket.listings.query(deadline=1)
    assert len(adapter.sent) == 2


def test_a_client_with_other_options_shares_the_connection_bound_it_came_from() -> None:
    sdk, adapter, blocker, first = client_of_one_busy_connection()
    patient = sdk.with_options(timeout=60)
    error = deadline_passes(lambda: patient.listings.query({"perPage": 2}, deadline=1), blocker)
    assert str(error) == "the call's total deadline passed while waiting for a free connection"
    first.join(10)
    assert ["perPage=2" in r.path_url for r in adapter.sent] == [False]  # never sent


def test_the_session_a_client_makes_keeps_the_deadline_over_https_as_over_http() -> None:
    # The tests' servers speak plain http to loopback; the API is reached over https, whose
    # connections must be the ones that keep each read within the call's deadline.
    sdk = MarketplaceClient("id", base_url=MP)
    session = sdk._transport.session  # pyright: ignore[reportPrivateUsage]
    for url in (MP, "http://127.0.0.1:9"):
        assert isinstance(session.get_adapter(url + "/"), DeadlineAdapter)


# --- a body streamed to a file (`Transport.stream_to`, as downloads use it) -------------------


def streaming(url: str, **options: Any) -> Transport:
    """A transport to `url` with a client's options (retries without waiting)."""
    return Transport(url, raw_client(url, **options).options)


CUT = HEAD + b"Content-Length: %d\r\n\r\n" % len(PAGE) + PAGE[:1000]  # the connection then ends


@pytest.mark.parametrize(
    "answer",
    [
        HEAD + b"Content-Length: %d\r\n\r\n" % len(PAGE) + PAGE,
        HEAD + b"Transfer-Encoding: chunked\r\n\r\n" + chunked(PAGE),
        HEAD + b"Connection: close\r\n\r\n" + PAGE,
    ],
    ids=["length", "chunked", "until-closed"],
)
def test_a_streamed_body_is_written_to_the_file_from_its_start_and_kept_out_of_memory(
    raw_server: tuple[str, list[bytes], list[int]], answer: bytes
) -> None:
    url, script, _ = raw_server
    script.append(answer)
    sink = io.BytesIO(b"what the file held before" * 10000)
    raw = streaming(url).stream_to(sink, "GET", "/file", chunk_size=4096)
    assert sink.getvalue() == PAGE and raw.streamed == len(PAGE)
    assert raw.status == 200 and raw.content == b""


def test_a_streamed_body_is_written_as_sent_not_decompressed(
    raw_server: tuple[str, list[bytes], list[int]],
) -> None:
    url, script, _ = raw_server
    script.append(
        HEAD + b"Content-Encoding: gzip\r\nContent-Length: %d\r\n\r\n" % len(GZIPPED) + GZIPPED
    )
    sink = io.BytesIO()
    assert streaming(url).stream_to(sink, "GET", "/file.gz").streamed == len(GZIPPED)
    assert sink.getvalue() == GZIPPED


def test_a_stream_cut_midway_is_retried_into_the_file_afresh(
    raw_server: tuple[str, list[bytes], list[int]],
) -> None:
    url, script, connections = raw_server
    script.extend([CUT, HEAD + b"Content-Length: %d\r\n\r\n" % len(PAGE) + PAGE])
    sink = io.BytesIO()
    raw = streaming(url, max_retries=1).stream_to(sink, "GET", "/file", chunk_size=256)
    assert sink.getvalue() == PAGE and raw.retries == 1 and len(connections) == 2


def test_a_stream_failing_midway_is_a_transport_error(
    raw_server: tuple[str, list[bytes], list[int]],
) -> None:
    url, script, connections = raw_server
    script.extend([CUT, CUT])
    with pytest.raises(TransportError) as info:
        streaming(url, max_retries=1).stream_to(io.BytesIO(), "GET", "/file", chunk_size=256)
    assert info.value.retries == 1 and len(connections) == 2
    # The failure of requests (and urllib3's under it) is the cause, not what is raised.
    assert not isinstance(info.value, requests.RequestException | urllib3.exceptions.HTTPError)


def test_a_stream_ends_by_the_calls_deadline(
    raw_server: tuple[str, list[bytes], list[int]],
) -> None:
    url, script, _ = raw_server
    script.append(HEAD + b"Content-Length: %d\r\n\r\n" % len(PAGE) + PAGE)

    class SlowDisk(io.BytesIO):
        def write(self, data: Any, /) -> int:
            time.sleep(0.05)
            return super().write(data)

    started = time.monotonic()
    with pytest.raises(RequestTimeoutError) as info:
        streaming(url, timeout=(1, 5)).stream_to(
            SlowDisk(), "GET", "/file", deadline=0.3, chunk_size=1024
        )
    assert info.value.kind == "deadline" and time.monotonic() - started < 1.5


@pytest.mark.parametrize(
    "answer",
    [
        HEAD + b"Content-Length: %d\r\n\r\n" % len(PAGE) + PAGE,
        HEAD + b"Transfer-Encoding: chunked\r\n\r\n" + chunked(PAGE),
    ],
    ids=["announced", "chunked"],
)
def test_a_streamed_body_over_its_bound_is_refused(
    raw_server: tuple[str, list[bytes], list[int]], answer: bytes
) -> None:
    url, script, _ = raw_server
    script.append(answer)
    sink = io.BytesIO(b"before")
    with pytest.raises(ResponseTooLargeError) as info:
        streaming(url).stream_to(sink, "GET", "/file", max_bytes=len(PAGE) - 1)
    assert info.value.status == 200 and str(len(PAGE) - 1) in str(info.value)
    assert len(sink.getvalue()) < len(PAGE) and PAGE.startswith(sink.getvalue())


def test_a_streamed_body_exactly_at_its_bound_is_written(
    raw_server: tuple[str, list[bytes], list[int]],
) -> None:
    url, script, _ = raw_server
    script.append(HEAD + b"Transfer-Encoding: chunked\r\n\r\n" + chunked(PAGE))
    sink = io.BytesIO()
    streaming(url).stream_to(sink, "GET", "/file", max_bytes=len(PAGE))
    assert sink.getvalue() == PAGE


def test_an_error_answer_is_not_streamed_to_the_file(
    raw_server: tuple[str, list[bytes], list[int]],
) -> None:
    url, script, _ = raw_server
    script.append(b"HTTP/1.1 404 Not Found\r\nContent-Length: 9\r\n\r\nnot found")
    sink = io.BytesIO(b"untouched")
    raw = streaming(url).stream_to(sink, "GET", "/file")
    assert (raw.status, raw.content, raw.streamed) == (404, b"not found", 0)
    assert sink.getvalue() == b"untouched"


@pytest.mark.parametrize(
    ("bounds", "param"),
    [
        ({"max_bytes": -1}, "max_bytes"),
        ({"max_bytes": True}, "max_bytes"),
        ({"chunk_size": 0}, "chunk_size"),
        ({"chunk_size": 1.5}, "chunk_size"),
    ],
)
def test_bad_stream_bounds_fail_before_sending(
    raw_server: tuple[str, list[bytes], list[int]], bounds: dict[str, Any], param: str
) -> None:
    url, _, connections = raw_server
    with pytest.raises(ParameterError) as info:
        streaming(url).stream_to(io.BytesIO(), "GET", "/file", **bounds)
    assert info.value.param == param and connections == []
