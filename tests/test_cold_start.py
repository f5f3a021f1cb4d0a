"""What a new process imports: the client without the models it has not met, the command
line's help without requests or pydantic, and the first answer of each type still typed."""

from __future__ import annotations

import importlib
import json
import os
import pkgutil
import subprocess
import sys
from pathlib import Path

import pytest

import flexclient.models
from flexclient.models._resource import MODEL_MODULES, registered_models


def fresh(code: str) -> list[str]:
    """The `flexclient` modules (and requests, pydantic) a new interpreter has imported
    after running `code`, which may print more lines first."""
    script = f"{code}\nimport sys\nprint(sorted(sys.modules))"
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, check=True, timeout=60
    )
    *printed, modules = done.stdout.strip().splitlines()
    found: list[str] = json.loads(modules.replace("'", '"'))
    return [*printed, *found]


def test_the_table_of_model_modules_is_every_models_own_module() -> None:
    for info in pkgutil.iter_modules(flexclient.models.__path__):
        importlib.import_module(f"flexclient.models.{info.name}")
    ours = {
        m.resource_type: m
        for m in registered_models()
        if m.resource_type and m.__module__.startswith("flexclient.")
    }
    assert set(ours) == set(MODEL_MODULES)
    for resource_type, model in ours.items():
        assert model.__module__ == f"flexclient.models.{MODEL_MODULES[resource_type]}"


def test_a_client_imports_no_model_asset_file_or_events_module_until_used() -> None:
    modules = fresh(
        "from flexclient import MarketplaceClient, IntegrationClient\n"
        "MarketplaceClient('id'); IntegrationClient('id', 'secret')"
    )
    resource_modules = {f"flexclient.models.{m}" for m in MODEL_MODULES.values()}
    assert not resource_modules & set(modules)
    for name in ("_assets", "_file_transfer", "_events", "_cookies", "testing", "_cli"):
        assert f"flexclient.{name}" not in modules


def test_a_program_imports_no_difflib_before_a_name_is_misspelled() -> None:
    # `from flexclient import _events` inside the package asks the lazy package for `_events`
    # before importing it: a private name gets no "did you mean" (difflib is ~1 ms).
    assert "difflib" not in fresh("from flexclient import MarketplaceClient")


def test_a_program_imports_none_of_pydantics_serializer_functions() -> None:
    # flexclient's own marker does what `SerializeAsAny` would (its module: ~2 ms).
    assert "pydantic.functional_serializers" not in fresh(
        "from flexclient import MarketplaceClient, IntegrationClient"
    )


def test_import_flexclient_alone_imports_neither_requests_nor_pydantic() -> None:
    modules = fresh("import flexclient")
    assert "requests" not in modules
    assert "pydantic" not in modules


def test_the_command_lines_help_imports_neither_requests_nor_pydantic() -> None:
    modules = fresh(
        "from flexclient._cli import main\ntry:\n    main(['--help'])\nexcept SystemExit:\n    pass"
    )
    assert "usage: flexclient [-h] [--client-id CLIENT_ID] [--client-secret CLIENT_SECRET]" in (
        modules
    )
    assert "requests" not in modules
    assert "pydantic" not in modules


FIRST_ANSWERS = """
import requests_mock
from flexclient import MarketplaceClient
from flexclient._wire.formats import JSON, TRANSIT

LISTING, USER = "c6ff7190-bdf7-47a0-8a2b-e3136e74334f", "9a7a8a76-0a1c-4f4a-9d0a-1f0b1b6f2c11"
body = {
    "data": [{"id": LISTING, "type": "listing", "attributes": {"title": "Bike"},
              "relationships": {"author": {"data": {"id": USER, "type": "user"}}}}],
    "included": [{"id": USER, "type": "user",
                  "attributes": {"profile": {"displayName": "Jane D"}}}],
}
for fmt in (JSON, TRANSIT):
    with requests_mock.Mocker() as m:
        m.post("https://mp.test/v1/auth/token", json={"access_token": "t", "scope": "public-read"})
        m.get("https://mp.test/v1/api/listings/query", content=fmt.encode(body),
              headers={"Content-Type": fmt.content_type})
        sdk = MarketplaceClient("id", base_url="https://mp.test", wire_format=fmt.name)
        page = sdk.listings.query({"include": ["author"]}).data
        listing = page.data[0]
        print(fmt.name, type(listing).__name__, type(listing.author).__name__,
              listing.author.attributes.profile.display_name)
"""


