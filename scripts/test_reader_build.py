"""The tests of everything that reads Transit, run on the flexclient installed in this Python,
which must be a wheel with the compiled Transit reader:

    python scripts/test_reader_build.py [pytest options]

scripts/test_compiled.sh builds such a wheel and runs this in an environment of its own;
cibuildwheel runs it on each platform wheel ([tool.cibuildwheel] in pyproject.toml). The same
tests run on the pure-Python reader in the test suite's own run: the two builds must read every
body to the same values and refuse the same ones (docs/performance.md).
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
TESTS = [
    "test_transit.py",
    "test_transit_js.py",
    "test_values.py",
    "test_wire.py",
    "test_json_exact.py",
    "test_fuzz.py",
    "test_compat.py",
    "test_envelope.py",
    "test_models.py",
    "test_relationships.py",
    "test_sparse_fields.py",
    "test_side_effects.py",
]


def main() -> int:
    # tests/test_transit.py checks that the reader under test is the compiled one.
    os.environ["FLEX_WALK_BUILD"] = "compiled"
    # `append`: the checkout goes last on the path (for `tests`), after the installed flexclient.
    return pytest.main(
        [
            "--import-mode=append",
            "-p",
            "no:cacheprovider",
            f"--rootdir={ROOT}",
            *(str(ROOT / "tests" / name) for name in TESTS),
            *sys.argv[1:],
        ]
    )


if __name__ == "__main__":
    sys.exit(main())
