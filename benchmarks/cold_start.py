"""Cold start: what `import flexclient` and `flexclient --help` cost a fresh process.

    python benchmarks/cold_start.py [runs]

Each measurement is a whole new Python process, as a CLI call or a serverless cold start
pays it. The baseline, measured in the same run and interleaved with flexclient's runs, is a
process that imports what flexclient cannot do without:
`import requests; from pydantic import BaseModel, Field, TypeAdapter`. Printed: the medians
of `runs` (default 15) runs each, flexclient's cost on top of the baseline (target: at most
40 ms), and `flexclient --help` (target: under 0.3 s). Also the first call after import: one
query answered by requests-mock in the same process, timed from the import's end.
"""

from __future__ import annotations

import statistics
import subprocess
import sys
import time

BASELINE = "import requests; from pydantic import BaseModel, Field, TypeAdapter"
FLEXCLIENT = "import flexclient"
HELP = "import sys; from flexclient._cli import main; sys.argv = ['flexclient', '--help']; main()"
FIRST_CALL = """
import time
started = time.perf_counter()
import flexclient, requests_mock
imported = time.perf_counter()
with requests_mock.Mocker() as m:
    m.post("https://mp.test/v1/auth/token", json={"access_token": "t", "scope": "public-read"})
    m.get("https://mp.test/v1/api/listings/query", content=b'["^ ","~:data",[]]',
          headers={"Content-Type": "application/transit+json"})
    flexclient.MarketplaceClient("id", base_url="https://mp.test").listings.query()
print(time.perf_counter() - imported)
"""


def seconds(code: str) -> float:
    """Wall time of a fresh interpreter running `code` (startup included)."""
    started = time.perf_counter()
    subprocess.run([sys.executable, "-c", code], check=True, capture_output=True)
    return time.perf_counter() - started


def main() -> None:
    runs = int(sys.argv[1]) if len(sys.argv) > 1 else 15
    for code in (BASELINE, FLEXCLIENT, HELP):  # warm the disk cache, not timed
        seconds(code)
    timed: dict[str, list[float]] = {"baseline": [], "flexclient": [], "help": [], "bare": []}
    for _ in range(runs):
        timed["bare"].append(seconds("pass"))
        timed["baseline"].append(seconds(BASELINE))
        timed["flexclient"].append(seconds(FLEXCLIENT))
        timed["help"].append(seconds(HELP))
    median = {name: statistics.median(values) for name, values in timed.items()}
    first_calls = [
        float(
            subprocess.run(
                [sys.executable, "-c", FIRST_CALL], check=True, capture_output=True, text=True
            ).stdout
        )
        for _ in range(5)
    ]
    print(f"medians of {runs} interleaved runs, each a new process ({sys.version.split()[0]}):")
    print(f"  python -c pass                       {median['bare'] * 1e3:7.1f} ms")
    print(f"  requests + pydantic (the baseline)   {median['baseline'] * 1e3:7.1f} ms")
    print(f"  import flexclient                    {median['flexclient'] * 1e3:7.1f} ms")
    extra = (median["flexclient"] - median["baseline"]) * 1e3
    print(f"  flexclient on top of the baseline    {extra:7.1f} ms   (target <= 40 ms)")
    print(f"  flexclient --help                    {median['help'] * 1e3:7.1f} ms   (target < 300)")
    print(f"  first call after import (median of 5) {statistics.median(first_calls) * 1e3:6.1f} ms")


if __name__ == "__main__":
    main()
