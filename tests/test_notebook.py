"""The example notebook runs in a real Jupyter kernel (nbclient, ipykernel: the `notebook`
extra), and shows what a notebook user sees: HTML tables, short reprs, money by currency."""

from __future__ import annotations

from pathlib import Path
from typing import Any, cast

import nbformat
from nbclient import NotebookClient

ROOT = Path(__file__).parents[1]
NOTEBOOK = ROOT / "examples" / "explore.ipynb"


def executed() -> list[Any]:
    # nbformat is not annotated: its nodes are dicts read by attribute.
    notebook: Any = cast(Any, nbformat.read(NOTEBOOK, as_version=4))  # type: ignore[no-untyped-call]
    client = NotebookClient(
        notebook, timeout=120, kernel_name="python3", resources={"metadata": {"path": str(ROOT)}}
    )
    client.execute()
    return [cell for cell in notebook.cells if cell.cell_type == "code"]


def shown(cell: Any, kind: str = "text/plain") -> str:
    """What a cell shows: its result in the given form, and what it printed."""
    parts: list[str] = []
    for output in cell.outputs:
        if output.output_type in ("execute_result", "display_data"):
            parts.append(output.data.get(kind, ""))
        elif output.output_type == "stream":
            parts.append(output.text)
    return "\n".join(parts)


def test_the_example_notebook_runs_in_a_kernel() -> None:
    cells = executed()
    assert not [o for c in cells for o in c.outputs if o.output_type == "error"]
    page = cells[1]
    assert "<table>" in shown(page, "text/html") and "5 Listing of 250" in shown(page)
    printed = shown(cells[2])
    assert "<Listing listing " in printed and " EUR" in printed  # short, money by currency
    assert "author.profile.display_name" in shown(cells[3])
    means = shown(cells[4])
    assert all(category in means for category in ["road", "city", "mountain", "kids"])
    assert "Event" in shown(cells[6])
