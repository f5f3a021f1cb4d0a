"""Packages whose public names are listed once and imported on first use (PEP 562).

A command-line call or a serverless cold start pays for every module `import flexclient`
runs, so the packages `flexclient`, `flexclient.models`, `flexclient.params` and
`flexclient.mirror` import a name's module only when the name is first read. Each lists its
public names as imports under `if TYPE_CHECKING:`, one `from <module> import (<Name> as
<Name>, ...)` per module, which mypy and pyright read; at run time, where the block does not
run, `lazy_exports` takes the same names as a literal table, `{module: (name, ...)}`
(tests/test_public_api.py checks that the two agree). Nothing reads a source file: an install
of bytecode alone, or a zip archive, imports the names as any other does.

A name the package hands out that is a class or function of a private module (`_clients`)
reports the package as its `__module__`, as httpx's do: `flexclient.MarketplaceClient`, not
`flexclient._clients.MarketplaceClient`. Left alone: dataclasses and pydantic models, whose
annotations pydantic and `typing.get_type_hints` evaluate by name in the module `__module__`
names (their reprs do not name a module anyway); the value types (`Money`, ...) set their own,
their annotations evaluated where they are defined.
"""

from __future__ import annotations

import importlib
import sys
import types
from collections.abc import Callable, Mapping, Sequence
from typing import TypeGuard, get_args


def _reports_package(value: object) -> TypeGuard[type | types.FunctionType]:
    """Whether `value`, handed out by a lazy package, should name the package as its module:
    a class or function of a private module, other than a dataclass or a pydantic model."""
    if not isinstance(value, type | types.FunctionType):
        return False
    if not any(part.startswith("_") for part in value.__module__.split(".")):
        return False  # a public module already (flexclient.models.listings)
    return not hasattr(value, "__dataclass_fields__") and not hasattr(value, "__pydantic_fields__")


def lazy_exports(
    package: str,
    modules: Mapping[str, Sequence[str]],
    *,
    deprecated: Mapping[str, str] | None = None,
) -> tuple[Callable[[str], object], Callable[[], list[str]]]:
    """`__getattr__` and `__dir__` for `package`, whose public names are those of `modules`,
    each under the module that defines it (the same as its `if TYPE_CHECKING:` block imports).
    In the package's `__init__.py`, after that block:

        if not TYPE_CHECKING:
            __getattr__, __dir__ = lazy_exports(
                __name__, {"flexclient._clients": ("IntegrationClient", "MarketplaceClient")}
            )

    `__all__` is served by `__getattr__` too: the names of the table, sorted, and the
    package's `__version__` if it has one. A name of `deprecated` (old name: new name, both in
    the table) is left out of `__all__` and `dir()` and warns (`DeprecationWarning`) each time
    it is read.
    """
    namespace = sys.modules[package].__dict__
    renamed = dict(deprecated or {})
    by_module = {module: list(names) for module, names in modules.items()}
    exports = {name: module for module, names in by_module.items() for name in names}
    published: set[str] = set()  # modules whose names already report the package

    def public() -> list[str]:
        names = [name for name in exports if name not in renamed]
        if "__version__" in namespace:
            names.append("__version__")
        return sorted(names)

    def publish() -> None:
        # Every listed class of a module imported so far (by the package or by flexclient's
        # own code) names the package: a client's default token store is a
        # `flexclient.MemoryTokenStore` even if the program never imported that name. A module
        # still being imported waits.
        for module, attrs in by_module.items():
            loaded = sys.modules.get(module)
            if module in published or loaded is None:
                continue
            values = [vars(loaded).get(attr) for attr in attrs]
            if any(value is None for value in values):
                continue
            published.add(module)
            for value in values:
                if _reports_package(value):
                    value.__module__ = package

    def __getattr__(name: str) -> object:
        if name == "__all__":
            names = namespace["__all__"] = public()
            return names
        # A private name is never one of the package's (importing a submodule not yet
        # imported, `from flexclient import _events`, asks for such an attribute first).
        module = None if name.startswith("_") else exports.get(name)
        if module is None:
            hint = ""
            if not name.startswith("_"):
                from flexclient._support.suggest import did_you_mean

                hint = did_you_mean(name, public())
            raise AttributeError(f"module {package!r} has no attribute {name!r}{hint}")
        value = getattr(importlib.import_module(module), name)
        if name in renamed:
            import warnings

            warnings.warn(
                f"{package}.{name} is deprecated and will be removed in the next minor "
                f"release: use {package}.{renamed[name]}",
                DeprecationWarning,
                stacklevel=2,
            )
            return value  # not kept: each use warns
        publish()
        namespace[name] = value  # found directly from now on
        return value

    def __dir__() -> list[str]:
        return sorted({*namespace, *public()})

    return __getattr__, __dir__


def declared_args(owner: type, attr: str) -> tuple[object, ...]:
    """The type arguments of the innermost subscription in `owner`'s annotation of `attr`,
    read without evaluating it, so that what it names need not be imported yet:
    `("User",)` for `ClassVar[ToOne[User]]`. Names when the annotation is a string (under
    `from __future__ import annotations`), the types themselves when it is not; () when
    there is no annotation or it has no arguments. The models' relationships are declared
    this way, and look the names up when first needed.
    """
    hint: object = vars(owner).get("__annotations__", {}).get(attr)
    if isinstance(hint, str):
        start = hint.rfind("[")
        if start < 0:
            return ()
        inner = hint[start + 1 : hint.index("]", start)]
        return tuple(part.strip().strip("\"'") for part in inner.split(","))
    args = get_args(hint)
    while len(args) == 1 and get_args(args[0]):
        args = get_args(args[0])
    return args
