"""Transaction processes as the fake reads them from process.edn files: the built-in ones, the
errors that name what the fake cannot run, and time expressions, all six functions and all
eight timepoints."""

from __future__ import annotations

import datetime as dt
import decimal
import os
import threading
from pathlib import Path

import pytest

from flexclient._support.narrow import is_dict
from flexclient.testing import ProcessFileError
from flexclient.testing import _time_expressions as tx_time
from flexclient.testing._actions import ACTIONS
from flexclient.testing._edn import Keyword, read
from flexclient.testing._processes import BUILT_IN, built_in, load, load_all, split_alias

DATA = Path(__file__).parent / "data" / "processes"


def test_the_built_in_processes_are_the_web_templates() -> None:
    found = {p.alias: p for p in built_in()}
    assert list(found) == [
        "default-booking/release-1",
        "default-purchase/release-1",
        "default-inquiry/release-1",
        "default-negotiation/release-1",
        "default-download/release-1",
    ]
    sizes = {p.name: (len(p.transitions), len(p.states)) for p in found.values()}
    assert sizes == {
        "default-booking": (20, 12),
        "default-purchase": (25, 12),
        "default-inquiry": (1, 1),
        "default-negotiation": (47, 17),
        "default-download": (14, 8),
    }
    privileged = {p.name: sorted(t.name for t in p.transitions if t.privileged) for p in built_in()}
    assert privileged["default-booking"] == [
        "transition/request-payment",
        "transition/request-payment-after-inquiry",
    ]
    assert len(privileged["default-negotiation"]) == 9
    negotiation = found["default-negotiation/release-1"]
    # The reverse flow: the provider starts a transaction with an offer or an inquiry.
    starts = {t.name: t.actor for t in negotiation.next_from(None)}
    assert starts == {
        "transition/make-offer": "provider",
        "transition/inquire": "provider",
        "transition/request-quote": "customer",
    }
    expire = found["default-booking/release-1"].transition("transition/expire")
    assert expire is not None and expire.actor is None and isinstance(expire.at, tx_time.Earliest)
    # Shipped with the package, one folder per process.
    assert sorted(p.name for p in BUILT_IN.iterdir()) == sorted(found[a].name for a in found)


def test_a_process_is_loaded_under_its_folders_name_or_an_alias(tmp_path: Path) -> None:
    folder = tmp_path / "my-process"
    folder.mkdir()
    (folder / "process.edn").write_text(
        "{:format :v3 :transitions [{:name :transition/ask :actor :actor.role/customer "
        ":to :state/asked}] :notifications []}"
    )
    assert load(folder).alias == "my-process/release-1"
    assert load(folder / "process.edn").alias == "my-process/release-1"
    renamed = load_all({"other/release-3": folder})[0]
    assert (renamed.alias, renamed.name, renamed.version) == ("other/release-3", "other", 3)
    assert split_alias("p/latest") == ("p", "latest", 1)
    with pytest.raises(ValueError, match="not a process alias"):
        split_alias("no-slash")
    with pytest.raises(TypeError):
        load_all(str(folder))
    with pytest.raises(ProcessFileError, match="cannot be read"):
        load(tmp_path / "missing")


BASE = ":to :state/b :from :state/a"
START = "{:name :transition/start :actor :actor.role/customer :to :state/a}"


