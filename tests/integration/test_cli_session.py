"""A command-line session against one fake marketplace that lives across commands
(`flexclient fake serve`), tables that show included relationships, and suggestions for
misspelled names."""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from flexclient import MarketplaceClient
from flexclient._cli import main
from flexclient.testing._serve import read_banner


@pytest.fixture
def served(tmp_path: Path) -> Iterator[dict[str, str]]:
    """`flexclient fake serve` in another process; the variables it printed."""
    env_file = tmp_path / "fake.env"
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "flexclient",
            "fake",
            "serve",
            "--port",
            "0",
            "--env-file",
            env_file,
        ],
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert proc.stdout is not None
        printed = read_banner(proc.stdout)  # up to the blank line after it: serving
        assert env_file.read_text().splitlines() == [f"export {k}={v}" for k, v in printed.items()]
        yield printed
    finally:
        proc.terminate()
        proc.wait(timeout=10)


def test_a_session_across_commands(
    served: dict[str, str],
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    for name, value in served.items():
        monkeypatch.setenv(name, value)
    token = ["--token-file", str(tmp_path / "token.json")]
    assert (
        main([*token, "login", "--username", "aino@example.com", "--password", "aino-demo-pass"])
        == 0
    )
    assert "logged in as aino@example.com" in capsys.readouterr().out
    # Another command, another client: the same fake, the same login.
    assert main([*token, "call", "own_listings.create", "title=Kept", "--expand"]) == 0
    created = json.loads(capsys.readouterr().out)["data"]
    assert main(["call", "--integration", "listings.show", f"id=uuid:{created['id']}"]) == 0
    assert json.loads(capsys.readouterr().out)["data"]["attributes"]["title"] == "Kept"
    # MarketplaceClient() reads the same variables: the same fake, the same listing.
    with MarketplaceClient() as sdk:
        assert sdk.base_url == served["SHARETRIBE_SDK_BASE_URL"]
        assert sdk.listings.show({"id": created["id"]}).data.data.attributes.title == "Kept"


def test_a_table_shows_the_included_relationships(
    served: dict[str, str], monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    for name, value in served.items():
        monkeypatch.setenv(name, value)
    assert main(["call", "listings.query", "perPage=3", "include=author", "-o", "table"]) == 0
    header = capsys.readouterr().out.splitlines()[0].split()
    assert "author.profile.display_name" in header and "title" in header


def test_misspelled_endpoints_and_groups_get_suggestions(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["--fake", "call", "listing.query"]) == 2
    assert "did you mean 'listings.query'" in capsys.readouterr().err
    sdk = MarketplaceClient("client-id")
    with pytest.raises(AttributeError, match="did you mean 'listings'"):
        sdk.listing  # type: ignore[attr-defined]  # noqa: B018
