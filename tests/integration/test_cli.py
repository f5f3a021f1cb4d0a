"""The `flexclient` command against the fake marketplace."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from flexclient import LatLng, Money
from flexclient._cli import main, parse_value
from flexclient.testing import FakeMarketplace


def run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    code = main(argv)
    out, err = capsys.readouterr()
    return code, out, err


def test_values() -> None:
    assert parse_value("money:5000:EUR") == Money(5000, "EUR")
    assert parse_value("latlng:60.1,24.9") == LatLng(60.1, 24.9)
    assert parse_value("json:[1, 2]") == [1, 2] and parse_value("true") is True
    assert (
        parse_value("2.5") == 2.5
        and parse_value("str:007") == "007"
        and parse_value("a,b") == "a,b"
    )


def test_login_then_commands_and_queries(
    cli: list[str], fake_marketplace: FakeMarketplace, capsys: pytest.CaptureFixture[str]
) -> None:
    fake_marketplace.add_user("cli@example.com", "cli-password")
    code, out, _ = run(
        [*cli, "login", "--username", "cli@example.com", "--password", "cli-password"], capsys
    )
    assert code == 0 and "logged in as cli@example.com; scopes user" in out
    code, out, _ = run(
        [
            *cli,
            "call",
            "own_listings.create",
            "title=CLI bike",
            "price=money:4200:EUR",
            'publicData=json:{"gears": 3}',
            "--expand",
        ],
        capsys,
    )
    assert code == 0
    created = json.loads(out)["data"]
    assert created["type"] == "ownListing" and created["attributes"]["price"] == {
        "amount": 4200,
        "currency": "EUR",
    }
    code, out, _ = run(
        [
            *cli,
            "call",
            "listings.query",
            "perPage=5",
            "include=author",
            "-o",
            "table",
            "--columns",
            "title,price.amount",
        ],
        capsys,
    )
    assert (
        code == 0
        and "CLI bike" in out
        and "4200" in out
        and out.splitlines()[0].split() == ["title", "price.amount"]
    )
    code, out, _ = run(
        [
            *cli,
            "call",
            "--integration",
            "listings.update",
            f"id=uuid:{created['id']}",
            "title=Renamed",
            "-q",
            "expand=true",
        ],
        capsys,
    )
    assert code == 0 and json.loads(out)["data"]["attributes"]["title"] == "Renamed"


def test_events_tail(
    cli: list[str], fake_marketplace: FakeMarketplace, capsys: pytest.CaptureFixture[str]
) -> None:
    user = fake_marketplace.add_user("t@example.com", "t-password")
    run(
        [
            *cli,
            "call",
            "--integration",
            "listings.create",
            "title=A",
            "state=published",
            f"authorId=uuid:{user}",
        ],
        capsys,
    )
    code, out, _ = run([*cli, "events", "tail", "--once"], capsys)
    lines = out.strip().splitlines()
    assert code == 0 and len(lines) == 1 and lines[0].split("\t")[2] == "listing/created"


def test_errors_exit_non_zero_with_the_api_code(
    cli: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    code, _, err = run(
        [*cli, "call", "listings.show", "id=uuid:00000000-0000-4000-8000-000000000000"], capsys
    )
    assert code == 1 and "error 404: not-found: Listing not found" in err
    code, _, err = run([*cli, "call", "listings.query", "perPage=500"], capsys)
    assert code == 1 and "validation-invalid-value" in err
    code, _, err = run([*cli, "call", "nothing.here"], capsys)
    assert code == 2 and "no endpoint 'nothing.here'" in err
    code, _, err = run([*cli, "call", "listings.query", "perPage"], capsys)
    assert code == 2 and "key=value" in err


def test_the_console_entry_with_the_fake() -> None:
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "flexclient",
            "--fake",
            "call",
            "listings.query",
            "perPage=2",
            "-o",
            "table",
        ],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert (
        done.returncode == 0 and len(done.stdout.strip().splitlines()) == 4
    )  # header, rule, 2 rows


def test_usage_prints_what_the_command_spent_even_when_it_fails() -> None:
    def flexclient(*argv: str) -> subprocess.CompletedProcess[str]:
        command = [sys.executable, "-m", "flexclient", "--fake", "--usage", *argv]
        return subprocess.run(command, capture_output=True, text=True, timeout=60)

    done = flexclient("call", "listings.query", "perPage=2")
    assert done.returncode == 0 and json.loads(done.stdout)["data"]  # the output as it was
    assert done.stderr.splitlines() == [
        "used: 2 requests, 6 credits",
        "  /v1/api/listings/query: 1 request, 5 credits",
        "  /v1/auth/token: 1 request, 1 credit",
    ]
    missing = flexclient("call", "listings.show", "id=uuid:00000000-0000-0000-0000-000000000001")
    assert missing.returncode == 1
    assert "used: 2 requests, 2 credits" in missing.stderr  # a 404 of a real endpoint is billed