@pytest.mark.parametrize(
    ("transition", "message"),
    [
        (
            "{:name :transition/pay :actor :actor.role/customer " + BASE + " "
            ":actions [{:name :action/stripe-teleport}]}",
            "transition/pay: unknown action :action/stripe-teleport",
        ),
        (
            "{:name :transition/pay :actor :actor.role/customer " + BASE + " "
            ":actions [{:name :action.initializer/init-listing-tx}]}",
            "is implicit",
        ),
        (
            "{:name :transition/pay :actor :actor.role/customer " + BASE + " "
            ":actions [{:name :action/create-pending-booking :config {:type :week}}]}",
            ":config :type is :day or :time",
        ),
        (
            "{:name :transition/pay :actor :actor.role/customer " + BASE + " "
            ":actions [{:name :action/calculate-tx-customer-commission}]}",
            "needs :config :commission",
        ),
        (
            "{:name :transition/pay :actor :actor.role/customer " + BASE + " "
            ":actions [{:name :action/accept-booking :config {:fast true}}]}",
            "takes no :config :fast",
        ),
        (
            "{:name :transition/later " + BASE + " :at {:fn/max [1 2]}}",
            "transition/later: :at: unknown function :fn/max",
        ),
        (
            "{:name :transition/later " + BASE + " "
            ":at {:fn/timepoint [:time/last-transitioned :transition/start]}}",
            "unknown timepoint :time/last-transitioned",
        ),
        (
            "{:name :transition/later " + BASE + " :at {:fn/plus [{:fn/timepoint "
            '[:time/tx-initiated]} {:fn/period ["P1M"]}]}}',
            "years and months are not fixed spans",
        ),
        (
            "{:name :transition/later " + BASE + " :at {:fn/timepoint "
            "[:time/first-entered-state :state/nowhere]}}",
            ":at names :state/nowhere, which the process lacks",
        ),
        (
            "{:name :transition/later :actor :actor.role/operator " + BASE + " :at "
            "{:fn/timepoint [:time/tx-initiated]}}",
            "it has no :actor",
        ),
        ("{:name :transition/pay :actor :actor.role/admin " + BASE + "}", ":actor is one of"),
        ("{:name :transition/pay :actor :actor.role/customer :from :state/a}", ":to is missing"),
        ("{:name :transition/pay :actor :actor.role/customer :to :state/x :from :state/y}",
         ":transition/pay: its :from :state/y is a state no transition leads to"),
        ("{:name :transition/pay :actor :actor.role/customer :to :state/x :from :state/aa}",
         ":transition/pay: its :from :state/aa is a state no transition leads to; "
         "did you mean 'state/a'?"),
        ("{:name :transition/start :actor :actor.role/customer " + BASE + "}",
         "transition :transition/start is defined more than once"),
        ("{:name :transition/pay :actor :actor.role/customer :undo true " + BASE + "}",
         "unknown key :undo"),
    ],
)  # fmt: skip
def test_what_the_fake_cannot_run_is_refused_when_loaded(
    tmp_path: Path, transition: str, message: str
) -> None:
    path = tmp_path / "broken" / "process.edn"
    path.parent.mkdir()
    path.write_text(f"{{:format :v3 :transitions [{START} {transition}] :notifications []}}")
    with pytest.raises(ProcessFileError) as info:
        load(path)
    assert message in str(info.value) and info.value.where == str(path)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("{:format :v3 :transitions [", "not valid EDN"),
        ("{:format :v3}\n{:format :v3}", "expected one EDN value, found 2"),
        ("{:format :v2 :transitions []}", "the fake runs format :v3"),
        ("{:format :v3 :transitions [{:name :transition/a :from :state/x :to :state/y "
         ":actor :actor.role/customer}]}", "no transition starts a transaction"),
        ("{:format :v3 :transitions [" + START + "] :notifications [{:name :notification/n "
         ":on :transition/nope :to :actor.role/customer :template :t}]}",
         ":notification/n: :on names :transition/nope"),
        ("[1 2]", "a process is a map"),
    ],
)  # fmt: skip
def test_files_that_are_no_process_are_refused(tmp_path: Path, text: str, message: str) -> None:
    path = tmp_path / "process.edn"
    path.write_text(text)
    with pytest.raises(ProcessFileError, match=message):
        load(path, "x/release-1")


def test_edn_is_read_into_plain_values() -> None:
    value = read('{:a [1 2.5 "s" :k/w nil true #{1} (3) 0.1M]}')
    assert value == {
        "a": (1, 2.5, "s", "k/w", None, True, frozenset({1}), (3,), decimal.Decimal("0.1"))
    }
    assert is_dict(value) and all(isinstance(k, Keyword) for k in value)
    assert repr(Keyword("k/w")) == "Keyword('k/w')" and Keyword("k/w").namespace == "k"
    with pytest.raises(ProcessFileError, match="unexpected '\\]' on line 2"):
        read("{:a 1\n :b ]", where="x.edn")


