"""The wheel's build hook: the Transit reader compiled by mypyc wherever it can be.

hatchling runs it for every wheel (pyproject.toml, `[tool.hatch.build.targets.wheel.hooks.custom]`,
docs/performance.md, "The compiled Transit reader"). `FLEXCLIENT_BUILD` chooses the build:

- unset (or `auto`): compiled when a C compiler and Python's headers work, else pure Python,
  saying why in one line;
- `compiled`: compiled, or the build fails saying why (cibuildwheel, scripts/test_compiled.sh);
- `pure`: pure Python, nothing compiled and nothing more to install.

An editable install (`pip install -e`) is always pure: a compiled module in the checkout would
be imported in place of the source being edited. The compiler works on a copy of the package
in a scratch folder, so a build from a checkout (`pip install /path/to/flexclient`) leaves
nothing in it.

Run as a script (`python hatch_build.py --check`, what scripts/check_compiler.sh does), it
only checks the compiler: silent and 0 when it works, one line and 1 when it does not. So this
file imports hatchling only where hatchling calls it (`get_build_hook`).
"""

from __future__ import annotations

import os
import shlex
import shutil
import subprocess
import sys
import sysconfig
import tempfile
from importlib.util import find_spec
from pathlib import Path
from types import FrameType
from typing import Any

VARIABLE = "FLEXCLIENT_BUILD"
CHOICES = ("auto", "compiled", "pure")
WHERE = (
    "(Debian/Ubuntu: apt-get install gcc python3-dev; Fedora: dnf install gcc python3-devel; "
    "macOS: xcode-select --install)"
)
PREFIX = "flexclient:"
# The build's own script for setuptools, given the mypyc arguments as its own arguments after
# `--`: mypycify([...mypy args, ...modules], group_name=...), built in place in the scratch copy.
SETUP = """
import sys
from setuptools import setup
from mypyc.build import mypycify
cut = sys.argv.index("--")
group, args = sys.argv[cut + 1], sys.argv[cut + 2 :]
sys.argv[cut:] = []
setup(name=group, ext_modules=mypycify(args, group_name=group))
"""


def chosen_build() -> str:
    """`FLEXCLIENT_BUILD`, checked: one of CHOICES (unset or empty is `auto`)."""
    value = os.environ.get(VARIABLE, "").strip().lower() or "auto"
    if value not in CHOICES:
        raise ValueError(
            f"{VARIABLE}={os.environ[VARIABLE]!r}: expected one of {', '.join(CHOICES)}"
        )
    return value


def compiler_problem() -> str | None:
    """None when the C compiler the build would use ($CC, else the one Python was built with)
    compiles a file that includes Python.h; else one sentence saying what to install."""
    if os.name == "nt":
        # setuptools finds MSVC itself, off PATH; a build without it fails, and falls back then.
        return None
    default = (sysconfig.get_config_var("CC") or "cc").split()[0]
    words = shlex.split(os.environ.get("CC") or default) or [default]
    compiler = words[0]
    if shutil.which(compiler) is None:
        return (
            f"The compiled Transit reader needs a C compiler, and '{compiler}' is not on PATH: "
            f"install one {WHERE}"
        )
    include = sysconfig.get_paths()["include"]
    with tempfile.TemporaryDirectory() as scratch:
        source = Path(scratch, "check.c")
        source.write_text("#include <Python.h>\nint main(void) { return 0; }\n")
        try:
            done = subprocess.run(
                [*words, f"-I{include}", "-c", "-o", str(Path(scratch, "check.o")), str(source)],
                capture_output=True,
                text=True,
                timeout=120,
                check=False,
            )
        except OSError as error:
            return f"The compiled Transit reader needs a working C compiler: {error}"
    if done.returncode == 0:
        return None
    log = (done.stderr + done.stdout).strip()
    if "Python.h" in log:
        return (
            "The compiled Transit reader needs Python's headers (Python.h), not found in "
            f"{include}: install them {WHERE}"
        )
    first = log.splitlines()[0] if log else f"exit status {done.returncode}"
    return (
        "The compiled Transit reader needs a working C compiler, and "
        f"'{compiler}' cannot compile: {first}"
    )


def editable_requested() -> bool:
    """Whether hatchling is answering `get_requires_for_build_editable`: the one question the
    build hook is asked (`dependencies()`) without being told whether the build is editable."""
    frame: FrameType | None = sys._getframe(1)
    while frame is not None:
        if frame.f_code.co_name == "get_requires_for_build_editable":
            return True
        frame = frame.f_back
    return False


