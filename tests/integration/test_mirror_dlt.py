"""The dlt source: the mirror's tables into a dlt destination (DuckDB here), changes merged
by `id` and deletions deleted, run after run."""

from __future__ import annotations

from pathlib import Path
from typing import get_args

import dlt
import duckdb
import pytest

from flexclient import MarketplaceClient
from flexclient.mirror import status
from flexclient.mirror.dlt import _DLT_TYPES, dlt_source
from flexclient.mirror.schema import LISTINGS, Kind
from flexclient.testing import FakeMarketplace
from tests.helpers import NO_WAIT, integration


@pytest.fixture(autouse=True)
def _quiet_dlt(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    # No usage reports to dlthub, and dlt's files in the test's folder.
    monkeypatch.setenv("RUNTIME__DLTHUB_TELEMETRY", "false")
    monkeypatch.setenv("DLT_DATA_DIR", str(tmp_path / "dlt-data"))
    monkeypatch.chdir(tmp_path)


def test_runs_merge_changes_and_delete_what_was_deleted(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    warehouse = tmp_path / "warehouse.duckdb"
    staging = f"sqlite:///{tmp_path / 'staging.db'}"
    with FakeMarketplace(seed="demo") as fake:
        integ = integration(fake)
        host = MarketplaceClient(fake.client_id, base_url=fake.url, retry_policy=NO_WAIT)
        host.current_user.create(
            {"email": "h@example.com", "password": "pass-word-1", "firstName": "H", "lastName": "O"}
        )
        host.login(username="h@example.com", password="pass-word-1")
        draft = host.own_listings.create_draft({"title": "A draft"}).data.data
        pipeline = dlt.pipeline(
            "market",
            destination=dlt.destinations.duckdb(str(warehouse)),
            pipelines_dir=str(tmp_path / "pipelines"),
            dataset_name="market",
        )

        def run() -> None:
            source = dlt_source(integ, staging=staging)
            assert list(source.resources) == ["sharetribe"]
            pipeline.run(source)

        run()
        with duckdb.connect(str(warehouse)) as db:
            listings = db.sql("SELECT count(*) FROM market.listings").fetchall()[0][0]
            images = db.sql("SELECT count(*) FROM market.listings__images").fetchall()[0][0]
            types = dict(
                db.sql(
                    "SELECT column_name, data_type FROM information_schema.columns"
                    " WHERE table_schema = 'market' AND table_name = 'listings'"
                ).fetchall()
            )
            live = db.sql(
                "SELECT count(*) FROM market.listings WHERE _deleted IS NOT FALSE"
            ).fetchall()
            nullable = db.sql(
                "SELECT is_nullable FROM information_schema.columns"
                " WHERE table_schema = 'market' AND table_name = 'listings' AND column_name = 'id'"
            ).fetchall()
            tables = {
                r[0]
                for r in db.sql(
                    "SELECT table_name FROM information_schema.tables WHERE table_schema = 'market'"
                ).fetchall()
            }
        assert listings == 251 and images == 250  # the demo's, and the draft (no image)
        assert pipeline.default_schema_name == "sharetribe"
        assert capsys.readouterr().err == ""  # no progress drawn: dlt has its own
        # Each column typed as the mirror's schema says (a boolean is one, not SQLite's 0 or 1).
        assert types["created_at"] == "TIMESTAMP WITH TIME ZONE"
        assert types["deleted"] == "BOOLEAN" and types["price_amount"] == "BIGINT"
        assert types["geolocation_lat"] == "DOUBLE" and types["title"] == "VARCHAR"
        assert {c.name for c in LISTINGS.columns} <= set(types)
        assert live == [(0,)] and nullable == [("NO",)]  # `_deleted`; ids required
        # The optional tables only when asked for.
        assert {"users", "listings", "transactions", "events"} <= tables
        assert not tables & {"messages", "availability_exceptions", "stock_adjustments"}
        assert not set(status(staging).rows) & {"availability_exceptions", "stock_adjustments"}

        renamed = next(
            listing
            for listing in integ.listings.query({"perPage": 2}).data.data
            if listing.id != draft.id
        )
        integ.listings.update({"id": renamed.id, "title": "Renamed for dlt"})
        host.own_listings.discard_draft({"id": draft.id})
        run()
        run()  # nothing new: nothing loaded, nothing changes
        trace = pipeline.last_trace
        assert trace is not None and trace.last_normalize_info is not None
        loaded = trace.last_normalize_info.row_counts
        assert not {name: n for name, n in loaded.items() if not name.startswith("_dlt")}
    with duckdb.connect(str(warehouse)) as db:
        titles = dict(db.sql("SELECT id, title FROM market.listings").fetchall())
        events = db.sql("SELECT count(*) FROM market.events").fetchall()[0][0]
    assert titles[str(renamed.id)] == "Renamed for dlt"
    assert str(draft.id) not in titles and len(titles) == 250
    assert events >= 2  # the update and the deletion


def test_every_kind_of_column_has_a_dlt_type() -> None:
    assert set(_DLT_TYPES) == set(get_args(Kind))
