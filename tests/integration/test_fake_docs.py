"""docs/testing.md's booking test, run as it is written there."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path
from typing import Any, cast

from flexclient.testing import FakeMarketplace

DOC = Path(__file__).resolve().parents[2] / "docs" / "testing.md"
TEST = "test_a_booking_from_time_slots_to_reviews"


def test_the_booking_test_in_the_docs_passes(fake_marketplace: FakeMarketplace) -> None:
    blocks = re.findall(r"```python\n(.*?)```", DOC.read_text(), flags=re.DOTALL)
    source = next(b for b in blocks if f"def {TEST}(" in b)
    namespace: dict[str, Any] = {"__name__": "docs_testing"}
    exec(compile(source, f"{DOC}:{TEST}", "exec"), namespace)
    cast(Callable[[FakeMarketplace], None], namespace[TEST])(fake_marketplace)
