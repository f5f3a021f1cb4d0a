"""The public surface: one sorted list of names per package (its `if TYPE_CHECKING:` imports,
and the same as the table its lazy imports and `__all__` come from); each name documented,
reporting the package as its module, and pickled by that path."""

from __future__ import annotations

import ast
import copy
import importlib
import inspect
import os
import pickle
import pkgutil
import shutil
import subprocess
import sys
import types
import uuid
import warnings
from decimal import Decimal
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

import flexclient
import flexclient._errors
import flexclient.mirror
import flexclient.models
import flexclient.params
from tests import sample

PACKAGES = (flexclient, flexclient.models, flexclient.params)
LAZY_PACKAGES = (*PACKAGES, flexclient.mirror)
DEPRECATED = {"ImageVariant"}  # flexclient's, until the next minor release


def exported(module: ModuleType) -> list[str]:
    # Read at run time: the checkers see the packages' TYPE_CHECKING imports instead.
    names: list[str] = getattr(module, "__all__")  # noqa: B009
    return names


def block(module: ModuleType) -> list[ast.ImportFrom]:
    """The imports of the package's `if TYPE_CHECKING:` block, as written."""
    tree = ast.parse(inspect.getsource(module))
    found = [
        node
        for node in tree.body
        if isinstance(node, ast.If) and ast.unparse(node.test) == "TYPE_CHECKING"
    ]
    assert len(found) == 1, "one block of public names"
    statements = found[0].body
    assert all(isinstance(s, ast.ImportFrom) for s in statements), "imports only"
    return [s for s in statements if isinstance(s, ast.ImportFrom)]


def isort_key(name: str) -> tuple[int, str]:
    # As ruff's isort orders the names of an import: constants, classes, then the rest, each
    # ignoring case.
    kind = 0 if name.isupper() and len(name) > 1 else 1 if name[0].isupper() else 2
    return kind, name.lower()


@pytest.mark.parametrize("package", PACKAGES, ids=lambda m: m.__name__)
def test_the_list_of_names_is_sorted_and_each_name_reexported(package: ModuleType) -> None:
    imports = block(package)
    modules = [node.module or "" for node in imports]
    assert modules == sorted(modules), "one import per module, modules in order"
    assert len(set(modules)) == len(modules)
    for node in imports:
        names = [alias.name for alias in node.names]
        assert names == sorted(names, key=isort_key), node.module
        for alias in node.names:
            # `X as X` is what makes the checkers treat the name as re-exported.
            assert alias.asname == alias.name, f"{alias.name} is imported as another name"


@pytest.mark.parametrize("package", PACKAGES, ids=lambda m: m.__name__)
def test_all_is_the_list_sorted_and_every_name_resolves(package: ModuleType) -> None:
    names = exported(package)
    listed = {alias.name for node in block(package) for alias in node.names}
    own: set[str] = {"__version__"} if package is flexclient else set()
    deprecated: set[str] = DEPRECATED if package is flexclient else set()
    assert names == sorted(names)
    assert set(names) == (listed - deprecated) | own
    assert set(names) <= set(dir(package))
    assert not deprecated & set(dir(package))
    for name in names:
        assert getattr(package, name) is not None, name


def lazy_table(module: ModuleType) -> dict[str, tuple[str, ...]]:
    """The table the package gives `lazy_exports`, as written."""
    tree = ast.parse(inspect.getsource(module))
    calls = [
        node
        for node in ast.walk(tree)
        if isinstance(node, ast.Call) and ast.unparse(node.func) == "lazy_exports"
    ]
    assert len(calls) == 1, "one call of lazy_exports"
    table: dict[str, tuple[str, ...]] = ast.literal_eval(calls[0].args[1])
    return table


@pytest.mark.parametrize("package", LAZY_PACKAGES, ids=lambda m: m.__name__)
def test_the_lazy_table_lists_what_the_block_imports(package: ModuleType) -> None:
    # The checkers read the block, the run time the table: the same modules and names, in the
    # same order, so that a name added to one and not the other fails here.
    imports = {node.module: tuple(alias.name for alias in node.names) for node in block(package)}
    table = lazy_table(package)
    assert list(table.items()) == list(imports.items())


