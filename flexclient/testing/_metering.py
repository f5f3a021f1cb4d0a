"""What the fakes bill: the credits of the requests they answer, by Sharetribe's published
rules (`flexclient.credits`), counted on the server's side of the wire.

A fake keeps a `Meters`: its own `UsageMeter` (`fake.usage`) and the meters that follow it
for a while (`fake.metering()`, which the pytest plugin's `credit_budget` marker uses), each
recording every billed request.
"""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Callable, Generator
from typing import Any
from urllib.parse import urlsplit

from werkzeug.wrappers import Response

from flexclient.credits import UsageMeter


def wire_path(environ: dict[str, Any], decoded: str) -> str:
    """The path of a request as it was sent (still percent-encoded, without the query), which
    is what a client records; `decoded` (werkzeug's) when the server kept no raw URI."""
    raw = environ.get("RAW_URI") or environ.get("REQUEST_URI")
    if not isinstance(raw, str) or not raw:
        return decoded
    path = raw.split("?", 1)[0] if raw.startswith("/") else urlsplit(raw).path  # absolute-form
    return path or decoded


class Meters:
    """A fake's own meter (`usage`) and the meters following it (`following()`): what is
    recorded goes into each of them."""

    def __init__(self) -> None:
        self.usage: UsageMeter = UsageMeter()
        self._followers: list[UsageMeter] = []
        self._lock = threading.Lock()

    def _all(self) -> list[UsageMeter]:
        with self._lock:
            return [self.usage, *self._followers]

    def record(
        self, path: str, status: int, transfer_bytes: int = 0, *, endpoint_exists: bool = True
    ) -> None:
        """One request to `path` answered `status` (see `UsageMeter.record`)."""
        for meter in self._all():
            meter.record(path, status, transfer_bytes, endpoint_exists=endpoint_exists)

    def answer(
        self,
        path: str,
        respond: Callable[[], Response],
        *,
        endpoint_exists: bool,
        transfer: Callable[[], int] = lambda: 0,
    ) -> Response:
        """`respond()`, recorded as a request to `path` with its status (500, what the server
        sends, should it raise) and `transfer()` bytes of data transfer."""
        status = 500
        try:
            response = respond()
            status = response.status_code
            return response
        finally:
            self.record(path, status, transfer(), endpoint_exists=endpoint_exists)

    def record_transfer(self, path: str, nbytes: int) -> None:
        """`nbytes` moved to or from storage by a URL that `path` gave."""
        for meter in self._all():
            meter.record_transfer(path, nbytes)

    @contextlib.contextmanager
    def following(self, meter: UsageMeter | None = None) -> Generator[UsageMeter, None, None]:
        """Record into `meter` too (a new one if None) until the block ends; yields it."""
        follower = UsageMeter() if meter is None else meter
        with self._lock:
            self._followers.append(follower)
        try:
            yield follower
        finally:
            with self._lock:
                self._followers.remove(follower)


class Metered:
    """What a fake that bills offers: `usage` and `metering()`."""

    _meters: Meters

    @property
    def usage(self) -> UsageMeter:
        """The credits the requests this fake has answered would cost on Sharetribe, counted
        by the published rules (docs/credits.md) as the fake answers them: per endpoint path,
        every request, billed or not; `usage.reset()` starts again from nothing.

        >>> fake.usage.credits, fake.usage.requests  # doctest: +SKIP
        (Decimal('6'), 2)
        >>> fake.usage.by_endpoint["/v1/api/listings/query"].credits  # doctest: +SKIP
        Decimal('5')
        """
        return self._meters.usage

    def metering(
        self, meter: UsageMeter | None = None
    ) -> contextlib.AbstractContextManager[UsageMeter]:
        """Count what this fake bills while the block runs into a meter of its own (`meter`,
        which may follow other fakes too, or a new one), whatever `usage` is reset to.

        >>> with fake.metering() as spent:  # doctest: +SKIP
        ...     sdk.listings.query()
        >>> spent.credits  # doctest: +SKIP
        Decimal('5')
        """
        return self._meters.following(meter)
