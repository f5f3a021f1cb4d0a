"""What is retried, how long the waits are, where retrying stops, and what an error keeps."""

from __future__ import annotations

import dataclasses
import datetime as dt
import logging
import random
import re
import socket
import time
from typing import Any

import pytest
import requests
import requests_mock
from urllib3.exceptions import MaxRetryError, NewConnectionError

from flexclient import (
    Bucket,
    MarketplaceClient,
    MemoryTokenStore,
    NotFoundError,
    ParameterError,
    RateLimits,
    RedirectError,
    RequestTimeoutError,
    ResponseTooLargeError,
    RetryPolicy,
    ServerError,
    Token,
    TransportError,
)
from flexclient._http.transport import (
    Transport,
    check_timeout,
    default_deadline,
    parse_http_date,
    parse_retry_after,
)
from tests.helpers import CREATE, CREATED, MP, OK, QUERY

RESET = requests.exceptions.ConnectionError("connection reset by peer")
TOKEN = Token(access_token="t", scope="public-read")


class Steady(RetryPolicy):
    """A policy whose every backoff is the same, four times `backoff_base` (two seconds)."""

    def wait(self, attempt: int, retry_after: float | None) -> float:
        return 4 * self.backoff_base if retry_after is None else retry_after


def steady(waits: list[float], **policy: Any) -> Steady:
    return Steady(sleep=waits.append, **policy)


def client(policy: RetryPolicy, **options: Any) -> MarketplaceClient:
    return MarketplaceClient("client-id", base_url=MP, retry_policy=policy, **options)


def hits(m: requests_mock.Mocker, url: str) -> int:
    return sum(1 for r in m.request_history if r.url.split("?")[0] == url)


def test_backoff_grows_with_each_attempt_from_zero_to_its_bound() -> None:
    policy = RetryPolicy(backoff_base=0.5, backoff_cap=8.0)
    random.seed(36)
    for attempt, bound in [(0, 0.5), (1, 1.0), (2, 2.0), (3, 4.0), (4, 8.0), (6, 8.0)]:
        waits = [policy.wait(attempt, None) for _ in range(400)]
        assert all(0 <= w <= bound for w in waits)
        # Full jitter: the waits spread over the whole range, not a part of it.
        assert min(waits) < bound / 10 and max(waits) > bound * 0.9


def test_retry_after_is_waited_as_asked_up_to_its_cap() -> None:
    policy = RetryPolicy(retry_after_cap=30)
    assert policy.wait(0, 12.5) == 12.5 and policy.wait(3, 45) == 30


@pytest.mark.parametrize("status", [500, 502, 503, 504, 429])
def test_queries_are_retried_on_each_retryable_status(
    mock: requests_mock.Mocker, status: int
) -> None:
    mock.get(QUERY, [{"status_code": status, "text": "busy"}, OK])
    waits: list[float] = []
    assert client(steady(waits)).listings.query().retries == 1
    assert waits == [2.0] and hits(mock, QUERY) == 2


def test_each_connection_failure_counts_as_a_retry(mock: requests_mock.Mocker) -> None:
    mock.get(QUERY, [{"exc": RESET}, {"exc": RESET}, OK])
    waits: list[float] = []
    assert client(steady(waits)).listings.query().retries == 2
    mock.get(QUERY, exc=RESET)
    with pytest.raises(TransportError) as info:
        client(steady(waits := [])).listings.query()
    assert info.value.retries == 2 and waits == [2.0, 2.0]


def test_the_time_budget_holds_across_connection_failures(mock: requests_mock.Mocker) -> None:
    mock.get(QUERY, exc=RESET)
    waits: list[float] = []
    with pytest.raises(TransportError) as info:
        client(steady(waits, max_retries=10, max_elapsed=5)).listings.query()
    # A third wait would take the call past its 5 seconds.
    assert waits == [2.0, 2.0] and info.value.retries == 2 and hits(mock, QUERY) == 3


def test_no_retry_whose_wait_would_run_past_the_deadline(mock: requests_mock.Mocker) -> None:
    mock.get(QUERY, status_code=503, text="busy")
    waits: list[float] = []
    with pytest.raises(ServerError) as info:
        client(steady(waits), deadline=1.5).listings.query()
    assert waits == [] and info.value.retries == 0 and hits(mock, QUERY) == 1


