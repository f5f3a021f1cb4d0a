"""`data/parameter-sources.tsv` says where each parameter of each endpoint comes from, and
stays true to the endpoint table: a key added or removed without its row fails here, so the
next audit of the API is a diff of that file (tests/data/README.md says how to read it)."""

from __future__ import annotations

import csv
import datetime as dt
from collections import Counter
from pathlib import Path

import pytest

from flexclient.params._common import PageOptions
from tests.test_endpoint_table import ENDPOINTS

TSV = Path(__file__).parent / "data" / "parameter-sources.tsv"
with TSV.open(encoding="utf-8", newline="") as _f:
    ROWS = list(csv.DictReader(_f, delimiter="\t"))
STATUSES = {"changelog", "typings", "docs", "sdk", "unverified", "assumed"}  # README.md there
# Documented once for every endpoint (paging, include, sparse fields, limits): not listed.
SHARED = frozenset(PageOptions.__annotations__)
NONE = "-"
"""The key of the row of an endpoint that has no parameters of its own."""


def table_keys() -> Counter[tuple[str, str, str]]:
    keys: Counter[tuple[str, str, str]] = Counter()
    for api, name, ep in ENDPOINTS:
        own = [k for k in ep.params_type.__annotations__ if k not in SHARED]
        keys.update((api, name, key) for key in own or [NONE])
    return keys


def test_every_parameter_of_the_table_has_a_source_and_no_row_names_another() -> None:
    listed = Counter((row["api"], row["endpoint"], row["key"]) for row in ROWS)
    assert [row for row, n in listed.items() if n > 1] == [], "rows given twice"
    expected = table_keys()
    assert sorted(expected - listed) == [], "parameters of the table without a source row"
    assert sorted(listed - expected) == [], "rows naming a parameter the table lacks"


@pytest.mark.parametrize("row", ROWS, ids=[f"{r['endpoint']}:{r['key']}" for r in ROWS])
def test_each_row_says_where_and_how_sure(row: dict[str, str]) -> None:
    assert row["source"].strip(), "a source"
    assert row["status"] in STATUSES
    if row["date"] or row["status"] == "changelog":
        dt.date.fromisoformat(row["date"])  # a changelog entry is dated
    if row["status"] in {"assumed", "unverified"} and row["source"].startswith("https://"):
        assert row["source"].startswith("https://www.sharetribe.com/")


def test_the_keys_issue_33_added_are_sourced() -> None:
    # Each was added for a source other than the project's earlier reading of the reference.
    added = {
        ("integration", "files.create", "ownerId"),
        ("integration", "files.query", "messageId"),
        ("integration", "file_attachments.query", "listingId"),
        ("integration", "users.verify_email", "email"),
        ("integration", "users.update_profile", "privateFileAttachments"),
        ("marketplace", "current_user.update_stripe_account", "requestedCapabilities"),
    }
    status = {(r["api"], r["endpoint"], r["key"]): r["status"] for r in ROWS}
    assert {key: status[key] for key in added if status[key] == "unverified"} == {}
