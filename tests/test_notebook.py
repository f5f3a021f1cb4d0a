"""The example notebook runs in a real Jupyter kernel (nbclient, ipykernel: the `notebook`
extra), shows what a notebook user sees (HTML tables, short reprs, money by currency), and
type-checks as the other examples do."""

from __future__ import annotations

from pathlib import Path
from typing import Any, cast

import nbformat
import pytest
from nbclient import NotebookClient

from tests.checkers import mypy_errors, pyright_errors

# Runs the type checkers as users do: slow; `pytest -m 'not typecheck'` leaves it out.
pytestmark = pytest.mark.typecheck

ROOT = Path(__file__).parents[1]
NOTEBOOK = ROOT / "examples" / "explore.ipynb"


def read() -> Any:
    # nbformat is not annotated: its nodes are dicts read by attribute.
    return cast(Any, nbformat.read(NOTEBOOK, as_version=4))  # type: ignore[no-untyped-call]


def executed() -> list[Any]:
    notebook = read()
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
    table = shown(page, "text/html")
    assert "<table>" in table and "5 Listing of 250" in shown(page)
    # What the caption counts as included is shown: by each listing, and in tables by type.
    assert "<th>author</th>" in table and "<caption>included: 5 image</caption>" in table
    printed = shown(cells[2])
    assert "<Listing listing " in printed and " EUR" in printed  # short, money by currency
    assert "author.profile.display_name" in shown(cells[3])
    means = shown(cells[4])
    assert all(category in means for category in ["road", "city", "mountain", "kids"])
    assert "Event" in shown(cells[6])
    # An event's resource is one column whose cells open to its fields, not ~30 columns.
    events = shown(cells[6], "text/html")
    assert "<th>resource</th>" in events and "<details><summary>" in events
    assert "<th>resource.attributes" not in events
    # The demo's history: transactions in several states, messages, reviews.
    history = shown(cells[7])
    # Money and line items as people read them, in the HTML table as in the text.
    for form in ("text/plain", "text/html"):
        table = shown(cells[7], form)
        assert " EUR" in table and "line-item/day" in table
        assert "Money(" not in table and "unit_price=" not in table
    assert all(
        f"transition/{name}" in history
        for name in ("accept", "decline", "cancel", "expire-payment", "review-2-by-provider")
    )
    aino = shown(cells[8])
    assert "Most of June, yes." in aino and "'Aino brought the bike back" in aino


def test_the_example_notebook_type_checks_as_the_examples_do(tmp_path: Path) -> None:
    # Neither checker reads a notebook: its code cells, in order, are checked as one module,
    # by mypy --strict and by pyright in strict mode, as examples/*.py are.
    cells = [str(c.source) for c in read().cells if c.cell_type == "code"]
    module = tmp_path / "explore_cells.py"
    module.write_text(
        "# pyright: strict\n"
        # A cell's last expression is what the notebook shows, not a value left unused.
        "# pyright: reportUnusedExpression=false\n" + "\n\n".join(cells) + "\n"
    )
    mypy_dir, pyright_dir = tmp_path / "mypy", tmp_path / "pyright"
    mypy_dir.mkdir()
    pyright_dir.mkdir()
    assert mypy_errors(mypy_dir, [module]) == {}
    assert pyright_errors(pyright_dir, [module]) == {}
