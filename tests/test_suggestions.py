"""Misspelled names get 'did you mean ...': endpoint groups, endpoints and parameter keys."""

from __future__ import annotations

import warnings

import pytest
import requests_mock

from flexclient import MarketplaceClient, UnknownParameterWarning
from tests.helpers import MP, OK, QUERY, token_json


def test_a_misspelled_group_or_endpoint_names_the_close_ones() -> None:
    sdk = MarketplaceClient("client-id")
    with pytest.raises(AttributeError, match=r"no endpoint group 'own_listing'.*'own_listings'"):
        sdk.own_listing  # type: ignore[attr-defined]  # noqa: B018
    with pytest.raises(AttributeError, match=r"no endpoint 'qeury'; did you mean 'query'\?"):
        sdk.listings.qeury  # type: ignore[attr-defined]  # noqa: B018
    with pytest.raises(AttributeError, match=r"no endpoint group 'zzz'$"):
        sdk.zzz  # type: ignore[attr-defined]  # noqa: B018


def test_a_misspelled_public_name_of_a_package_names_the_close_ones_a_private_one_none() -> None:
    import flexclient
    import flexclient.models

    with pytest.raises(AttributeError, match=r"'MarketplaceClent'; did you mean 'MarketplaceCl"):
        flexclient.MarketplaceClent  # type: ignore[attr-defined]  # noqa: B018
    with pytest.raises(AttributeError, match=r"'Listng'; did you mean 'Listing'"):
        flexclient.models.Listng  # type: ignore[attr-defined]  # noqa: B018
    # what importing a submodule asks first (`from flexclient import _events`): no difflib
    with pytest.raises(AttributeError, match=r"no attribute '_Listing'$"):
        flexclient.models._Listing  # type: ignore[attr-defined]  # noqa: B018


def test_an_undocumented_key_is_sent_with_a_warning_naming_the_close_ones() -> None:
    sdk = MarketplaceClient("client-id", base_url=MP)
    with requests_mock.Mocker() as m:
        m.post(f"{MP}/v1/auth/token", json=token_json())
        m.get(QUERY, **OK)
        with pytest.warns(UnknownParameterWarning, match="'perpage'.*did you mean 'perPage'"):
            sdk.listings.query({"perpage": 5})  # type: ignore[typeddict-unknown-key]
        assert m.request_history[-1].qs == {"perpage": ["5"]}  # the API is the judge
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            sdk.listings.query({"perPage": 5}, custom={"pub_color": "red"})
            # a custom key in the dict, as the official SDKs write it: the checkers refuse
            # it (docs/typing.md), the client sends it
            sdk.listings.query({"perPage": 5, "pub_color": "red"})  # type: ignore[typeddict-unknown-key]
        assert caught == []  # documented and open-family keys pass quietly


def test_the_warning_points_at_the_callers_line() -> None:
    sdk = MarketplaceClient("client-id", base_url=MP)
    with requests_mock.Mocker() as m, pytest.warns(UnknownParameterWarning) as caught:
        m.post(f"{MP}/v1/auth/token", json=token_json())
        m.get(QUERY, **OK)
        sdk.listings.query({"keyword": "bike"})  # type: ignore[typeddict-unknown-key]
    assert caught[0].filename == __file__
