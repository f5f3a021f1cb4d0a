"""Type checking as users get it: mypy --strict and pyright, with nothing configured.

Every file under typing/ is checked by both, as a user's code is: mypy with `--strict` and
no configuration file (no plugin), pyright in its default mode. A line may be marked by the
comment lines right above it:

    # [mypy] Extra key "per_page" for TypedDict "ListingsQueryParams"
    # [pyright] "per_page" is an undefined item in type "ListingsQueryParams"
    sdk.listings.query({"per_page": 5})

Each checker must report, on each line marked for it, as many errors as the line has marks,
each containing the text of one mark, and no error anywhere else. (mypy reports a
misspelled required key twice: the key it does not know, and the key that is missing.)

typing/pass/ holds code that must pass as it is; typing/fail/ code with marked errors;
typing/endpoints/ one file per endpoint group, with calls that pass (using the group's
TypedDicts) and marked ones that fail: a misspelled key, a value of the wrong type, a
missing required key.

pyright comes from the virtual environment (`pip install pyright`; `.ci/run` installs it); if
it is missing these tests fail and say so.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from flexclient._endpoints.kinds import Endpoint
from flexclient._endpoints.walk import iter_endpoints
from tests.checkers import Found, mypy_errors, pyright_errors

# Runs the type checkers as users do: slow; `pytest -m 'not typecheck'` leaves it out.
pytestmark = pytest.mark.typecheck

ROOT = Path(__file__).parents[1]
TYPING = Path(__file__).parent / "typing"
FILES = sorted(TYPING.glob("*/*.py"))
MARK = re.compile(r"\s*# \[(mypy|pyright)\] (.*)$")


def expected(path: Path) -> dict[str, dict[int, list[str]]]:
    """Checker -> marked line -> expected texts, from the `# [checker] text` comments."""
    marks: dict[str, dict[int, list[str]]] = {"mypy": {}, "pyright": {}}
    pending: list[tuple[str, str]] = []
    for number, line in enumerate(path.read_text().splitlines(), 1):
        found = MARK.match(line)
        if found:
            pending.append((found.group(1), found.group(2)))
        elif pending:
            for checker, text in pending:
                marks[checker].setdefault(number, []).append(text)
            pending = []
    assert not pending, f"{path.name}: a mark at the end of the file marks nothing"
    return marks


@pytest.fixture(scope="module")
def reports(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Found]:
    """One run of each checker over every file (they are independent modules)."""
    assert len({p.name for p in FILES}) == len(FILES), "file names must differ (module names)"
    return {
        "mypy": mypy_errors(tmp_path_factory.mktemp("mypy"), FILES),
        "pyright": pyright_errors(tmp_path_factory.mktemp("pyright"), FILES),
    }


@pytest.mark.parametrize("checker", ["mypy", "pyright"])
@pytest.mark.parametrize("path", FILES, ids=[f"{p.parent.name}/{p.stem}" for p in FILES])
def test_errors_exactly_where_marked(path: Path, checker: str, reports: dict[str, Found]) -> None:
    marks = expected(path)[checker]
    got = {line: msgs for (name, line), msgs in reports[checker].items() if name == path.name}
    unexpected = {line: msgs for line, msgs in got.items() if line not in marks}
    assert not unexpected, f"{checker}: errors on unmarked lines of {path.name}: {unexpected}"
    for line, texts in marks.items():
        messages = got.get(line, [])
        where = f"{checker} {path.name}:{line}"
        assert len(messages) == len(texts), f"{where}: {messages or 'no error'}"
        for text in texts:
            matching = [m for m in messages if text in m]
            assert matching, f"{where}: {text!r} in none of {messages}"
            messages.remove(matching[0])
    if path.parent.name == "pass":
        assert not marks
    elif path.parent.name == "fail":
        assert marks


def groups() -> list[tuple[str, str, list[Endpoint[Any, Any]]]]:
    """(mp or ig, the group, its endpoints) of every group of both APIs."""
    found: dict[tuple[str, str], list[Endpoint[Any, Any]]] = {}
    for entry in iter_endpoints():
        prefix = "mp" if entry.api == "marketplace" else "ig"
        found.setdefault((prefix, entry.group), []).append(entry.endpoint)
    return [(prefix, group, endpoints) for (prefix, group), endpoints in found.items()]


GROUPS = groups()


@pytest.mark.parametrize("api,group,endpoints", GROUPS, ids=[f"{g[0]}_{g[1]}" for g in GROUPS])
def test_every_group_has_its_pass_and_fail_cases(
    api: str, group: str, endpoints: list[Endpoint[Any, Any]]
) -> None:
    path = TYPING / "endpoints" / f"{api}_{group}.py"
    assert path.exists(), f"no {path.relative_to(ROOT)}"
    text = path.read_text()
    marks = expected(path)
    calls = re.findall(rf"\.{group}\.(\w+)\(", text) + re.findall(rf"\.{group}\.(\w+)\.", text)
    assert {ep.name for ep in endpoints} <= set(calls), "every endpoint of the group is called"
    lines = text.splitlines()
    passing = [n for n, line in enumerate(lines, 1) if f".{group}." in line]
    assert set(passing) - set(marks["mypy"]), "a call that passes"
    for checker in ("mypy", "pyright"):
        assert set(marks[checker]) == set(marks["mypy"]), "the same lines for both checkers"
    kinds = " ".join(text for texts in marks["mypy"].values() for text in texts)
    assert "Extra key" in kinds, "a misspelled key"
    assert "TypedDict item" in kinds, "a value of the wrong type"
    if any(ep.params_type.__required_keys__ for ep in endpoints):
        assert "Missing key" in kinds, "a missing required key"
