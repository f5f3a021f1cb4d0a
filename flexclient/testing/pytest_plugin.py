"""The pytest fixtures, under the name older `conftest.py` files use
(`pytest_plugins = ["flexclient.testing.pytest_plugin"]`); installing flexclient registers
them by itself (see `flexclient.pytest_plugin`), and its `credit_budget` marker."""

from flexclient.pytest_plugin import (
    demo_marketplace,
    fake_marketplace,
    integration_client,
    marketplace_client,
    pytest_configure,
    pytest_runtest_call,
    pytest_runtest_setup,
    pytest_runtest_teardown,
)

__all__ = [
    "demo_marketplace",
    "fake_marketplace",
    "integration_client",
    "marketplace_client",
    "pytest_configure",
    "pytest_runtest_call",
    "pytest_runtest_setup",
    "pytest_runtest_teardown",
]
