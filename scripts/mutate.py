"""Mutation testing: change the code one small way at a time and see whether a test fails.

    python scripts/mutate.py                           # every module of MODULES
    python scripts/mutate.py flexclient/_wire/query.py # one module (or several)

For each module it makes every mutant (a comparison flipped, a constant changed, a statement
or a `raise` deleted, `continue` and `break` swapped, `and` and `or` swapped, a `not` dropped,
an arithmetic operator swapped, a returned value replaced by `None`), runs the tests that
cover the mutated line, and counts the mutant killed when one of them fails (or when they run
past the timeout). It prints each module's score and every mutant that survived, as
`file:line: mutation`.

Which tests cover which line comes from one run of the test suite under coverage.py, with a
dynamic context per test (a small pytest plugin below switches the context to each test's node
id). That run is kept in `.cache/mutate/` and reused while no source or test file changes; a
line run only while modules are imported (a `def`, a default value, a module constant) is
covered by every test that covers the module.

A mutant runs in a new process that imports the package from a temporary copy in which the
one file is mutated; the working tree is never written to. Tests that start Python processes
of their own see the working tree's package, not the mutant.
"""

from __future__ import annotations

import argparse
import ast
import concurrent.futures
import contextlib
import dataclasses
import hashlib
import json
import os
import queue
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]

# The modules mutation testing covers by default (scripts/mutation-report.md has their scores).
MODULES = (
    "flexclient/_http/transport.py",
    "flexclient/_auth/tokens.py",
    "flexclient/_events.py",
    "flexclient/models/_resource.py",
    "flexclient/models/_relations.py",
    "flexclient/models/_envelope.py",
    "flexclient/_wire/values.py",
    "flexclient/_wire/query.py",
    "flexclient/_wire/transit_reader.py",
    "flexclient/_wire/transit_writer.py",
    "flexclient/credits.py",
    "flexclient/_charging.py",
)

# A line of the runner's report that names a mutant left alive, as `recheck` reads it.
LEFT_ALIVE = re.compile(
    r"^ +(?:survived|no test runs|could not run): (\S+?):(\d+): (.*?)"
    r"(?: \(\d+(?: of \d+)? covering test\(s\) ran\))?$"
)


SCORED = re.compile(r"^(\S+): \d+% killed \(")


def left_alive(report: str) -> tuple[set[str], set[tuple[str, int, str]]]:
    """The modules a report of this runner scored, and the mutants it names as survivors,
    uncovered or not run."""
    scored: set[str] = set()
    found: set[tuple[str, int, str]] = set()
    for line in report.splitlines():
        match = LEFT_ALIVE.match(line)
        if match:
            found.add((match[1], int(match[2]), match[3]))
        elif scored_line := SCORED.match(line):
            scored.add(scored_line[1])
    return scored, found


# The fastest covering tests a mutant runs first, before the rest of them.
FIRST_BATCH = 20

# A comment that keeps a line out of the mutants (a line whose mutants are all equivalent).
NO_MUTATE = "# pragma: no mutate"

FLIPPED_COMPARISONS: dict[type[ast.cmpop], type[ast.cmpop]] = {
    ast.Eq: ast.NotEq,
    ast.NotEq: ast.Eq,
    ast.Lt: ast.LtE,
    ast.LtE: ast.Lt,
    ast.Gt: ast.GtE,
    ast.GtE: ast.Gt,
    ast.Is: ast.IsNot,
    ast.IsNot: ast.Is,
    ast.In: ast.NotIn,
    ast.NotIn: ast.In,
}
SWAPPED_OPERATORS: dict[type[ast.operator], type[ast.operator]] = {
    ast.Add: ast.Sub,
    ast.Sub: ast.Add,
    ast.Mult: ast.Div,
    ast.Div: ast.Mult,
    ast.FloorDiv: ast.Mult,
    ast.Mod: ast.FloorDiv,
    ast.Pow: ast.Mult,
    ast.LShift: ast.RShift,
    ast.RShift: ast.LShift,
    ast.BitAnd: ast.BitOr,
    ast.BitOr: ast.BitAnd,
}


@dataclasses.dataclass(frozen=True)
class Mutant:
    """One change to a module: the `index`-th site of the source's walk, at `line`."""

    index: int
    line: int
    description: str


# --- making mutants ------------------------------------------------------------------------


