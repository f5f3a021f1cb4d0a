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
            from flexclient._suggest import did_you_mean

            hint = did_you_mean(name, where)
            raise AttributeError(f"module {package!r} has no attribute {name!r}{hint}")
        value = getattr(importlib.import_module(module, package), name)
        namespace[name] = value  # found directly from now on
        return value

    def __dir__() -> list[str]:
        return sorted({*namespace, *where})

    return sorted(where), __getattr__, __dir__
