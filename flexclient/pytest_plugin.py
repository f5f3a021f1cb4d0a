"""pytest fixtures for testing code that uses flexclient against the fake marketplace.

Installing flexclient registers it with pytest (an entry point), so the fixtures need no
`conftest.py` line. It imports the fake marketplace only when a fixture is used: without the
`testing` extra, pytest starts as usual and only a test using these fixtures fails, with the
hint to install it.

Fixtures: `fake_marketplace` (a fresh, empty fake for each test), `demo_marketplace` (one fake
with the demo data for the whole session: do not change its data), and clients bound to the
fresh fake: `marketplace_client` and `integration_client`.

The marker `@pytest.mark.credit_budget(50)` fails a test whose requests to the fakes of these
fixtures (in its setup and the test itself) would cost more than 50 credits on Sharetribe,
showing what each endpoint cost; `fake_marketplace.usage` has the figures (docs/testing.md).

The marker `@pytest.mark.transaction_processes("ext/transaction-processes/my-process", ...)`
gives the test's `fake_marketplace` your own processes (process.edn files or their folders,
relative to pytest's rootdir, each under `<folder>/release-1`; or a mapping of aliases to
paths); on a class or a module, to all of its tests.

pytest loads this module in every run of a project where flexclient is installed, also when
no test uses it: it imports pytest and the standard library alone, and the clients, the fake
and the credits table (with requests and pydantic) when a fixture or a marker needs them
(`tests/test_cold_start.py` counts what it loads).
"""

from __future__ import annotations

import contextlib
from collections.abc import Generator, Iterator, Mapping
from dataclasses import dataclass, field
from decimal import Decimal
from pathlib import Path
from typing import TYPE_CHECKING, TypeVar, cast

import pytest

if TYPE_CHECKING:
    from flexclient import IntegrationClient, MarketplaceClient, RetryPolicy
    from flexclient.credits import UsageMeter
    from flexclient.testing import FakeMarketplace
    from flexclient.testing._metering import Metered

_MARKER = "credit_budget"
_PROCESSES = "transaction_processes"
_Fake = TypeVar("_Fake", bound="Metered")


# --- the credit budget of a test -------------------------------------------------------------


@dataclass
class _Budget:
    """A test's credit budget, and the meter that follows the plugin's fakes while it runs."""

    credits: Decimal
    meter: UsageMeter = field(default_factory=lambda: _new_meter())
    following: contextlib.ExitStack = field(default_factory=contextlib.ExitStack)

    def follow(self, fake: Metered) -> None:
        self.following.enter_context(fake.metering(self.meter))

    def check(self) -> None:
        """Fail the test if it has spent more than its budget."""
        spent = self.meter.snapshot()
        if spent.credits <= self.credits:
            return
        rows = [("endpoint", "requests", "credits")]
        by_cost = sorted(spent.endpoints, key=lambda item: (-item[1].credits, item[0]))
        rows += [(path, str(u.requests), f"{u.credits:f}") for path, u in by_cost]
        widths = [max(len(row[n]) for row in rows) for n in range(3)]
        table = [f"  {a:<{widths[0]}}  {b:>{widths[1]}}  {c:>{widths[2]}}" for a, b, c in rows]
        pytest.fail(
            f"credit_budget({self.credits:f}) exceeded: the test's requests to the fake "
            f"marketplace would cost {spent.credits:f} credits on Sharetribe, "
            f"{spent.credits - self.credits:f} over its budget\n" + "\n".join(table),
            pytrace=False,
        )


def _new_meter() -> UsageMeter:
    from flexclient.credits import UsageMeter

    return UsageMeter()


def _no_wait() -> RetryPolicy:
    """Retries that do not wait, for the fixtures' clients."""
    from flexclient import RetryPolicy

    return RetryPolicy(sleep=lambda _: None)


_BUDGET = pytest.StashKey[_Budget]()  # an item's
_RUNNING = pytest.StashKey["_Budget | None"]()  # the config's: the running test's budget
_LIVE = pytest.StashKey["list[Metered]"]()  # the config's: the fakes of the fixtures, serving


def _budget_of(marker: pytest.Mark) -> Decimal:
    from flexclient.credits import check_credit_budget

    if len(marker.args) + len(marker.kwargs) != 1 or set(marker.kwargs) - {"credits"}:
        raise TypeError(f"{_MARKER} takes the credits a test may spend: {_MARKER}(50)")
    return check_credit_budget(marker.args[0] if marker.args else marker.kwargs["credits"])


@contextlib.contextmanager
def _metered(config: pytest.Config, fake: _Fake) -> Generator[_Fake, None, None]:
    """`fake` as a fixture's: counted against the budget of each test while it serves."""
    live = config.stash.setdefault(_LIVE, [])
    live.append(fake)
    running = config.stash.get(_RUNNING, None)
    if running is not None:
        running.follow(fake)
    try:
        yield fake
    finally:
        live.remove(fake)


