"""The line each benchmark prints first: when, and on what, its figures were measured."""

from __future__ import annotations

import datetime as dt
import json
import os
import platform
import shutil
import subprocess
from pathlib import Path

import pydantic

from flexclient._wire import transit_reader


def js_modules() -> Path | None:
    """The official JS SDK's `node_modules` (`FLEX_JS_SDKS`, or .cache/js-sdks as .ci/run
    installs it), or None without node or the SDK."""
    root = Path(__file__).parents[1] / ".cache" / "js-sdks"
    modules = Path(os.environ.get("FLEX_JS_SDKS", root)) / "node_modules"
    if shutil.which("node") is None or not (modules / "sharetribe-flex-sdk").is_dir():
        return None
    return modules


def described(js_modules: Path | None = None) -> str:
    """The date (UTC), the CPUs, Python, pydantic, the build of the Transit reader (compiled
    in the platform wheels, pure Python from a checkout) and, given the JS SDK's
    `node_modules`, node and the SDKs' versions; the load average, which moves every figure."""
    cpu = platform.processor() or platform.machine()
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    parts = [
        f"{dt.datetime.now(dt.UTC):%Y-%m-%d %H:%M} UTC",
        f"{os.cpu_count()} CPUs ({cpu})",
        f"Python {platform.python_version()}",
        f"pydantic {pydantic.VERSION}",
        "Transit reader "
        + ("pure Python" if transit_reader.__file__.endswith(".py") else "compiled (mypyc)"),
    ]
    if js_modules is not None:
        node = subprocess.run(["node", "--version"], capture_output=True, text=True).stdout
        sdks = [
            f"{name} {json.loads((js_modules / name / 'package.json').read_text())['version']}"
            for name in ("sharetribe-flex-sdk", "sharetribe-flex-integration-sdk")
            if (js_modules / name).is_dir()
        ]
        parts.append(", ".join([f"node {node.strip().lstrip('v')}", *sdks]))
    if hasattr(os, "getloadavg"):
        parts.append(f"load {os.getloadavg()[0]:.1f}")
    return "; ".join(parts)
