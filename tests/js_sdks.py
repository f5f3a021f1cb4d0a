"""Where the official JS SDKs are installed for the tests that run them.

`.ci/run` installs them (pinned) into `.cache/js-sdks` and sets FLEX_REQUIRE_JS_SDKS=1, so that
in CI these tests fail rather than skip when node or the SDKs are missing.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

ROOT = Path(__file__).parents[1]
NODE_MODULES = Path(os.environ.get("FLEX_JS_SDKS", ROOT / ".cache" / "js-sdks")) / "node_modules"


def node_env() -> dict[str, str]:
    """The environment to run node with the SDKs; skips (or fails in CI) without them."""
    node = shutil.which("node")
    ready = node is not None and (NODE_MODULES / "sharetribe-flex-sdk").is_dir()
    if not ready:
        message = f"node and the official JS SDKs in {NODE_MODULES} are needed (see .ci/run)"
        if os.environ.get("FLEX_REQUIRE_JS_SDKS") == "1":
            pytest.fail(message)
        pytest.skip(message)
    return {**os.environ, "NODE_PATH": str(NODE_MODULES)}