def test_an_attempt_after_the_deadline_passed_is_not_sent(mock: requests_mock.Mocker) -> None:
    mock.get(QUERY, status_code=503, text="busy")

    def oversleep(seconds: float) -> None:
        time.sleep(1.2)  # asked for 0.1 s, with most of the second left: longer than that

    policy = Steady(sleep=oversleep, max_retries=3, backoff_base=0.025)
    with pytest.raises(RequestTimeoutError) as info:
        client(policy, deadline=1, token_store=MemoryTokenStore(TOKEN)).listings.query()
    assert info.value.kind == "deadline" and hits(mock, QUERY) == 1


def test_a_connection_failure_after_the_deadline_is_a_deadline_error(
    mock: requests_mock.Mocker,
) -> None:
    def slow_reset(request: Any, context: Any) -> bytes:
        time.sleep(0.4)
        raise RESET

    mock.get(QUERY, content=slow_reset)
    with pytest.raises(RequestTimeoutError) as info:
        client(steady([]), deadline=0.3).listings.query()
    # Past the deadline, nothing is retried.
    assert info.value.kind == "deadline" and hits(mock, QUERY) == 1


def test_a_refused_connection_is_retried_for_a_command(mock: requests_mock.Mocker) -> None:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    refused = requests.exceptions.ConnectionError(
        MaxRetryError(None, f"http://127.0.0.1:{port}/", NewConnectionError(None, "refused"))  # type: ignore[arg-type]
    )
    mock.post(CREATE, [{"exc": refused}, CREATED])
    waits: list[float] = []
    token = Token(access_token="user-token", scope="user", refresh_token="r", expires_in=3600)
    sdk = client(steady(waits), token_store=MemoryTokenStore(token))
    assert sdk.own_listings.create({"title": "x"}).retries == 1 and waits == [2.0]
    mock.post(CREATE, exc=refused)
    with pytest.raises(TransportError) as info:
        sdk.own_listings.create({"title": "x"})
    assert info.value.never_connected and info.value.retries == 2


def test_a_cut_off_error_body_keeps_its_start_and_says_so(mock: requests_mock.Mocker) -> None:
    kept = 64 * 1024  # docs/errors.md: the first 64 KiB
    huge = b"<html>" + b"x" * (3 * kept)
    mock.get(QUERY, status_code=500, content=huge)
    with pytest.raises(ServerError) as info:
        client(RetryPolicy(max_retries=0)).listings.query()
    assert info.value.body_truncated and info.value.body.encode() == huge[:kept]
    mock.get(QUERY, status_code=500, content=b"short")
    with pytest.raises(ServerError) as info:
        client(RetryPolicy(max_retries=0)).listings.query()
    assert not info.value.body_truncated and info.value.body == "short"


def test_tokens_are_cut_from_connection_errors_that_repeat_them(
    mock: requests_mock.Mocker,
) -> None:
    # A backslash, which a repr of the headers doubles: that form is cut too.
    secret = "sekrit\\access"
    token = Token(access_token=secret, scope="user", refresh_token="r", expires_in=3600)
    headers = {"Authorization": f"Bearer {secret}"}
    leaky = requests.exceptions.ConnectionError(f"proxy refused {headers} and Bearer {secret}")
    mock.get(QUERY, exc=leaky)
    sdk = client(RetryPolicy(max_retries=0), token_store=MemoryTokenStore(token))
    with pytest.raises(TransportError) as info:
        sdk.listings.query()
    assert str(info.value) == (
        "GET /v1/api/listings/query: ConnectionError: proxy refused"
        " {'Authorization': '[redacted]'} and [redacted]"
    )
    assert "sekrit" not in repr(info.value)


def test_a_connection_failure_with_time_left_is_retried(mock: requests_mock.Mocker) -> None:
    # Less than a second left is still time: only a deadline that passed ends the call.
    mock.get(QUERY, [{"exc": RESET}, OK])
    policy = steady([], backoff_base=0.025)
    sdk = client(policy, deadline=0.95, token_store=MemoryTokenStore(TOKEN))
    assert sdk.listings.query().retries == 1


@pytest.mark.parametrize(
    ("timeout", "deadline"), [((5.0, 30.0), 95.0), ((2.0, 1.0), 5.0), (4.0, 16.0)]
)
def test_a_call_without_a_deadline_may_take_a_connect_and_three_reads(
    timeout: float | tuple[float, float], deadline: float
) -> None:
    assert default_deadline(timeout) == deadline


