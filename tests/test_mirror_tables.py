"""A mirror table is declared once, in its entry in `flexclient.mirror.schema`: how a snapshot
reads it, and whether it is optional, reach the sync, the `Mirror` and dlt options and the
command line's flags from there (docs/development.md, "Adding a mirror table")."""

from __future__ import annotations

import inspect
import typing
from pathlib import Path

import pytest

from flexclient import IntegrationClient, ParameterError
from flexclient._cli import main, parser
from flexclient._endpoints.kinds import ListQuery
from flexclient._endpoints.walk import iter_endpoints
from flexclient.mirror import OPTIONAL_TABLES, Mirror, OptionalTables
from flexclient.mirror.dlt import dlt_source
from flexclient.mirror.schema import TABLES, PerParent, Table, Windows

OPTIONAL = [t for t in TABLES if t.optional]


def test_the_optional_tables_are_the_entries_that_say_so() -> None:
    assert tuple(t.name for t in OPTIONAL) == OPTIONAL_TABLES
    assert OPTIONAL_TABLES == ("messages", "availability_exceptions", "stock_adjustments")
    assert all(t.cost for t in OPTIONAL) and not any(t.cost for t in TABLES if not t.optional)


def test_each_optional_table_is_a_keyword_of_the_mirror_and_the_dlt_source() -> None:
    # Declared once for both (and for the type checkers: tests/typing names a misspelled one).
    assert typing.get_type_hints(OptionalTables) == dict.fromkeys(OPTIONAL_TABLES, bool)
    for function in (Mirror.__init__, dlt_source):
        tables = inspect.signature(function).parameters["tables"]
        assert tables.kind is inspect.Parameter.VAR_KEYWORD
        assert tables.annotation == "Unpack[OptionalTables]"


@pytest.mark.parametrize("table", OPTIONAL, ids=[t.name for t in OPTIONAL])
def test_each_optional_keyword_adds_its_table_alone(table: Table, tmp_path: Path) -> None:
    integ = IntegrationClient("id", "secret", base_url="http://127.0.0.1:9")
    with Mirror(integ, f"sqlite:///{tmp_path / 'plain.db'}") as plain:
        assert [t for t in TABLES if t not in plain.tables] == OPTIONAL
    chosen = typing.cast("OptionalTables", {table.name: True})
    with Mirror(integ, f"sqlite:///{tmp_path / 'more.db'}", **chosen) as more:
        assert [t for t in TABLES if t not in more.tables] == [t for t in OPTIONAL if t != table]


def test_a_table_that_is_not_optional_is_refused_by_name_before_anything_is_made(
    tmp_path: Path,
) -> None:
    integ = IntegrationClient("id", "secret", base_url="http://127.0.0.1:9")
    with pytest.raises(ParameterError) as refused:
        Mirror(integ, f"sqlite:///{tmp_path / 'm.db'}", **{"message": True})  # type: ignore[arg-type]
    assert refused.value.param == "message" and "messages" in str(refused.value)
    assert not list(tmp_path.iterdir())


def test_each_optional_table_is_a_flag_of_mirror_sync_with_its_cost(
    capsys: pytest.CaptureFixture[str],
) -> None:
    flags = [f"--{t.name.replace('_', '-')}" for t in OPTIONAL]
    args = parser().parse_args(["mirror", "sync", "sqlite:///m.db", *flags[:1]])
    assert {t.name: getattr(args, t.name) for t in OPTIONAL} == {
        t.name: t is OPTIONAL[0] for t in OPTIONAL
    }
    with pytest.raises(SystemExit):
        main(["mirror", "sync", "--help"])
    shown = " ".join(capsys.readouterr().out.split())
    for flag, table in zip(flags, OPTIONAL, strict=True):
        assert f"{flag} also mirror {table.name.replace('_', ' ')} ({table.cost}" in shown


def test_each_table_a_snapshot_reads_names_a_list_query_of_the_integration_api() -> None:
    lists = {e.group for e in iter_endpoints("integration") if isinstance(e.endpoint, ListQuery)}
    read = [t for t in TABLES if t.read is not None]
    assert [t.name for t in read] == [
        "users",
        "listings",
        "transactions",
        "messages",
        "availability_exceptions",
        "stock_adjustments",
    ]
    for position, table in enumerate(read):
        assert table.read is not None and table.read.group in lists, table.name
        if isinstance(table.read, PerParent):
            # Its parent is read first, by windows of its own.
            assert isinstance(table.read.parent.read, Windows)
            assert table.read.parent in read[:position]
            assert table.read.column in {c.name for c in table.columns}
