"""Credits (flexclient.credits): the published figures, which answers are billed, what an
answer and a month cost, the meter, the `credits` command and the tables of docs/credits.md.

`tests/data/credits.tsv` is a byte-for-byte copy of the shared API notes' `api/credits.tsv`
(from Sharetribe's "API credit usage reference"), copied on 2026-11-26, as the other files
of tests/data/ are. The expected figures below are typed from the notes' REFERENCE.md, not
read from the module.

Run as `python -m tests.test_credits` (from the repository root) to rewrite the generated
tables of docs/credits.md from the module's data.
"""

from __future__ import annotations

import re
import sys
import threading
from dataclasses import FrozenInstanceError
from decimal import ROUND_HALF_UP, Decimal
from fractions import Fraction
from itertools import pairwise
from pathlib import Path
from random import Random
from typing import get_args

import pytest
from hypothesis import given
from hypothesis import strategies as st

from flexclient._errors import CreditBudgetExceededError, MissingExtraError, ParameterError
from flexclient.credits import (
    BYTES_PER_GB,
    CREDITS,
    INCLUDED_CREDITS,
    TIERS,
    TRANSFER_PATHS,
    TRANSFER_PER_GB,
    USAGE_TYPES,
    EndpointUsage,
    UsageMeter,
    UsageType,
    bills_transfer,
    check_credit_budget,
    cost,
    cost_table,
    credits_for,
    is_billed,
    price,
    usage_type,
)
from tests.integration.test_cli import run
from tests.test_cold_start import fresh

ROOT = Path(__file__).parents[1]
TSV = ROOT / "tests" / "data" / "credits.tsv"
DOC = ROOT / "docs" / "credits.md"

QUERY = "/v1/api/listings/query"  # Heavy read, 5
UPLOAD = "/v1/api/file_uploads/create"  # File upload, 70 + 255,000 a GB
IMAGE = "/v1/api/images/upload"  # Image upload, 30 + 230,000 a GB
DOWNLOAD = "/v1/integration_api/file_downloads/create"  # File download, 5 + 25,000 a GB


def tsv_rows() -> list[tuple[str, str, str]]:
    lines = TSV.read_text(encoding="utf-8").splitlines()
    assert lines[0] == "path\tusage_type\tdata_transfer"
    rows: list[tuple[str, str, str]] = []
    for line in lines[1:]:
        path, kind, transfer = line.split("\t")
        rows.append((path, kind, transfer))
    return rows


# --- the figures ---------------------------------------------------------------------------


def test_every_usage_types_credits_a_request() -> None:
    assert dict(CREDITS) == {
        "Simple read": 1,
        "Standard read": 2,
        "Heavy read": 5,
        "Simple write": 5,
        "Standard write": 10,
        "Heavy write": 15,
        "Authentication": 1,
        "File upload": 70,
        "File download": 5,
        "Image upload": 30,
        "Image download": Decimal("1.5"),
        "Simple asset read": Decimal("0.5"),
        "Standard asset read": 5,
        "Heavy asset read": 10,
        "Standard asset write": 15,
        "Heavy asset write": 30,
    }
    assert set(get_args(UsageType)) == set(CREDITS)
    assert all(isinstance(v, Decimal) for v in CREDITS.values())


def test_import_star_gives_the_public_names() -> None:
    namespace: dict[str, object] = {}
    exec("from flexclient.credits import *", namespace)
    assert set(namespace) - {"__builtins__"} == {
        "BYTES_PER_GB",
        "CREDITS",
        "INCLUDED_CREDITS",
        "TIERS",
        "TRANSFER_PATHS",
        "TRANSFER_PER_GB",
        "USAGE_TYPES",
        "EndpointUsage",
        "Tier",
        "UsageMeter",
        "UsageSnapshot",
        "UsageType",
        "bills_transfer",
        "check_credit_budget",
        "cost",
        "cost_table",
        "credits_for",
        "is_billed",
        "price",
        "transfer_cost",
        "usage_type",
    }


def test_the_transfer_rates_a_gb_and_the_gb() -> None:
    assert dict(TRANSFER_PER_GB) == {
        "File upload": 255_000,
        "File download": 25_000,
        "Image upload": 230_000,
        "Image download": 10_000,
    }
    assert BYTES_PER_GB == 1_000_000_000


