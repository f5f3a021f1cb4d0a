"""The mirror's snapshot: rows a second and peak memory, against reading the same pages.

    python benchmarks/mirror.py [--sizes 1000,10000,100000] [--rounds 3]
                                [--databases sqlite,postgresql]

For each size, a fake marketplace with that many listings runs in its own process. Each round
runs, in turn and each in a process of its own, the baseline (the listings read in the same
`createdAt` windows, and thrown away) and, for each database, the mirror (`Mirror.sync()` of
those listings into a new SQLite file, or a new database on a PostgreSQL server of the
benchmark's own, started from the machine's binaries as the tests start theirs). It prints,
per size and database, the mirror's rows a second, its peak memory (the process's maximum
resident set), and the median over the rounds of the ratio of the mirror's time to the
baseline's of the same round: what writing the copy adds to reading it (target: at most
1.3x from 10,000 listings on). Memory that stays flat from one size to the next is the point
of the windows.
"""

from __future__ import annotations

import argparse
import datetime as dt
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).parents[1]
sys.path.insert(0, str(ROOT))

from tests.postgres import PostgresServer  # noqa: E402 (the repository's root, above)

# The server: a fake marketplace with `n` listings (made in its state directly, as its demo
# data is), serving until its standard input closes.
SERVER = """
import datetime as dt, sys, uuid
from flexclient import Money
from flexclient.models.listings import ListingAttributes
from flexclient.testing import FakeMarketplace
from flexclient.testing import _state as s

n = int(sys.argv[1])
fake = FakeMarketplace().start()
author = fake.add_user("bench@example.com", "pass-word-1")
start = dt.datetime(2025, 1, 1, tzinfo=dt.UTC)
for i in range(n):
    values = {"title": f"Listing {i}", "state": "published", "price": Money(1000 + i, "EUR"),
              "created_at": start + dt.timedelta(seconds=i), "public_data": {"i": i}}
    listing = s.new("listing", ListingAttributes, values, uuid.UUID(int=i + 1))
    listing.link("marketplace", "marketplace", s.MARKETPLACE_ID)
    listing.link("author", "user", author)
    listing.link_many("images", "image", [])
    fake.state.listings[listing.id] = listing
print(fake.url, fake.client_id, fake.client_secret, flush=True)
sys.stdin.read()
fake.stop()
"""

# The two sides, each run in a process of its own; each prints its rows and seconds.
BASELINE = """
import datetime as dt, sys, time
from flexclient import IntegrationClient
url, cid, secret = sys.argv[1:4]
client = IntegrationClient(cid, secret, base_url=url)
client.marketplace.show()  # the token, outside the timing
began = time.perf_counter()
rows, after, seen = 0, None, set()
while True:
    params = {"perPage": 100, "sort": "-createdAt", "include": ["author", "images"]}
    if after is not None:
        params["createdAtStart"] = after
    page = client.listings.query(params).data.data
    fresh = [r for r in page if r.id not in seen]
    rows += len(fresh)
    if fresh:
        after = max(r.attributes.created_at for r in fresh)
        seen = {r.id for r in fresh if r.attributes.created_at == after}
    if len(page) < 100:
        break
print(rows, time.perf_counter() - began)
"""

MIRROR = """
import sys, time
from flexclient import IntegrationClient
from flexclient.mirror import Mirror
url, cid, secret, db = sys.argv[1:5]
client = IntegrationClient(cid, secret, base_url=url)
client.marketplace.show()
began = time.perf_counter()
# Opening a new database makes its tables (and, for PostgreSQL, loads its driver): timed on its
# own, as a cost of the first sync alone, not of the rows.
with Mirror(client, db, progress=False) as mirror:
    opened = time.perf_counter()
    report = mirror.sync()
    synced = time.perf_counter()
print(report.upserted.get("listings", 0), synced - opened, opened - began)
"""


def run(script: str, *args: str) -> tuple[int, float, int, float]:
    """Rows, seconds, the peak resident set (KiB) of `script` in a new process, and the
    seconds it took to open its database (0 for the baseline)."""
    process = subprocess.Popen(
        [sys.executable, "-c", script, *args], stdout=subprocess.PIPE, text=True
    )
    assert process.stdout is not None
    out = process.stdout.read()
    _, status, usage = os.wait4(process.pid, 0)
    process.returncode = os.waitstatus_to_exitcode(status)
    if process.returncode != 0:
        raise SystemExit(f"benchmark side failed ({process.returncode})")
    rows, seconds, *opening = out.split()
    return int(rows), float(seconds), usage.ru_maxrss, float(opening[0]) if opening else 0.0


def measure(n: int, rounds: int, databases: list[str], postgres: PostgresServer | None) -> None:
    server = subprocess.Popen(
        [sys.executable, "-c", SERVER, str(n)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    assert server.stdout is not None and server.stdin is not None
    url, cid, secret = server.stdout.readline().split()
    ratios: dict[str, list[float]] = {d: [] for d in databases}
    speeds: dict[str, list[float]] = {d: [] for d in databases}
    peaks: dict[str, list[int]] = {d: [] for d in databases}
    openings: dict[str, list[float]] = {d: [] for d in databases}
    try:
        with tempfile.TemporaryDirectory() as folder:
            for r in range(rounds):
                rows_b, base, _, _ = run(BASELINE, url, cid, secret)
                for database in databases:
                    if database == "postgresql":
                        assert postgres is not None
                        db = postgres.database_url()
                    else:
                        db = f"sqlite:///{Path(folder) / f'round{r}.db'}"
                    rows_m, took, peak, opening = run(MIRROR, url, cid, secret, db)
                    assert rows_b == rows_m == n, (rows_b, rows_m, n)
                    ratios[database].append(took / base)
                    speeds[database].append(rows_m / took)
                    peaks[database].append(peak)
                    openings[database].append(opening)
    finally:
        server.stdin.close()
        server.wait()
    for database in databases:
        print(
            f"{n:>7,} listings, {database:<10}: mirror {statistics.median(speeds[database]):,.0f}"
            f" rows/s, peak memory {max(peaks[database]) / 1024:,.0f} MiB,"
            f" {statistics.median(ratios[database]):.2f}x the time of reading the same pages;"
            f" opening the new database {statistics.median(openings[database]):.2f} s"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", default="1000,10000")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--databases", default="sqlite,postgresql")
    args = parser.parse_args()
    databases = args.databases.split(",")
    print(f"{dt.date.today()} python {sys.version.split()[0]}; {args.rounds} rounds a size")
    began = time.perf_counter()
    postgres = PostgresServer() if "postgresql" in databases else None
    try:
        for n in (int(s) for s in args.sizes.split(",")):
            measure(n, args.rounds, databases, postgres)
    finally:
        if postgres is not None:
            postgres.stop()
    print(f"({time.perf_counter() - began:.0f} s)")


if __name__ == "__main__":
    main()
