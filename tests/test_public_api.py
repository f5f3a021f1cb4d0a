"""The public surface: a sorted `__all__` that matches the package, each name documented."""

from __future__ import annotations

import ast
import importlib
import inspect
from types import ModuleType

import flexclient
import flexclient.models
import flexclient.params


def exported(module: ModuleType) -> list[str]:
    # Read at run time: the checkers see the packages' TYPE_CHECKING imports instead.
    names: list[str] = vars(module)["__all__"]
    return names


def test_all_is_sorted_and_complete() -> None:
    for module in (flexclient, flexclient.models, flexclient.params):
        names = exported(module)
        assert names == sorted(names)
        assert set(names) <= set(dir(module))
        for name in names:
            assert getattr(module, name) is not None, name


def test_what_the_checkers_read_is_what_runs() -> None:
    # Each lazy package lists its names twice (flexclient._support.lazy): the imports under
    # `if TYPE_CHECKING:` and the table of modules; both must give the same objects.
    for module in (flexclient, flexclient.models, flexclient.params):
        source = inspect.getsource(module)
        block = next(
            node
            for node in ast.parse(source).body
            if isinstance(node, ast.If) and ast.unparse(node.test) == "TYPE_CHECKING"
        )
        imported = {
            alias.asname or alias.name: (node.module, alias.name)
            for node in block.body
            if isinstance(node, ast.ImportFrom) and node.module
            for alias in node.names
        }
        assert set(imported) == set(exported(module)) - {"__version__"}
        for name, (where, original) in imported.items():
            assert name == original, f"{name} is imported as another name"
            assert getattr(module, name) is getattr(importlib.import_module(where), name), name


def test_every_public_name_has_a_docstring() -> None:
    for name in exported(flexclient):
        obj = getattr(flexclient, name)
        if inspect.isclass(obj) or inspect.isfunction(obj):
            assert (obj.__doc__ or "").strip(), name


def test_the_contract_imports() -> None:
    from flexclient import (
        ApiError,
        FileTokenStore,
        IntegrationClient,
        LatLng,
        LatLngBounds,
        MarketplaceClient,
        MemoryTokenStore,
        Money,
    )

    contract = [
        ApiError,
        FileTokenStore,
        IntegrationClient,
        LatLng,
        LatLngBounds,
        MarketplaceClient,
        MemoryTokenStore,
        Money,
    ]
    for cls in contract:  # each imported name is the package's own, under its own name
        assert getattr(flexclient, cls.__name__) is cls
