#!/usr/bin/env bash
# The compiled build of the Transit reader, tested as its users get it: a wheel built by mypyc
# (pyproject.toml, the wheel's mypyc hook) from an sdist, as the platform wheels are built,
# installed into a virtual environment of its own (.cache/compiled, kept), where the tests of
# everything that reads Transit (scripts/test_reader_build.py) run against it:
#
#   scripts/test_compiled.sh              # build, install, test
#   scripts/test_compiled.sh -- -x        # pytest options after the "--"
#
# The same tests run on the pure-Python module in every other run (.ci/run): the two builds
# must read every body to the same values and refuse the same ones. Building from the sdist
# also keeps the compiled module out of this checkout, where Python would import it in place
# of the source. Needs a C compiler and Python's headers; about a minute.
set -euo pipefail
cd "$(dirname "$0")/.."
[ "${1:-}" = "--" ] && shift
bash scripts/check_compiler.sh  # one line on what to install, before anything is built

venv=".cache/compiled"
python3 -m venv "$venv"
"$venv/bin/python" -m pip install -q --upgrade "pip>=25.1" build
rm -rf "$venv/dist"
"$venv/bin/python" -m build -q --sdist -o "$venv/dist" . >/dev/null
HATCH_BUILD_HOOKS_ENABLE=1 "$venv/bin/pip" wheel -q --no-deps -w "$venv/dist" "$venv"/dist/*.tar.gz
wheel=$(ls "$venv"/dist/*.whl)
"$venv/bin/pip" install -q "$wheel[testing]" --group test-tools
"$venv/bin/pip" install -q --force-reinstall --no-deps "$wheel"
"$venv/bin/python" scripts/test_reader_build.py "$@"