def test_timeouts_are_seconds_or_a_connect_read_pair() -> None:
    assert check_timeout((1, 2.5)) == (1.0, 2.5) and check_timeout(3) == 3.0
    assert check_timeout((4,)) == 4.0
    for bad in [(0, 1), (1, 2, 3), (), True, float("inf"), "5", None, (1, -1)]:
        with pytest.raises(ParameterError) as info:
            check_timeout(bad)
        assert info.value.param == "timeout"


def test_retry_after_in_the_past_or_negative_is_no_wait_and_garbage_is_ignored() -> None:
    assert parse_retry_after("-5") == 0.0 and parse_retry_after("2.5") == 2.5
    assert parse_retry_after("Wed, 21 Oct 2015 07:28:00 GMT") == 0.0
    assert parse_retry_after("") is None and parse_retry_after(None) is None
    assert parse_retry_after("soon") is None


def test_an_http_date_is_read_as_utc_and_anything_else_as_none() -> None:
    utc = dt.datetime(2015, 10, 21, 7, 28, tzinfo=dt.UTC)
    assert parse_http_date("Wed, 21 Oct 2015 07:28:00 GMT") == utc
    # Another zone is turned into UTC; a date without one (RFC 850's asctime) is UTC.
    assert parse_http_date("Wed, 21 Oct 2015 09:28:00 +0200") == utc
    assert parse_http_date("Wed Oct 21 07:28:00 2015") == utc
    for bad in ("", None, "yesterday", "Wed, 32 Oct 2015 07:28:00 GMT"):
        assert parse_http_date(bad) is None


def test_an_answer_without_a_reason_phrase_gets_the_standard_one(
    mock: requests_mock.Mocker,
) -> None:
    mock.get(QUERY, status_code=404, reason="", text="gone")
    with pytest.raises(NotFoundError) as info:
        client(RetryPolicy(max_retries=0)).listings.query()
    assert info.value.status_text == "Not Found" and "404 Not Found" in str(info.value)
    mock.get(QUERY, status_code=599, reason="", text="odd")
    with pytest.raises(ServerError) as odd:
        client(RetryPolicy(max_retries=0)).listings.query()
    assert odd.value.status == 599 and odd.value.status_text == ""


def test_a_redirect_is_an_error_naming_where_it_pointed(mock: requests_mock.Mocker) -> None:
    mock.get(QUERY, status_code=302, headers={"Location": "/v1/api/elsewhere?x=1"})
    with pytest.raises(RedirectError) as info:
        client(RetryPolicy(max_retries=0)).listings.query()
    assert info.value.location == f"{MP}/v1/api/elsewhere?x=1" and info.value.status == 302
    # A redirect's body is an error body: kept up to 64 KiB.
    page = b"<p>" + b"x" * (100 * 1024)
    mock.get(QUERY, status_code=300, headers={"Location": "https://elsewhere.test/"}, content=page)
    with pytest.raises(RedirectError) as choices:
        client(RetryPolicy(max_retries=0)).listings.query()
    assert choices.value.location == "https://elsewhere.test/"
    assert choices.value.body.encode() == page[: 64 * 1024]
    mock.get(QUERY, status_code=307)
    with pytest.raises(RedirectError) as nowhere:
        client(RetryPolicy(max_retries=0)).listings.query()
    assert nowhere.value.location is None


def test_a_retry_policy_is_frozen_and_shows_its_figures_but_not_its_sleep() -> None:
    policy = RetryPolicy(max_retries=5, sleep=lambda _: None)
    assert repr(policy) == (
        "RetryPolicy(max_retries=5, backoff_base=0.5, backoff_cap=8.0, retry_after_cap=60.0,"
        " max_elapsed=90.0)"
    )
    with pytest.raises(dataclasses.FrozenInstanceError):
        policy.max_retries = 1  # type: ignore[misc]
    assert policy == RetryPolicy(max_retries=5, sleep=policy.sleep) != RetryPolicy()


def test_a_retry_after_at_the_cap_is_waited(mock: requests_mock.Mocker) -> None:
    mock.get(QUERY, [{"status_code": 429, "headers": {"Retry-After": "30"}}, OK])
    waits: list[float] = []
    assert client(steady(waits, retry_after_cap=30)).listings.query().retries == 1
    assert waits == [30]


