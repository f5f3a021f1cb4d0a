"""The fake marketplace in a process of its own, so that what a test or a benchmark measures
(memory, threads, CPU) is the client's alone."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Generator
from contextlib import contextmanager
from dataclasses import dataclass

from flexclient._environment import (
    MARKETPLACE_BASE_URL_VARS,
    MARKETPLACE_ID_VARS,
    MARKETPLACE_SECRET_VAR,
)
from flexclient.testing._serve import read_banner


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
        printed = read_banner(proc.stdout)
        yield Served(
            printed[MARKETPLACE_BASE_URL_VARS[0]],
            printed[MARKETPLACE_ID_VARS[0]],
            printed[MARKETPLACE_SECRET_VAR],
        )
    finally:
        proc.terminate()
        proc.wait(timeout=10)
