"""Cold start: what a new process pays to import flexclient, answer `flexclient --help`, and
make its first calls.

    python benchmarks/cold_start.py [runs] [--python PATH] [--before CHECKOUT]

Each measurement is a whole new Python process, as a CLI call or a serverless cold start
pays it. The baseline, measured in the same run and interleaved with flexclient's runs, is a
process that imports what flexclient cannot do without:
`import requests; from pydantic import BaseModel, Field, TypeAdapter`. Printed: the medians
of `runs` (default 15) runs each, as wall time and as CPU time (user + system; less moved by
other work on the machine), and flexclient's cost on top of the baseline (target: at most
40 ms) for `import flexclient` and for what a program runs, `from flexclient import
MarketplaceClient`; `flexclient --help` (target: under 0.3 s). The baseline is timed twice
a round, and the difference of its two medians, which ought to be nothing, is printed as the
run's noise: a comparison of whole processes on a shared machine resolves no finer. Then
the first calls after import, timed in-process in `runs` new processes each (best and
median): an empty page (target: at most 5 ms slower than before the cold-start work), and a
page of listings with their authors and images (whose models are imported and built for
that first answer).

`--before CHECKOUT` times the empty page's first call of the sources in CHECKOUT too (its
PYTHONPATH), in turns with the installed flexclient's, and prints the difference: with a
checkout of the commit before the cold-start work, `git worktree add /tmp/before 3fc236b`.
Without it, the figure to compare with is the one recorded then, 4.6 ms by the best of 15.

`--python PATH` times another interpreter with flexclient installed, for example a virtual
environment with only flexclient and what it depends on, as a deployment has it (the
development environment's seventy-odd packages make pydantic's one plugin scan, which the
first validator of a process pays, two to three times longer). The first calls are timed
only where requests-mock is installed.

Bytecode is cached, as after `pip install` (which compiles it): the runs write it to a
temporary folder (PYTHONPYCACHEPREFIX), also when PYTHONDONTWRITEBYTECODE is set, which
would otherwise have every run compile flexclient's sources again. The processes run in that
folder, with no PYTHONPATH of the caller's: `python -c` imports from its working folder
first, and run from a checkout would time the checkout instead of the environment's
flexclient.
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

BASELINE = "import requests; from pydantic import BaseModel, Field, TypeAdapter"
IMPORT = "import flexclient"
PROGRAM = "from flexclient import MarketplaceClient"
HELP = "import sys; from flexclient._cli import main; sys.argv = ['flexclient', '--help']; main()"
# The processes compared with one another, which take turns in their places in a round.
ROTATING = ["baseline", "program", "control"]

EMPTY = b'["^ ","~:data",[]]'
FIRST_CALL_TARGET = 4.6 + 5

# The page is read from a file the parent wrote: making it here would import the fake
# marketplace, and with it every model, which a program's first call does not have.
FIRST_CALL = """
import sys, time
from pathlib import Path
import requests_mock
from flexclient import MarketplaceClient

content = Path(sys.argv[1]).read_bytes()
with requests_mock.Mocker() as m:
    m.post("https://mp.test/v1/auth/token", json={"access_token": "t", "scope": "public-read"})
    m.get("https://mp.test/v1/api/listings/query", content=content,
          headers={"Content-Type": "application/transit+json"})
    started = time.perf_counter()
    sdk = MarketplaceClient("id", base_url="https://mp.test")
    page = sdk.listings.query({"include": ["author", "images"]}).data
    first = time.perf_counter() - started
    started = time.perf_counter()
    sdk.listings.query({"include": ["author", "images"]})
    second = time.perf_counter() - started
for listing in page.data:
    assert listing.author.attributes.profile.display_name