def test_the_first_answers_of_each_type_are_typed_models_in_a_new_process() -> None:
    # The first listing and user come before their models are imported: they are read by
    # the models they import, and the next answer's validator includes those models.
    printed = fresh(FIRST_ANSWERS)
    assert printed[:2] == ["json Listing User Jane D", "transit Listing User Jane D"]
    assert "flexclient.models.listings" in printed
    assert "flexclient.models.users" in printed
    assert "flexclient.models.stripe" not in printed


def test_declarations_name_their_types_without_importing_them() -> None:
    from typing import ClassVar

    from flexclient._endpoints.kinds import ListQuery
    from flexclient._support.lazy import declared_args
    from flexclient.models import ToOne, User
    from flexclient.params import ListingsQueryParams

    class AsWritten:  # what `from __future__ import annotations` leaves: strings
        __annotations__ = {
            "query": "ListQuery[ListingsQueryParams, Listing]",
            "author": "ClassVar[ToOne['User']]",
            "plain": "int",
        }

    class Evaluated:  # annotations evaluated when the class was made
        __annotations__ = {
            "query": ListQuery[ListingsQueryParams, User],
            "author": ClassVar[ToOne[User]],
        }

    assert declared_args(AsWritten, "query") == ("ListingsQueryParams", "Listing")
    assert declared_args(AsWritten, "author") == ("User",)
    assert declared_args(AsWritten, "plain") == ()
    assert declared_args(AsWritten, "missing") == ()
    assert declared_args(Evaluated, "query") == (ListingsQueryParams, User)
    assert declared_args(Evaluated, "author") == (User,)


def test_the_value_types_are_standard_library_dataclasses_pydantic_validates() -> None:
    # pydantic's own dataclasses (their modules, and a wrapper on each class) cost about
    # 1.5 ms at import; pydantic validates the standard library's where models hold them.
    assert "pydantic.dataclasses" not in fresh("from flexclient import MarketplaceClient, Money")
    from pydantic import TypeAdapter, ValidationError

    from flexclient import LatLng, Money
    from flexclient.models import Listing

    listing = Listing.model_validate(
        {
            "id": "c6ff7190-bdf7-47a0-8a2b-e3136e74334f",
            "type": "listing",
            "attributes": {
                "price": {"amount": 5000, "currency": "EUR"},
                "geolocation": {"lat": 60, "lng": 24.5},
            },
        }
    )
    assert listing.attributes.price == Money(5000, "EUR")
    assert listing.attributes.geolocation == LatLng(60.0, 24.5)
    with pytest.raises(ValidationError, match="amount"):
        TypeAdapter(Money).validate_python({"amount": 50.0, "currency": "EUR"})


def test_the_value_types_keep_their_own_settings_in_any_model() -> None:
    # A standard library dataclass takes the settings of the model holding it unless it
    # has its own: the models keep unknown keys, and a user's model may lower its strings.
    from pydantic import BaseModel, ConfigDict

    from flexclient import Money
    from flexclient.models import Listing

    attributes: dict[str, object] = {
        "price": {"amount": 5, "currency": "EUR", "note": 1},
        "geolocation": {"lat": 1.5, "lng": 2.5, "alt": 3},
    }
    listing = Listing.model_validate(
        {"id": "c6ff7190-bdf7-47a0-8a2b-e3136e74334f", "type": "listing", "attributes": attributes}
    )
    assert vars(listing.attributes.price) == {"amount": 5, "currency": "EUR"}
    assert vars(listing.attributes.geolocation) == {"lat": 1.5, "lng": 2.5}
    assert "additionalProperties" not in Listing.model_json_schema()["$defs"]["Money"]

    class Lowered(BaseModel):
        model_config = ConfigDict(str_to_lower=True)
        price: Money

    assert Lowered.model_validate({"price": {"amount": 5, "currency": "EUR"}}).price == Money(
        5, "EUR"
    )


