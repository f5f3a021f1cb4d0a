"""scripts/check_api_data.py: tells whether tests/data/ still matches the shared API notes."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).parents[1]
SCRIPT = REPO / "scripts" / "check_api_data.py"
DATA = REPO / "tests" / "data"


def check(shared: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, str(SCRIPT), "--shared", str(shared)],
        capture_output=True,
        text=True,
        check=False,
    )


def shared_copy(tmp_path: Path) -> Path:
    shared = tmp_path / "shared" / "api"
    shared.mkdir(parents=True)
    for name in ("endpoints.tsv", "wire-vectors.json", "credits.tsv"):
        shutil.copyfile(DATA / name, shared / name)
    return shared


def test_identical_notes_pass(tmp_path: Path) -> None:
    result = check(shared_copy(tmp_path))
    assert result.returncode == 0, result.stdout
    assert "matches" in result.stdout


def test_a_new_endpoint_in_the_notes_is_reported_with_its_line(tmp_path: Path) -> None:
    shared = shared_copy(tmp_path)
    row = "marketplace\tGET\t/v1/api/widgets/show\twidgets.show\n"
    with (shared / "endpoints.tsv").open("a", encoding="utf-8") as f:
        f.write(row)
    result = check(shared)
    assert result.returncode == 1
    assert "-" + row.rstrip("\n") in result.stdout.splitlines()
    assert "1 file(s)" in result.stdout


def test_a_changed_vector_and_a_missing_file_are_both_reported(tmp_path: Path) -> None:
    shared = shared_copy(tmp_path)
    vectors = shared / "wire-vectors.json"
    vectors.write_text(vectors.read_text(encoding="utf-8").replace("perPage=5", "perPage=6"))
    (shared / "endpoints.tsv").unlink()
    result = check(shared)
    assert result.returncode == 1
    assert "perPage=6" in result.stdout
    assert "endpoints.tsv: missing from the shared notes" in result.stdout
    assert "2 file(s)" in result.stdout


def test_line_ends_alone_still_count_as_a_difference(tmp_path: Path) -> None:
    shared = shared_copy(tmp_path)
    tsv = shared / "endpoints.tsv"
    tsv.write_bytes(tsv.read_bytes().replace(b"\n", b"\r\n"))
    result = check(shared)
    assert result.returncode == 1
    assert "line ends" in result.stdout


def test_without_the_notes_it_says_so_and_succeeds(tmp_path: Path) -> None:
    result = check(tmp_path / "nowhere")
    assert result.returncode == 0
    assert "nothing to compare" in result.stdout
