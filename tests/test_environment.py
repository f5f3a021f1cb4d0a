"""Credentials from the environment, under the names Sharetribe's own examples use."""

from __future__ import annotations

import pytest

from flexclient import IntegrationClient, MarketplaceClient, ParameterError
from flexclient._cli import main

NAMES = (
    "SHARETRIBE_SDK_BASE_URL",
    "REACT_APP_SHARETRIBE_SDK_BASE_URL",
    "FLEX_INTEGRATION_BASE_URL",
    "SHARETRIBE_SDK_CLIENT_ID",
    "REACT_APP_SHARETRIBE_SDK_CLIENT_ID",
    "SHARETRIBE_SDK_CLIENT_SECRET",
    "FLEX_INTEGRATION_CLIENT_ID",
    "FLEX_INTEGRATION_CLIENT_SECRET",
)


@pytest.fixture(autouse=True)
def clean(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in NAMES:
        monkeypatch.delenv(name, raising=False)


def test_marketplace_client_from_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SHARETRIBE_SDK_CLIENT_ID", "env-id")
    monkeypatch.setenv("SHARETRIBE_SDK_CLIENT_SECRET", "env-secret")
    sdk = MarketplaceClient()
    assert (sdk.client_id, sdk._client_secret) == ("env-id", "env-secret")
    # An explicit client ID is another application: the environment's secret is not its own.
    assert MarketplaceClient("given-id")._client_secret is None


def test_the_web_templates_name_works_too(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("REACT_APP_SHARETRIBE_SDK_CLIENT_ID", "template-id")
    assert MarketplaceClient().client_id == "template-id"
    monkeypatch.setenv("SHARETRIBE_SDK_CLIENT_ID", "sdk-id")
    assert MarketplaceClient().client_id == "sdk-id"


def test_integration_client_from_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("FLEX_INTEGRATION_CLIENT_ID", "integ-id")
    monkeypatch.setenv("FLEX_INTEGRATION_CLIENT_SECRET", "integ-secret")
    integ = IntegrationClient()
    assert (integ.client_id, integ._client_secret) == ("integ-id", "integ-secret")


def test_the_address_comes_with_the_credentials(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SHARETRIBE_SDK_CLIENT_ID", "env-id")
    monkeypatch.setenv("SHARETRIBE_SDK_BASE_URL", "http://127.0.0.1:8765")
    monkeypatch.setenv("FLEX_INTEGRATION_CLIENT_ID", "integ-id")
    monkeypatch.setenv("FLEX_INTEGRATION_CLIENT_SECRET", "integ-secret")
    monkeypatch.setenv("FLEX_INTEGRATION_BASE_URL", "http://127.0.0.1:8766")
    assert MarketplaceClient().base_url == "http://127.0.0.1:8765"
    assert IntegrationClient().base_url == "http://127.0.0.1:8766"
    # Credentials given in code are another application's: the real API, unless told.
    assert MarketplaceClient("given-id").base_url == "https://flex-api.sharetribe.com"
    assert MarketplaceClient(base_url="http://localhost:1").base_url == "http://localhost:1"
    monkeypatch.setenv("SHARETRIBE_SDK_BASE_URL", "http://evil.example")
    with pytest.raises(ParameterError, match="base_url"):
        MarketplaceClient()  # the credential rule holds for the environment's address too


def test_without_them_the_error_says_which_to_set() -> None:
    with pytest.raises(ParameterError, match="SHARETRIBE_SDK_CLIENT_ID") as info:
        MarketplaceClient()
    assert info.value.param == "client_id"
    with pytest.raises(ParameterError, match="FLEX_INTEGRATION_CLIENT_ID"):
        IntegrationClient()
    with pytest.raises(ParameterError, match="FLEX_INTEGRATION_CLIENT_SECRET"):
        IntegrationClient("integ-id")


def test_the_command_line_reads_the_same_names(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["call", "listings.query"]) == 1
    assert "SHARETRIBE_SDK_CLIENT_ID" in capsys.readouterr().err
    assert main(["call", "--integration", "listings.query"]) == 1
    assert "FLEX_INTEGRATION_CLIENT_ID" in capsys.readouterr().err
