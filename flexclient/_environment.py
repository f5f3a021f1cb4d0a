"""Where the API is and who the client is, from the environment: the names Sharetribe's web
template and examples use, which `flexclient fake serve` also prints to point everything at
the fake marketplace. Light on purpose: the command line's help reads it and nothing more."""

from __future__ import annotations

import os

ASSET_CDN_BASE_URL = "https://cdn.st-api.com"
"""The Asset Delivery API's host, the official SDK's `assetCdnBaseUrl`."""

MARKETPLACE_BASE_URL_VARS = ("SHARETRIBE_SDK_BASE_URL", "REACT_APP_SHARETRIBE_SDK_BASE_URL")
INTEGRATION_BASE_URL_VAR = "FLEX_INTEGRATION_BASE_URL"


def base_url_from_env(integration: bool) -> str | None:
    """The API's base URL the environment names, or None (the real one then)."""
    names = (INTEGRATION_BASE_URL_VAR,) if integration else MARKETPLACE_BASE_URL_VARS
    for name in names:
        value = os.environ.get(name)
        if value:
            return value
    return None


MARKETPLACE_ID_VARS = ("SHARETRIBE_SDK_CLIENT_ID", "REACT_APP_SHARETRIBE_SDK_CLIENT_ID")
MARKETPLACE_SECRET_VAR = "SHARETRIBE_SDK_CLIENT_SECRET"
INTEGRATION_ID_VAR = "FLEX_INTEGRATION_CLIENT_ID"
INTEGRATION_SECRET_VAR = "FLEX_INTEGRATION_CLIENT_SECRET"
# Where the web template reads the Asset Delivery API's base URL from (the SDK's
# `assetCdnBaseUrl`).
WEB_TEMPLATE_ASSET_CDN_VAR = "REACT_APP_SHARETRIBE_SDK_ASSET_CDN_BASE_URL"


def from_env(names: tuple[str, ...], param: str) -> str:
    """The first of these environment variables that is set; a `ParameterError` naming
    them (and `param`) if none is."""
    for name in names:
        value = os.environ.get(name)
        if value:
            return value
    from flexclient._errors import ParameterError

    wanted = " or ".join(names)
    raise ParameterError(param, f"give it, or set the environment variable {wanted}")
