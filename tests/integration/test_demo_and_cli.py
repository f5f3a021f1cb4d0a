"""The demo command and the fake's command line, as a user runs them."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time

import requests

from flexclient import MarketplaceClient
from flexclient.testing._serve import read_banner


def test_demo_tours_the_library() -> None:
    started = time.monotonic()
    done = subprocess.run(
        [sys.executable, "-m", "flexclient", "demo"], capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0, done.stderr
    out = done.stdout
    assert time.monotonic() - started < 30
    for expected in (
        "200 OK: 50 road bikes, showing 5",
        "logged in as Aino K",
        "uploading [##############################]",
        "created ",
        "title now 'Demo bike (checked)'",
        "listing/created",
        "listing/updated",
        "NotFoundError: 404 Not Found, code 'not-found'",
    ):
        assert expected in out, expected
    assert out.count("uploading") == 1  # not a terminal: only the finished bar


def test_serve_prints_how_to_connect_and_stops_on_ctrl_c() -> None:
    proc = subprocess.Popen(
        [sys.executable, "-m", "flexclient.testing", "serve", "--port", "0"],
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert proc.stdout is not None
        lines: list[str] = []
        while line := proc.stdout.readline().strip():  # the banner ends with a blank line
            lines.append(line)
        printed = read_banner(lines)
        url, client_id = printed["SHARETRIBE_SDK_BASE_URL"], printed["SHARETRIBE_SDK_CLIENT_ID"]
        assert "aino@example.com / aino-demo-pass" in "".join(lines)
        assert "default-booking/release-1" in "".join(lines)  # the processes it runs
        sdk = MarketplaceClient(client_id, base_url=url)
        sdk.login(username="aino@example.com", password="aino-demo-pass")
        assert sdk.current_user.show().data.data.attributes.email == "aino@example.com"
        os.kill(proc.pid, signal.SIGINT)
        assert proc.wait(timeout=10) == 0
        assert "stopped" in proc.stdout.read()
        try:
            requests.get(url, timeout=1)
            raise AssertionError("still serving")
        except requests.ConnectionError:
            pass
    finally:
        proc.kill()
