"""Peak memory of uploading a large file, against the size of the file.

    python benchmarks/upload_memory.py [size in MB, default 50]

The file is streamed from disk in chunks, so the client's peak memory (Python allocations,
measured with tracemalloc) should grow by far less than the file's size. The fake marketplace
runs in another process, so only the client is measured.
"""

from __future__ import annotations

import os
import sys
import tempfile
import time
import tracemalloc
from pathlib import Path

from flexclient import MarketplaceClient
from flexclient.testing import fake_process


def peak_of_upload(sdk: MarketplaceClient, path: Path) -> tuple[int, float]:
    tracemalloc.start()
    tracemalloc.reset_peak()
    base = tracemalloc.get_traced_memory()[0]
    started = time.perf_counter()
    sdk.images.upload({"image": path})
    elapsed = time.perf_counter() - started
    peak = tracemalloc.get_traced_memory()[1] - base
    tracemalloc.stop()
    return peak, elapsed


def main() -> None:
    sys.path.insert(0, str(Path(__file__).parent))
    from _machine import described

    print(described())
    size_mb = int(sys.argv[1]) if len(sys.argv) > 1 else 50
    with tempfile.TemporaryDirectory() as tmp, fake_process() as fake:
        big = Path(tmp) / "big.png"
        small = Path(tmp) / "small.png"
        for path, size in ((big, size_mb * 1024 * 1024), (small, 64 * 1024)):
            with path.open("wb") as f:
                f.write(b"\x89PNG\r\n\x1a\n")
                remaining = size - 8
                while remaining > 0:
                    chunk = os.urandom(min(remaining, 1024 * 1024))
                    f.write(chunk)
                    remaining -= len(chunk)
        sdk = MarketplaceClient(fake.client_id, base_url=fake.url)
        sdk.login(username="aino@example.com", password="aino-demo-pass")
        small_peak, _ = peak_of_upload(sdk, small)
        big_peak, elapsed = peak_of_upload(sdk, big)
    file_bytes = size_mb * 1024 * 1024
    print(f"upload of {size_mb} MB in {elapsed:.2f} s")
    print(f"  peak added by the upload:     {big_peak / 2**20:8.2f} MB")
    print(f"  peak for a 64 kB upload:      {small_peak / 2**20:8.2f} MB (baseline)")
    print(f"  peak / file size:             {big_peak / file_bytes:8.3f}")
    print(f"  peak / baseline peak:         {big_peak / max(small_peak, 1):8.2f}")
    print("  target: under 10 MB for 50 MB:", "met" if big_peak < 10 * 2**20 else "NOT met")


if __name__ == "__main__":
    main()