def _symbol(op: ast.AST) -> str:
    return {
        ast.Eq: "==",
        ast.NotEq: "!=",
        ast.Lt: "<",
        ast.LtE: "<=",
        ast.Gt: ">",
        ast.GtE: ">=",
        ast.Is: "is",
        ast.IsNot: "is not",
        ast.In: "in",
        ast.NotIn: "not in",
        ast.Add: "+",
        ast.Sub: "-",
        ast.Mult: "*",
        ast.Div: "/",
        ast.FloorDiv: "//",
        ast.Mod: "%",
        ast.Pow: "**",
        ast.LShift: "<<",
        ast.RShift: ">>",
        ast.BitAnd: "&",
        ast.BitOr: "|",
    }.get(type(op), type(op).__name__)


def _changed_constant(value: object) -> object:
    if isinstance(value, bool):
        return not value
    if isinstance(value, int):
        return value + 1
    if isinstance(value, float):
        return value * 2 + 1
    if isinstance(value, str):
        return f"XX{value}XX"
    if isinstance(value, bytes):
        return b"XX" + value + b"XX"
    return None


# A site: (line, description, how to change the node in place or what to put in its place).
Change = Callable[[ast.AST], ast.AST | None]


def _sites(node: ast.AST, line: int) -> Iterator[tuple[int, str, Change]]:
    """Yield the mutations of `node` itself (not its children)."""
    if isinstance(node, ast.Compare):
        for i, op in enumerate(node.ops):
            flipped = FLIPPED_COMPARISONS.get(type(op))
            if flipped is not None:
                yield line, f"{_symbol(op)} -> {_symbol(flipped())}", _set_op(i, flipped)
    elif isinstance(node, ast.BinOp):
        swapped = SWAPPED_OPERATORS.get(type(node.op))
        if swapped is not None:
            yield line, f"{_symbol(node.op)} -> {_symbol(swapped())}", _set_binop(swapped)
    elif isinstance(node, ast.AugAssign):
        swapped = SWAPPED_OPERATORS.get(type(node.op))
        if swapped is not None:
            yield line, f"{_symbol(node.op)}= -> {_symbol(swapped())}=", _set_binop(swapped)
    elif isinstance(node, ast.BoolOp):
        other = "or" if isinstance(node.op, ast.And) else "and"
        yield line, f"{'and' if other == 'or' else 'or'} -> {other}", _swap_boolop
    elif isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not):
        yield line, "not dropped", lambda n: n.operand if isinstance(n, ast.UnaryOp) else n
    elif isinstance(node, ast.Constant) and node.value is not Ellipsis:
        changed = _changed_constant(node.value)
        if changed is not None:
            yield line, f"{node.value!r} -> {changed!r}", _set_constant(changed)
    elif isinstance(node, ast.Continue):
        yield line, "continue -> break", lambda n: ast.Break()
    elif isinstance(node, ast.Break):
        yield line, "break -> continue", lambda n: ast.Continue()
    elif isinstance(node, ast.Return) and not _returns_none(node):
        yield line, "return value -> None", lambda n: ast.Return(value=ast.Constant(None))
    if isinstance(node, ast.Raise):
        yield line, "raise deleted", lambda n: ast.Pass()
    elif isinstance(node, ast.Expr) and isinstance(node.value, ast.Call):
        yield line, "call deleted", lambda n: ast.Pass()
    elif isinstance(node, ast.AugAssign) or (
        isinstance(node, ast.Assign)
        and all(isinstance(t, ast.Attribute | ast.Subscript) for t in node.targets)
    ):
        yield line, "assignment deleted", lambda n: ast.Pass()


def _returns_none(node: ast.Return) -> bool:
    return node.value is None or (isinstance(node.value, ast.Constant) and node.value.value is None)


def _set_op(i: int, op: type[ast.cmpop]) -> Change:
    def change(node: ast.AST) -> None:
        assert isinstance(node, ast.Compare)
        node.ops[i] = op()

    return change


def _set_binop(op: type[ast.operator]) -> Change:
    def change(node: ast.AST) -> None:
        assert isinstance(node, ast.BinOp | ast.AugAssign)
        node.op = op()

    return change


def _swap_boolop(node: ast.AST) -> None:
    assert isinstance(node, ast.BoolOp)
    node.op = ast.Or() if isinstance(node.op, ast.And) else ast.And()


def _set_constant(value: object) -> Change:
    def change(node: ast.AST) -> None:
        assert isinstance(node, ast.Constant)
        node.value = value

    return change