def test_the_figures_cannot_be_changed_by_accident() -> None:
    with pytest.raises(TypeError):
        CREDITS["Heavy read"] = Decimal(0)  # type: ignore[index]
    with pytest.raises(TypeError):
        USAGE_TYPES["/v1/api/listings/query"] = "Simple read"  # type: ignore[index]


def test_the_table_is_credits_tsv_row_for_row() -> None:
    rows = tsv_rows()
    assert len(rows) == 107 == len(USAGE_TYPES)
    assert dict(USAGE_TYPES) == {path: kind for path, kind, _ in rows}
    assert {transfer for _, _, transfer in rows} == {"-", "Per GB"}
    assert {path for path, _, transfer in rows if transfer == "Per GB"} == TRANSFER_PATHS
    by_name: dict[str, Decimal] = {kind: credits for kind, credits in CREDITS.items()}
    for path, kind, transfer in rows:
        assert usage_type(path) == kind
        assert credits_for(path) == by_name[kind]
        assert bills_transfer(path) is (transfer == "Per GB")


def test_the_cost_table_has_every_row_sorted_by_path() -> None:
    table = cost_table()
    assert [row[0] for row in table] == sorted(path for path, _, _ in tsv_rows())
    for path, kind, credits, per_gb in table:
        assert (kind, credits) == (USAGE_TYPES[path], CREDITS[kind])
        assert per_gb == (f"{TRANSFER_PER_GB[kind]:,}" if path in TRANSFER_PATHS else "")
    assert ("/v1/api/file_uploads/create", "File upload", Decimal(70), "255,000") in table
    assert ("/v1/auth/token", "Authentication", Decimal(1), "") in table


def test_token_requests_and_revokes_are_authentication_and_events_a_heavy_read() -> None:
    assert cost("/v1/auth/token", 200) == cost("/v1/auth/revoke", 200) == 1
    assert usage_type("/v1/integration_api/events/query") == "Heavy read"


def test_asset_urls_bill_as_simple_asset_reads() -> None:
    for path in (
        "/v1/assets/pub/my-client/a/latest/content/translations.json",
        "/v1/assets/pub/my-client/v/1234/content/listing-types.json",
    ):
        assert usage_type(path) == "Simple asset read"
        assert cost(path, 200) == Decimal("0.5")
    for not_an_asset in (
        "/v1/assets/pub/my-client/x/latest/a.json",  # neither alias nor version
        "/v1/assets/pub//a/latest/a.json",  # no client ID
        "/v1/assets/pub/my-client/a/",  # no asset
        "/v2/assets/pub/my-client/a/latest/a.json",
    ):
        assert usage_type(not_an_asset) is None, not_an_asset


def test_a_path_not_listed_bills_nothing() -> None:
    for path in ("/v1/api/listings/search", "/v1/api/current_user/delete_stripe_account"):
        assert usage_type(path) is None
        assert credits_for(path) == 0 and cost(path, 200) == 0
        assert not bills_transfer(path)


# --- which answers are billed --------------------------------------------------------------

BILLED = [200, 201, 204, 299, 400, 402, 403, 404, 409, 413, 422, 499]
NOT_BILLED = [0, 100, 199, 300, 301, 304, 399, 401, 429, 500, 502, 503, 599, 600]


@pytest.mark.parametrize("status", BILLED)
def test_billed_answers(status: int) -> None:
    assert is_billed(status)
    assert cost(QUERY, status) == 5
    assert cost(IMAGE, status, transfer_bytes=BYTES_PER_GB) == 30 + 230_000


@pytest.mark.parametrize("status", NOT_BILLED)
def test_answers_not_billed_cost_nothing_transfer_included(status: int) -> None:
    assert not is_billed(status)
    assert cost(QUERY, status) == 0
    assert cost(IMAGE, status, transfer_bytes=BYTES_PER_GB) == 0


def test_a_404_is_billed_unless_the_endpoint_does_not_exist() -> None:
    assert is_billed(404) and is_billed(404, endpoint_exists=True)
    assert not is_billed(404, endpoint_exists=False)
    assert cost("/v1/api/listings/show", 404) == 1
    assert cost("/v1/api/listings/show", 404, endpoint_exists=False) == 0
    # Only a 404 asks whether the endpoint exists.
    assert is_billed(400, endpoint_exists=False) and not is_billed(500, endpoint_exists=False)


# --- transfer ------------------------------------------------------------------------------


