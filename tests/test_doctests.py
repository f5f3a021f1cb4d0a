"""Every `>>>` example in flexclient's docstrings runs and shows what it says it shows.

One test per module that has examples, run in the module's namespace (a name the module
exports lazily must be imported by the example, as a reader would). An example marked
`# doctest: +SKIP` is one that needs a marketplace, a server or a file a reader has (`sdk`,
`integ`, `fake`, `"photo.jpg"`); it is still compiled, so its syntax is checked.
"""

from __future__ import annotations

import doctest
import importlib
import inspect
import pkgutil
import re
import types
import warnings

import pytest

import flexclient

FLAGS = doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE


def modules() -> list[str]:
    """flexclient's modules, but those that run a program when imported."""
    found = ["flexclient"]
    for info in pkgutil.walk_packages(flexclient.__path__, "flexclient."):
        if info.name.rsplit(".", 1)[-1] != "__main__":
            found.append(info.name)
    return sorted(found)


class Finder(doctest.DocTestFinder):
    """doctest's finder, but a class or function belongs to the module whose source defines
    it. The public ones say they are of the package (`Money.__module__` is "flexclient", as
    `flexclient._support.lazy` sets it): doctest's own test would pass them by in the module
    that defines them, and find them in the package instead once something had loaded them
    there, run in the package's namespace, or not at all."""

    def _from_module(self, module: types.ModuleType, object: object) -> bool:
        qualname = getattr(object, "__qualname__", None)
        if isinstance(object, type | types.FunctionType) and isinstance(qualname, str):
            owner = getattr(object, "__module__", "")
            if owner != module.__name__ and not module.__name__.startswith(f"{owner}."):
                return False
            top = re.escape(qualname.split(".")[0])
            return bool(re.search(rf"^\s*(?:class|def) {top}\b", inspect.getsource(module), re.M))
        return bool(super()._from_module(module, object))  # type: ignore[misc]


def examples(module: types.ModuleType) -> list[doctest.DocTest]:
    return [t for t in Finder().find(module) if t.examples]


def imported(name: str) -> types.ModuleType:
    with warnings.catch_warnings():
        # Walking every name meets the deprecated aliases; their warnings are tested elsewhere.
        warnings.simplefilter("ignore", DeprecationWarning)
        return importlib.import_module(name)


WITH_EXAMPLES = [name for name in modules() if examples(imported(name))]


@pytest.mark.parametrize("name", WITH_EXAMPLES)
def test_the_docstring_examples_run(name: str) -> None:
    runner = doctest.DocTestRunner(optionflags=FLAGS)
    report: list[str] = []
    for test in examples(imported(name)):
        for example in test.examples:
            # A skipped example is still Python.
            compile(example.source, f"<{test.name}>", "single")
        runner.run(test, out=report.append)
    assert runner.failures == 0, "".join(report)


def test_every_module_that_shows_an_example_has_it_run() -> None:
    # An example the finder does not reach (in a comment, or in the docstring of a name
    # imported from elsewhere) would never run: each module writing `>>>` must yield one.
    shown = {name for name in modules() if ">>> " in inspect.getsource(imported(name))}
    assert shown == set(WITH_EXAMPLES)
    ran = [
        example
        for name in WITH_EXAMPLES
        for test in examples(imported(name))
        for example in test.examples
        if not example.options.get(doctest.SKIP)
    ]
    # 116 run as this is written (of 185, the rest marked +SKIP): a finder that lost the
    # examples of a whole kind of object (as doctest's own lost every public class's) would
    # fall far below.
    assert len(ran) >= 100
