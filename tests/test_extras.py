"""A missing optional package is an ImportError saying how to install it and naming its
extra, and the command line says so in one line."""

from __future__ import annotations

import importlib
import re
import sys
import tomllib
from pathlib import Path

import pytest

from flexclient import FlexError, IntegrationClient, MissingExtraError
from flexclient._cli import main
from flexclient._http.multipart import upload_bar
from flexclient.mirror.dlt import dlt_source
from flexclient.models import Envelope, Meta


def missing(monkeypatch: pytest.MonkeyPatch, *modules: str) -> None:
    """Make `import module` fail as it does when the package is not installed."""
    for name in modules:
        monkeypatch.setitem(sys.modules, name, None)


@pytest.mark.parametrize(
    ("use", "modules", "extra"),
    [
        (lambda: upload_bar(None), ["tqdm", "tqdm.auto"], "progress"),
        (lambda: Envelope(data=[], meta=Meta()).to_dataframe(), ["pandas"], "pandas"),
        (lambda: dlt_source(IntegrationClient("id", "secret")), ["dlt"], "dlt"),
    ],
    ids=["progress-bar", "dataframe", "dlt-source"],
)
def test_a_missing_package_names_its_extra(
    monkeypatch: pytest.MonkeyPatch, use: object, modules: list[str], extra: str
) -> None:
    missing(monkeypatch, *modules)
    with pytest.raises(MissingExtraError) as info:
        use()  # type: ignore[operator]
    assert isinstance(info.value, ImportError) and isinstance(info.value, FlexError)
    # The package itself: the `flexclient` on PyPI is another project.
    hint = f'pip install {modules[0]} (the "{extra}" extra of sharetribe-flexclient)'
    assert hint in str(info.value)
    assert "flexclient[" not in str(info.value)
    assert info.value.extra == extra and info.value.package == modules[0]


def test_the_fake_without_the_testing_extra(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in [m for m in sys.modules if m.startswith("flexclient.testing")]:
        monkeypatch.delitem(sys.modules, name)
    missing(monkeypatch, "werkzeug", "werkzeug.serving")
    with pytest.raises(MissingExtraError, match=r"pip install werkzeug .*\"testing\" extra"):
        importlib.import_module("flexclient.testing")


@pytest.mark.parametrize("argv", [["--fake", "call", "listings.query"], ["demo"]])
def test_the_command_line_gives_the_hint_in_one_line(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], argv: list[str]
) -> None:
    for name in [m for m in sys.modules if m.startswith("flexclient.testing")]:
        monkeypatch.delitem(sys.modules, name)
    missing(monkeypatch, "werkzeug", "werkzeug.serving")
    assert main(argv) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "pip install werkzeug" in err
    assert "Traceback" not in err


def test_the_testing_extra_is_enough_for_the_fake_and_its_fixtures() -> None:
    # The fake imports werkzeug and edn-format; its fixtures and markers are pytest's.
    project = tomllib.loads((Path(__file__).parents[1] / "pyproject.toml").read_text("utf-8"))
    testing = project["project"]["optional-dependencies"]["testing"]
    names = {re.split(r"[<>=\[; ]", requirement, maxsplit=1)[0] for requirement in testing}
    assert {"werkzeug", "edn-format", "pytest"} <= names