def test_transfer_costs_exactly() -> None:
    assert cost(UPLOAD, 200, transfer_bytes=1) == Decimal("70.000255")
    assert cost(UPLOAD, 200, transfer_bytes=BYTES_PER_GB) == 255_070
    assert cost(IMAGE, 200, transfer_bytes=74) == Decimal("30.01702")
    assert cost(DOWNLOAD, 200, transfer_bytes=1) == Decimal("5.000025")
    assert cost(UPLOAD, 200, transfer_bytes=10**30) == Decimal(255) * 10**24 + 70
    # No bytes given, none billed: the request alone.
    assert (cost(UPLOAD, 200), cost(IMAGE, 201)) == (Decimal(70), Decimal(30))
    assert str(cost(UPLOAD, 200, transfer_bytes=BYTES_PER_GB)) == "255070"


@given(st.sampled_from(sorted(TRANSFER_PATHS)), st.integers(0, 10**15))
def test_transfer_is_bytes_times_the_rate_over_a_gb(path: str, nbytes: int) -> None:
    kind = USAGE_TYPES[path]
    expected = Fraction(CREDITS[kind]) + Fraction(nbytes * int(TRANSFER_PER_GB[kind]), 10**9)
    assert Fraction(cost(path, 200, transfer_bytes=nbytes)) == expected


def test_bytes_on_a_path_that_bills_no_transfer_cost_nothing_more() -> None:
    assert cost(QUERY, 200, transfer_bytes=BYTES_PER_GB) == 5


def test_negative_bytes_are_refused() -> None:
    with pytest.raises(ValueError, match="never negative"):
        cost(UPLOAD, 200, transfer_bytes=-1)
    with pytest.raises(ValueError, match="never negative"):
        UsageMeter().record(UPLOAD, 500, transfer_bytes=-1)


# --- the meter -----------------------------------------------------------------------------


def test_the_meter_adds_up_in_all_and_by_endpoint() -> None:
    meter = UsageMeter()
    assert meter.record("/v1/auth/token", 200) == 1
    assert meter.record(QUERY, 200) == 5
    assert meter.record(QUERY, 503) == 0
    assert meter.record(IMAGE, 200, transfer_bytes=74) == Decimal("30.01702")
    assert meter.record("/v1/api/listings/search", 200) == 0  # not listed: counted, free
    assert (meter.requests, meter.credits) == (5, Decimal("36.01702"))
    assert meter.transfer_credits == Decimal("0.01702")
    assert meter.by_endpoint == {
        "/v1/auth/token": EndpointUsage(1, 1, Decimal(1)),
        QUERY: EndpointUsage(2, 1, Decimal(5)),
        IMAGE: EndpointUsage(1, 1, Decimal("30.01702"), 74, Decimal("0.01702")),
        "/v1/api/listings/search": EndpointUsage(1, 0, Decimal(0)),
    }


def test_bytes_of_an_answer_not_billed_are_not_counted() -> None:
    meter = UsageMeter()
    meter.record(UPLOAD, 500, transfer_bytes=BYTES_PER_GB)
    assert meter.by_endpoint[UPLOAD] == EndpointUsage(requests=1)


def test_asset_urls_count_under_their_row() -> None:
    meter = UsageMeter()
    meter.record("/v1/assets/pub/c/a/latest/content/a.json", 200)
    meter.record("/v1/assets/pub/c/a/latest/content/b.json", 200)
    assert meter.by_endpoint == {"/v1/assets/pub/{clientId}/a/...": EndpointUsage(2, 2, Decimal(1))}


def test_transfer_after_the_call_adds_credits_but_no_request() -> None:
    meter = UsageMeter()
    meter.record(DOWNLOAD, 200)
    assert meter.record_transfer(DOWNLOAD, 2_000_000) == 50
    assert (meter.requests, meter.credits, meter.transfer_credits) == (1, Decimal(55), Decimal(50))
    assert meter.by_endpoint[DOWNLOAD] == EndpointUsage(1, 1, Decimal(55), 2_000_000, Decimal(50))
    with pytest.raises(ValueError, match="bills no data transfer"):
        meter.record_transfer(QUERY, 1)
    with pytest.raises(ValueError, match="never negative"):
        meter.record_transfer(DOWNLOAD, -1)
    assert meter.credits == 55


def test_reset_starts_again() -> None:
    meter = UsageMeter()
    meter.record(QUERY, 200)
    meter.reset()
    assert (meter.requests, meter.credits, meter.transfer_credits) == (0, Decimal(0), Decimal(0))
    assert meter.by_endpoint == {} and meter.snapshot() == UsageMeter().snapshot()


