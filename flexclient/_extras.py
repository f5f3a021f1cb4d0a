"""Optional packages: imported when first used, and a clear error naming the extra when not
installed."""

from __future__ import annotations

import importlib
from types import ModuleType

from flexclient._errors import MissingExtraError


def require(module: str, extra: str, feature: str) -> ModuleType:
    """Import `module` for `feature`, or raise `MissingExtraError` naming the extra to install.

    >>> require("json", "none", "reading JSON").__name__
    'json'
    """
    try:
        return importlib.import_module(module)
    except ImportError as exc:
        raise MissingExtraError(module.split(".")[0], extra, feature) from exc
