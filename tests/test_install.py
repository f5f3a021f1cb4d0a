"""flexclient installed as the README says, into fresh virtual environments.

Editable (`pip install -e`), then a small user project outside the repository, with the
README's quick tour pasted into it, type-checked with mypy --strict and pyright, with nothing
configured: both must find flexclient and its types and find no error. From the path
(`pip install /path/to/flexclient`) on a machine without a C compiler: a pure-Python install
that says so in one line, as `FLEXCLIENT_BUILD=pure` does anywhere (hatch_build.py). The
compiled build itself takes a minute: scripts/test_compiled.sh builds and tests it.

It installs from the wheels `.ci/run` downloads into `.cache/wheels` (no test touches the
network); run .ci/run once to fetch them. A build that asked for more than hatchling (mypy and
setuptools, for the compiler) would fail here, offline.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import venv
from collections.abc import Mapping
from pathlib import Path

import pytest

ROOT = Path(__file__).parents[1]
WHEELS = ROOT / ".cache" / "wheels"
# The user's files are kept as .txt, out of the way of this repository's own checks.
PROJECT = Path(__file__).parent / "data" / "install"


def run(
    *args: str | Path, cwd: Path, path: Path | None = None, variables: Mapping[str, str] = {}
) -> subprocess.CompletedProcess[str]:
    """Run a command as the user would, with these environment `variables` too (no other
    FLEXCLIENT_BUILD than theirs); `path` goes first on PATH (a venv's bin)."""
    env = {
        k: v
        for k, v in os.environ.items()
        if not k.startswith(("PYTHON", "MYPY", "FLEXCLIENT_BUILD"))
    }
    env.update(variables)
    if path is not None:
        env["PATH"] = f"{path}{os.pathsep}{env.get('PATH', '')}"
    return subprocess.run(
        [str(a) for a in args], cwd=cwd, capture_output=True, text=True, env=env, timeout=600
    )


def need_wheels() -> None:
    if not WHEELS.is_dir():
        # As the tests of the JS SDKs do: skipped on a developer's machine without them,
        # a failure under .ci/run (which downloads them and sets the variable).
        message = f"no wheels in {WHEELS}: run .ci/run once, which downloads them"
        if os.environ.get("FLEX_REQUIRE_WHEELS"):
            pytest.fail(message)
        pytest.skip(message)


def new_venv(home: Path) -> Path:
    """A fresh virtual environment in `home`; its Python."""
    venv.create(home / "venv", with_pip=True)
    return home / "venv" / "bin" / "python"


OFFLINE = ["--no-index", "--find-links", str(WHEELS)]


@pytest.fixture(scope="module")
def user_project(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    need_wheels()
    home = tmp_path_factory.mktemp("user")
    python = new_venv(home)
    done = run(
        python, "-m", "pip", "install", *OFFLINE, "--quiet", "-e", ROOT, "mypy", "pyright",
        cwd=home,
    )  # fmt: skip
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


# Runs the type checkers as users do: slow; `pytest -m 'not typecheck'` leaves it out.
@pytest.mark.typecheck
def test_mypy_strict_follows_the_editable_install(user_project: tuple[Path, Path]) -> None:
    python, project = user_project
    ok = run(python, "-m", "mypy", "--strict", "user_project.py", "readme_tour.py", cwd=project)
    assert ok.returncode == 0, ok.stdout + ok.stderr
    wrong = run(python, "-m", "mypy", "--strict", "user_mistake.py", cwd=project)
    assert wrong.returncode == 1 and '"ListingAttributes" has no attribute "titel"' in wrong.stdout


@pytest.mark.typecheck
def test_pyright_follows_the_editable_install(user_project: tuple[Path, Path]) -> None:
    python, project = user_project
    pyright = python.parent / "pyright"
    ok = run(pyright, "--pythonpath", python, "user_project.py", "readme_tour.py", cwd=project)
    assert ok.returncode == 0, ok.stdout + ok.stderr
    wrong = run(pyright, "--pythonpath", python, "user_mistake.py", cwd=project)
    assert wrong.returncode == 1 and 'Cannot access attribute "titel"' in wrong.stdout


@pytest.mark.typecheck
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


def build_lines(output: str) -> list[str]:
    """What hatch_build.py said during a build (pip shows it with -v)."""
    return [line.strip() for line in output.splitlines() if line.strip().startswith("flexclient:")]


@pytest.mark.typecheck
def test_the_editable_install_runs_the_source(user_project: tuple[Path, Path]) -> None:
    # Never compiled, even with a compiler at hand: a compiled module would shadow the source.
    python, project = user_project
    done = run(python.parent / "flexclient", "--version", cwd=project)
    assert done.returncode == 0, done.stderr
    source = ROOT / "flexclient" / "_wire" / "transit_reader.py"
    assert done.stdout == f"flexclient 0.1.0, Transit reader pure Python: {source}\n"


def test_without_a_compiler_an_install_is_pure_python_and_says_so(tmp_path: Path) -> None:
    need_wheels()
    python = new_venv(tmp_path)
    # pip shows what a build printed only with -v (or when the build fails).
    done = run(
        python,
        "-m",
        "pip",
        "install",
        *OFFLINE,
        "-v",
        ROOT,
        cwd=tmp_path,
        variables={"CC": "/nonexistent"},
    )
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr
    said = build_lines(done.stdout + done.stderr)
    assert len(said) == 1, said
    assert "built pure Python" in said[0] and "'/nonexistent' is not on PATH" in said[0]
    assert "apt-get install gcc python3-dev" in said[0]
    shown = run(tmp_path / "venv" / "bin" / "flexclient", "--version", cwd=tmp_path)
    assert shown.stdout.startswith("flexclient 0.1.0, Transit reader pure Python: ")
    assert "site-packages" in shown.stdout and shown.stdout.rstrip().endswith("transit_reader.py")
    # and it works: the installed flexclient reads Transit
    read = run(
        python, "-c", "from flexclient._wire.formats import TRANSIT; "
        "print(TRANSIT.decode(b'[\"^ \",\"~:a\",[1,2]]'))",
        cwd=tmp_path,
    )  # fmt: skip
    assert read.stdout == "{'a': [1, 2]}\n", read.stderr


def test_flexclient_build_pure_makes_a_pure_wheel_with_hatchling_alone(tmp_path: Path) -> None:
    need_wheels()
    done = run(
        sys.executable, "-m", "pip", "wheel", *OFFLINE, "-v", "--no-deps", "-w", tmp_path, ROOT,
        cwd=tmp_path, variables={"FLEXCLIENT_BUILD": "pure"},
    )  # fmt: skip
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr
    assert build_lines(done.stdout + done.stderr) == [
        "flexclient: the Transit reader stays pure Python (FLEXCLIENT_BUILD=pure)"
    ]
    assert [p.name for p in tmp_path.glob("*.whl")] == [
        "sharetribe_flexclient-0.1.0-py3-none-any.whl"
    ]


@pytest.mark.parametrize(
    ("variables", "message"),
    [
        (
            {"FLEXCLIENT_BUILD": "compiled", "CC": "/nonexistent"},
            "FLEXCLIENT_BUILD=compiled: The compiled Transit reader needs a C compiler, "
            "and '/nonexistent' is not on PATH",
        ),
        (
            {"FLEXCLIENT_BUILD": "fast"},
            "FLEXCLIENT_BUILD='fast': expected one of auto, compiled, pure",
        ),
    ],
)
def test_a_build_that_cannot_be_as_asked_fails_saying_why(
    tmp_path: Path, variables: dict[str, str], message: str
) -> None:
    need_wheels()
    done = run(
        sys.executable, "-m", "pip", "wheel", *OFFLINE, "--no-deps", "-w", tmp_path, ROOT,
        cwd=tmp_path, variables=variables,
    )  # fmt: skip
    assert done.returncode != 0
    assert message in done.stdout + done.stderr
    assert not list(tmp_path.glob("*.whl"))