def test_a_snapshot_never_changes_and_compares_by_what_was_recorded() -> None:
    one, two = UsageMeter(), UsageMeter()
    one.record(QUERY, 200)
    one.record(IMAGE, 201, transfer_bytes=10)
    two.record(IMAGE, 201, transfer_bytes=10)
    two.record(QUERY, 200)
    before = one.snapshot()
    assert before == two.snapshot() and hash(before) == hash(two.snapshot())
    one.record(QUERY, 200)
    assert before != one.snapshot()
    assert (before.requests, before.credits, before.by_endpoint[QUERY].requests) == (
        2,
        Decimal("35.0023"),  # 5, and 30 + 10 bytes at 230,000 a GB
        1,
    )
    with pytest.raises(TypeError):
        before.by_endpoint[QUERY] = EndpointUsage()  # type: ignore[index]
    with pytest.raises(FrozenInstanceError):
        before.total.credits = Decimal(0)  # type: ignore[misc]
    with pytest.raises(FrozenInstanceError):
        before.total = EndpointUsage()  # type: ignore[misc]
    # A status billed or not is part of what was recorded, even at the same credits.
    three = UsageMeter()
    three.record(QUERY, 503)
    assert three.snapshot() != UsageMeter().snapshot()


def test_by_endpoint_is_a_read_only_copy() -> None:
    meter = UsageMeter()
    meter.record(QUERY, 200)
    view = meter.by_endpoint
    meter.record(QUERY, 200)
    assert view[QUERY].requests == 1 and meter.by_endpoint[QUERY].requests == 2
    with pytest.raises(TypeError):
        view[QUERY] = EndpointUsage()  # type: ignore[index]


def test_many_threads_recording_at_once_add_up_exactly() -> None:
    interval = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)  # switch threads as often as possible
    records = [(QUERY, 200, 0), (IMAGE, 200, 74), ("/v1/auth/token", 401, 0), (UPLOAD, 201, 3)]
    threads, per_thread = 8, 500
    meter = UsageMeter()
    start = threading.Barrier(threads)

    def work() -> None:
        start.wait()
        for n in range(per_thread):
            path, status, nbytes = records[n % len(records)]
            meter.record(path, status, nbytes)

    try:
        workers = [threading.Thread(target=work) for _ in range(threads)]
        for worker in workers:
            worker.start()
        for worker in workers:
            worker.join()
    finally:
        sys.setswitchinterval(interval)
    each = per_thread // len(records) * threads
    expected = sum(each * cost(path, status, nbytes) for path, status, nbytes in records)
    assert meter.requests == threads * per_thread
    assert meter.credits == expected == each * (5 + Decimal("30.01702") + 0 + Decimal("70.000765"))
    assert sum(u.requests for u in meter.by_endpoint.values()) == threads * per_thread
    assert meter.by_endpoint[IMAGE].transfer_bytes == each * 74


RECORDS = st.lists(
    st.tuples(
        st.sampled_from([QUERY, IMAGE, UPLOAD, DOWNLOAD, "/v1/auth/token", "/v1/api/x/y"]),
        st.sampled_from([200, 201, 302, 400, 401, 404, 429, 500]),
        st.integers(0, 10**12),
    ),
    max_size=30,
)


@given(RECORDS, st.randoms())
def test_the_meter_is_the_sum_of_the_costs_in_any_order(
    records: list[tuple[str, int, int]], rnd: Random
) -> None:
    one, two = UsageMeter(), UsageMeter()
    for path, status, nbytes in records:
        one.record(path, status, nbytes)
    shuffled = list(records)
    rnd.shuffle(shuffled)
    for path, status, nbytes in shuffled:
        two.record(path, status, nbytes)
    assert one.credits == sum((cost(p, s, b) for p, s, b in records), Decimal(0))
    assert one.snapshot() == two.snapshot()


def test_a_budget_is_a_number_of_credits_zero_or_more() -> None:
    assert check_credit_budget(0) == 0
    assert check_credit_budget(Decimal("0.5")) == Decimal("0.5")
    assert check_credit_budget(2.5) == Decimal("2.5")
    for bad in (-1, Decimal("-0.5"), float("inf"), Decimal("NaN"), "5", True):
        with pytest.raises(ParameterError) as raised:
            check_credit_budget(bad)
        assert raised.value.param == "credit_budget"
    with pytest.raises(ParameterError) as named:
        check_credit_budget(-1, "credits")
    assert named.value.param == "credits"


