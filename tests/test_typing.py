"""Type checking as users get it: files that must pass mypy --strict and files that must fail.

Each file in typing/fail has one comment line `# E: <text>`; mypy must report an error on the
line below it containing the text, and no other error.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from mypy import api

ROOT = Path(__file__).parents[1]
TYPING = Path(__file__).parent / "typing"
FAIL = sorted((TYPING / "fail").glob("*.py"))


def run_mypy(*files: Path) -> tuple[int, list[str]]:
    out, err, status = api.run(
        ["--config-file", str(ROOT / "mypy.ini"), "--no-incremental", *map(str, files)]
    )
    return status, [line for line in out.splitlines() if ": error:" in line] + (
        [err] if err.strip() else []
    )


def test_good_code_passes() -> None:
    status, errors = run_mypy(*sorted((TYPING / "pass").glob("*.py")))
    assert errors == [] and status == 0


@pytest.fixture(scope="module")
def fail_errors() -> list[str]:
    """One mypy run over every must-fail file (they are independent modules)."""
    status, errors = run_mypy(*FAIL)
    assert status == 1
    return errors


@pytest.mark.parametrize("path", FAIL, ids=[p.stem for p in FAIL])
def test_bad_code_fails_where_and_how_expected(path: Path, fail_errors: list[str]) -> None:
    marked = [
        (n + 1, m.group(1))
        for n, line in enumerate(path.read_text().splitlines(), 1)
        if (m := re.match(r"# E: (.*)$", line))
    ]
    assert len(marked) == 1, "mark exactly one line with # E:"
    line_no, text = marked[0]
    errors = [e for e in fail_errors if f"/{path.name}:" in e]
    assert len(errors) == 1, errors
    assert f"{path.name}:{line_no}: error:" in errors[0] and text in errors[0], errors[0]