def test_the_fake_reads_a_point_as_the_client_reads_one_from_the_wire() -> None:
    from flexclient import LatLng
    from flexclient.testing._params import from_body

    assert from_body({"lat": "60.1", "lng": 24}, LatLng) == LatLng(60.1, 24.0)


def test_the_value_types_signatures_take_their_fields_positionally() -> None:
    import inspect

    from flexclient import LatLng, LatLngBounds, Money

    for cls, names in ((Money, ["amount", "currency"]), (LatLng, ["lat", "lng"])):
        signature = inspect.signature(cls)
        assert list(signature.parameters) == names
        assert {p.kind for p in signature.parameters.values()} == {
            inspect.Parameter.POSITIONAL_OR_KEYWORD
        }
        assert signature.bind(1, 2).arguments == dict(zip(names, [1, 2], strict=True))
    assert list(inspect.signature(LatLngBounds).parameters) == ["ne", "sw"]


def test_the_lower_layers_import_nothing_above_them() -> None:
    # import-linter checks the imports as written (.ci/run); this checks what runs.
    encoding = fresh("import flexclient._wire.query, flexclient._wire.formats")
    assert not [m for m in encoding if m.startswith(("flexclient.models", "flexclient._http"))]
    sending = fresh("import flexclient._http.transport")
    assert not [m for m in sending if m.startswith(("flexclient._endpoints", "flexclient.models"))]


# What the pytest plugin may import beside pytest: the package, its lazy exports, itself.
PLUGIN_MODULES = ["flexclient", "flexclient._support", "flexclient._support.lazy"]
HEAVY = ("requests", "urllib3", "pydantic", "flexclient._clients", "flexclient.credits")


def test_the_pytest_plugin_imports_nothing_heavy_when_loaded() -> None:
    # pytest loads it in every run of a project that installed flexclient (an entry point).
    added = fresh(
        "import sys, pytest\nbefore = set(sys.modules)\nimport flexclient.pytest_plugin\n"
        "print(sorted(set(sys.modules) - before))"
    )[0]
    assert json.loads(added.replace("'", '"')) == [*PLUGIN_MODULES, "flexclient.pytest_plugin"]


def test_a_pytest_run_that_uses_no_fixture_loads_no_client(tmp_path: Path) -> None:
    """pytest as a user's project runs it, the plugin loaded from its entry point: the run
    ends with the plugin loaded and none of the clients, requests or pydantic."""
    (tmp_path / "pytest.ini").write_text("[pytest]\n")
    (tmp_path / "test_plain.py").write_text("def test_plain():\n    assert 1 + 1 == 2\n")
    (tmp_path / "conftest.py").write_text(
        "import sys\n\ndef pytest_sessionfinish(session):\n"
        f"    print('LOADED', [m for m in {(*HEAVY, 'flexclient.pytest_plugin')!r} "
        "if m in sys.modules])\n"
    )
    # requests-mock's own plugin (a test tool of this repository) imports requests.
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            "-q",
            "-s",
            "-p",
            "no:requests_mock",
            "-p",
            "no:cacheprovider",
        ],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=120,
        env={k: v for k, v in os.environ.items() if not k.startswith("PYTEST_")},
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert "LOADED ['flexclient.pytest_plugin']" in done.stdout, done.stdout


def test_the_plugins_marker_and_fixtures_still_load_what_they_need(tmp_path: Path) -> None:
    (tmp_path / "pytest.ini").write_text("[pytest]\n")
    (tmp_path / "test_budget.py").write_text(
        "import pytest\n\n@pytest.mark.credit_budget(0)\n"
        "def test_spends(marketplace_client):\n"
        "    marketplace_client.listings.query()\n"
    )
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=120,
        env={k: v for k, v in os.environ.items() if not k.startswith("PYTEST_")},
    )
    assert done.returncode == 1
    assert "credit_budget(0) exceeded" in done.stdout, done.stdout
