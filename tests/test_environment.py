"""Credentials from the environment, under the names Sharetribe's own examples use."""

from __future__ import annotations

import pytest

from flexclient import IntegrationClient, MarketplaceClient, ParameterError
from flexclient._cli import main

NAMES = (
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