def _skipped(node: ast.AST) -> list[ast.AST]:
    """The children of `node` that are never mutated: docstrings, annotations, type-only code."""
    skip: list[ast.AST] = []
    body = getattr(node, "body", None)
    if (
        isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef)
        and isinstance(body, list)
        and body
        and isinstance(body[0], ast.Expr)
        and isinstance(body[0].value, ast.Constant)
        and isinstance(body[0].value.value, str)
    ):
        skip.append(body[0])
    if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
        args = node.args
        every = [*args.posonlyargs, *args.args, *args.kwonlyargs, args.vararg, args.kwarg]
        skip += [a.annotation for a in every if a is not None and a.annotation is not None]
        if node.returns is not None:
            skip.append(node.returns)
    if isinstance(node, ast.AnnAssign):
        skip.append(node.annotation)
    if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
        skip.append(node)
    if isinstance(node, ast.Assign) and any(
        isinstance(t, ast.Name) and t.id in ("__all__", "__slots__") for t in node.targets
    ):
        skip.append(node)
    if isinstance(node, ast.Call) and node.args and ast.unparse(node.func).endswith("cast"):
        skip.append(node.args[0])
    if isinstance(node, ast.Raise) and node.exc is not None:
        # The message of an error is checked by its own tests; its words are not mutated.
        skip += [n for n in ast.walk(node.exc) if isinstance(n, ast.Constant | ast.JoinedStr)]
    return skip


def _walk(tree: ast.Module, quiet: set[int]) -> Iterator[tuple[ast.AST, int]]:
    """Yield each node with the line of the statement that holds it, in a fixed order."""
    skipped: set[int] = set()

    def visit(node: ast.AST, line: int) -> Iterator[tuple[ast.AST, int]]:
        if id(node) in skipped:
            return
        if isinstance(node, ast.stmt):
            line = node.lineno
            if line in quiet:
                return
        if isinstance(node, ast.JoinedStr):
            # An f-string's literal parts are not constants a test could name.
            for value in node.values:
                if isinstance(value, ast.FormattedValue):
                    yield from visit(value.value, line)
            return
        skipped.update(id(n) for n in _skipped(node))
        yield node, line
        for child in ast.iter_child_nodes(node):
            yield from visit(child, line)

    yield from visit(tree, 1)


def _quiet_lines(source: str) -> set[int]:
    return {i for i, text in enumerate(source.splitlines(), 1) if NO_MUTATE in text}


def mutants(source: str) -> list[Mutant]:
    """Every mutant of `source`, in a fixed order."""
    tree = ast.parse(source)
    found: list[Mutant] = []
    for node, line in _walk(tree, _quiet_lines(source)):
        for _, description, _change in _sites(node, line):
            found.append(Mutant(len(found), line, description))
    return found


def mutated(source: str, mutant: Mutant) -> str:
    """`source` with `mutant` applied, as text."""
    tree = ast.parse(source)
    index = 0
    for node, line in _walk(tree, _quiet_lines(source)):
        for _, _description, change in _sites(node, line):
            if index == mutant.index:
                result = change(node)
                if result is not None and result is not node:
                    _replace(tree, node, result)
                return ast.unparse(ast.fix_missing_locations(tree))
            index += 1
    raise ValueError(f"no mutant {mutant.index}")


def _replace(tree: ast.AST, old: ast.AST, new: ast.AST) -> None:
    ast.copy_location(new, old)
    for parent in ast.walk(tree):
        for field, value in ast.iter_fields(parent):
            if value is old:
                setattr(parent, field, new)
                return
            if isinstance(value, list) and any(v is old for v in value):
                items: list[ast.AST] = value
                items[next(i for i, v in enumerate(items) if v is old)] = new
                return


# --- which tests cover which line -----------------------------------------------------------

PLUGIN = """
import time, coverage

class ContextPerTest:
    def __init__(self, out):
        self.out = out
        self.durations = {}

    def pytest_runtest_protocol(self, item, nextitem):
        cov = coverage.Coverage.current()
        cov.switch_context(item.nodeid)
        self.started = time.perf_counter()

    def pytest_runtest_logfinish(self, nodeid, location):
        self.durations[nodeid] = time.perf_counter() - self.started
        coverage.Coverage.current().switch_context("")

    def pytest_sessionfinish(self, session):
        import json
        with open(self.out, "w") as f:
            json.dump(self.durations, f)
"""


