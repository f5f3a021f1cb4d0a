"""Decode and cold-start costs in CPU instructions, which no other work on the machine moves.

    python benchmarks/instructions.py
    python benchmarks/instructions.py --shape events   # one page shape's decode alone

On a shared machine the time of the same decode moves by half from one minute to the next
(decode.py measures both sides in alternation and prints medians for that reason); the number
of instructions it runs does not. This runs each side of decode.py's comparisons under
valgrind's callgrind, in a new process with the hash seed fixed (dict layouts otherwise
change the count by a per cent or so), once decoding nothing and once decoding ten times
after three warm-up decodes, and prints the difference a decode. Instructions are not time:
code that allocates more or misses the caches more runs fewer instructions a second, so read
the ratios beside decode.py's, not instead of them.

Then the cold start, as cold_start.py times it: whole new processes (the interpreter's exit
included) of the baseline (`import requests; from pydantic import BaseModel, Field,
TypeAdapter`) and of a program's import (`from flexclient import MarketplaceClient`), with
bytecode cached as after an install; and, where requests-mock is installed, the first call
after import, with and without pydantic's plugin scan. Needs valgrind; takes about five
minutes. With `--shape NAME`, only the decode of that shape of `_pages.SHAPES` and what a
program reads of it (as decode.py's `--shape`), in JSON against `json.loads` and in Transit
against `Reader.read`.
"""

from __future__ import annotations

import argparse
import importlib.metadata
import importlib.util
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from cold_start import BASELINE, PROGRAM, bytecode_cached

HERE = Path(__file__).parent
RUNS = 10

# The decodes, each as a statement run in a process that has read the page (`json_raw`,
# `transit_raw`) and imported what decode.py imports.
SIDES = {
    "flexclient, JSON": "full_decode(JSON, json_raw)",
    "eager-model floor": "floor()",
    "flexclient, Transit": "full_decode(TRANSIT, transit_raw)",
    "transit-python Reader.read": "Reader('json').read(io.StringIO(transit_raw.decode()))",
}

# A shape's decode and read, against the bare parsers of the same bytes (decode.py's).
SHAPE_SIDES = {
    "flexclient, JSON": "shape_decode(JSON, json_raw)",
    "json.loads": "json.loads(json_raw)",
    "flexclient, Transit": "shape_decode(TRANSIT, transit_raw)",
    "transit-python Reader.read": SIDES["transit-python Reader.read"],
}

DRIVER = """
import io, json, sys
sys.path.insert(0, {here!r})
from decode import JSON, TRANSIT, READS, Reader, _plain_models, encoded, encoded_shape
from decode import full_decode, gc_paused, read_envelope

json_raw, transit_raw = encoded(100, 100) if {shape!r} is None else encoded_shape({shape!r})

def shape_decode(fmt, raw):
    envelope = read_envelope(fmt, raw)
    READS[{shape!r}](envelope.data)
    return envelope

def floor():
    with gc_paused():
        return _plain_models.decode(json_raw)

def run():
    return {statement}

for _ in range(3):
    run()
for _ in range(int(sys.argv[1])):
    result = run()
    del result
"""


def callgrind(command: list[str], env: dict[str, str]) -> int:
    """The instructions a whole process runs, counted by callgrind, the hash seed fixed."""
    with tempfile.TemporaryDirectory() as tmp:
        done = subprocess.run(
            ["valgrind", "--tool=callgrind", f"--callgrind-out-file={tmp}/out", *command],
            capture_output=True,
            text=True,
            env={**env, "PYTHONHASHSEED": "0"},
            check=True,
        )
    found = re.search(r"Collected : (\d+)", done.stderr)
    if found is None:
        raise RuntimeError(f"callgrind printed no count:\n{done.stderr[-2000:]}")
    return int(found.group(1))


def decode_instructions(statement: str, runs: int, shape: str | None = None) -> int:
    """Instructions of a process that decodes `runs` times after three warm-up decodes (of
    the 100-listing page, or of `shape`'s)."""
    with tempfile.TemporaryDirectory() as tmp:
        script = Path(tmp) / "driver.py"
        script.write_text(DRIVER.format(here=str(HERE), statement=statement, shape=shape))
        return callgrind([sys.executable, str(script), str(runs)], dict(os.environ))


# The same processes as cold_start.py's: the baseline, and a program's import after it.
PROGRAM_AFTER_BASELINE = f"{BASELINE}; {PROGRAM}"