def compile_modules(root: Path, scratch: Path, config: dict[str, Any]) -> dict[str, str]:
    """Compile `config["compile"]` with mypyc in a copy of the package under `scratch`; the
    compiled files, as {path in scratch: path in the wheel}. Raises RuntimeError with the
    build's output when mypyc or the compiler fails."""
    package = config.get("package", "flexclient")
    for folder in (package, "stubs", "scripts"):
        if (root / folder).is_dir():
            shutil.copytree(
                root / folder,
                scratch / folder,
                ignore=shutil.ignore_patterns("__pycache__", "*.so", "*.pyd"),
            )
    modules = list(config["compile"])
    group = config["group-name"]
    done = subprocess.run(
        [sys.executable, "-c", SETUP, "build_ext", "--inplace", "--", group,
         *config.get("mypy-args", []), *modules],
        cwd=scratch,
        capture_output=True,
        text=True,
        check=False,
    )  # fmt: skip
    if done.returncode != 0:
        raise RuntimeError(f"mypyc's build failed:\n{done.stdout}\n{done.stderr}")
    suffix = sysconfig.get_config_var("EXT_SUFFIX")
    wanted = [f"{group}__mypyc{suffix}", *(m.removesuffix(".py") + suffix for m in modules)]
    missing = [name for name in wanted if not (scratch / name).is_file()]
    if missing:
        raise RuntimeError(f"mypyc's build left no {', '.join(missing)}:\n{done.stdout}")
    return {str(scratch / name): name for name in wanted}


def get_build_hook() -> type:
    """The hook class, for hatchling (which imports this file to call it)."""
    from hatchling.builders.hooks.plugin.interface import BuildHookInterface

    class CompiledReaderHook(BuildHookInterface):
        """Compiles the Transit reader into the wheel, or leaves it pure Python."""

        PLUGIN_NAME = "custom"
        _scratch: str | None = None

        def _say(self, message: str) -> None:
            self.app.display_warning(f"{PREFIX} {message}")

        def dependencies(self) -> list[str]:
            # What the build environment needs for mypyc, asked for only when it will run:
            # a pure build installs nothing more than hatchling.
            if self.target_name != "wheel" or editable_requested():
                return []
            build = chosen_build()
            if build == "pure":
                return []
            problem = compiler_problem()
            if problem is not None:
                if build == "compiled":
                    raise RuntimeError(f"{PREFIX} {VARIABLE}=compiled: {problem}")
                return []
            # mypy reads the types of what the compiled module imports: the runtime dependencies.
            return [*self.config.get("compile-requires", []), *self.metadata.core.dependencies]

        def initialize(self, version: str, build_data: dict[str, Any]) -> None:
            if self.target_name != "wheel" or version == "editable":
                return
            build = chosen_build()
            if build == "pure":
                self._say(f"the Transit reader stays pure Python ({VARIABLE}=pure)")
                return
            problem = compiler_problem()
            if problem is None and not all(map(find_spec, ("mypyc", "setuptools"))):
                # Built without the build environment dependencies() asked for
                # (`pip install --no-build-isolation`, say).
                problem = "it needs mypy and setuptools where the wheel is built"
            if problem is not None:
                if build == "compiled":
                    raise RuntimeError(f"{PREFIX} {VARIABLE}=compiled: {problem}")
                self._say(f"the Transit reader is built pure Python, not compiled. {problem}")
                return
            self._say(
                f"compiling the Transit reader with mypyc (a minute; {VARIABLE}=pure skips it)"
            )
            self._scratch = tempfile.mkdtemp(prefix="flexclient-build-")
            try:
                compiled = compile_modules(Path(self.root), Path(self._scratch), self.config)
            except RuntimeError as error:
                if build == "compiled":
                    raise
                last = str(error).strip().splitlines()[-1]
                self._say(
                    "the Transit reader is built pure Python, not compiled: mypyc's build "
                    f"failed ({last}); {VARIABLE}=compiled shows the whole error"
                )
                return
            build_data["pure_python"] = False
            build_data["infer_tag"] = True
            build_data["force_include"].update(compiled)

        def finalize(self, version: str, build_data: dict[str, Any], artifact_path: str) -> None:
            if self._scratch is not None:
                shutil.rmtree(self._scratch, ignore_errors=True)
                self._scratch = None

    return CompiledReaderHook


if __name__ == "__main__":
    if sys.argv[1:] != ["--check"]:
        sys.exit("usage: python hatch_build.py --check")
    found = compiler_problem()
    if found is not None:
        print(found, file=sys.stderr)
        sys.exit(1)
