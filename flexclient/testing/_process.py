"""The fake marketplace in a process of its own, so that what a test or a benchmark measures
(memory, threads, CPU) is the client's alone."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Generator
from contextlib import contextmanager
from dataclasses import dataclass


@dataclass(frozen=True)
class Served:
    """Where the fake in the other process answers, and its client credentials."""

    url: str
    client_id: str
    client_secret: str


@contextmanager
def fake_process(*options: str) -> Generator[Served]:
    """Run `python -m flexclient.testing serve` (demo data; `options` are more flags) for
    the duration of the block.

    >>> with fake_process() as fake:  # doctest: +SKIP
    ...     sdk = MarketplaceClient(fake.client_id, base_url=fake.url)
    """
    proc = subprocess.Popen(
        [sys.executable, "-m", "flexclient.testing", "serve", "--port", "0", *options],
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert proc.stdout is not None
        url = proc.stdout.readline().split(" at ")[1].strip()
        client_id = proc.stdout.readline().split(":", 1)[1].strip()
        secret = proc.stdout.readline().split(":", 1)[1].strip()
        yield Served(url, client_id, secret)
    finally:
        proc.terminate()
        proc.wait(timeout=10)
