"""Where the official JS SDKs are installed for the tests that run them.

`.ci/run` installs them (pinned) into `.cache/js-sdks` and sets FLEX_REQUIRE_JS_SDKS=1, so that
in CI these tests fail rather than skip when node or the SDKs are missing.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path
from typing import Any

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


def run_js(script: Path, *args: str, given: object = None, timeout: float = 120) -> Any:
    """What `script` prints as JSON, run by node with the SDKs: `args` on its command line,
    `given` (as JSON) on its standard input. Fails with the end of its stderr if it fails."""
    done = subprocess.run(
        ["node", str(script), *args],
        input=None if given is None else json.dumps(given),
        capture_output=True,
        text=True,
        timeout=timeout,
        env=node_env(),
    )
    assert done.returncode == 0, done.stderr[-3000:]
    return json.loads(done.stdout)