print(first, second)
"""


PYTHON = sys.executable

PACKAGES = "import importlib.metadata as m; print(len(list(m.distributions())))"


def bytecode_cached(cache: str) -> dict[str, str]:
    """This process's environment for a child that keeps its bytecode in `cache`, as an
    installed package has it (see the module docstring)."""
    # Without PYTHONPATH too: what a child imports is the interpreter's environment's (or
    # the --before checkout, which is given as its PYTHONPATH).
    dropped = ("PYTHONDONTWRITEBYTECODE", "PYTHONPATH")
    env = {k: v for k, v in os.environ.items() if k not in dropped}
    env["PYTHONPYCACHEPREFIX"] = cache
    return env


def run(code: str, env: dict[str, str], *args: str) -> tuple[float, float, str]:
    """Wall and CPU seconds of a fresh interpreter running `code` (startup included), and
    what it printed."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    # Run in the bytecode folder, where there is no `flexclient`: `python -c` looks in its
    # working folder first, and in a checkout would import that, not the environment's
    # flexclient (`--python`) or the `--before` checkout.
    done = subprocess.run(
        [PYTHON, "-c", code, *args],
        check=True,
        capture_output=True,
        text=True,
        env=env,
        cwd=env["PYTHONPYCACHEPREFIX"],
    )
    wall = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime
    return wall, cpu, done.stdout


def _runs(text: str) -> int:
    runs = int(text)
    if runs < 1:
        raise argparse.ArgumentTypeError("at least 1")
    return runs


def _interpreter(text: str) -> str:
    # Absolute: the processes run in another folder (see `run`).
    found = shutil.which(text)
    if found is None:
        raise argparse.ArgumentTypeError(f"no interpreter {text!r}")
    return str(Path(found).absolute())


def _checkout(text: str) -> str:
    path = Path(text).resolve()
    if not (path / "flexclient" / "__init__.py").is_file():
        raise argparse.ArgumentTypeError(f"{path} has no flexclient/__init__.py")
    return str(path)


