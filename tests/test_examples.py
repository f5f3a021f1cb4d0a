"""The examples run and show what they promise."""

from __future__ import annotations

import runpy
from pathlib import Path

import pytest

EXAMPLES = Path(__file__).parents[1] / "examples"


def test_tour_runs_offline(capsys: pytest.CaptureFixture[str]) -> None:
    runpy.run_path(str(EXAMPLES / "tour.py"), run_name="__main__")
    out = capsys.readouterr().out
    assert "200 OK: 3 listings" in out
    assert "Road bike    450.00 EUR  Aino K   2" in out
    assert "not included: author.profileImage" in out
    assert "created: Brand new bike" in out
    assert "404 Not Found: not-found" in out
