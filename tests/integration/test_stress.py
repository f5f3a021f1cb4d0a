"""One client shared by 32 threads, 50 mixed calls each, through injected 429s, 503s and
delays: every call ends in a result or a typed error, and no write is lost or repeated."""

from __future__ import annotations

import threading
import uuid

from flexclient import ApiError, MarketplaceClient, RetryPolicy, TransportError
from flexclient.testing import FakeMarketplace

THREADS, CALLS = 32, 50


def test_threads_through_faults_never_duplicate_a_write() -> None:
    with FakeMarketplace() as fake:
        fake.add_user("stress@example.com", "stress-pass")
        sdk = MarketplaceClient(
            fake.client_id,
            base_url=fake.url,
            retry_policy=RetryPolicy(max_retries=3, sleep=lambda _: None),
            timeout=(5, 10),
        )
        sdk.login(username="stress@example.com", password="stress-pass")
        fake.inject(
            "/v1/api/listings/query",
            status=429,
            body={"errors": [{"status": 429, "code": "too-many-requests", "title": "Slow down"}]},
            times=60,
        )
        fake.inject(
            "/v1/api/marketplace/show",
            status=503,
            body="<html>down</html>",
            content_type="text/html",
            times=60,
        )
        fake.inject("/v1/api/own_listings/create", status=429, body="slow down", times=40)
        fake.inject("/v1/api/own_listings/create", status=503, body="down", times=40)
        fake.inject("/v1/api/own_listings/query", delay=0.05, times=40)

        created: list[uuid.UUID] = []
        outcomes: dict[str, int] = {}
        unexpected: list[BaseException] = []
        lock = threading.Lock()
        barrier = threading.Barrier(THREADS)

        def work(n: int) -> None:
            barrier.wait()
            for i in range(CALLS):
                kind = ("query", "show", "create", "own")[(n + i) % 4]
                try:
                    if kind == "query":
                        sdk.listings.query({"perPage": 5})
                    elif kind == "show":
                        sdk.marketplace.show()
                    elif kind == "own":
                        sdk.own_listings.query({"perPage": 1})
                    else:
                        res = sdk.own_listings.create({"title": f"t{n}-{i}"})
                        with lock:
                            created.append(res.data.data.id)
                    outcome = "ok"
                except (ApiError, TransportError) as exc:
                    outcome = type(exc).__name__
                except BaseException as exc:  # anything else is a bug
                    with lock:
                        unexpected.append(exc)
                    continue
                with lock:
                    outcomes[outcome] = outcomes.get(outcome, 0) + 1

        threads = [threading.Thread(target=work, args=(n,)) for n in range(THREADS)]
        for t in threads:
            t.start()
        for t in threads:
            t.join(timeout=120)
        assert unexpected == []
        assert sum(outcomes.values()) == THREADS * CALLS
        # A 503 on a command is not retried (it may have run); the injected ones did not.
        assert outcomes.get("ServerError", 0) >= 40
        stored = [lst.id for lst in fake.state.listings.values()]
        assert sorted(stored) == sorted(created) and len(set(created)) == len(created)
        creates = sum(1 for _, path in fake.requests if path == "/v1/api/own_listings/create")
        assert creates == len(created) + 80  # every injected fault answered once, nothing else