# The first call after import, as cold_start.py makes it (client, token, an empty page),
# against a process that imports the same and makes no call. `{scan}` is either nothing or
# pydantic's plugin scan run first, which the first validator a process builds pays: it was
# paid at import before the value types' validators were deferred, and is paid by the first
# call now, so the call is counted both with it and without it.
FIRST_CALL = """
import requests_mock
from flexclient import MarketplaceClient
{scan}
with requests_mock.Mocker() as m:
    m.post("https://mp.test/v1/auth/token", json={{"access_token": "t", "scope": "public-read"}})
    m.get("https://mp.test/v1/api/listings/query", content=b'["^ ","~:data",[]]',
          headers={{"Content-Type": "application/transit+json"}})
    if {call}:
        sdk = MarketplaceClient("id", base_url="https://mp.test")
        sdk.listings.query({{"include": ["author", "images"]}})
"""
SCAN = "from pydantic.plugin._loader import get_plugins; list(get_plugins())"


def process_instructions(code: str, cache: str) -> int:
    """Instructions of a whole new process running `code`, its bytecode cached in `cache`."""
    env = bytecode_cached(cache)
    subprocess.run([sys.executable, "-c", code], env=env, check=True)  # writes the bytecode
    return callgrind([sys.executable, "-c", code], env)


def shape_main(shape: str) -> None:
    """`--shape`: that shape's decode and read against the bare parsers, in instructions."""
    each = {
        name: (
            decode_instructions(statement, RUNS, shape) - decode_instructions(statement, 0, shape)
        )
        / RUNS
        for name, statement in SHAPE_SIDES.items()
    }
    print(f"instructions a decode and read of the {shape} page (callgrind, hash seed 0):")
    for name, count in each.items():
        print(f"  {name:28}{count / 1e6:8.2f} M")
    json_ratio = each["flexclient, JSON"] / each["json.loads"]
    transit_ratio = each["flexclient, Transit"] / each["transit-python Reader.read"]
    print(f"JSON against json.loads:      {json_ratio:5.3f}x")
    print(f"Transit against Reader.read:  {transit_ratio:5.3f}x")


def main() -> None:
    sys.path.insert(0, str(Path(__file__).parent))
    from _machine import described
    from _pages import SHAPES

    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--shape", choices=list(SHAPES), help="that shape's decode alone")
    args = parser.parse_args()
    print(described())
    if shutil.which("valgrind") is None:
        sys.exit("valgrind is not installed (Debian: apt install valgrind)")
    if args.shape:
        shape_main(args.shape)
        return
    each = {
        name: (decode_instructions(statement, RUNS) - decode_instructions(statement, 0)) / RUNS
        for name, statement in SIDES.items()
    }
    print("instructions a decode of the 100-listing page (callgrind, hash seed 0):")
    for name, count in each.items():
        print(f"  {name:28}{count / 1e6:8.2f} M")
    json_ratio = each["flexclient, JSON"] / each["eager-model floor"]
    transit_ratio = each["flexclient, Transit"] / each["transit-python Reader.read"]
    print(f"JSON against the eager-model floor:  {json_ratio:5.3f}x (target: at most 1.1x)")
    # transit-python's reader runs more instructions a second than the walk: its target, at
    # most 1x, is judged on time (decode.py).
    print(f"Transit against Reader.read:         {transit_ratio:5.3f}x (in time: decode.py)")

    with tempfile.TemporaryDirectory() as cache:
        base = process_instructions(BASELINE, cache)
        program = process_instructions(PROGRAM_AFTER_BASELINE, cache)
    extra = program - base
    print("cold start, whole processes (callgrind, hash seed 0):")
    print(f"  the baseline (requests + pydantic)        {base / 1e6:8.1f} M")
    print(f"  from flexclient import MarketplaceClient  {program / 1e6:8.1f} M")
    print(f"  flexclient's part: {extra / 1e6:+.1f} M, {extra / base:+.1%} of the baseline's")

    if importlib.util.find_spec("requests_mock") is None:
        print("first call: not counted (requests-mock is not installed)")
        return

    print(
        "the first call after import (client, token, an empty page), whole processes; the scan"
        f" reads the metadata of the {len(list(importlib.metadata.distributions()))} installed"
        " distributions:"
    )
    with tempfile.TemporaryDirectory() as cache:
        for label, scan in (("with", ""), ("without", SCAN)):
            made, none = (
                process_instructions(FIRST_CALL.format(scan=scan, call=call), cache)
                for call in (True, False)
            )
            print(f"  {label} pydantic's plugin scan: {(made - none) / 1e6:+.1f} M")


if __name__ == "__main__":
    main()
