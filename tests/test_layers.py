"""The import-linter contracts of pyproject.toml (`lint-imports` in .ci/run checks the code
against them) cover every module of flexclient/, so that a new module is placed in a layer
rather than left out of every rule."""

from __future__ import annotations

import pkgutil
import tomllib
from pathlib import Path
from typing import Any

import flexclient

PYPROJECT = Path(__file__).parent.parent / "pyproject.toml"


def contracts() -> dict[str, dict[str, Any]]:
    with PYPROJECT.open("rb") as file:
        config: dict[str, Any] = tomllib.load(file)["tool"]["importlinter"]
    return {contract["type"]: contract for contract in config["contracts"]}


def layers() -> list[list[str]]:
    # A layer's siblings are written `a | b` (independent) or `a : b`.
    return [
        [module.strip() for module in layer.replace(":", "|").split("|")]
        for layer in contracts()["layers"]["layers"]
    ]


def test_every_module_of_the_package_is_in_a_layer() -> None:
    ours = {f"flexclient.{m.name}" for m in pkgutil.iter_modules(flexclient.__path__)}
    placed = [module for layer in layers() for module in layer]
    assert len(placed) == len(set(placed)), "a module in two layers"
    assert ours == set(placed)


# What may import the fake: the command line (its `fake serve`, `--fake`, `demo` and `credits
# estimate`), the pytest plugin and the fake itself. Everything else is the core.
USERS_OF_THE_FAKE = {
    "flexclient.__main__",
    "flexclient._cli",
    "flexclient._demo",
    "flexclient._estimate",
    "flexclient.pytest_plugin",
    "flexclient.testing",
}


def test_every_module_of_the_core_is_forbidden_to_import_the_fake() -> None:
    core = {module for layer in layers() for module in layer} - USERS_OF_THE_FAKE
    forbidden = contracts()["forbidden"]
    assert set(forbidden["source_modules"]) == core
    assert set(forbidden["forbidden_modules"]) == {"flexclient.testing", "flexclient.pytest_plugin"}