def test_the_time_budget_counts_the_attempts_themselves(mock: requests_mock.Mocker) -> None:
    def slow_busy(request: Any, context: Any) -> bytes:
        time.sleep(0.3)  # at least this long: each attempt takes 0.3 s of the budget or more
        context.status_code = 503
        return b"busy"

    mock.get(QUERY, content=slow_busy)
    policy = steady([], max_retries=10, max_elapsed=0.5, backoff_base=0)
    with pytest.raises(ServerError):
        client(policy, deadline=60).listings.query()
    assert 1 <= hits(mock, QUERY) <= 2


def test_the_debug_log_says_how_long_an_answer_and_the_rate_limit_took(
    mock: requests_mock.Mocker, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG, logger="flexclient")
    mock.get(QUERY, **OK)
    limits = RateLimits(queries=Bucket(1, 1, 0.2, 1), commands=Bucket(1, 1, 0.2, 1))
    token = Token(access_token="t", scope="public-read")
    sdk = client(steady([]), rate_limits=limits, token_store=MemoryTokenStore(token))
    sdk.listings.query()
    sdk.listings.query()  # the next token of the bucket comes 0.2 s after the first
    lines = [r.getMessage() for r in caplog.records if r.name == "flexclient"]
    took = [
        re.fullmatch(r"GET /v1/api/listings/query -> 200 in (\S+)s \(retries 0\)", x) for x in lines
    ]
    seconds = [float(m.group(1)) for m in took if m]
    # How long an answer took: a duration, not a point in time.
    assert len(seconds) == 2 and all(0 <= s < 3600 for s in seconds)
    waited = [x for x in lines if "for the client-side rate limit" in x]
    assert len(waited) == 1
    assert re.fullmatch(
        r"GET /v1/api/listings/query: waited \S+s for the client-side rate limit", waited[0]
    )


