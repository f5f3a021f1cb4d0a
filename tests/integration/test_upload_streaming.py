"""Uploads stream from disk: a large file adds little to the client's memory."""

from __future__ import annotations

import os
import tracemalloc
from pathlib import Path

import pytest
import requests

from flexclient import MarketplaceClient, RequestOptions, UploadProgress
from flexclient.testing import FakeMarketplace, fake_process
from flexclient.testing._seed import png


def test_a_large_upload_is_streamed_with_monotonic_progress(tmp_path: Path) -> None:
    size = 20 * 1024 * 1024
    photo = tmp_path / "large.png"
    with photo.open("wb") as f:
        f.write(b"\x89PNG\r\n\x1a\n")
        for _ in range(20):
            f.write(os.urandom(1024 * 1024))
    seen: list[UploadProgress] = []
    with fake_process() as fake:  # the server's memory is another process's
        sdk = MarketplaceClient(fake.client_id, base_url=fake.url)
        sdk.login(username="aino@example.com", password="aino-demo-pass")
        tracemalloc.start()
        try:
            base = tracemalloc.get_traced_memory()[0]
            res = sdk.images.upload({"image": photo}, {}, {"on_upload_progress": seen.append})
            peak = tracemalloc.get_traced_memory()[1] - base
        finally:
            tracemalloc.stop()
    assert res.status == 200
    assert peak < 4 * 1024 * 1024, f"peak {peak} bytes for a {size}-byte file"
    loaded = [p.loaded for p in seen]
    assert loaded == sorted(loaded) and len(set(loaded)) == len(loaded)
    assert seen[-1].loaded == seen[-1].total > size and all(p.total == seen[-1].total for p in seen)


def test_upload_progress_bar(
    marketplace_client: MarketplaceClient,
    fake_marketplace: FakeMarketplace,
    capsys: pytest.CaptureFixture[str],
) -> None:
    fake_marketplace.add_user("u@example.com", "u-password")
    marketplace_client.login(username="u@example.com", password="u-password")
    calls: list[int] = []
    opts: RequestOptions = {
        "progress_bar": True,
        "on_upload_progress": lambda p: calls.append(p.loaded),
    }
    marketplace_client.images.upload({"image": png(64, 64, (1, 2, 3))}, {}, opts)
    err = capsys.readouterr().err
    assert "upload" in err and "100%" in err and calls and calls[-1] > 0


def test_a_filename_cannot_add_header_lines_the_server_reads(
    marketplace_client: MarketplaceClient, fake_marketplace: FakeMarketplace, tmp_path: Path
) -> None:
    # Were the name sent raw, the server would read the first Content-Type, the injected one.
    photo = tmp_path / 'shot"\r\nContent-Type: text\r\nX-Note: ".png'
    photo.write_bytes(png(4, 4, (9, 9, 9)))
    fake_marketplace.add_user("u@example.com", "u-password")
    marketplace_client.login(username="u@example.com", password="u-password")
    image = marketplace_client.images.upload({"image": photo}, {"expand": True}).data.data
    url = image.attributes.variants["default"].url
    assert url is not None
    served = requests.get(url, timeout=5)
    assert served.headers["Content-Type"] == "image/png"
    assert served.content == photo.read_bytes()
