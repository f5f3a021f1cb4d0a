"""The `flexclient` command as a shell runs it (`python -m flexclient`, a process of its own):
tables for people, options before or after the command's name, pipes closed early, and one
command that serves the fake marketplace."""

from __future__ import annotations

import re
import subprocess
import sys

MONEY = re.compile(r"^-?\d+\.\d\d EUR$")


def flexclient(*argv: str) -> subprocess.CompletedProcess[str]:
    command = [sys.executable, "-m", "flexclient", *argv]
    return subprocess.run(command, capture_output=True, text=True, timeout=120)


def columns(table: str) -> tuple[list[str], list[list[str]]]:
    """A table's header and its rows, cut where the rule under the header leaves a gap."""
    header, rule, *rows = table.splitlines()
    spans = [m.span() for m in re.finditer(r"-+", rule)]
    cut = [[line[a : b + 1].strip() for a, b in spans] for line in [header, *rows]]
    return cut[0], cut[1:]


def test_a_table_shows_money_in_major_units_with_the_currency() -> None:
    done = flexclient(
        "--fake", "call", "listings.query", "perPage=3", "include=author", "-o", "table"
    )
    assert done.returncode == 0, done.stderr
    header, rows = columns(done.stdout)
    assert "price" in header and "price.amount" not in header and "price.currency" not in header
    prices = [row[header.index("price")] for row in rows]
    assert len(prices) == 3 and all(MONEY.match(p) for p in prices), prices
    assert "author.profile.display_name" in header


def test_line_items_and_totals_read_as_money() -> None:
    done = flexclient(
        "--fake", "call", "transactions.query", "-o", "table", "--columns", "line_items,payin_total"
    )
    assert done.returncode == 0, done.stderr
    header, rows = columns(done.stdout)
    assert header == ["line_items", "payin_total"]
    priced = [row for row in rows if row[1]]
    assert priced and all(MONEY.match(total) for _, total in priced)
    assert all(re.match(r"line-item/\S+ .* = -?\d+\.\d\d EUR", items) for items, _ in priced)
    assert "Money(" not in done.stdout and "unit_price=" not in done.stdout
    # Asked for by name, the numbers are there too.
    numbers = flexclient(
        "--fake",
        "call",
        "listings.query",
        "perPage=1",
        "-o",
        "table",
        "--columns",
        "price.amount,price.currency",
    )
    header, rows = columns(numbers.stdout)
    assert header == ["price.amount", "price.currency"] and rows[0][0].isdigit()
    assert rows[0][1] == "EUR"
