"""flexclient installed as the README says (`pip install -e`), into a fresh virtual
environment, then a small user project outside the repository, with the README's quick tour
pasted into it, type-checked with mypy --strict and pyright, with nothing configured: both
must find flexclient and its types and find no error.

It installs from the wheels `.ci/run` downloads into `.cache/wheels` (no test touches the
network); run .ci/run once to fetch them.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import venv
from pathlib import Path

import pytest

# Runs the type checkers as users do: slow; `pytest -m 'not typecheck'` leaves it out.
pytestmark = pytest.mark.typecheck

ROOT = Path(__file__).parents[1]
WHEELS = ROOT / ".cache" / "wheels"
# The user's files are kept as .txt, out of the way of this repository's own checks.
PROJECT = Path(__file__).parent / "data" / "install"


def run(*args: str | Path, cwd: Path, path: Path | None = None) -> subprocess.CompletedProcess[str]:
    """Run a command as the user would; `path` goes first on PATH (a venv's bin)."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTHON", "MYPY"))}
    if path is not None:
        env["PATH"] = f"{path}{os.pathsep}{env.get('PATH', '')}"
    return subprocess.run(
        [str(a) for a in args], cwd=cwd, capture_output=True, text=True, env=env, timeout=600
    )


@pytest.fixture(scope="module")
def user_project(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    if not WHEELS.is_dir():
        # As the tests of the JS SDKs do: skipped on a developer's machine without them,
        # a failure under .ci/run (which downloads them and sets the variable).
        message = f"no wheels in {WHEELS}: run .ci/run once, which downloads them"
        if os.environ.get("FLEX_REQUIRE_WHEELS"):
            pytest.fail(message)
        pytest.skip(message)
    home = tmp_path_factory.mktemp("user")
    venv.create(home / "venv", with_pip=True)
    python = home / "venv" / "bin" / "python"
    offline = ["--no-index", "--find-links", str(WHEELS), "--quiet"]
    done = run(python, "-m", "pip", "install", *offline, "-e", ROOT, "mypy", "pyright", cwd=home)
    assert done.returncode == 0, done.stderr
    project = home / "project"
    project.mkdir()
    for source in PROJECT.glob("*.py.txt"):
        shutil.copy(source, project / source.name.removesuffix(".txt"))
    # The README's quick tour, pasted into a file of the user's project as it is.
    (project / "readme_tour.py").write_text(readme_tour(), encoding="utf-8")
    return python, project


def readme_tour() -> str:
    """The Python code blocks of README.md, one after the other."""
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    blocks = re.findall(r"^```python\n(.*?)^```$", text, flags=re.DOTALL | re.MULTILINE)
    assert blocks, "README.md has no python block"
    return "\n".join(blocks)


def test_mypy_strict_follows_the_editable_install(user_project: tuple[Path, Path]) -> None:
    python, project = user_project
    ok = run(python, "-m", "mypy", "--strict", "user_project.py", "readme_tour.py", cwd=project)
    assert ok.returncode == 0, ok.stdout + ok.stderr
    wrong = run(python, "-m", "mypy", "--strict", "user_mistake.py", cwd=project)
    assert wrong.returncode == 1 and '"ListingAttributes" has no attribute "titel"' in wrong.stdout


def test_pyright_follows_the_editable_install(user_project: tuple[Path, Path]) -> None:
    python, project = user_project
    pyright = python.parent / "pyright"
    ok = run(pyright, "--pythonpath", python, "user_project.py", "readme_tour.py", cwd=project)
    assert ok.returncode == 0, ok.stdout + ok.stderr
    wrong = run(pyright, "--pythonpath", python, "user_mistake.py", cwd=project)
    assert wrong.returncode == 1 and 'Cannot access attribute "titel"' in wrong.stdout


def test_pyright_knows_the_type_of_every_public_name(user_project: tuple[Path, Path]) -> None:
    # What pyright (and Pylance) can tell a user about the package: nothing left to guess.
    python, project = user_project
    pyright = python.parent / "pyright"
    # As its docs say, with the environment's bin first on PATH: --verifytypes finds the
    # package through the Python it finds there.
    done = run(
        pyright, "--verifytypes", "flexclient", "--ignoreexternal", "--outputjson",
        cwd=project, path=python.parent,
    )  # fmt: skip
    report = json.loads(done.stdout)["typeCompleteness"]
    counts = report["exportedSymbolCounts"]
    assert (counts["withAmbiguousType"], counts["withUnknownType"]) == (0, 0), done.stdout[:4000]
    assert report["completenessScore"] == 1
