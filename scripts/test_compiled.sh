#!/usr/bin/env bash
# The compiled build of the Transit reader, tested as its users get it: a wheel built from this
# checkout the way `pip install /path/to/flexclient` builds one (hatch_build.py compiles the
# reader with mypyc), installed into a virtual environment of its own (.cache/compiled, kept),
# where the tests of everything that reads Transit (scripts/test_reader_build.py) run against it:
#
#   scripts/test_compiled.sh              # build, install, test
#   scripts/test_compiled.sh -- -x        # pytest options after the "--"
#
# The same tests run on the pure-Python module in every other run (.ci/run): the two builds
# must read every body to the same values and refuse the same ones. FLEXCLIENT_BUILD=compiled
# makes a build that cannot compile fail rather than fall back to pure Python, as a user's
# would. The build compiles a copy of the package, so nothing compiled is left in the checkout
# (where Python would import it in place of the source; a test of the suite checks). Needs a C
# compiler and Python's headers; about a minute.
set -euo pipefail
cd "$(dirname "$0")/.."
[ "${1:-}" = "--" ] && shift
bash scripts/check_compiler.sh  # one line on what to install, before anything is built

venv=".cache/compiled"
python3 -m venv "$venv"
"$venv/bin/python" -m pip install -q --upgrade "pip>=25.1"
rm -rf "$venv/dist"
FLEXCLIENT_BUILD=compiled "$venv/bin/pip" wheel -q --no-deps -w "$venv/dist" .
wheel=$(ls "$venv"/dist/*.whl)
"$venv/bin/pip" install -q "$wheel[testing]" --group test-tools
"$venv/bin/pip" install -q --force-reinstall --no-deps "$wheel"
"$venv/bin/python" scripts/test_reader_build.py "$@"
