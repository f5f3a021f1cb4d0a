"""Shared fixtures: clients on requests-mock with a token endpoint (the helpers they use are
in tests/helpers.py)."""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
import requests_mock

from flexclient import IntegrationClient, MarketplaceClient
from tests.databases import DATABASES, fresh_database_url
from tests.helpers import IG, MP, NO_WAIT, token_json
from tests.postgres import PostgresServer


@pytest.fixture(scope="session")
def postgres_server() -> Iterator[PostgresServer]:
    """A PostgreSQL server of the tests' own, started once, when a test first needs it."""
    server = PostgresServer()
    yield server
    server.stop()


@pytest.fixture(params=DATABASES)
def new_database(request: pytest.FixtureRequest, tmp_path: Path) -> Callable[[], str]:
    """Makes empty databases for mirrors, all of one kind: the test runs once for each
    database the mirror is tested on."""
    kind = str(request.param)
    server = request.getfixturevalue("postgres_server") if kind == "postgresql" else None
    made = itertools.count()
    return lambda: fresh_database_url(kind, tmp_path / f"db{next(made)}", server)


@pytest.fixture
def database_url(new_database: Callable[[], str]) -> str:
    """An empty database for a mirror, once for each database the mirror is tested on."""
    return new_database()


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
