#!/bin/sh
# Sets up .venv in the checkout with everything the product needs ("test": also what the tests need).
# Safe to run again: it only installs what is missing or changed.
set -eu
cd "$(dirname "$0")/.."
PY=${PYTHON:-python3}
# A venv whose creation was cut short (no pip in it) is made again rather than left broken.
if ! .venv/bin/python -m pip --version >/dev/null 2>&1; then
    rm -rf .venv
    "$PY" -m venv .venv
fi
stamp=.venv/.installed-${1:-run}
want=$(cat pyproject.toml scripts/bootstrap.sh | cksum | cut -d' ' -f1)
if [ ! -f "$stamp" ] || [ "$(cat "$stamp")" != "$want" ]; then
    extra=""
    [ "${1:-}" = "test" ] && extra="[test]"
    .venv/bin/python -m pip install -q --disable-pip-version-check -e ".$extra"
    echo "$want" > "$stamp"
fi
if [ "${1:-}" = "test" ]; then
    # GNU Backgammon for the export checks; where ../shared/tools is present, what its 32-bit
    # MicroPython and its emulated Pico need.
    sh scripts/install_test_tools.sh
fi