T0 = dt.datetime(2030, 1, 1, tzinfo=dt.UTC)
HOUR = dt.timedelta(hours=1)


def _at(text: str, clock: tx_time.Clock) -> dt.datetime | None:
    return tx_time.when(tx_time.parse(read(text)), clock)


def test_time_expressions_every_function_and_timepoint() -> None:
    clock = tx_time.Clock(
        now=T0 + 10 * HOUR,
        initiated=T0,
        first_entered={"state/a": T0 + HOUR},
        last_entered={"state/a": T0 + 5 * HOUR},
        first_transitioned={"transition/go": T0 + 2 * HOUR},
        booking={
            "booking-start": T0 + 24 * HOUR,
            "booking-end": T0 + 48 * HOUR,
            "booking-display-start": T0 + 23 * HOUR,
            "booking-display-end": T0 + 49 * HOUR,
        },
    )
    tp = "{:fn/timepoint [%s]}"
    assert _at(tp % ":time/tx-initiated", clock) == T0
    assert _at(tp % ":time/first-entered-state :state/a", clock) == T0 + HOUR
    assert _at(tp % ":time/last-entered-state :state/a", clock) == T0 + 5 * HOUR
    assert _at(tp % ":time/first-transitioned :transition/go", clock) == T0 + 2 * HOUR
    assert _at(tp % ":time/booking-start", clock) == T0 + 24 * HOUR
    assert _at(tp % ":time/booking-end", clock) == T0 + 48 * HOUR
    assert _at(tp % ":time/booking-display-start", clock) == T0 + 23 * HOUR
    assert _at(tp % ":time/booking-display-end", clock) == T0 + 49 * HOUR
    start = tp % ":time/tx-initiated"
    assert _at(
        f'{{:fn/plus [{start} {{:fn/period ["P1D"]}} {{:fn/period ["PT30M"]}}]}}', clock
    ) == (T0 + dt.timedelta(days=1, minutes=30))
    # A period without its vector, as the reference also writes it.
    end = tp % ":time/booking-end"
    assert _at(f'{{:fn/minus [{end} {{:fn/period "P1W"}}]}}', clock) == T0 - 120 * HOUR
    assert _at(f"{{:fn/min [{end} {start} {tp % ':time/booking-start'}]}}", clock) == T0
    # ignore-if-past: the time if it is still to come, nothing if it has passed.
    assert _at(f"{{:fn/ignore-if-past [{end}]}}", clock) == T0 + 48 * HOUR
    assert _at(f"{{:fn/ignore-if-past [{start}]}}", clock) is None
    # A timepoint not reached yet comes to nothing, and so does what is computed from it.
    later = tp % ":time/first-entered-state :state/b"
    assert _at(later, clock) is None
    assert _at(f'{{:fn/plus [{later} {{:fn/period ["PT1H"]}}]}}', clock) is None
    assert _at(f"{{:fn/min [{later} {start}]}}", clock) == T0  # the others still count
    assert _at(tp % ":time/booking-start", tx_time.Clock(now=T0)) is None  # no booking
    assert tx_time.duration("P1W2DT3H4M5.5S") == dt.timedelta(
        weeks=1, days=2, hours=3, minutes=4, seconds=5.5
    )


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ('{:fn/period ["P1D"]}', "a span of time, not a moment"),
        ("{:fn/min [{:fn/timepoint [:time/tx-initiated]}]}", "two or more moments"),
        ("{:fn/plus [{:fn/timepoint [:time/tx-initiated]}]}", "one or more periods"),
        ("{:fn/plus [{:fn/timepoint [:time/tx-initiated]} {:fn/timepoint [:time/tx-initiated]}]}",
         "add periods"),
        ("{:fn/ignore-if-past []}", "takes one moment"),
        ("{:fn/timepoint [:time/tx-initiated :state/a]}", "takes nothing more"),
        ("{:fn/timepoint [:time/first-entered-state :transition/a]}", "takes a state"),
        ("{:fn/plus [{:fn/timepoint [:time/tx-initiated]} {:fn/period [:P1D]}]}",
         "ISO 8601 duration"),
        ("{:fn/timepoint [:time/tx-initiated] :fn/min []}", "a map of one function"),
    ],
)  # fmt: skip
def test_time_expressions_that_are_wrong(text: str, message: str) -> None:
    with pytest.raises(tx_time.TimeExpressionError, match=message):
        tx_time.parse(read(text))


