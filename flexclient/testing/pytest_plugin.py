"""The pytest fixtures, under the name older `conftest.py` files use
(`pytest_plugins = ["flexclient.testing.pytest_plugin"]`); installing flexclient registers
them by itself (see `flexclient.pytest_plugin`)."""

from flexclient.pytest_plugin import (
    demo_marketplace,
    fake_marketplace,
    integration_client,
    marketplace_client,
)

__all__ = ["demo_marketplace", "fake_marketplace", "integration_client", "marketplace_client"]
