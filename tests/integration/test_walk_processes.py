"""scripts/walk_processes.py: loads every process.edn under a folder and takes each transition
on the fake; here on the project's own processes (Sharetribe's are not kept in the
repository: the script is run on a checkout of them)."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

from flexclient.testing._processes import BUILT_IN

REPO = Path(__file__).parents[2]
SCRIPT = REPO / "scripts" / "walk_processes.py"
DATA = REPO / "tests" / "data" / "processes"


def walk(folder: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, str(SCRIPT), str(folder)],
        capture_output=True,
        text=True,
        check=False,
        timeout=600,
    )


def test_every_transition_of_the_built_in_processes_is_taken() -> None:
    done = walk(BUILT_IN)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "the built-in default-booking: the same" in done.stdout
    assert "default-negotiation/release-1: loaded, 47 transitions, 17 states" in done.stdout
    assert "walked: 47/47 transitions taken" in done.stdout
    assert done.stdout.rstrip().endswith("all taken")


def test_what_cannot_be_loaded_or_taken_is_reported(tmp_path: Path) -> None:
    for name in ("pricing", "timers"):
        shutil.copytree(DATA / name, tmp_path / name)
    broken = tmp_path / "broken"
    broken.mkdir()
    (broken / "process.edn").write_text("{:format :v3 :transitions [")
    done = walk(tmp_path)
    assert done.returncode == 1
    assert "broken: NOT LOADED" in done.stdout
    assert "walked: 9/9 transitions taken" in done.stdout  # timers
    assert "FAILED: transition/break" in done.stdout  # its action/fail
    assert "transition/refund-again" in done.stdout  # a second full refund fails
    assert done.stdout.rstrip().endswith("3 problem(s)")
