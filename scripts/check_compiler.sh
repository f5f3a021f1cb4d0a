#!/usr/bin/env bash
# Whether this machine can build the compiled Transit reader: a C compiler and Python's
# headers. The wheel's build hook asks the same question before it compiles (hatch_build.py,
# which this runs): it compiles a file that includes Python.h, as mypyc's build does, with the
# compiler that build would use ($CC, else the one Python was built with). Silent and 0 when it
# can; one line saying what to install, and 1, when it cannot, so that .ci/run and
# scripts/test_compiled.sh stop at once instead of deep inside a pip traceback.
set -uo pipefail
# The folder of this script without `dirname`, which a PATH made bare for the tests may lack.
here="${BASH_SOURCE[0]}"
[[ "$here" == */* ]] && here="${here%/*}" || here=.
exec "${PYTHON:-python3}" "$here/../hatch_build.py" --check
