"""docs/testing.md's own tests, run as they are written there."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path
from typing import Any, cast

from flexclient.testing import FakeMarketplace

DOC = Path(__file__).resolve().parents[2] / "docs" / "testing.md"


def doc_test(name: str) -> Callable[..., None]:
    """The test function `name` of a Python block of the page."""
    blocks = re.findall(r"```python\n(.*?)```", DOC.read_text(), flags=re.DOTALL)
    source = next(b for b in blocks if f"def {name}(" in b)
    namespace: dict[str, Any] = {"__name__": "docs_testing"}
    exec(compile(source, f"{DOC}:{name}", "exec"), namespace)
    return cast(Callable[..., None], namespace[name])


def test_the_booking_test_in_the_docs_passes(fake_marketplace: FakeMarketplace) -> None:
    doc_test("test_a_booking_from_time_slots_to_reviews")(fake_marketplace)


def test_the_retention_test_in_the_docs_passes() -> None:
    doc_test("test_a_feed_resumed_after_the_retention_period")()