@dataclasses.dataclass
class Coverage:
    """Which tests run each line of each file, and how long each test took."""

    lines: dict[str, dict[int, set[str]]]
    durations: dict[str, float]

    def tests_for(self, path: str, line: int) -> list[str]:
        """The tests that run `line` of `path`, fastest first; every test of the module for
        a line run at import (too)."""
        by_line = self.lines.get(path, {})
        contexts = by_line.get(line, set())
        if "" in contexts:  # run at import: what it does there, every test sees
            contexts = set().union(*by_line.values())
        tests = contexts - {""}
        return sorted(tests, key=lambda t: (self.durations.get(t, 0.0), t))

    def seconds(self, tests: Sequence[str]) -> float:
        """How long `tests` took in the coverage run."""
        return sum(self.durations.get(t, 0.0) for t in tests)

    def within(self, tests: list[str], budget: float) -> list[str]:
        """The fastest of `tests` that together took at most `budget` seconds (at least one)."""
        kept: list[str] = []
        spent = 0.0
        for test in tests:
            spent += self.durations.get(test, 0.0)
            if kept and spent > budget:
                break
            kept.append(test)
        return kept


def _fingerprint(root: Path, package: str, files: Sequence[str], tests: Sequence[str]) -> str:
    # Every Python file of the project (the package, the tests, what they import), outside
    # hidden folders (.venv, .cache) and without following links.
    digest = hashlib.sha256(json.dumps([list(files), list(tests)]).encode())
    for folder, subfolders, names in os.walk(root):  # in a fixed order: sorted below
        subfolders[:] = sorted(d for d in subfolders if not d.startswith(".") and d != package)
        for name in sorted(n for n in names if n.endswith(".py")):
            path = Path(folder) / name
            digest.update(str(path.relative_to(root)).encode())
            digest.update(path.read_bytes())
    for path in sorted((root / package).rglob("*.py")):
        digest.update(str(path.relative_to(root)).encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()[:16]


def collect(
    root: Path, package: str, files: Sequence[str], tests: Sequence[str], cache: Path
) -> Coverage:
    """Run the tests once under coverage, one context per test, and read who ran what."""
    cache.mkdir(parents=True, exist_ok=True)
    key = _fingerprint(root, package, files, tests)
    data_file, durations_file = cache / f"coverage-{key}", cache / f"durations-{key}.json"
    if not durations_file.exists():
        print(f"collecting coverage of {len(files)} module(s), one context per test ...")
        plugin_dir = Path(tempfile.mkdtemp(prefix="mutate-plugin-"))
        (plugin_dir / "_context_per_test.py").write_text(PLUGIN)
        bootstrap = (
            "import sys, coverage, pytest\n"
            f"sys.path.insert(0, {str(plugin_dir)!r})\n"
            "from _context_per_test import ContextPerTest\n"
            f"cov = coverage.Coverage(data_file={str(data_file)!r}, "
            f"include={[str(root / f) for f in files]!r})\n"
            "cov.start()\n"
            f"code = pytest.main({['-q', '-p', 'no:cacheprovider', *tests]!r}, "
            f"plugins=[ContextPerTest({str(durations_file) + '.part'!r})])\n"
            "cov.stop(); cov.save()\n"
            "sys.exit(0 if code in (0, 1) else code)\n"
        )
        env = {**os.environ, "PYTHONPATH": str(root), "PYTHONDONTWRITEBYTECODE": "1"}
        done = subprocess.run(
            [sys.executable, "-c", bootstrap], cwd=root, env=env, stdout=subprocess.DEVNULL
        )
        shutil.rmtree(plugin_dir, ignore_errors=True)
        if done.returncode != 0:
            raise SystemExit(f"the coverage run failed (pytest exit code {done.returncode})")
        Path(str(durations_file) + ".part").rename(durations_file)
    import coverage  # only the runner needs it; the module's functions above do not

    data = coverage.CoverageData(basename=str(data_file))
    data.read()
    lines: dict[str, dict[int, set[str]]] = {}
    for f in files:
        by_line = data.contexts_by_lineno(str(root / f))
        lines[f] = {n: set(contexts) for n, contexts in by_line.items()}
    return Coverage(lines, json.loads(durations_file.read_text()))


# --- running a mutant ----------------------------------------------------------------------


def run_mutant(
    root: Path,
    copy_root: Path,
    package: str,
    path: str,
    source: str,
    tests: list[str],
    timeout: float,
) -> str:
    """Run `tests` against the package with `path` replaced by `source`: "killed",
    "survived" or "timeout". The copy's file is put back before returning."""
    target = copy_root / path
    original = target.read_text()
    target.write_text(source)
    bootstrap = (
        "import sys\n"
        f"sys.path.insert(0, {str(copy_root)!r})\n"
        f"import {package}\n"
        "import pytest\n"
        f"sys.exit(pytest.main(['-x', '-q', '-p', 'no:cacheprovider', *sys.argv[1:]]))\n"
    )
    env = {
        **os.environ,
        "PYTHONPATH": os.pathsep.join([str(copy_root), str(root)]),
        "PYTHONDONTWRITEBYTECODE": "1",
    }
    output = tempfile.TemporaryFile()  # noqa: SIM115 - closed in the finally below
    try:
        process = subprocess.Popen(
            [sys.executable, "-c", bootstrap, *tests],
            cwd=root,
            env=env,
            stdout=output,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
        RUNNING.add(process.pid)
        try:
            code = process.wait(timeout)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()
            return "timeout"
        finally:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(process.pid, signal.SIGKILL)  # whatever the tests left running
            RUNNING.discard(process.pid)
        if code == 0:
            return "survived"
        output.seek(0)
        said = output.read().decode(errors="replace")
        if code == 5 or (code == 4 and "not found:" in said):
            return "error"  # pytest found no such test: a runner bug, not a kill
        return "killed"
    finally:
        output.close()
        if not STOPPING.is_set():
            target.write_text(original)


# The process groups of the mutants under way, and the package copies: what a SIGTERM or ^C
# of the runner must not leave behind.
RUNNING: set[int] = set()
COPIES: list[Path] = []


STOPPING = threading.Event()


def _stop(signum: int, frame: object) -> None:
    STOPPING.set()  # no mutant's file is put back into a copy being removed
    for pid in list(RUNNING):
        with contextlib.suppress(ProcessLookupError):
            os.killpg(pid, signal.SIGKILL)
    for folder in COPIES:
        shutil.rmtree(folder, ignore_errors=True)
    os._exit(128 + signum)


@dataclasses.dataclass
class Score:
    """What became of a module's mutants."""

    path: str
    killed: int = 0
    # Each with how many tests ran, of how many cover its line.
    survived: list[tuple[Mutant, int, int]] = dataclasses.field(default_factory=list)
    uncovered: list[Mutant] = dataclasses.field(default_factory=list)
    errors: list[Mutant] = dataclasses.field(default_factory=list)

    @property
    def total(self) -> int:
        return self.killed + len(self.survived) + len(self.uncovered) + len(self.errors)

    def line(self) -> str:
        percent = 100 * self.killed / self.total if self.total else 100.0
        covered = self.total - len(self.uncovered)
        return (
            f"{self.path}: {percent:.0f}% killed ({self.killed}/{self.total}; "
            f"{len(self.survived)} survived, {len(self.uncovered)} on lines no test runs"
            + (f", {len(self.errors)} could not run" if self.errors else "")
            + f"; {100 * self.killed / covered if covered else 100:.0f}% of those covered)"
        )


def mutate_module(
    root: Path,
    copies: queue.Queue[Path],
    package: str,
    path: str,
    cov: Coverage,
    timeout: float,
    budget: float,
    progress: bool,
    recheck: set[tuple[str, int, str]] | None = None,
) -> Score:
    """Make and run every mutant of `path`, as many at once as there are `copies` of the
    package; with `recheck`, only those it names (the others count as killed)."""
    source = (root / path).read_text()
    baseline = ast.unparse(ast.parse(source))
    found = mutants(source)

    def fate(mutant: Mutant) -> tuple[str, int, int]:
        if recheck is not None and (path, mutant.line, mutant.description) not in recheck:
            return "killed before", 0, 0  # recheck is None for a module the report lacks
        text = mutated(source, mutant)
        if text == baseline:
            return "same", 0, 0
        covering = cov.tests_for(path, mutant.line)
        tests = cov.within(covering, budget)
        if not tests:
            return "uncovered", 0, 0
        started = time.monotonic()
        copy_root = copies.get()
        try:
            # Most mutants fail one of the fastest tests: those run first, on their own, as
            # collecting hundreds of tests costs seconds. The tests ran under coverage in the
            # collecting run; a mutant's get twice that time.
            result = "survived"
            for batch in (tests[:FIRST_BATCH], tests[FIRST_BATCH:]):
                if batch and result == "survived":
                    limit = timeout + 2 * cov.seconds(batch)
                    result = run_mutant(root, copy_root, package, path, text, batch, limit)
        finally:
            copies.put(copy_root)
        if progress:
            print(
                f"  {path}:{mutant.line}: {mutant.description}: {result} "
                f"({len(tests)} tests, {time.monotonic() - started:.1f} s)",
                file=sys.stderr,
                flush=True,
            )
        return result, len(tests), len(covering)

    score = Score(path)
    with concurrent.futures.ThreadPoolExecutor(copies.qsize()) as pool:
        for mutant, (result, ran, covering) in zip(found, pool.map(fate, found), strict=True):
            if result == "uncovered":
                score.uncovered.append(mutant)
            elif result == "survived":
                score.survived.append((mutant, ran, covering))
            elif result == "error":
                score.errors.append(mutant)
            elif result != "same":
                score.killed += 1
    return score


def main(argv: Sequence[str] | None = None) -> int:
    """Run the mutants of the modules named (MODULES when none) and print their scores."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("modules", nargs="*", help="files to mutate, relative to --root")
    parser.add_argument("--root", type=Path, default=REPO, help="the project (default: this)")
    parser.add_argument("--package", default="flexclient", help="the package under --root")
    parser.add_argument(
        "--tests",
        nargs="*",
        default=[],
        help="pytest arguments for the coverage run (default: the configured test paths)",
    )
    parser.add_argument(
        "--timeout",
        type=float,
        default=30.0,
        help="seconds a mutant may take beyond twice its tests' time in the coverage run",
    )
    parser.add_argument(
        "--budget",
        type=float,
        default=30.0,
        help="run only the fastest covering tests that took this many seconds in all",
    )
    parser.add_argument(
        "--recheck",
        type=Path,
        help="a saved report of this runner: run only the mutants it names as left alive, "
        "counting the others killed (after adding tests)",
    )
    parser.add_argument(
        "--report",
        type=Path,
        help="where to write the report, as printed (default: .cache/mutate/report.txt "
        "under --root); --recheck takes it",
    )
    parser.add_argument("--jobs", type=int, default=1, help="mutants run at once")
    parser.add_argument("--progress", action="store_true", help="print each mutant's fate")
    parser.add_argument("--list", action="store_true", help="list the mutants; run nothing")
    args = parser.parse_args(argv)
    root: Path = args.root.resolve()
    modules: list[str] = args.modules or list(MODULES)
    if args.list:
        for path in modules:
            for m in mutants((root / path).read_text()):
                print(f"{path}:{m.line}: {m.description}")
        return 0
    scored, alive = left_alive(args.recheck.read_text()) if args.recheck else (set(), set())
    cov = collect(root, args.package, modules, args.tests, root / ".cache" / "mutate")
    copies: queue.Queue[Path] = queue.Queue()
    made = COPIES
    signal.signal(signal.SIGTERM, _stop)
    signal.signal(signal.SIGINT, _stop)
    scores: list[Score] = []
    report: list[str] = []

    def say(line: str) -> None:
        report.append(line)
        print(line, flush=True)

    try:
        for _ in range(args.jobs):
            made.append(Path(tempfile.mkdtemp(prefix="mutate-")))
            shutil.copytree(
                root / args.package,
                made[-1] / args.package,
                ignore=shutil.ignore_patterns("__pycache__"),
            )
            copies.put(made[-1])
        for path in modules:
            started = time.monotonic()
            score = mutate_module(
                root,
                copies,
                args.package,
                path,
                cov,
                args.timeout,
                args.budget,
                args.progress,
                alive if path in scored else None,
            )
            scores.append(score)
            again = f", rechecking the survivors of {args.recheck}" if path in scored else ""
            say(score.line() + f" [{time.monotonic() - started:.0f} s{again}]")
            for mutant, ran, covering in score.survived:
                of = f" of {covering}" if covering > ran else ""
                say(
                    f"  survived: {path}:{mutant.line}: {mutant.description} "
                    f"({ran}{of} covering test(s) ran)"
                )
            for mutant in score.uncovered:
                say(f"  no test runs: {path}:{mutant.line}: {mutant.description}")
            for mutant in score.errors:
                say(f"  could not run: {path}:{mutant.line}: {mutant.description}")
    finally:
        for folder in made:
            shutil.rmtree(folder, ignore_errors=True)
    say("")
    for score in scores:
        say(score.line())
    written: Path = args.report or root / ".cache" / "mutate" / "report.txt"
    written.parent.mkdir(parents=True, exist_ok=True)
    written.write_text("\n".join(report) + "\n", encoding="utf-8")
    print(f"(report written to {written})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