def test_a_body_over_the_limit_keeps_its_first_500_bytes_and_one_at_it_is_read(
    mock: requests_mock.Mocker,
) -> None:
    limit = 100 * 1024
    big = bytes(range(256)) * (2 * limit // 256)
    mock.get(QUERY, content=big, reason="Fine", headers={"Content-Type": "application/json"})
    sdk = client(RetryPolicy(max_retries=0), max_response_bytes=limit)
    with pytest.raises(ResponseTooLargeError) as info:
        sdk.listings.query()
    error = info.value
    assert (error.status, error.status_text) == (200, "Fine")
    assert error.body == big[:500].decode("utf-8", errors="replace")
    assert f"larger than {limit} bytes" in str(error)
    exact = b'{"data": [], "meta": {}}'
    mock.get(QUERY, content=exact, headers={"Content-Type": "application/json"})
    token = MemoryTokenStore(Token(access_token="t", scope="public-read"))
    exactly = client(RetryPolicy(), max_response_bytes=len(exact), token_store=token)
    assert exactly.listings.query().status == 200


def test_the_debug_log_says_when_the_budget_leaves_no_retry(
    mock: requests_mock.Mocker, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG, logger="flexclient")
    mock.get(QUERY, status_code=503, text="busy")
    with pytest.raises(ServerError):
        client(steady([], max_retries=5, max_elapsed=3)).listings.query()
    said = [r.getMessage() for r in caplog.records if r.name == "flexclient"]
    assert "GET /v1/api/listings/query: 503, retry 1 in 2.00s" in said
    assert "GET /v1/api/listings/query: 503, no retry within 3s" in said


def test_cookies_are_cut_from_connection_errors_and_other_headers_kept(
    mock: requests_mock.Mocker,
) -> None:
    # A web app's calls carry the session cookie, a secret as the bearer token is.
    leaky = requests.exceptions.ConnectionError("refused Cookie: st=s3cret, X-Request-Id: req-42")
    mock.get(QUERY, exc=leaky)
    transport = Transport.for_api(client(RetryPolicy(max_retries=0)).options)
    with pytest.raises(TransportError) as info:
        transport.send(
            "GET",
            "/v1/api/listings/query",
            headers={"Cookie": "st=s3cret", "X-Request-Id": "req-42"},
        )
    assert str(info.value) == (
        "GET /v1/api/listings/query: ConnectionError: refused Cookie: [redacted],"
        " X-Request-Id: req-42"
    )


class Clock:
    """A monotonic clock that moves only when told: the instant of a deadline, exactly."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def test_at_the_very_instant_of_the_deadline_no_attempt_is_sent(
    mock: requests_mock.Mocker, monkeypatch: pytest.MonkeyPatch
) -> None:
    clock = Clock()
    monkeypatch.setattr(time, "monotonic", clock)
    mock.get(QUERY, status_code=503, text="busy")

    def wait_out(seconds: float) -> None:  # the wait ends just as the deadline comes
        clock.now = 1001.0

    policy = Steady(sleep=wait_out, max_retries=3, backoff_base=0.025)
    with pytest.raises(RequestTimeoutError) as info:
        client(policy, deadline=1, token_store=MemoryTokenStore(TOKEN)).listings.query()
    assert info.value.kind == "deadline" and hits(mock, QUERY) == 1


def test_a_connection_failure_at_the_very_instant_of_the_deadline_is_a_deadline_error(
    mock: requests_mock.Mocker, monkeypatch: pytest.MonkeyPatch
) -> None:
    clock = Clock()
    monkeypatch.setattr(time, "monotonic", clock)

    def reset_at_the_deadline(request: Any, context: Any) -> bytes:
        clock.now = 1001.0
        raise RESET

    mock.get(QUERY, content=reset_at_the_deadline)
    with pytest.raises(RequestTimeoutError) as info:
        client(steady([]), deadline=1, token_store=MemoryTokenStore(TOKEN)).listings.query()
    assert info.value.kind == "deadline" and hits(mock, QUERY) == 1


def test_a_wait_that_fills_the_time_budget_exactly_is_waited(
    mock: requests_mock.Mocker, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(time, "monotonic", Clock())  # the attempts take no time
    mock.get(QUERY, status_code=503, text="busy")
    waits: list[float] = []
    sdk = client(steady(waits, max_retries=5, max_elapsed=2.0), deadline=60)
    with pytest.raises(ServerError) as info:
        sdk.listings.query()
    assert waits == [2.0] and info.value.retries == 1 and hits(mock, QUERY) == 2


def test_a_wait_that_would_end_at_the_deadline_is_not_started(
    mock: requests_mock.Mocker, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(time, "monotonic", Clock())
    mock.get(QUERY, status_code=503, text="busy")
    waits: list[float] = []
    sdk = client(steady(waits, backoff_base=0.25), deadline=1, token_store=MemoryTokenStore(TOKEN))
    with pytest.raises(ServerError) as info:
        sdk.listings.query()
    assert waits == [] and info.value.retries == 0 and hits(mock, QUERY) == 1


def test_a_transport_shows_only_its_address() -> None:
    transport = Transport.for_api(
        client(RetryPolicy(), token_store=MemoryTokenStore(TOKEN)).options
    )
    assert repr(transport) == "Transport('https://mp.test')"


def test_the_time_budget_counts_attempts_that_failed_to_connect(
    mock: requests_mock.Mocker, monkeypatch: pytest.MonkeyPatch
) -> None:
    clock = Clock()
    monkeypatch.setattr(time, "monotonic", clock)

    def slow_reset(request: Any, context: Any) -> bytes:
        clock.now += 2.0  # each attempt takes two seconds before it fails
        raise RESET

    mock.get(QUERY, content=slow_reset)
    waits: list[float] = []
    policy = steady(waits, max_retries=10, max_elapsed=5, backoff_base=0.1)
    sdk = client(policy, deadline=60, token_store=MemoryTokenStore(TOKEN))
    with pytest.raises(TransportError) as info:
        sdk.listings.query()
    # 2 + 0.4 + 2 + 0.4 seconds, then the third attempt takes the call past its 5 seconds.
    assert info.value.retries == 2 and hits(mock, QUERY) == 3


def test_a_refused_connection_is_said_in_our_words_with_the_cause_chained() -> None:
    # A port just freed: nothing listens there, and the system refuses at once.
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    sdk = MarketplaceClient("id", base_url=f"http://127.0.0.1:{port}", max_retries=0)
    with pytest.raises(TransportError) as info:
        sdk.listings.query()
    assert str(info.value) == (
        f"POST /v1/auth/token: cannot connect to 127.0.0.1 port {port}: the connection was "
        "refused, nothing is listening there (is the server running, and is the address right?)"
    )
    assert info.value.never_connected and isinstance(info.value.__cause__, requests.ConnectionError)
