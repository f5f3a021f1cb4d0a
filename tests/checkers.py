"""mypy --strict and pyright run as a user runs them: nothing configured but the mode, and
flexclient found as an installed package is. Each returns the errors it reported, by file
name and line."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
from collections import defaultdict
from collections.abc import Sequence
from pathlib import Path

import pytest
from mypy import api

ROOT = Path(__file__).parents[1]

Found = dict[tuple[str, int], list[str]]  # (file name, line) -> error messages


def mypy_errors(tmp: Path, files: Sequence[Path], settings: str = "") -> Found:
    """`mypy --strict` over `files`, with a configuration file of nothing but `settings`
    (by default none: no plugin)."""
    config = tmp / "mypy.ini"
    config.write_text(f"[mypy]\n{settings}\n")
    out, err, status = api.run(
        [
            "--strict",
            "--config-file",
            str(config),
            "--cache-dir",
            str(tmp / "cache"),
            # flexclient is the user's installed library: checked, its own errors not shown.
            "--follow-imports=silent",
            "--show-column-numbers",
            *map(str, files),
        ]
    )
    assert status in (0, 1) and not err.strip(), err
    found: Found = defaultdict(list)
    for line in out.splitlines():
        m = re.match(r"(.+?):(\d+):\d+: error: (.*)$", line)
        if m:
            found[(Path(m.group(1)).name, int(m.group(2)))].append(m.group(3))
    return found


def pyright_errors(tmp: Path, files: Sequence[Path]) -> Found:
    """pyright over `files` in its default mode (a file may ask for strict itself)."""
    exe = shutil.which("pyright", path=str(Path(sys.executable).parent))
    if exe is None:
        pytest.fail(
            "pyright is not installed in this virtual environment: "
            f"`{Path(sys.executable).parent / 'pip'} install pyright` (.ci/run does)"
        )
    # This project's own pyright settings are not the user's.
    config = tmp / "pyrightconfig.json"
    config.write_text(json.dumps({"extraPaths": [str(ROOT)]}))
    run = subprocess.run(
        [exe, "--outputjson", "-p", str(config), "--pythonpath", sys.executable, *map(str, files)],
        cwd=tmp,
        capture_output=True,
        text=True,
        timeout=600,
    )
    report = json.loads(run.stdout)
    assert report["summary"]["filesAnalyzed"] == len(files), report
    found: Found = defaultdict(list)
    for diag in report["generalDiagnostics"]:
        if diag["severity"] == "error":
            key = (Path(diag["file"]).name, diag["range"]["start"]["line"] + 1)
            found[key].append(diag["message"])
    return found