def test_budgets() -> None:
    meter = UsageMeter()
    meter.record(QUERY, 200)
    assert not meter.would_exceed(Decimal(10), Decimal(5))  # 5 + 5 is the budget, not past it
    assert meter.would_exceed(Decimal(10), Decimal("5.5"))
    meter.check_budget(Decimal(10), Decimal(5), QUERY)
    with pytest.raises(CreditBudgetExceededError) as raised:
        meter.check_budget(Decimal(10), Decimal(15), "/v1/api/transactions/initiate")
    err = raised.value
    assert (err.budget, err.spent, err.cost) == (Decimal(10), Decimal(5), Decimal(15))
    assert err.endpoint == "/v1/api/transactions/initiate"
    assert meter.credits == 5  # checking spends nothing


def test_repr_in_words() -> None:
    meter = UsageMeter()
    assert repr(meter) == "<UsageMeter 0 requests, 0 credits>"
    meter.record("/v1/auth/token", 200)
    assert repr(meter) == "<UsageMeter 1 request, 1 credit>"
    for _ in range(11):
        meter.record(QUERY, 200)
    meter.record("/v1/assets/pub/c/a/latest/x.json", 200)
    assert repr(meter) == "<UsageMeter 13 requests, 56.5 credits>"
    assert meter.snapshot().summary() == "13 requests, 56.5 credits"


def test_html_table_for_notebooks_escapes_paths() -> None:
    meter = UsageMeter()
    meter.record(QUERY, 200)
    meter.record("/v1/api/<b>&x", 200)
    html = meter._repr_html_()
    assert html.startswith("<table><caption>2 requests, 5 credits</caption>")
    assert "<th>path</th><th>requests</th><th>credits</th>" in html
    assert f"<td>{QUERY}</td><td>1</td><td>5</td>" in html
    assert "&lt;b&gt;&amp;x" in html and "<b>" not in html
    assert meter.snapshot()._repr_html_() == html


def test_to_pandas_one_row_a_path() -> None:
    meter = UsageMeter()
    meter.record(QUERY, 200)
    meter.record(QUERY, 429)
    meter.record(IMAGE, 200, transfer_bytes=74)
    frame = meter.to_pandas()
    assert list(frame.index) == [IMAGE, QUERY] and frame.index.name == "path"
    assert list(frame.columns) == [
        "requests",
        "billed_requests",
        "credits",
        "transfer_bytes",
        "transfer_credits",
    ]
    assert frame.loc[QUERY, "requests"] == 2 and frame.loc[QUERY, "billed_requests"] == 1
    assert frame.loc[IMAGE, "credits"] == Decimal("30.01702")  # exact, not a float
    assert frame["credits"].sum() == meter.credits
    assert len(UsageMeter().to_pandas()) == 0


def test_to_pandas_without_pandas_names_the_extra(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "pandas", None)
    with pytest.raises(MissingExtraError, match=r"UsageMeter.to_pandas needs pandas") as raised:
        UsageMeter().to_pandas()
    assert (raised.value.package, raised.value.extra) == ("pandas", "pandas")


def test_importing_the_module_imports_nothing_heavy() -> None:
    modules = fresh("import flexclient.credits")
    assert not {"pandas", "html", "requests", "pydantic", "flexclient.models"} & set(modules)


# --- price ---------------------------------------------------------------------------------

# Computed by hand: (credits in the month, dollars for them, dollars a 1,000 credits above).
BY_HAND = [
    (1_000_000, Decimal("0"), Decimal("0.07")),
    (3_000_000, Decimal("140"), Decimal("0.05")),  # 2M at 0.07
    (6_000_000, Decimal("290"), Decimal("0.04")),  # + 3M at 0.05
    (10_000_000, Decimal("450"), Decimal("0.03")),  # + 4M at 0.04
    (15_000_000, Decimal("600"), Decimal("0.02")),  # + 5M at 0.03
    (20_000_000, Decimal("700"), Decimal("0.01")),  # + 5M at 0.02
    (30_000_000, Decimal("800"), Decimal("0.009")),  # + 10M at 0.01
    (50_000_000, Decimal("980"), Decimal("0.008")),  # + 20M at 0.009
    (100_000_000, Decimal("1380"), Decimal("0.007")),  # + 50M at 0.008
    (150_000_000, Decimal("1730"), Decimal("0.006")),  # + 50M at 0.007
    (200_000_000, Decimal("2030"), Decimal("0.005")),  # + 50M at 0.006
]


