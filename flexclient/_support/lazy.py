"""Packages whose public names are imported on first use (PEP 562).

A command-line call or a serverless cold start pays for every module `import flexclient`
runs, so the packages `flexclient`, `flexclient.models` and `flexclient.params` import a
name's module only when the name is first read. Each package lists its names twice: in an
`if TYPE_CHECKING:` block, which is what mypy and pyright read, and in the table given here,
which is what runs; tests/test_public_api.py checks that the two agree.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping
from typing import get_args


def lazy_exports(
    package: str, exports: Mapping[str, tuple[str, ...]]
) -> tuple[list[str], Callable[[str], object], Callable[[], list[str]]]:
    """`__all__`, `__getattr__` and `__dir__` for `package`, whose `exports` map each of
    its modules (relative, as `"._clients"`) to the public names it defines.

    In a package's `__init__.py`, beside the same names imported under `if TYPE_CHECKING:`:

        if not TYPE_CHECKING:
            __all__, __getattr__, __dir__ = lazy_exports(__name__, {"._clients": ("Client",)})
    """
    where = {name: module for module, names in exports.items() for name in names}
    namespace = importlib.import_module(package).__dict__

    def __getattr__(name: str) -> object:
        module = where.get(name)
        if module is None:
            # A private name gets no suggestion (there is no private one to suggest): importing
            # a submodule not yet imported (`from flexclient import _events`) looks for such
            # an attribute first, and would otherwise import difflib for a message never shown.
            hint = ""
            if not name.startswith("_"):
                from flexclient._support.suggest import did_you_mean

                hint = did_you_mean(name, where)
            raise AttributeError(f"module {package!r} has no attribute {name!r}{hint}")
        value = getattr(importlib.import_module(module, package), name)
        namespace[name] = value  # found directly from now on
        return value

    def __dir__() -> list[str]:
        return sorted({*namespace, *where})

    return sorted(where), __getattr__, __dir__


def declared_args(owner: type, attr: str) -> tuple[object, ...]:
    """The type arguments of the innermost subscription in `owner`'s annotation of `attr`,
    read without evaluating it, so that what it names need not be imported yet:
    `("ListingsQueryParams", "Listing")` for `ListQuery[ListingsQueryParams, Listing]`,
    `("User",)` for `ClassVar[ToOne[User]]`. Names when the annotation is a string (under
    `from __future__ import annotations`), the types themselves when it is not; () when
    there is no annotation or it has no arguments. The endpoint table and the models'
    relationships are declared this way, and look the names up when first needed.
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