@pytest.mark.parametrize("package", LAZY_PACKAGES, ids=lambda m: m.__name__)
def test_each_name_is_the_object_its_module_defines(package: ModuleType) -> None:
    names = 0
    for node in block(package):
        for alias in node.names:
            names += 1
            if alias.name not in DEPRECATED:
                defined = getattr(importlib.import_module(node.module or ""), alias.name)
                assert getattr(package, alias.name) is defined, alias.name
    assert names, package.__name__


BYTECODE_ONLY = """
import sys, flexclient, flexclient.models, flexclient.params, flexclient.mirror
assert flexclient.__file__.startswith(sys.argv[1]), flexclient.__file__
print(flexclient.MarketplaceClient.__name__, flexclient.models.Listing.__name__,
      flexclient.params.ListingsQueryParams.__name__, flexclient.mirror.OPTIONAL_TABLES != (),
      len(flexclient.__all__))
"""


@pytest.mark.parametrize("archive", [False, True], ids=["folder", "zip"])
def test_the_package_imports_from_bytecode_alone(tmp_path: Path, archive: bool) -> None:
    # As a freezer or a zipapp ships it: compiled, with no .py file, the names still resolve.
    copy = tmp_path / "site"
    shutil.copytree(
        Path(flexclient.__file__).parent,
        copy / "flexclient",
        ignore=shutil.ignore_patterns("__pycache__"),
    )
    subprocess.run(
        [sys.executable, "-m", "compileall", "-q", "-b", str(copy)], check=True, timeout=120
    )
    for source in copy.rglob("*.py"):
        source.unlink()
    where = copy
    if archive:
        where = Path(shutil.make_archive(str(tmp_path / "flexclient"), "zip", copy))
    done = subprocess.run(
        [sys.executable, "-c", BYTECODE_ONLY, str(where)],
        env={**os.environ, "PYTHONPATH": str(where)},
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == [
        "MarketplaceClient",
        "Listing",
        "ListingsQueryParams",
        "True",
        str(len(exported(flexclient))),
    ]


def test_the_top_level_holds_what_programs_use() -> None:
    # Plumbing and the models live in their own places (flexclient.models, flexclient.params).
    names = set(exported(flexclient))
    moved = {"ErrorEnvelope", "ErrorItem", "ErrorSource", "Envelope", "Meta", "Resource"}
    assert not (moved | {"object_query"}) & names
    assert moved <= set(exported(flexclient.models))
    assert "object_query" in exported(flexclient.params)
    for name in ("ErrorEnvelope", "ErrorItem", "ErrorSource"):
        assert getattr(flexclient.models, name) is getattr(
            importlib.import_module("flexclient._errors.body"), name
        )
    with pytest.raises(AttributeError, match="object_query"):
        _ = flexclient.object_query  # type: ignore[attr-defined]


def defined_by_flexclient(base: type) -> set[type]:
    for info in pkgutil.walk_packages(flexclient.__path__, "flexclient."):
        if not info.name.endswith("__main__"):
            importlib.import_module(info.name)
    found: set[type] = set()
    bases = [base]
    while bases:
        subclasses: list[type] = bases.pop().__subclasses__()
        for cls in subclasses:
            bases.append(cls)
            if cls.__module__.split(".")[0] == "flexclient":
                found.add(cls)
    return found


def test_every_warning_and_exception_of_flexclient_lives_in_the_errors_module() -> None:
    errors = {value for value in vars(flexclient._errors).values() if isinstance(value, type)}
    for cls in defined_by_flexclient(Warning):
        assert cls in errors, cls
        assert cls.__name__ in exported(flexclient), cls
    # Still in the module of the assets feature: AssetReferenceError (to move to _errors).
    elsewhere = {"AssetReferenceError"}
    for cls in defined_by_flexclient(flexclient.FlexError):
        assert cls.__name__ in exported(flexclient), cls
        assert cls in errors or cls.__name__ in elsewhere, cls
    for value in errors:
        if issubclass(value, flexclient.FlexError | Warning):
            assert value.__name__ in exported(flexclient), value


def reports_package(value: object) -> bool:
    # Dataclasses and pydantic models keep their own module (flexclient._support.lazy).
    if not isinstance(value, type | types.FunctionType):
        return False
    return not hasattr(value, "__dataclass_fields__") and not hasattr(value, "__pydantic_fields__")


@pytest.mark.parametrize("package", PACKAGES, ids=lambda m: m.__name__)
def test_public_classes_name_the_package_as_their_module(package: ModuleType) -> None:
    for name in exported(package):
        value = getattr(package, name)
        module: str = getattr(value, "__module__", "")
        if reports_package(value) and module != package.__name__:
            # Only a public module may be named instead (flexclient.models.listings).
            assert not any(part.startswith("_") for part in module.split(".")), (name, module)
        if isinstance(value, type | types.FunctionType):
            # And each is found there by pickle, models and dataclasses included.
            assert pickle.loads(pickle.dumps(value)) is value, name
    if package is flexclient:
        assert flexclient.MarketplaceClient.__module__ == "flexclient"
        assert flexclient.MemoryTokenStore.__module__ == "flexclient"
        assert flexclient.image_variants.__module__ == "flexclient"
        for value_type in (flexclient.Money, flexclient.LatLng, flexclient.LatLngBounds):
            assert value_type.__module__ == "flexclient", value_type
            assert repr(value_type) == f"<class 'flexclient.{value_type.__name__}'>"
    if package is flexclient.models:
        assert flexclient.models.ToOne.__module__ == "flexclient.models"


ERRORS = """
import sys, traceback
import requests_mock
from flexclient import MarketplaceClient
with requests_mock.Mocker() as m:
    m.post("https://mp.test/v1/auth/token", json={"access_token": "t", "scope": "public-read"})
    m.get("https://mp.test/v1/api/listings/show", status_code=404, reason="Not Found", text="")
    sdk = MarketplaceClient("id", base_url="https://mp.test", max_retries=0)
    store = type(sdk.token_store)
    try:
        sdk.listings.show({"id": "c6ff7190-bdf7-47a0-8a2b-e3136e74334f"})
    except Exception as e:
        print(traceback.format_exception_only(e)[-1].split(":")[0])
print(store.__module__, "NotFoundError" in vars(sys.modules["flexclient"]))
"""


def test_a_raised_error_and_a_store_name_flexclient_before_the_program_imports_them() -> None:
    done = subprocess.run(
        [sys.executable, "-c", ERRORS], capture_output=True, text=True, check=True, timeout=60
    )
    assert done.stdout.split() == ["flexclient.NotFoundError", "flexclient", "False"]


def errors() -> list[flexclient.FlexError]:
    return [
        flexclient.NotFoundError(404, "Not Found", body='{"errors": []}', headers={"A": "b"}),
        flexclient.AuthError(401, "Unauthorized", body='{"error": "invalid_grant"}'),
        flexclient.RedirectError(307, "Temporary Redirect", location="https://x.test/"),
        flexclient.ParameterError("perPage", "too big"),
        flexclient.MissingExtraError("tqdm", "progress", "a progress bar"),
        flexclient.CreditBudgetExceededError(
            budget=Decimal(10), spent=Decimal(8), cost=Decimal(5), endpoint="/v1/api/x"
        ),
        flexclient.RelationshipNotIncludedError("author", "in a test"),
        flexclient.TransportError("GET /x: ConnectionError", kind="ConnectionError"),
        flexclient.RequestTimeoutError("GET /x: ReadTimeout", kind="ReadTimeout"),
        flexclient.TokenStoreError("a folder"),
        flexclient.PositionStoreError("a folder"),
        flexclient.MirrorError("sqlite:///market.db", "not a mirror"),
    ]


@pytest.mark.parametrize("error", errors(), ids=lambda e: type(e).__name__)
def test_errors_pickle_and_copy_with_their_attributes(error: flexclient.FlexError) -> None:
    error.add_note("a note")
    for protocol in (0, 2, pickle.HIGHEST_PROTOCOL):
        for clone in (
            pickle.loads(pickle.dumps(error, protocol)),
            copy.copy(error),
            copy.deepcopy(error),
        ):
            assert type(clone) is type(error)
            assert str(clone) == str(error) and clone.args == error.args
            assert vars(clone) == vars(error)  # the attributes, `__notes__` included
    if isinstance(error, ImportError):
        assert pickle.loads(pickle.dumps(error)).name == error.name == "tqdm"


def test_values_and_models_pickle() -> None:
    from flexclient.models._envelope import build_envelope

    listing = build_envelope(sample.page()).data[0]
    values: list[Any] = [
        listing,
        flexclient.Money(5000, "EUR"),
        flexclient.LatLngBounds(flexclient.LatLng(1, 2), flexclient.LatLng(0, 1)),
        flexclient.ImageVariantSpec(400, 300, "crop"),
        flexclient.UploadProgress(1, 2),
        flexclient.Token(access_token="t", token_type="bearer", expires_in=60, scope="user"),
        uuid.UUID(int=1),
    ]
    for value in values:
        assert pickle.loads(pickle.dumps(value)) == value


def test_the_old_image_variant_name_warns_and_is_the_new_class() -> None:
    with pytest.warns(DeprecationWarning, match="use flexclient.ImageVariantSpec") as caught:
        from flexclient import ImageVariant
    assert ImageVariant is flexclient.ImageVariantSpec
    assert caught[0].filename == __file__  # the line that used it
    with pytest.warns(DeprecationWarning):  # each use, not only the first
        _ = flexclient.ImageVariant
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        # Neither `from flexclient import *` nor `dir()` reads it.
        exec("from flexclient import *", {})
        assert "ImageVariant" not in dir(flexclient)


def test_the_image_variant_names_differ_for_request_and_answer() -> None:
    spec: object = flexclient.ImageVariantSpec
    assert spec is not flexclient.models.ImageVariant
    assert "ImageVariantSpec" not in exported(flexclient.models)


def test_reading_the_list_imports_nothing_else() -> None:
    code = (
        "import sys, flexclient, flexclient.models as m, flexclient.params as p\n"
        "n = len(flexclient.__all__) + len(dir(m)) + len(p.__all__)\n"
        "print(sorted(m for m in sys.modules if m.startswith(('flex', 'pydantic', 'requests'))))"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=60
    )
    assert ast.literal_eval(done.stdout.strip()) == [
        "flexclient",
        "flexclient._support",
        "flexclient._support.lazy",
        "flexclient.models",
        "flexclient.params",
    ]


def test_a_private_name_is_refused_without_reading_the_list() -> None:
    with pytest.raises(AttributeError, match="_nothing"):
        _ = flexclient.params._nothing  # type: ignore[attr-defined]
    with pytest.raises(AttributeError, match="did you mean 'MarketplaceClient'"):
        _ = flexclient.MarketplaceClien  # type: ignore[attr-defined]


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


# What flexclient wrote before the value types reported the package as their module (protocol
# 2, by the release of 2026-11-27): they named flexclient._wire.value_types.
OLD_PICKLE = (
    b"\x80\x02]q\x00(cflexclient._wire.value_types\nMoney\nq\x01)\x81q\x02}q\x03(X\x06\x00"
    b"\x00\x00amountq\x04M~\x13X\x08\x00\x00\x00currencyq\x05X\x03\x00\x00\x00EURq\x06ubcf"
    b"lexclient._wire.value_types\nLatLngBounds\nq\x07)\x81q\x08}q\t(X\x02\x00\x00\x00neq\ncf"
    b"lexclient._wire.value_types\nLatLng\nq\x0b)\x81q\x0c}q\r(X\x03\x00\x00\x00latq\x0eG@N@"
    b"\x00\x00\x00\x00\x00X\x03\x00\x00\x00lngq\x0fG@9\x00\x00\x00\x00\x00\x00ubX\x02\x00\x00"
    b"\x00swq\x10h\x0b)\x81q\x11}q\x12(h\x0eG@N\x00\x00\x00\x00\x00\x00h\x0fG@8\x80\x00\x00"
    b"\x00\x00\x00ubube."
)


def test_value_types_pickle_under_the_package_and_old_pickles_still_load() -> None:
    from flexclient import LatLng, LatLngBounds, Money

    written = pickle.dumps(Money(4990, "EUR"))
    assert b"flexclient._wire" not in written and pickle.loads(written) == Money(4990, "EUR")
    assert pickle.loads(OLD_PICKLE) == [
        Money(4990, "EUR"),
        LatLngBounds(ne=LatLng(60.5, 25.0), sw=LatLng(60.0, 24.5)),
    ]
