#!/usr/bin/env bash
# The tests of what flexclient takes from requests, urllib3, pydantic, SQLAlchemy and psycopg
# (transport, deadlines, models, the reach-ins of flexclient/_support/compat.py, the mirror's
# database) against the oldest versions it supports, or the newest:
#
#   scripts/test_oldest.sh                       # the floors: the `oldest` dependency group
#   scripts/test_oldest.sh newest                # the newest releases of each
#   scripts/test_oldest.sh oldest urllib3==1.26.20 -- -x   # a pin of your own; pytest options
#
# Each makes its own virtual environment under .cache/ (kept, so a second run only checks
# it), installs flexclient with the pins and the test tools, and runs pytest on the tests
# below. docs/development.md says what the floors are and why.
set -euo pipefail
cd "$(dirname "$0")/.."

which="${1:-oldest}"
[ $# -gt 0 ] && shift
case "$which" in
    oldest | newest) ;;
    *) echo "usage: $0 [oldest|newest] [pin ...] [-- pytest options]" >&2; exit 2 ;;
esac
pins=()
while [ $# -gt 0 ] && [ "$1" != "--" ]; do pins+=("$1"); shift; done
[ $# -gt 0 ] && shift  # the "--"

# The test tools come from the `test-tools` dependency group (the rest of `dev` is not needed
# here); the fake marketplace's own packages with flexclient's `testing` extra.
tests=(
    tests/test_compat.py tests/test_side_effects.py
    tests/test_envelope.py tests/test_models.py tests/test_relationships.py
    tests/test_sparse_fields.py tests/test_transit.py tests/test_values.py tests/test_wire.py
    tests/test_fuzz.py tests/test_reliability.py tests/test_sessions.py tests/test_auth.py
    tests/test_files.py tests/test_assets.py tests/test_multipart.py tests/test_limits.py
    tests/integration/test_trust.py tests/test_mirror_store.py tests/test_mirror_schema.py
)

venv=".cache/deps-$which"
python3 -m venv "$venv"
# Dependency groups need pip 25.1 or later; the machine's own pip may be older.
"$venv/bin/python" -m pip install -q --upgrade "pip>=25.1"
if [ "$which" = oldest ]; then
    "$venv/bin/pip" install -q -e ".[testing,postgres]" --group oldest --group test-tools
else
    "$venv/bin/pip" install -q -e ".[testing,postgres]" --group test-tools
    "$venv/bin/pip" install -q --upgrade --upgrade-strategy eager \
        requests urllib3 pydantic pydantic-core transit-python sqlalchemy "psycopg[binary]"
fi
if [ ${#pins[@]} -gt 0 ]; then
    "$venv/bin/pip" install -q "${pins[@]}"
fi
"$venv/bin/python" - <<'EOF'
from importlib.metadata import version

print("testing with", ", ".join(
    f"{name} {version(name)}"
    for name in (
        "requests", "urllib3", "pydantic", "pydantic-core", "transit-python", "sqlalchemy",
        "psycopg",
    )
))
EOF
# Nothing of the checkout's own pytest cache: several of these runs may share the folder.
"$venv/bin/python" -m pytest -p no:cacheprovider "${tests[@]}" "$@"
