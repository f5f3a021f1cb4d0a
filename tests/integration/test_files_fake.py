"""Files end to end against the fake marketplace and its storage: flexclient's one-call
upload and download, and the official SDK's upload flow read back by flexclient."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from flexclient import MarketplaceClient, UploadProgress
from flexclient.testing import FakeMarketplace
from tests.js_sdks import ROOT, run_js

SCRIPT = ROOT / "tests" / "js_sdk_features" / "file_flow.js"
EMAIL, PASSWORD = "files@example.com", "files-pass-123"


@pytest.fixture
def fake() -> Iterator[FakeMarketplace]:
    with FakeMarketplace() as marketplace:
        marketplace.add_user(EMAIL, PASSWORD)
        yield marketplace


@pytest.fixture
def pdf(tmp_path: Path) -> Path:
    path = tmp_path / "contract.pdf"
    path.write_bytes(b"%PDF-1.7\n" + bytes(range(256)) * 2000)
    return path


def test_upload_then_download_through_the_fakes_storage(
    fake: FakeMarketplace, pdf: Path, tmp_path: Path
) -> None:
    sdk = MarketplaceClient(fake.client_id, base_url=fake.url)
    sdk.login(username=EMAIL, password=PASSWORD)
    seen: list[UploadProgress] = []
    uploaded = sdk.upload_file(pdf, on_upload_progress=seen.append)
    assert uploaded.file.attributes.name == "contract.pdf"
    assert uploaded.file.attributes.mime_type == "application/pdf"
    assert uploaded.file.attributes.size == pdf.stat().st_size
    assert seen[-1].loaded == pdf.stat().st_size
    assert sdk.own_files.show({"id": uploaded.id}).data.data.attributes.state == "available"
    out = tmp_path / "back.pdf"
    sdk.download_file(uploaded.id, out, own=True)
    assert out.read_bytes() == pdf.read_bytes()
    storage = [p for _, p in fake.requests if p.startswith("/storage/")]
    assert len(storage) == 2


def test_a_file_the_official_sdk_uploaded_is_downloaded_by_flexclient(
    fake: FakeMarketplace, pdf: Path, tmp_path: Path
) -> None:
    js: dict[str, Any] = run_js(SCRIPT, fake.url, fake.client_id, EMAIL, PASSWORD, str(pdf))
    assert js["status"] == 200 and js["method"] == "PUT" and js["loaded"] == pdf.stat().st_size
    sdk = MarketplaceClient(fake.client_id, base_url=fake.url)
    sdk.login(username=EMAIL, password=PASSWORD)
    out = tmp_path / "from-js.pdf"
    sdk.download_file(js["fileId"], out, own=True)
    assert out.read_bytes() == pdf.read_bytes()
