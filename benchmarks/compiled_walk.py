"""The Transit walk as it ships (pure Python) against the same source compiled by mypyc.

    python benchmarks/compiled_walk.py [rounds, default 200]

Issue #34 asked whether a compiled build of the Transit walk is worth shipping; this is the
measurement behind the answer in docs/performance.md. It compiles
`flexclient/_wire/transit_reader.py` with mypyc (which the dev install has, with mypy) in a
temporary folder, loads the compiled module beside the pure-Python one, checks that both read
the benchmark page to equal values, and times the walk alone (the page parsed afresh for each
call, as in a decode) in alternation, printing the best times and the median of the per-round
ratios. Needs a C compiler and Python's headers; takes about a minute to compile.
"""

from __future__ import annotations

import importlib.util
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from types import ModuleType
from typing import Any

sys.path.insert(0, str(Path(__file__).parent))

from _machine import described
from _pages import encoded
from pydantic_core import from_json

from flexclient._wire import transit_reader

ROOT = Path(__file__).parents[1]
SOURCE = Path("flexclient") / "_wire" / "transit_reader.py"


def compiled(workdir: Path) -> ModuleType:
    """`transit_reader` compiled by mypyc in `workdir`, loaded as a module of its own."""
    package = workdir / "flexclient" / "_wire"
    package.mkdir(parents=True)
    (workdir / "flexclient" / "__init__.py").touch()
    (package / "__init__.py").touch()
    shutil.copy(ROOT / SOURCE, package / "transit_reader.py")
    shutil.copy(ROOT / "scripts" / "mypyc.ini", workdir / "mypy.ini")  # as the wheels are built
    mypyc = Path(sys.executable).parent / "mypyc"
    env = {**os.environ, "MYPYPATH": str(ROOT / "stubs"), "PYTHONPATH": str(ROOT)}
    subprocess.run([str(mypyc), str(SOURCE)], cwd=workdir, env=env, check=True, capture_output=True)
    # Two extension modules: the runtime (`transit_reader__mypyc`, which the other imports
    # by its full name, inside the installed package) and the module itself, whose name must
    # be the source's; the pure-Python module is put back under that name once it is loaded.
    # The helpers (`flexclient._wire.values`, ...) come from the installed package.
    pure = sys.modules["flexclient._wire.transit_reader"]
    module: ModuleType | None = None
    for name in ("transit_reader__mypyc", "transit_reader"):
        spec = importlib.util.spec_from_file_location(
            f"flexclient._wire.{name}", next(package.glob(f"{name}.*.so"))
        )
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        sys.modules[spec.name] = module
        spec.loader.exec_module(module)
    sys.modules["flexclient._wire.transit_reader"] = pure
    assert module is not None and module is not pure
    return module


def timed(walk: Callable[[Any], Any], page: bytes) -> float:
    parsed = from_json(page, cache_strings=True)
    started = time.perf_counter()
    walk(parsed)
    return time.perf_counter() - started


def main() -> None:
    rounds = int(sys.argv[1]) if len(sys.argv) > 1 else 200
    print(described())
    _, page = encoded(100)
    with tempfile.TemporaryDirectory() as tmp:
        fast = compiled(Path(tmp))
        assert fast.loads(page) == transit_reader.loads(page)
        pure: list[float] = []
        built: list[float] = []
        for n in range(rounds):
            # The order turns from round to round, so neither side always runs second.
            if n % 2:
                built.append(timed(fast._read, page))
                pure.append(timed(transit_reader._read, page))
            else:
                pure.append(timed(transit_reader._read, page))
                built.append(timed(fast._read, page))
    ratio = statistics.median(b / p for p, b in zip(pure, built, strict=True))
    print(f"the Transit walk of a 100-listing page, {rounds} rounds in alternation")
    print(f"  pure Python   best {min(pure) * 1e3:6.2f} ms")
    print(f"  mypyc         best {min(built) * 1e3:6.2f} ms")
    print(f"  compiled over pure, median of per-round ratios {ratio:.2f}x")


if __name__ == "__main__":
    main()
