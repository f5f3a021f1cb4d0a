#!/usr/bin/env bash
# Whether this machine can build the compiled Transit reader (scripts/test_compiled.sh): a C
# compiler and Python's headers. Compiles a file that includes Python.h, as mypyc's build
# does, with the compiler that build would use ($CC, else the one Python was built with).
# Silent and 0 when it can; one line saying what to install, and 1, when it cannot, so that
# .ci/run stops at once instead of deep inside a pip traceback.
set -uo pipefail
python="${PYTHON:-python3}"
read -r default include < <("$python" -c \
    'import sysconfig; print((sysconfig.get_config_var("CC") or "cc").split()[0], sysconfig.get_paths()["include"])' \
    2>/dev/null)
default="${default:-cc}"
compiler="${CC:-$default}"
compiler="${compiler%% *}"
where="(Debian/Ubuntu: apt-get install gcc python3-dev; Fedora: dnf install gcc python3-devel; macOS: xcode-select --install)"
if ! command -v "$compiler" >/dev/null 2>&1; then
    echo "The compiled Transit reader needs a C compiler, and '$compiler' is not on PATH: install one $where" >&2
    exit 1
fi
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
printf '#include <Python.h>\nint main(void) { return 0; }\n' > "$scratch/check.c"
if ! "$compiler" -I"$include" -c -o "$scratch/check.o" "$scratch/check.c" >"$scratch/log" 2>&1; then
    if grep -q "Python.h" "$scratch/log"; then
        echo "The compiled Transit reader needs Python's headers (Python.h), not found in ${include:-the include folder}: install them $where" >&2
    else
        echo "The compiled Transit reader needs a working C compiler, and '$compiler' cannot compile: $(head -n 1 "$scratch/log")" >&2
    fi
    exit 1
fi
