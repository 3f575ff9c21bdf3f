#!/bin/sh
# Installs the Debian packages the tests use, only those missing; quiet, safe to run again.
#   gnubg        GNU Backgammon: the export tests compare our .mat/.sgf with what it rebuilds
#   libc6-i386   only where ../shared/tools is present: runs its 32-bit MicroPython (Pico-sized objects)
#   nodejs, npm  only where ../shared/tools/rp2emu is present: the emulated Pico
#   chromium     the web view's test draws the page in headless Chromium (tests/test_web_view.py)
#   mosquitto    the MQTT broker: the club, relay and remote tests start a real one on 127.0.0.1
#                (tests/mqtt_helpers.py); its system service is left as Debian sets it up
#   kicad, kicad-symbols, kicad-footprints
#                KiCad 6: the hardware tests build the boards with its pcbnew module (system python3)
#                from its own symbol and footprint libraries and run its DRC (hardware/README.md)
# Needs root (or sudo) the first time something is missing.
set -eu
cd "$(dirname "$0")/.."
TOOLS=${BGC_SHARED_TOOLS:-../shared/tools}
want=""
kicad=""
if ! { [ -x /usr/games/gnubg ] || command -v gnubg >/dev/null 2>&1; }; then
    want="$want gnubg"
fi
if [ -f "$TOOLS/micropython-unix/micropython-32" ] && ! "$TOOLS/micropython-unix/micropython-32" -c "" >/dev/null 2>&1; then
    want="$want libc6-i386"
fi
if [ -f "$TOOLS/rp2emu/run.mjs" ] && ! command -v node >/dev/null 2>&1; then
    want="$want nodejs npm"
fi
if ! command -v chromium >/dev/null 2>&1; then
    want="$want chromium"
fi
if ! { [ -x /usr/sbin/mosquitto ] || command -v mosquitto >/dev/null 2>&1; }; then
    want="$want mosquitto"
fi
if ! /usr/bin/python3 -c "import pcbnew" >/dev/null 2>&1; then
    kicad="$kicad kicad"
fi
if [ ! -d /usr/share/kicad/symbols ]; then
    kicad="$kicad kicad-symbols"
fi
if [ ! -d /usr/share/kicad/footprints ]; then
    kicad="$kicad kicad-footprints"
fi
[ -z "$want$kicad" ] && exit 0
SUDO=""
if [ "$(id -u)" != 0 ]; then
    if command -v sudo >/dev/null 2>&1; then SUDO="sudo"; else
        echo "install_test_tools.sh: missing Debian packages:$want$kicad; run 'apt-get install$want$kicad' as root" >&2
        exit 1
    fi
fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq >/dev/null
# shellcheck disable=SC2086
[ -z "$want" ] || $SUDO apt-get install -y -qq $want >/dev/null
# KiCad without its recommends (the 3D models alone are about a gigabyte; the tests need none).
# shellcheck disable=SC2086
[ -z "$kicad" ] || $SUDO apt-get install -y -qq --no-install-recommends $kicad >/dev/null
