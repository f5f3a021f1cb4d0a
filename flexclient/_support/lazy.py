"""Packages whose public names are listed once and imported on first use (PEP 562).

A command-line call or a serverless cold start pays for every module `import flexclient`
runs, so the packages `flexclient`, `flexclient.models` and `flexclient.params` import a
name's module only when the name is first read. Each lists its public names once, as imports
under `if TYPE_CHECKING:`, one `from <module> import (<Name> as <Name>, ...)` per module: mypy
and pyright read them there, and at run time, where the block does not run, `lazy_exports`
reads the same block from the package's source the first time the package is asked for a name
it does not hold yet. The package's source file must therefore be installed beside its
bytecode, as every wheel and editable install has it.

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
from collections.abc import Callable, Mapping
from typing import TypeGuard, get_args

# The names of a lazy package: each public name, and the module and name it is imported from.
Exports = dict[str, tuple[str, str]]

_BLOCK = "\nif TYPE_CHECKING:\n"


def declared_exports(package: str) -> Exports:
    """What the `if TYPE_CHECKING:` block of `package`'s `__init__.py` imports, read from its
    source: `{"MarketplaceClient": ("flexclient._clients", "MarketplaceClient"), ...}`.

    Read as text, laid out as the formatter lays the block out: `from <module> import (`, then
    one `<Name> as <Name>,` a line, no comment and no blank line: cheaper than parsing the
    file with `ast`, which every start would pay for the three packages.
    tests/test_public_api.py checks that it reads what `ast` reads.
    """
    namespace = sys.modules[package].__dict__
    path = namespace.get("__file__")
    source = _source(path, namespace.get("__loader__"), package)
    start = source.find(_BLOCK) if source is not None else -1
    if source is None or start < 0:
        raise ImportError(
            f"{package} reads its public names from the `if TYPE_CHECKING:` block of its "
            f"source, and {path} has none (installed as bytecode alone?)",
            name=package,
        )
    end = source.find("\n\n", start)  # the first blank line ends the block
    found: Exports = {}
    for statement in source[start : end if end > 0 else None].split("\n    from ")[1:]:
        module, _, names = statement.partition(" import ")
        words = names.replace(",", " ").strip().strip("()").split()
        if "#" in names or len(words) % 3 or words[1::3] != ["as"] * (len(words) // 3):
            raise ImportError(f"{package}: write each public name `<Name> as <Name>`: {names}")
        level = len(module) - len(module.lstrip("."))
        if level:  # relative: from the package itself, or above it
            base = package.rsplit(".", level - 1)[0]
            module = f"{base}.{module[level:]}" if module[level:] else base
        for name, attr in zip(words[2::3], words[0::3], strict=True):
            found[name] = (module, attr)
    return found


def _source(path: object, loader: object, package: str) -> str | None:
    # The file itself, as `inspect.getsource` reads it (an import hook such as pytest's
    # assertion rewriter may load the package and offer no source); else what the loader
    # gives (a zip archive's).
    if isinstance(path, str) and path.endswith(".py"):
        try:
            with open(path, encoding="utf-8") as file:
                return file.read()
        except OSError:
            pass
    get_source = getattr(loader, "get_source", None)
    source: object = get_source(package) if get_source is not None else None
    return source if isinstance(source, str) else None


def _reports_package(value: object) -> TypeGuard[type | types.FunctionType]:
    """Whether `value`, handed out by a lazy package, should name the package as its module:
    a class or function of a private module, other than a dataclass or a pydantic model."""
    if not isinstance(value, type | types.FunctionType):
        return False
    if not any(part.startswith("_") for part in value.__module__.split(".")):
        return False  # a public module already (flexclient.models.listings)
    return not hasattr(value, "__dataclass_fields__") and not hasattr(value, "__pydantic_fields__")


def lazy_exports(
    package: str, *, deprecated: Mapping[str, str] | None = None
) -> tuple[Callable[[str], object], Callable[[], list[str]]]:
    """`__getattr__` and `__dir__` for `package`, whose public names are those its
    `if TYPE_CHECKING:` block imports. In the package's `__init__.py`, after that block:

        if not TYPE_CHECKING:
            __getattr__, __dir__ = lazy_exports(__name__)

    `__all__` is served by `__getattr__` too: the names of the block, sorted, and the
    package's `__version__` if it has one. A name of `deprecated` (old name: new name, both in
    the block) is left out of `__all__` and `dir()` and warns (`DeprecationWarning`) each time
    it is read.
    """
    namespace = sys.modules[package].__dict__
    renamed = dict(deprecated or {})
    exports: Exports = {}
    by_module: dict[str, list[str]] = {}  # the same, as the names each module gives
    published: set[str] = set()  # modules whose names already report the package

    def table() -> Exports:
        if not exports:
            exports.update(declared_exports(package))
            for module, attr in exports.values():
                by_module.setdefault(module, []).append(attr)
        return exports

    def public() -> list[str]:
        names = [name for name in table() if name not in renamed]
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
        # A private name is never one of the package's (and reading the table for it would be
        # wasted: importing a submodule not yet imported, `from flexclient import _events`,
        # asks for such an attribute first).
        where = None if name.startswith("_") else table().get(name)
        if where is None:
            hint = ""
            if not name.startswith("_"):
                from flexclient._support.suggest import did_you_mean

                hint = did_you_mean(name, public())
            raise AttributeError(f"module {package!r} has no attribute {name!r}{hint}")
        module, attr = where
        value = getattr(importlib.import_module(module), attr)
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
