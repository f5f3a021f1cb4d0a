"""scripts/check_compiler.sh: before the compiled Transit reader is built (.ci/run,
scripts/test_compiled.sh), a machine without a C compiler or Python's headers is told in one
line what to install."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).parents[1]
CHECK = ROOT / "scripts" / "check_compiler.sh"


def run_check(env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    bash = shutil.which("bash")
    assert bash is not None
    return subprocess.run(
        [bash, str(CHECK)], env=env, capture_output=True, text=True, timeout=60, check=False
    )


def bare_path(tmp_path: Path) -> str:
    """A PATH holding Python and the tools the check uses, and no compiler."""
    tools = tmp_path / "bin"
    tools.mkdir()
    (tools / "python3").symlink_to(sys.executable)
    for tool in ("mktemp", "rm", "grep", "head"):
        found = shutil.which(tool)
        assert found is not None, tool
        (tools / tool).symlink_to(found)
    return str(tools)


def test_this_machine_can_build_it() -> None:
    done = run_check({**os.environ, "PYTHON": sys.executable})
    assert (done.returncode, done.stdout, done.stderr) == (0, "", "")


def test_no_compiler_on_path_is_one_line_saying_what_to_install(tmp_path: Path) -> None:
    done = run_check({"PATH": bare_path(tmp_path)})
    assert done.returncode == 1
    lines = done.stderr.splitlines()
    assert len(lines) == 1, done.stderr
    assert "needs a C compiler" in lines[0] and "is not on PATH: install one" in lines[0]
    assert "apt-get install gcc python3-dev" in lines[0]


def test_a_compiler_given_as_cc_is_the_one_checked(tmp_path: Path) -> None:
    done = run_check({"PATH": bare_path(tmp_path), "CC": "/no/such/cc -O2"})
    assert done.returncode == 1
    assert "and '/no/such/cc' is not on PATH" in done.stderr


def test_missing_python_headers_are_named(tmp_path: Path) -> None:
    # A compiler that fails as gcc does without Python.h.
    compiler = tmp_path / "cc"
    compiler.write_text(
        "#!/bin/sh\necho 'check.c:1:10: fatal error: Python.h: No such file or directory' >&2\n"
        "exit 1\n"
    )
    compiler.chmod(0o755)
    done = run_check({"PATH": bare_path(tmp_path), "CC": str(compiler)})
    assert done.returncode == 1 and len(done.stderr.splitlines()) == 1
    assert "needs Python's headers (Python.h)" in done.stderr and "install them" in done.stderr


def test_the_check_runs_before_anything_is_built() -> None:
    for script, first_build in (
        (".ci/run", "python3 -m venv"),
        ("scripts/test_compiled.sh", "venv="),
    ):
        text = (ROOT / script).read_text()
        assert "bash scripts/check_compiler.sh" in text, script
        assert text.index("bash scripts/check_compiler.sh") < text.index(first_build), script
