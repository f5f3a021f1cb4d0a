"""scripts/mutate.py, the mutation runner, on a tiny package whose mutants' fates are known."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

RUNNER = Path(__file__).resolve().parents[1] / "scripts" / "mutate.py"

MODULE = '''"""Tiny."""


def is_adult(age: int) -> bool:
    return age >= 18


def untested(x: int) -> int:
    return x * 3
'''
# The boundary (18) is never tried: `>=` to `>` and 18 to 19 survive; a None return does not.
TEST = """from tinypkg.calc import is_adult


def test_adults() -> None:
    assert is_adult(30) is True
    assert is_adult(5) is False
"""


@pytest.fixture
def project(tmp_path: Path) -> Path:
    (tmp_path / "tinypkg").mkdir()
    (tmp_path / "tinypkg" / "__init__.py").write_text("")
    (tmp_path / "tinypkg" / "calc.py").write_text(MODULE)
    (tmp_path / "test_calc.py").write_text(TEST)
    return tmp_path


def mutate(project: Path, *args: str) -> str:
    done = subprocess.run(
        [sys.executable, str(RUNNER), "--root", str(project), "--package", "tinypkg", *args],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_the_runner_lists_the_mutants_of_a_module(project: Path) -> None:
    listed = mutate(project, "--list", "tinypkg/calc.py").splitlines()
    assert listed == [
        "tinypkg/calc.py:5: return value -> None",
        "tinypkg/calc.py:5: >= -> >",
        "tinypkg/calc.py:5: 18 -> 19",
        "tinypkg/calc.py:9: return value -> None",
        "tinypkg/calc.py:9: * -> /",
        "tinypkg/calc.py:9: 3 -> 4",
    ]


def test_the_runner_scores_a_module_and_names_the_survivors(project: Path) -> None:
    out = mutate(project, "tinypkg/calc.py")
    assert "tinypkg/calc.py: 17% killed (1/6; 2 survived, 3 on lines no test runs;" in out
    survivors = [line.strip() for line in out.splitlines() if "survived:" in line]
    assert survivors == [
        "survived: tinypkg/calc.py:5: >= -> > (1 covering test(s) ran)",
        "survived: tinypkg/calc.py:5: 18 -> 19 (1 covering test(s) ran)",
    ]
    assert out.count("no test runs: tinypkg/calc.py:9:") == 3
    # The mutants ran against a copy: the module itself was never changed.
    assert (project / "tinypkg" / "calc.py").read_text() == MODULE


def test_a_recheck_runs_the_survivors_again_after_tests_are_added(project: Path) -> None:
    report = project / "report.txt"
    printed = mutate(project, "--report", str(report), "tinypkg/calc.py")
    # The report file is what was printed, to be kept and given to --recheck.
    assert printed.endswith(report.read_text() + f"(report written to {report})\n")
    assert "survived: tinypkg/calc.py:5: >= -> >" in report.read_text()
    with (project / "test_calc.py").open("a") as tests:
        tests.write("\n\ndef test_the_boundary() -> None:\n    assert is_adult(18) is True\n")
    out = mutate(project, "--recheck", str(report), "tinypkg/calc.py")
    assert "tinypkg/calc.py: 50% killed (3/6; 0 survived, 3 on lines no test runs;" in out
    assert "rechecking the survivors of" in out and "survived:" not in out
