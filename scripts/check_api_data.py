"""Compare the suite's copies of the API facts (tests/data/) with the shared notes.

The tests read only the copies in `tests/data/`, so the suite runs from a bare clone. This
script is how the copies are kept honest: run it where the project's shared notes sit beside
the repository (`../shared/api`, or a folder given with `--shared`). It prints a diff for each
file that differs and exits 1; it exits 0 when the copies are current, and also (saying so)
when there is nothing to compare with.
"""

from __future__ import annotations

import argparse
import difflib
import sys
from collections.abc import Sequence
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
COPIES = REPO / "tests" / "data"
SHARED = REPO.parent / "shared" / "api"
FILES = ("endpoints.tsv", "wire-vectors.json", "credits.tsv")


def differences(copies: Path, shared: Path) -> list[str]:
    """Return one report per file whose copy is not byte for byte the shared one."""
    reports = []
    for name in FILES:
        ours, theirs = copies / name, shared / name
        if not theirs.exists():
            reports.append(f"{theirs}: missing from the shared notes\n")
            continue
        if not ours.exists():
            reports.append(f"{ours}: missing; copy it from {theirs}\n")
            continue
        if ours.read_bytes() == theirs.read_bytes():
            continue
        diff = difflib.unified_diff(
            theirs.read_text(encoding="utf-8").splitlines(),
            ours.read_text(encoding="utf-8").splitlines(),
            fromfile=str(theirs),
            tofile=str(ours),
            lineterm="",
        )
        text = "\n".join(diff)
        # Line endings or a final newline alone give no diff lines, yet the bytes differ.
        reports.append(text + "\n" if text else f"{ours}: differs from {theirs} in line ends\n")
    return reports


def main(argv: Sequence[str] | None = None) -> int:
    """Run the comparison; the exit status is 1 when a copy is out of date."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--shared", type=Path, default=SHARED, help="the shared API notes")
    parser.add_argument("--copies", type=Path, default=COPIES, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    shared: Path = args.shared
    copies: Path = args.copies
    if not shared.is_dir():
        print(f"{shared} does not exist: nothing to compare tests/data/ with")
        return 0
    reports = differences(copies, shared)
    for report in reports:
        sys.stdout.write(report)
    if reports:
        print(f"{len(reports)} file(s) in {copies} differ from {shared}")
        return 1
    print(f"tests/data/ matches {shared}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