def by_hand(credits: Decimal) -> Decimal:
    dollars = Decimal(0)
    for start, at_start, rate in BY_HAND:
        if credits >= start:
            dollars = at_start + (credits - start) * rate / 1000
    return dollars.quantize(Decimal("0.01"), rounding=ROUND_HALF_UP)


@pytest.mark.parametrize(
    ("credits", "dollars"),
    [
        (0, "0.00"),
        (999_999, "0.00"),
        *[(start, f"{at_start}.00") for start, at_start, _ in BY_HAND],
        (2_000_000, "70.00"),
        (2_500_000, "105.00"),
        (300_000_000, "2530.00"),  # + 100M at 0.005
        (1_000_000_000, "6030.00"),
    ],
)
def test_price_at_the_tier_boundaries(credits: int, dollars: str) -> None:
    assert price(credits) == Decimal(dollars)
    assert str(price(credits)) == dollars


def test_price_rounds_the_exact_sum_half_up_to_cents() -> None:
    assert price(1_000_071) == Decimal("0.00")  # $0.00497
    assert price(1_000_072) == Decimal("0.01")  # $0.00504
    assert price(3_000_100) == Decimal("140.01")  # $140.005: half up, not to even
    assert price(Decimal("2000000.5")) == Decimal("70.00")


def test_price_with_another_allowance() -> None:
    assert price(3_000_000, included=0) == Decimal("210.00")  # the first tier's rate below 1M
    # From the very first credit: 71,500 at $0.07 a 1,000 is $5.005, rounded half up.
    assert price(71_500, included=0) == Decimal("5.01")
    assert price(3_000_000, included=2_000_000) == Decimal("70.00")
    assert price(3_000_000, included=5_000_000) == 0
    assert INCLUDED_CREDITS == 1_000_000


def test_price_refuses_what_is_no_number_of_credits() -> None:
    for wrong in (-1, Decimal("NaN"), Decimal("Infinity")):
        with pytest.raises(ValueError, match="cannot price"):
            price(wrong)
    with pytest.raises(ValueError, match="cannot price"):
        price(5, included=-1)


def test_the_tiers_are_contiguous_and_cheaper_as_they_go() -> None:
    assert TIERS[0].start == INCLUDED_CREDITS and TIERS[-1].end is None
    for before, after in pairwise(TIERS):
        assert before.end == after.start and before.per_thousand > after.per_thousand
    with pytest.raises(FrozenInstanceError):
        TIERS[0].per_thousand = Decimal(0)  # type: ignore[misc]
    assert [(t.start, t.per_thousand) for t in TIERS] == [(s, r) for s, _, r in BY_HAND]


CREDIT_COUNTS = st.integers(0, 400_000_000) | st.decimals(0, 400_000_000, places=1)


@given(CREDIT_COUNTS)
def test_price_is_the_tier_sum_by_hand(credits: int | Decimal) -> None:
    assert price(credits) == by_hand(Decimal(credits))


@given(CREDIT_COUNTS, CREDIT_COUNTS)
def test_more_credits_never_cost_less(a: int | Decimal, b: int | Decimal) -> None:
    low, high = sorted((Decimal(a), Decimal(b)))
    assert price(low) <= price(high)
    # The credits above `low` cost at most the dearest rate, at least the cheapest.
    extra = high - max(low, Decimal(INCLUDED_CREDITS)) if high > INCLUDED_CREDITS else Decimal(0)
    cent = Decimal("0.01")
    assert price(high) - price(low) <= extra * Decimal("0.07") / 1000 + cent
    assert price(high) - price(low) >= extra * Decimal("0.005") / 1000 - cent


# --- the command line ----------------------------------------------------------------------


