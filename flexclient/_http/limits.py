"""Client-side rate limits: token buckets for queries and for commands.

The presets are those of the official Integration SDK: a bucket starts with some tokens, gains
a few every interval up to a maximum, and each request (each attempt, retries included) takes
one, waiting for it when the bucket is empty, but never past the call's deadline: a wait that
would end after it is not started (no other thread can make it shorter: buckets only refill on
time, and other threads can only take tokens), and the call fails at once.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Literal

from flexclient._errors import RequestTimeoutError
from flexclient._support.frozen import Frozen

PresetName = Literal["dev", "prod"]


@dataclass(frozen=True, eq=False, repr=False)
class Bucket(Frozen):
    """A token bucket: `initial` tokens, `refill` more every `interval` seconds, at most `maximum`.

    >>> Bucket(initial=100, refill=1, interval=1.0, maximum=200).maximum
    200
    """

    initial: float
    refill: float
    interval: float
    maximum: float


class TokenBucket:
    """A thread-safe token bucket; `take()` waits for a token."""

    def __init__(
        self,
        spec: Bucket,
        clock: Callable[[], float] = time.monotonic,
        sleep: Callable[[float], None] = time.sleep,
    ) -> None:
        self.spec = spec
        self._clock, self._sleep = clock, sleep
        self._tokens = spec.initial
        self._at = clock()
        self._lock = threading.Lock()

    def _fill(self, now: float) -> None:
        intervals = int((now - self._at) / self.spec.interval)
        if intervals:
            self._tokens = min(self.spec.maximum, self._tokens + intervals * self.spec.refill)
            self._at += intervals * self.spec.interval

    def try_take(self) -> bool:
        """Take one token if there is one now, without waiting (a server refusing with 429)."""
        with self._lock:
            self._fill(self._clock())
            if self._tokens >= 1:
                self._tokens -= 1
                return True
            return False

    def take(self, within: float | None = None) -> float:
        """Take one token, waiting as long as needed but no longer than `within` seconds (if
        given); returns the seconds waited. `RequestTimeoutError` (and no token taken) when
        the next token comes later than that."""
        waited = 0.0
        while True:
            with self._lock:
                now = self._clock()
                self._fill(now)
                if self._tokens >= 1:
                    self._tokens -= 1
                    return waited
                wait = self._at + self.spec.interval - now
            if within is not None and waited + wait > within:
                raise RequestTimeoutError(
                    f"the client-side rate limit allows the next request in {wait:.2f}s, "
                    "after the call's total deadline",
                    kind="deadline",
                    never_connected=True,
                )
            self._sleep(wait)
            waited += wait


@dataclass(frozen=True, eq=False, repr=False)
class RateLimits(Frozen):
    """The two buckets of a client: one for queries (GET), one for commands (POST).

    >>> RateLimits.preset("dev").queries.initial
    100
    """

    queries: Bucket
    commands: Bucket
    # Tests replace both, to run limits without waiting.
    sleep: Callable[[float], None] = field(default=time.sleep, repr=False, compare=False)
    clock: Callable[[], float] = field(default=time.monotonic, repr=False, compare=False)

    @classmethod
    def preset(cls, name: PresetName) -> RateLimits:
        """`"dev"` for dev and test marketplaces, `"prod"` for live ones."""
        if name == "dev":
            return cls(queries=Bucket(100, 1, 1.0, 200), commands=Bucket(50, 1, 2.0, 100))
        return cls(queries=Bucket(500, 2, 0.25, 500), commands=Bucket(250, 1, 0.25, 250))


class Limiter:
    """The buckets of one client, shared by all its threads."""

    def __init__(self, limits: RateLimits) -> None:
        self.limits = limits
        self.queries = TokenBucket(limits.queries, limits.clock, limits.sleep)
        self.commands = TokenBucket(limits.commands, limits.clock, limits.sleep)

    def take(self, method: str, within: float | None = None) -> float:
        """Take a token of the method's bucket; see `TokenBucket.take`."""
        return (self.queries if method == "GET" else self.commands).take(within)
