"""`flexclient credits estimate -- COMMAND`: a job run against a fake marketplace of its own,
over real HTTP, and what its requests would cost on Sharetribe."""

from __future__ import annotations

import base64
import sys
import textwrap
from pathlib import Path

import pytest

from flexclient._cli import main

# A 1x1 GIF of 42 bytes: an image upload bills 30 credits and its bytes at 230,000 a GB.
GIF = "R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7"


def job(tmp_path: Path, code: str) -> list[str]:
    """The command that runs `code` as a Python script of its own."""
    script = tmp_path / "job.py"
    script.write_text(textwrap.dedent(code), encoding="utf-8")
    return [sys.executable, str(script)]


def test_a_job_s_requests_are_priced_endpoint_by_endpoint(
    tmp_path: Path, capfd: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "photo.gif").write_bytes(base64.b64decode(GIF))
    command = job(
        tmp_path,
        f"""
        import os, uuid
        from flexclient import IntegrationClient, MarketplaceClient, NotFoundError

        assert os.environ["SHARETRIBE_SDK_BASE_URL"].startswith("http://127.0.0.1:")
        sdk = MarketplaceClient()                     # pointed at the fake by the environment
        print("listings:", len(sdk.listings.query({{"perPage": 5}}).data.data))
        try:
            sdk.listings.show({{"id": uuid.uuid4()}})   # a 404 is billed too
        except NotFoundError:
            pass
        sdk.login(username="aino@example.com", password="aino-demo-pass")
        sdk.images.upload({{"image": {str(tmp_path / "photo.gif")!r}}})
        IntegrationClient().marketplace.show()
        """,
    )
    code = main(["credits", "estimate", "--", *command])
    out, err = capfd.readouterr()
    assert code == 0
    assert out == "listings: 5\n"  # the job's own output, untouched
    # Tokens: anonymous, the login, the Integration client's (1 each); the query 5, the show 1,
    # the upload 30 and 42 bytes at 230,000 a GB; marketplace.show 1.
    lines = err.splitlines()
    assert lines[0] == (
        "flexclient: the job exited 0; on Sharetribe its 7 requests to the fake marketplace "
        "would cost 40.00966 credits:"
    )
    rows = {line.split()[0]: line.split()[1:] for line in lines[2:] if line.startswith("  /")}
    assert rows == {
        "/v1/api/images/upload": ["1", "1", "30.00966"],
        "/v1/api/listings/query": ["1", "1", "5"],
        "/v1/api/listings/show": ["1", "1", "1"],
        "/v1/auth/token": ["3", "3", "3"],
        "/v1/integration_api/marketplace/show": ["1", "1", "1"],
    }
    assert "  total " in err and err.splitlines()[-2].split()[-1] == "40.00966"
    assert lines[-1] == "  of which data transfer: 0.00966 credits"


def test_the_job_s_exit_status_is_the_command_s_and_runs_are_priced(
    tmp_path: Path, capfd: pytest.CaptureFixture[str]
) -> None:
    command = job(
        tmp_path,
        """
        import sys
        from flexclient import MarketplaceClient

        MarketplaceClient().listings.query()
        sys.exit(3)
        """,
    )
    code = main(["credits", "estimate", "--runs", "300000", "--", *command])
    err = capfd.readouterr().err
    assert code == 3
    assert err.startswith("flexclient: the job exited 3; on Sharetribe its 2 requests")
    # 6 credits a run: 1.8M in all, 800,000 of them past the included million at $0.07 a 1,000.
    assert err.splitlines()[-1] == (
        "  300,000 runs: 1,800,000 credits; as a month's only use, $56.00 (1,000,000 included)"
    )


def test_an_empty_fake_for_a_job_that_brings_its_own_data(
    tmp_path: Path, capfd: pytest.CaptureFixture[str]
) -> None:
    command = job(
        tmp_path,
        """
        from flexclient import MarketplaceClient

        print(MarketplaceClient().listings.query().data.meta.total_items)
        """,
    )
    assert main(["credits", "estimate", "--seed", "none", "--", *command]) == 0
    assert capfd.readouterr().out == "0\n"


def test_mistakes_are_said_before_anything_runs(capfd: pytest.CaptureFixture[str]) -> None:
    assert main(["credits", "estimate"]) == 2
    assert "give the job's command after --" in capfd.readouterr().err
    assert main(["credits", "estimate", "--runs", "0", "--", "true"]) == 2
    assert "--runs wants a number of runs, 1 or more" in capfd.readouterr().err
    assert main(["credits", "estimate", "--", "no-such-command-here"]) == 127
    assert "cannot run 'no-such-command-here'" in capfd.readouterr().err
