"""The `flexclient` command as a shell runs it (`python -m flexclient`, a process of its own):
tables for people, options before or after the command's name, pipes closed early, and one
command that serves the fake marketplace."""

from __future__ import annotations

import json
import re
import signal
import subprocess
import sys
from pathlib import Path

import pytest
import requests

from flexclient import MarketplaceClient
from flexclient.testing import FakeMarketplace
from flexclient.testing._serve import read_banner

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


def test_global_options_go_before_or_after_the_command(
    fake_marketplace: FakeMarketplace, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    fake_marketplace.add_user("jane@example.com", "jane-password")
    monkeypatch.setenv("SHARETRIBE_SDK_CLIENT_ID", fake_marketplace.client_id)
    token = tmp_path / "token.json"
    where = ["--base-url", fake_marketplace.url, "--token-file", str(token)]
    # As docs/cli.md writes it: the options after `login`.
    login = flexclient(
        "login", "--username", "jane@example.com", "--password", "jane-password", *where
    )
    assert login.returncode == 0, login.stderr
    assert token.exists() and "logged in as jane@example.com" in login.stdout
    # Before the command, after it, or some of each: the same token, the same user.
    for argv in (
        [*where, "call", "current_user.show"],
        ["call", "current_user.show", *where],
        [where[0], where[1], "call", "current_user.show", *where[2:]],
    ):
        done = flexclient(*argv)
        assert done.returncode == 0, (argv, done.stderr)
        assert json.loads(done.stdout)["data"]["attributes"]["email"] == "jane@example.com"
    # A flag after the command: --usage prints what the command spent.
    done = flexclient("call", "listings.query", "perPage=1", "--fake", "--usage")
    assert done.returncode == 0 and done.stderr.startswith("used: ")


def test_a_pipe_closed_early_ends_the_command_quietly() -> None:
    # Enough output to fill the pipe: the command is still writing when the reader goes.
    command = [sys.executable, "-m", "flexclient", "--fake", "call", "listings.query"]
    proc = subprocess.Popen(
        [*command, "perPage=100", "include=author,images"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    assert proc.stdout is not None and proc.stderr is not None
    assert proc.stdout.readline() == "{\n"  # what `head -1` reads
    proc.stdout.close()
    code = proc.wait(timeout=120)
    err = proc.stderr.read()
    proc.stderr.close()
    assert err == ""  # no BrokenPipeError traceback, no "Exception ignored"
    assert code == 128 + signal.SIGPIPE  # as a Unix tool killed by SIGPIPE: 141


def serve_options(*command: str) -> set[str]:
    """The options a serve command's --help lists."""
    done = subprocess.run(
        [sys.executable, "-m", *command, "serve", "--help"], capture_output=True, text=True
    )
    assert done.returncode == 0, done.stderr
    return set(re.findall(r"(?<![\w-])--[a-z][a-z-]+", done.stdout))


def test_one_serve_command_with_every_option(tmp_path: Path) -> None:
    wanted = {
        "--port",
        "--seed",
        "--empty",
        "--token-ttl",
        "--rate-limits",
        "--process",
        "--env-file",
    }
    testing = serve_options("flexclient.testing")
    assert wanted <= testing
    # `flexclient fake serve` also takes the global options, before or after `serve`.
    assert testing <= serve_options("flexclient", "fake")
    env_file = tmp_path / "fake.env"
    argv = ["serve", "--port", "0", "--empty", "--token-ttl", "7", "--rate-limits", "dev"]
    proc = subprocess.Popen(
        [sys.executable, "-m", "flexclient.testing", *argv, "--env-file", str(env_file)],
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert proc.stdout is not None
        printed = read_banner(proc.stdout)
        assert env_file.read_text().splitlines() == [f"export {k}={v}" for k, v in printed.items()]
        url, client_id = printed["SHARETRIBE_SDK_BASE_URL"], printed["SHARETRIBE_SDK_CLIENT_ID"]
        with MarketplaceClient(client_id, base_url=url) as sdk:
            assert sdk.listings.query({}).data.data == []  # --empty: no demo data
        answer = requests.post(
            f"{url}/v1/auth/token",
            data={
                "client_id": client_id,
                "grant_type": "client_credentials",
                "scope": "public-read",
            },
            timeout=10,
        )
        assert 0 < answer.json()["expires_in"] <= 7  # --token-ttl (the default is an hour)
    finally:
        proc.terminate()
        proc.wait(timeout=10)
