"""The public surface: a sorted `__all__` that matches the package, each name documented."""

from __future__ import annotations

import inspect

import flexclient
import flexclient.models
import flexclient.params


def test_all_is_sorted_and_complete() -> None:
    for module in (flexclient, flexclient.models, flexclient.params):
        names = module.__all__
        assert names == sorted(names)
        public = {
            n
            for n in vars(module)
            if not n.startswith("_") and not inspect.ismodule(getattr(module, n))
        }
        assert set(names) - {"__version__"} <= public
        for name in public - set(names):
            assert getattr(module, name).__module__ not in {module.__name__}, name


def test_every_public_name_has_a_docstring() -> None:
    for name in flexclient.__all__:
        obj = getattr(flexclient, name)
        if inspect.isclass(obj) or inspect.isfunction(obj):
            assert (obj.__doc__ or "").strip(), name


def test_the_contract_imports() -> None:
    from flexclient import (  # noqa: F401
        ApiError,
        FileTokenStore,
        IntegrationClient,
        LatLng,
        LatLngBounds,
        MarketplaceClient,
        MemoryTokenStore,
        Money,
    )
