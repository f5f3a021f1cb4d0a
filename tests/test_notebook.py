"""The example notebook runs, cell by cell, as a kernel would run it."""

from __future__ import annotations

import ast
import json
from pathlib import Path
from typing import Any

import pandas as pd

NOTEBOOK = Path(__file__).parents[1] / "examples" / "explore.ipynb"


def run_cells(path: Path) -> list[Any]:
    """Execute the code cells in one namespace; return each cell's last expression's value."""
    namespace: dict[str, Any] = {"__name__": "__main__"}
    results: list[Any] = []
    for cell in json.loads(path.read_text())["cells"]:
        if cell["cell_type"] != "code":
            continue
        tree = ast.parse("".join(cell["source"]))
        last = tree.body[-1] if tree.body else None
        if isinstance(last, ast.Expr):
            tree.body.pop()
        exec(compile(tree, str(path), "exec"), namespace)
        if isinstance(last, ast.Expr):
            expression = ast.Expression(last.value)
            results.append(eval(compile(expression, str(path), "eval"), namespace))
        else:
            results.append(None)
    return results


def test_the_example_notebook_runs() -> None:
    results = run_cells(NOTEBOOK)
    envelope = results[1]
    assert "<table>" in envelope._repr_html_() and "5 Listing of 250" in repr(envelope)
    assert isinstance(results[3], dict) and "author.profile.display_name" in results[3]
    means = results[4]
    assert isinstance(means, pd.Series) and set(means.index) == {
        "road",
        "city",
        "mountain",
        "kids",
        "electric",
    }
    assert int(results[5].sum()) == 250
    assert "Event" in repr(results[6])
