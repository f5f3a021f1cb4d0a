"""Client-side rate limits and the bound on concurrent connections."""

from __future__ import annotations

import io
import threading
import time
from typing import Any

import pytest
import requests
from requests.adapters import BaseAdapter

from flexclient import (
    Bucket,
    IntegrationClient,
    MarketplaceClient,
    ParameterError,
    RateLimits,
    Token,
)
from flexclient._http.limits import TokenBucket


class FakeClock:
    """Time that passes only when someone sleeps."""

    def __init__(self) -> None:
        self.now = 0.0
        self.lock = threading.Lock()
        self.sleeps: list[float] = []

    def __call__(self) -> float:
        with self.lock:
            return self.now

    def sleep(self, seconds: float) -> None:
        with self.lock:
            self.sleeps.append(seconds)
            self.now += seconds


def test_bucket_spends_its_tokens_then_waits_for_refills() -> None:
    clock = FakeClock()
    bucket = TokenBucket(Bucket(initial=3, refill=1, interval=2.0, maximum=3), clock, clock.sleep)
    assert [bucket.take() for _ in range(3)] == [0, 0, 0]
    assert bucket.take() == 2.0 and bucket.take() == 2.0
    clock.now += 100  # a long pause refills only up to the maximum
    assert [bucket.take() for _ in range(3)] == [0, 0, 0] and bucket.take() > 0


def test_bucket_is_shared_fairly_by_threads() -> None:
    clock = FakeClock()
    bucket = TokenBucket(Bucket(initial=10, refill=5, interval=1.0, maximum=10), clock, clock.sleep)
    barrier = threading.Barrier(16)
    taken: list[float] = []

    def work() -> None:
        barrier.wait()
        for _ in range(5):
            bucket.take()
            taken.append(clock())

    threads = [threading.Thread(target=work) for _ in range(16)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(taken) == 80
    # 10 at once, then 5 per second: the 80th token is not had before 14 s.
    assert max(taken) >= 14


def test_presets_are_the_official_sdks() -> None:
    dev, prod = RateLimits.preset("dev"), RateLimits.preset("prod")
    assert dev.queries == Bucket(100, 1, 1.0, 200) and dev.commands == Bucket(50, 1, 2.0, 100)
    assert prod.queries == Bucket(500, 2, 0.25, 500) and prod.commands == Bucket(250, 1, 0.25, 250)


class Counting(BaseAdapter):
    """Answers every request after a pause, counting how many are under way at once."""

    def __init__(self) -> None:
        super().__init__()
        self.lock = threading.Lock()
        self.active = 0
        self.most = 0
        self.sent: list[str] = []

    def send(self, request: requests.PreparedRequest, **kwargs: Any) -> requests.Response:  # type: ignore[override]
        with self.lock:
            self.active += 1
            self.most = max(self.most, self.active)
            self.sent.append(request.method or "")
        time.sleep(0.02)
        with self.lock:
            self.active -= 1
        response = requests.Response()
        response.status_code = 200
        response.headers["Content-Type"] = "application/json"
        listed = request.method == "GET"  # a list query, or a command's single resource
        response.raw = io.BytesIO(b'{"data": []}' if listed else b'{"data": null}')
        response.request = request
        return response

    def close(self) -> None:
        pass


def test_integration_client_keeps_at_most_ten_requests_under_way() -> None:
    adapter = Counting()
    session = requests.Session()
    session.mount("https://", adapter)
    integ = IntegrationClient("id", "secret", base_url="https://ig.test", session=session)
    integ.token_store.set(Token(access_token="t", scope="integ"))
    threads = [
        threading.Thread(target=lambda: [integ.listings.query() for _ in range(3)])
        for _ in range(24)
    ]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(adapter.sent) == 72 and adapter.most <= 10


def test_rate_limits_on_a_client() -> None:
    clock = FakeClock()
    adapter = Counting()
    session = requests.Session()
    session.mount("https://", adapter)
    limits = RateLimits(
        queries=Bucket(2, 1, 1.0, 2), commands=Bucket(1, 1, 5.0, 1), sleep=clock.sleep, clock=clock
    )
    sdk = MarketplaceClient("id", base_url="https://mp.test", session=session, rate_limits=limits)
    sdk.token_store.set(Token(access_token="t", scope="public-read"))
    for _ in range(3):
        sdk.listings.query()
    sdk.own_listings.create({"title": "a"})
    sdk.own_listings.create({"title": "b"})
    assert len(clock.sleeps) == 2  # the third query, and the second command
    with pytest.raises(ParameterError, match="rate_limits"):
        MarketplaceClient("id", rate_limits="fast")  # type: ignore[arg-type]
    with pytest.raises(ParameterError, match="max_connections"):
        MarketplaceClient("id", max_connections=0)


def test_try_take_refuses_without_waiting() -> None:
    clock = FakeClock()
    bucket = TokenBucket(Bucket(1, 1, 2.0, 1), clock=clock, sleep=clock.sleep)
    assert bucket.try_take() and not bucket.try_take()
    assert clock.sleeps == []  # never waited
    clock.now += 2.0
    assert bucket.try_take()