def test_the_credits_command_prints_every_endpoint_aligned(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code, out, err = run(["credits"], capsys)
    lines = out.splitlines()
    assert code == 0 and not err and len(lines) == 2 + 107
    assert lines[0].split("  ")[0].rstrip() == "path" and set(lines[1]) <= {"-", " "}
    assert len({line.index("Heavy read") for line in lines if "Heavy read" in line}) == 1
    rows = [re.split(r"\s{2,}", line.strip()) for line in lines[2:]]
    assert rows[0] == ["/v1/api/availability_exceptions/create", "Simple write", "5"]
    assert ["/v1/api/file_uploads/create", "File upload", "70", "255,000"] in rows
    assert ["/v1/assets/pub/{clientId}/a/...", "Simple asset read", "0.5"] in rows
    assert [row[0] for row in rows] == [row[0] for row in cost_table()]


def test_the_credits_command_filters_by_path(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(["credits", "--filter", "listings/q"], capsys)
    paths = [line.split()[0] for line in out.splitlines()[2:]]
    assert code == 0 and paths == [
        "/v1/api/listings/query",
        "/v1/api/own_listings/query",
        "/v1/integration_api/listings/query",
    ]
    assert "Heavy read" in out and "5" in out
    code, out, err = run(["credits", "--filter", "nothing-here"], capsys)
    assert code == 1 and not out and "no billable endpoint path contains 'nothing-here'" in err


def test_the_credits_command_prices_a_month(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(["credits", "--price", "2500000"], capsys)
    assert (code, out) == (0, "2,500,000 credits a month: $105.00 (1,000,000 included)\n")
    code, out, _ = run(["credits", "--price", "1,000,000,000"], capsys)
    assert out == "1,000,000,000 credits a month: $6,030.00 (1,000,000 included)\n"
    code, out, _ = run(["credits", "--price", "500_000"], capsys)
    assert out == "500,000 credits a month: $0.00 (1,000,000 included)\n"
    for wrong in ("lots", "-5", "NaN"):
        code, out, err = run(["credits", f"--price={wrong}"], capsys)
        assert code == 2 and not out and "--price wants a number of credits" in err


def test_the_credits_command_imports_neither_requests_nor_pydantic() -> None:
    modules = fresh("from flexclient._cli import main\nmain(['credits', '--price', '5'])")
    assert modules[0] == "5 credits a month: $0.00 (1,000,000 included)"
    assert "requests" not in modules and "pydantic" not in modules


# --- docs/credits.md -----------------------------------------------------------------------

BLOCK = re.compile(
    r"(<!-- generated: (?P<name>[\w ]+) -->\n)(?P<table>.*?)(<!-- end generated -->)", re.S
)


def markdown(header: list[str], align: list[str], rows: list[list[str]]) -> str:
    lines = [header, align, *rows]
    return "".join("| " + " | ".join(cells) + " |\n" for cells in lines)


def generated_tables() -> dict[str, str]:
    """The tables of docs/credits.md, by name, as the module's data makes them."""
    kinds = [
        [kind, str(credits), f"{TRANSFER_PER_GB[kind]:,}" if kind in TRANSFER_PER_GB else ""]
        for kind, credits in CREDITS.items()
    ]
    endpoints = [[f"`{p}`", kind, str(c), per_gb] for p, kind, c, per_gb in cost_table()]
    tiers = [[f"up to {INCLUDED_CREDITS:,}", "included"]] + [
        [f"{t.start:,} to {t.end:,}" if t.end else f"over {t.start:,}", str(t.per_thousand)]
        for t in TIERS
    ]
    return {
        "usage types": markdown(
            ["usage type", "credits a request", "data transfer, credits a GB"],
            ["---", "--:", "--:"],
            kinds,
        ),
        "endpoints": markdown(
            ["path", "usage type", "credits", "data transfer, credits a GB"],
            ["---", "---", "--:", "--:"],
            endpoints,
        ),
        "tiers": markdown(
            ["credits in the month", "dollars a 1,000 credits"], ["---", "--:"], tiers
        ),
    }


def test_the_docs_tables_are_the_modules_data() -> None:
    found = {m["name"]: m["table"] for m in BLOCK.finditer(DOC.read_text(encoding="utf-8"))}
    assert found == generated_tables(), (
        "docs/credits.md's generated tables differ from flexclient/credits.py: rewrite them "
        "with `.venv/bin/python -m tests.test_credits` from the repository root"
    )


def rewrite_docs() -> None:
    tables = generated_tables()
    text = BLOCK.sub(lambda m: m[1] + tables[m["name"]] + m[4], DOC.read_text(encoding="utf-8"))
    DOC.write_text(text, encoding="utf-8")


if __name__ == "__main__":
    rewrite_docs()
    print(f"rewrote the generated tables of {DOC}")