def main() -> None:
    sys.path.insert(0, str(Path(__file__).parent))
    from _machine import described

    print(described())
    global PYTHON
    parser = argparse.ArgumentParser(description="Cold start: import, --help, first calls.")
    parser.add_argument("runs", nargs="?", type=_runs, default=15, help="processes a side")
    parser.add_argument("--python", type=_interpreter, help="another interpreter to time")
    parser.add_argument("--before", type=_checkout, help="a checkout whose first call to time")
    options = parser.parse_args()
    PYTHON = options.python or PYTHON
    runs: int = options.runs
    before: str | None = options.before
    cache = tempfile.mkdtemp(prefix="flexclient-pyc-")
    env = bytecode_cached(cache)
    # "control" is the baseline again: its difference from the baseline is the noise of the
    # run, against which the program's is read.
    timed = {"pass": "pass", "baseline": BASELINE, "import": IMPORT, "program": PROGRAM}
    timed |= {"control": BASELINE, "help": HELP}
    for code in timed.values():  # write the bytecode and warm the disk cache, not timed
        run(code, env)
    walls: dict[str, list[float]] = {name: [] for name in timed}
    cpus: dict[str, list[float]] = {name: [] for name in timed}
    # A process's place in the round moves its time on this machine (the baseline timed second
    # and fourth in each round took 7 ms more in the fourth, three runs of 15 rounds): the
    # baseline, the program and the control take turns in their three places, so that each
    # is as many rounds in each place (when the rounds are a multiple of three).
    names = list(timed)
    places = [names.index(name) for name in ROTATING]
    for round_ in range(runs):
        order = list(names)
        turn = round_ % len(ROTATING)
        for place, name in zip(places, ROTATING[turn:] + ROTATING[:turn], strict=True):
            order[place] = name
        for name in order:
            wall_s, cpu_s, _ = run(timed[name], env)
            walls[name].append(wall_s * 1e3)
            cpus[name].append(cpu_s * 1e3)
    wall = {name: statistics.median(values) for name, values in walls.items()}
    cpu = {name: statistics.median(values) for name, values in cpus.items()}

    version = run("import sys; print(sys.version.split()[0])", env)[2].strip()
    packages = run(PACKAGES, env)[2].strip()
    print(f"medians of {runs} interleaved runs, each a new process ({PYTHON}: Python {version},")
    print(f"{packages} installed distributions):")
    print("                                          wall       cpu")
    rows = [
        ("python -c pass", "pass"),
        ("requests + pydantic (the baseline)", "baseline"),
        ("import flexclient", "import"),
        ("from flexclient import MarketplaceClient", "program"),
        ("flexclient --help", "help"),
    ]
    for label, name in rows:
        print(f"  {label:<40}{wall[name]:7.1f} ms {cpu[name]:7.1f} ms")
    # `import flexclient` alone imports neither requests nor pydantic (its names are imported
    # when first used): it is measured against a bare interpreter, a program's import against
    # the baseline.
    for label, name, base, target in (
        ("import flexclient, over python", "import", "pass", ""),
        ("MarketplaceClient, over the baseline", "program", "baseline", "   (target <= +40 ms)"),
        ("the baseline over itself: the noise", "control", "baseline", ""),
    ):
        extra_wall = wall[name] - wall[base]
        extra_cpu = cpu[name] - cpu[base]
        print(f"  {label:<40}{extra_wall:+7.1f} ms {extra_cpu:+7.1f} ms{target}")

    print(f"  {'flexclient --help':<40}{wall['help']:7.1f} ms              (target < 300 ms)")

    # Imported only now: the page builder imports the fake marketplace, which would make this
    # process bigger while the processes above are timed.
    sys.path.insert(0, str(Path(__file__).parent))
    from _pages import encoded

    try:
        run("import requests_mock", env)
    except subprocess.CalledProcessError:
        print("first calls: not timed (requests-mock is not installed there)")
        return
    print(
        f"first calls after `from flexclient import MarketplaceClient`, in-process, {runs}"
        f" new process{'es' if runs > 1 else ''} each: best (median)"
    )
    # Each side has one folder ahead of the standard library on its path, the checkout's for
    # the one before (an empty folder for the other, so that both search as many), and
    # bytecode of its own.
    sides = {"": env | {"PYTHONPATH": tempfile.mkdtemp(prefix="flexclient-empty-")}}
    if before is not None:
        sides["before"] = bytecode_cached(tempfile.mkdtemp(prefix="flexclient-pyc-")) | {
            "PYTHONPATH": before
        }
    pages = {"an empty page": EMPTY, "20 listings, authors, images": encoded(20, 5)[1]}
    for label, content in pages.items():
        page = Path(cache) / "page.transit"
        page.write_bytes(content)
        timed_sides = sides if content == EMPTY else {"": sides[""]}
        for side in timed_sides:  # writes the bytecode of what the call imports, not timed
            run(FIRST_CALL, sides[side], str(page))
        firsts: dict[str, list[float]] = {side: [] for side in timed_sides}
        seconds: dict[str, list[float]] = {side: [] for side in timed_sides}
        for round_ in range(runs):
            order = list(timed_sides) if round_ % 2 == 0 else list(reversed(timed_sides))
            for side in order:
                first, second = map(float, run(FIRST_CALL, sides[side], str(page))[2].split())
                firsts[side].append(first * 1e3)
                seconds[side].append(second * 1e3)
        for side in timed_sides:
            name = f"{label}, {side}" if side else label
            print(
                f"  {name:<30} first call {min(firsts[side]):5.1f} ms"
                f" ({statistics.median(firsts[side]):5.1f}), the same call again"
                f" {min(seconds[side]):5.1f} ms ({statistics.median(seconds[side]):5.1f})"
            )
        if content != EMPTY:
            continue
        if before is None:
            print(
                f"  {'':<30} (target: at most {FIRST_CALL_TARGET:.1f} ms by the best: 4.6 ms"
                " before the cold-start work, and 5 ms more; see --before)"
            )
        else:
            more = min(firsts[""]) - min(firsts["before"])
            more_median = statistics.median(firsts[""]) - statistics.median(firsts["before"])
            print(
                f"  {'slower than before':<30} by the best {more:+5.1f} ms, by the median"
                f" {more_median:+5.1f} ms   (target: at most +5 ms)"
            )


if __name__ == "__main__":
    main()