def test_the_projects_processes_use_every_action_and_timer_form() -> None:
    # The test processes of tests/data/processes, and the built-in ones.
    processes = [*load_all(sorted(DATA.iterdir())), *built_in()]
    used = {a.name for p in processes for t in p.transitions for a in t.actions}
    explicit = {name for name, action in ACTIONS.items() if not action.implicit}
    assert explicit - used == set()
    text = "".join((folder / "process.edn").read_text() for folder in DATA.iterdir())
    for name in [*tx_time.FUNCTIONS, *tx_time.TIMEPOINTS]:
        assert f":{name}" in text, name


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("{:format :v3\n :at #inst \"2020-13-45T00:00:00Z\"}",
         'bad #inst value "2020-13-45T00:00:00Z" on line 2: month must be in 1..12'),
        ('{:format :v3 :id #uuid "nope"}', 'bad #uuid value "nope" on line 1'),
        ("{:format :v3 :at #inst 5}", "bad #inst value 5 on line 1"),
        ("{:format :v3\n\n :x #my/tag 1}", "unknown tag #my/tag on line 3"),
        ("[" * 5000 + "]" * 5000, "nested more than 100 levels deep"),
        ("#{" * 3000 + "}" * 3000, "nested more than 100 levels deep"),
        ("{:format :v3 {:a 1} 2}", "a map used as a map key or set element"),
    ],
)  # fmt: skip
def test_edn_a_process_file_cannot_hold_is_a_process_file_error(
    tmp_path: Path, text: str, message: str
) -> None:
    path = tmp_path / "process.edn"
    path.write_text(text)
    with pytest.raises(ProcessFileError) as info:
        load(path, "x/release-1")
    assert message in str(info.value) and info.value.where == str(path)


def test_a_file_that_is_not_utf8_names_the_byte_and_line(tmp_path: Path) -> None:
    path = tmp_path / "process.edn"
    path.write_bytes('{:format :v3\n :title "Kyyti\u00e4"}'.encode("latin-1"))
    with pytest.raises(ProcessFileError, match="is not UTF-8 text: byte 0xe4 on line 2"):
        load(path, "x/release-1")


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="FIFOs are POSIX's")
def test_a_fifo_is_refused_at_once(tmp_path: Path) -> None:
    path = tmp_path / "process.edn"
    os.mkfifo(path)
    # Opened for reading as a file, a FIFO waits for a writer for ever: run it aside.
    outcome: list[BaseException] = []
    reader = threading.Thread(target=lambda: _load_into(path, outcome), daemon=True)
    reader.start()
    reader.join(10)
    assert not reader.is_alive(), "loading a FIFO hangs"
    assert "is a FIFO, not a regular file" in str(outcome[0])


def _load_into(path: Path, outcome: list[BaseException]) -> None:
    try:
        load(path, "x/release-1")
    except ProcessFileError as exc:
        outcome.append(exc)


def test_a_folder_or_a_huge_file_at_the_path_is_no_process(tmp_path: Path) -> None:
    folder = tmp_path / "p" / "process.edn"
    folder.mkdir(parents=True)
    with pytest.raises(ProcessFileError, match="cannot be read: is a folder, not a regular file"):
        load(tmp_path / "p")
    huge = tmp_path / "huge.edn"
    huge.write_bytes(b" " * (4 * 1024 * 1024 + 1))
    with pytest.raises(ProcessFileError, match="is larger than 4 MiB"):
        load(huge, "x/release-1")