def pytest_configure(config: pytest.Config) -> None:
    known = config.getini("markers")
    if not any(line.startswith(f"{_MARKER}(") for line in known):
        config.addinivalue_line(
            "markers",
            f"{_MARKER}(credits): fail the test if its requests to the fake marketplace "
            "fixtures would cost more than `credits` on Sharetribe (flexclient)",
        )
    if not any(line.startswith(f"{_PROCESSES}(") for line in known):
        config.addinivalue_line(
            "markers",
            f"{_PROCESSES}(*paths): run the test's fake_marketplace with these transaction "
            "processes (process.edn files or folders, or a mapping of aliases to paths) "
            "(flexclient)",
        )


# The hooks do nothing twice: a conftest.py may load the plugin again under its older name.
@pytest.hookimpl(wrapper=True, tryfirst=True)
def pytest_runtest_setup(item: pytest.Item) -> Generator[None, None, None]:
    marker = item.get_closest_marker(_MARKER)
    if marker is None or _BUDGET in item.stash:
        return (yield)
    from flexclient._errors import ParameterError

    try:
        credits = _budget_of(marker)
    except (TypeError, ParameterError) as exc:
        yield  # the other plugins' setup, which their teardown needs
        pytest.fail(f"@pytest.mark.{marker.name}: {exc}", pytrace=False)
    budget = item.stash[_BUDGET] = _Budget(credits)
    item.config.stash[_RUNNING] = budget
    for fake in item.config.stash.setdefault(_LIVE, []):
        budget.follow(fake)
    return (yield)


@pytest.hookimpl(wrapper=True)
def pytest_runtest_call(item: pytest.Item) -> Generator[None, None, None]:
    outcome = yield  # a test that failed already is not failed again
    budget = item.stash.get(_BUDGET, None)
    if budget is not None:
        budget.check()
    return outcome


@pytest.hookimpl(wrapper=True)
def pytest_runtest_teardown(item: pytest.Item) -> Generator[None, None, None]:
    try:
        return (yield)
    finally:
        budget = item.stash.get(_BUDGET, None)
        if budget is not None:
            del item.stash[_BUDGET]
            item.config.stash[_RUNNING] = None
            budget.following.close()


# --- the fixtures ----------------------------------------------------------------------------


def _processes(request: pytest.FixtureRequest) -> dict[str, Path]:
    """The processes the test's markers name, by alias; relative paths are pytest's
    rootdir's."""
    from flexclient.testing._processes import load

    found: dict[str, Path] = {}
    root = request.config.rootpath
    for marker in reversed(list(request.node.iter_markers(_PROCESSES))):  # the closest last
        for given in marker.args:
            pairs: list[tuple[object, object]] = (
                list(cast(Mapping[object, object], given).items())
                if isinstance(given, Mapping)
                else [(None, given)]
            )
            for alias, path in pairs:
                full = root / Path(str(path))
                found[str(alias) if alias is not None else load(full).alias] = full
    return found


@pytest.fixture
def fake_marketplace(request: pytest.FixtureRequest) -> Iterator[FakeMarketplace]:
    """A fake marketplace with no data, served on 127.0.0.1 for one test; with the
    processes of the `transaction_processes` marker, if the test has one."""
    from flexclient.testing import FakeMarketplace

    with FakeMarketplace(processes=_processes(request)) as fake, _metered(request.config, fake):
        yield fake


@pytest.fixture(scope="session")
def demo_marketplace(request: pytest.FixtureRequest) -> Iterator[FakeMarketplace]:
    """A fake marketplace with the demo data, shared by the whole session."""
    from flexclient.testing import FakeMarketplace

    with FakeMarketplace(seed="demo") as fake, _metered(request.config, fake):
        yield fake


@pytest.fixture
def marketplace_client(fake_marketplace: FakeMarketplace) -> MarketplaceClient:
    """A Marketplace API client of `fake_marketplace`; retries do not wait."""
    from flexclient import MarketplaceClient

    return MarketplaceClient(
        fake_marketplace.client_id,
        client_secret=fake_marketplace.client_secret,
        base_url=fake_marketplace.url,
        retry_policy=_no_wait(),
    )


@pytest.fixture
def integration_client(fake_marketplace: FakeMarketplace) -> IntegrationClient:
    """An Integration API client of `fake_marketplace`; retries do not wait."""
    from flexclient import IntegrationClient

    return IntegrationClient(
        fake_marketplace.client_id,
        fake_marketplace.client_secret,
        base_url=fake_marketplace.url,
        retry_policy=_no_wait(),
    )
