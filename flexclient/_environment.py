"""Where the API is, from the environment: the names Sharetribe's web template and examples
use, which `flexclient fake serve` also prints to point everything at the fake marketplace."""

from __future__ import annotations

import os

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
