"""Shared fixtures: clients on requests-mock with a token endpoint (the helpers they use are
in tests/helpers.py)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
import requests_mock

from flexclient import IntegrationClient, MarketplaceClient
from tests.databases import DATABASES, fresh_database_url
from tests.helpers import IG, MP, NO_WAIT, token_json


@pytest.fixture(params=DATABASES)
def database_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """An empty database for a mirror, once for each database the mirror is tested on."""
    return fresh_database_url(str(request.param), tmp_path)


@pytest.fixture
def mock() -> Iterator[requests_mock.Mocker]:
    with requests_mock.Mocker() as m:
        m.post(f"{MP}/v1/auth/token", json=token_json())
        m.post(f"{IG}/v1/auth/token", json=token_json("integ", "integ-token", "integ-refresh"))
        yield m


@pytest.fixture
def sdk() -> MarketplaceClient:
    return MarketplaceClient("client-id", base_url=MP, retry_policy=NO_WAIT)


@pytest.fixture
def json_sdk() -> MarketplaceClient:
    return MarketplaceClient("client-id", base_url=MP, wire_format="json", retry_policy=NO_WAIT)


@pytest.fixture
def integ() -> IntegrationClient:
    return IntegrationClient("client-id", "client-secret", base_url=IG, retry_policy=NO_WAIT)
