#!/bin/sh
# Build the bgcompanion firmware image: MicroPython for the Raspberry Pi Pico (RPI_PICO) with the
# whole firmware/ tree and micropython-lib's ssd1306 frozen in (scripts/build/image_manifest.py). Writes
# build/image/bgcompanion-<version>.uf2 and its .sha256 (the folder: OUT_DIR=...), and beside them
# .frozen.txt, the modules frozen in.
#
#   sh scripts/build/build_image.sh MICROPYTHON_DIR            # or MICROPYTHON_DIR=... sh scripts/build/build_image.sh
#   sh scripts/build/build_image.sh --install-toolchain MICROPYTHON_DIR   # apt-get the compilers first (Debian/Ubuntu)
#   sh scripts/build/build_image.sh --check-reproducible MICROPYTHON_DIR  # then build again elsewhere and compare the bytes
#   sh scripts/build/build_image.sh --board RPI_PICO_W MICROPYTHON_DIR    # the Pico W's image (with the other options too)
#
# --board RPI_PICO_W: the Pico W image (scripts/build/image_manifest_picow.py: the same firmware, the stock
# Pico W modules, Wi-Fi, and umqtt for the board's link to a club's broker, docs/club.md), written as
# build/image-picow/bgcompanion-<version>-picow.uf2 (its own folder: `bgc flash` with no image given
# takes the Pico's). Its umqtt is PyPI's micropython-umqtt.simple 1.3.4, the release the tests run,
# fetched and checked against its sha256 by host/bgc/pico/libs.py (python3; cached in BGC_LIB_DIR,
# default the folder of the image).
#
# MICROPYTHON_DIR is a checkout of MicroPython at the pinned tag with the submodules the RP2 port needs.
# On a machine with internet access:
#
#   git clone --depth 1 --branch v1.27.0 https://github.com/micropython/micropython.git
#   make -C micropython/ports/rp2 submodules      # pico-sdk, tinyusb, mbedtls, micropython-lib at the tag's commits
#   make -C micropython/ports/rp2 BOARD=RPI_PICO_W submodules   # for the Pico W: also cyw43-driver, lwip, btstack
#
# Why v1.27.0: the release after it, v1.28.0 (2026-04-06), has no change the firmware needs. Upstream
# commit f452dabd (June 2026, in no release yet) runs the interpreter's vm/gc/parse from SRAM instead
# of through the XIP cache; measured (docs/performance.md, issue 33 item 2), v1.28.0 with it answers
# 0-5 % faster (a whole match's emulated time 4 % less) and leaves 12 KB less heap (the code moved
# into RAM), and v1.27.0 with it does the same: too little to build from a patched, unreleased
# MicroPython. Take it with the first release that holds it. v1.27.0 is also what the project's emulated Pico
# and its unix/mpy-cross builds run (../shared/tools/README.md), so the image's .mpy ABI, interpreter
# and figures (docs/performance.md) are the ones tested.
#
# Toolchain: arm-none-eabi-gcc with newlib, cmake, make and a host C compiler (Debian:
# gcc-arm-none-eabi libnewlib-arm-none-eabi cmake build-essential). The pico-sdk makes the .uf2 with
# picotool 2.1.1: an installed `picotool` of that version is used; else PICOTOOL_SRC_DIR (a checkout of
# github.com/raspberrypi/picotool at tag 2.1.1) is built here without libusb; else the SDK clones it.
# Two builds of one commit give the same bytes (see SOURCE_DATE_EPOCH below; --check-reproducible
# proves it), with the same toolchain: Debian 12's gcc-arm-none-eabi 12.2.1 (its version is in the image).
set -eu

TAG=v1.27.0
ROOT=$(cd "$(dirname "$0")/../.." && pwd)

die() { echo "build_image: $*" >&2; exit 1; }

CHECK=""
INSTALL=""
BOARD=RPI_PICO
while [ $# -gt 0 ]; do
    case "$1" in
        --check-reproducible) CHECK=1; shift ;;
        --install-toolchain) INSTALL=1; shift ;;
        --board)
            [ $# -ge 2 ] || die "--board needs a board: RPI_PICO or RPI_PICO_W"
            BOARD=$2; shift 2 ;;
        -*) die "unknown option $1
usage: sh scripts/build/build_image.sh [--install-toolchain] [--check-reproducible] [--board RPI_PICO|RPI_PICO_W] MICROPYTHON_DIR" ;;
        *) break ;;
    esac
done
case "$BOARD" in
    RPI_PICO) MANIFEST=$ROOT/scripts/build/image_manifest.py; SUFFIX=""; DEFAULT_OUT=$ROOT/build/image
        SUBMODULES="lib/pico-sdk lib/tinyusb lib/mbedtls lib/micropython-lib" ;;
    RPI_PICO_W) MANIFEST=$ROOT/scripts/build/image_manifest_picow.py; SUFFIX="-picow"; DEFAULT_OUT=$ROOT/build/image-picow
        SUBMODULES="lib/pico-sdk lib/tinyusb lib/mbedtls lib/micropython-lib lib/cyw43-driver lib/lwip lib/btstack" ;;
    *) die "no image for the board $BOARD: RPI_PICO (the Pico) or RPI_PICO_W (the Pico W)" ;;
esac
if [ -n "$INSTALL" ]; then
    apt-get install -y gcc-arm-none-eabi libnewlib-arm-none-eabi cmake build-essential python3 git \
        || die "apt-get failed (run as root, after apt-get update)"
fi
MPY_DIR=${1:-${MICROPYTHON_DIR:-}}
[ -n "$MPY_DIR" ] || die "no MicroPython source folder given
usage: sh scripts/build/build_image.sh [--install-toolchain] [--check-reproducible] [--board RPI_PICO|RPI_PICO_W] MICROPYTHON_DIR
(see the comment at the top for how to get it)"
[ -f "$MPY_DIR/py/mpconfig.h" ] || die "$MPY_DIR is not a MicroPython source tree (no py/mpconfig.h)"
MPY_DIR=$(cd "$MPY_DIR" && pwd)

at=$(git -C "$MPY_DIR" describe --tags --exact-match 2>/dev/null || echo "not at a tag")
[ "$at" = "$TAG" ] || die "$MPY_DIR is $at, the image is built from $TAG
hint: git -C $MPY_DIR checkout $TAG && make -C $MPY_DIR/ports/rp2 submodules"
for sub in $SUBMODULES; do
    want=$(git -C "$MPY_DIR" ls-tree "$TAG" "$sub" | awk '{print $3}')
    # (in a submodule not checked out, git would answer for MicroPython's own checkout)
    have=missing
    [ ! -e "$MPY_DIR/$sub/.git" ] || have=$(git -C "$MPY_DIR/$sub" rev-parse HEAD 2>/dev/null || echo missing)
    [ "$have" = "$want" ] || die "$MPY_DIR/$sub is at $have, $TAG pins $want
hint: make -C $MPY_DIR/ports/rp2 BOARD=$BOARD submodules"
done
for tool in arm-none-eabi-gcc cmake make cc python3; do
    command -v $tool >/dev/null || die "$tool is not installed
hint: sh scripts/build/build_image.sh --install-toolchain $MPY_DIR  (Debian/Ubuntu, as root)"
done
[ -f /usr/lib/arm-none-eabi/newlib/libc.a ] || [ -n "$(arm-none-eabi-gcc -print-file-name=libc.a | grep /)" ] \
    || die "newlib for arm-none-eabi is missing (Debian: libnewlib-arm-none-eabi)"

VERSION=$(sed -n 's/^__version__ = "\(.*\)"/\1/p' "$ROOT/host/bgc/__init__.py")
[ -n "$VERSION" ] || die "no __version__ in host/bgc/__init__.py"
OUT_DIR=${OUT_DIR:-$DEFAULT_OUT}
BUILD=${BUILD_DIR:-$OUT_DIR/build-rp2}
mkdir -p "$OUT_DIR"
if [ "$BOARD" = RPI_PICO_W ]; then
    # umqtt.simple, the file the tests run (host/bgc/pico/libs.py pins the PyPI release by its sha256);
    # image_manifest_picow.py freezes the folder named here
    BGC_UMQTT_DIR=$(BGC_LIB_DIR=${BGC_LIB_DIR:-$OUT_DIR/lib} PYTHONPATH="$ROOT/host" python3 -c \
        "from bgc.pico import libs; print(libs.umqtt_dir())") || die "umqtt.simple could not be had (above)"
    export BGC_UMQTT_DIR
    echo "umqtt.simple: $BGC_UMQTT_DIR/umqtt/simple.py (PyPI micropython-umqtt.simple 1.3.4, sha256 checked)"
fi
# What makes two builds of one commit give the same bytes, wherever they run: the build date
# (MicroPython's version line and the pico-sdk's binary info, __DATE__) is the firmware's last
# commit date, which MicroPython's makeversionhdr.py and gcc read from SOURCE_DATE_EPOCH; the
# version is the tag itself, not what `git describe --dirty` makes of the checkout (a file missing
# in a submodule's work tree gave "v1.27.0-dirty") nor a hash abbreviated to the clone's size.
SOURCE_DATE_EPOCH=$(git -C "$ROOT" log -1 --format=%ct -- firmware scripts/build/image_manifest.py "$MANIFEST" 2>/dev/null || true)
[ -n "$SOURCE_DATE_EPOCH" ] || die "no commit date for firmware/ (build from a git checkout of bgcompanion)"
MICROPY_GIT_TAG=$TAG
MICROPY_GIT_HASH=$(git -C "$MPY_DIR" rev-parse --short=10 "$TAG^{commit}")
export SOURCE_DATE_EPOCH MICROPY_GIT_TAG MICROPY_GIT_HASH
changed=$(git -C "$MPY_DIR" status --porcelain --ignore-submodules=none 2>/dev/null | head -5)
[ -z "$changed" ] || echo "build_image: warning: $MPY_DIR has local changes; where the build reads them, the image
differs from a clean checkout's:
$changed" >&2
changed=$(git -C "$ROOT" status --porcelain -- firmware scripts/build/image_manifest.py "$MANIFEST" 2>/dev/null | head -5)
[ -z "$changed" ] || echo "build_image: warning: uncommitted changes in the firmware are built in (the image is not the commit's):
$changed" >&2

CMAKE_ARGS=""
if command -v picotool >/dev/null && picotool version 2>/dev/null | grep -q "2\.1\.1"; then
    echo "picotool: $(command -v picotool)"
elif [ -n "${PICOTOOL_SRC_DIR:-}" ]; then
    [ -f "$PICOTOOL_SRC_DIR/CMakeLists.txt" ] || die "PICOTOOL_SRC_DIR=$PICOTOOL_SRC_DIR is not a picotool checkout"
    # Built once here without libusb (the SDK only needs it to write the .uf2) and handed to the SDK's
    # find_package(picotool), which would otherwise clone it from GitHub.
    PT="$OUT_DIR/picotool"
    if [ ! -x "$PT/picotool/picotool" ]; then
        echo "building picotool from $PICOTOOL_SRC_DIR (log: $OUT_DIR/picotool.log)"
        { cmake -S "$PICOTOOL_SRC_DIR" -B "$PT/build" -DPICO_SDK_PATH="$MPY_DIR/lib/pico-sdk" -DPICOTOOL_NO_LIBUSB=1 \
              -DPICOTOOL_FLAT_INSTALL=1 -DCMAKE_INSTALL_PREFIX="$PT" \
          && nice make -C "$PT/build" -j"${JOBS:-2}" install; } >"$OUT_DIR/picotool.log" 2>&1 \
            || { tail -20 "$OUT_DIR/picotool.log"; die "picotool did not build (log: $OUT_DIR/picotool.log)"; }
    fi
    CMAKE_ARGS="-Dpicotool_DIR=$PT/picotool"
else
    echo "picotool: not installed; the pico-sdk will download and build picotool 2.1.1"
fi
export CMAKE_ARGS

JOBS=${JOBS:-2}
echo "building mpy-cross ($MPY_DIR/mpy-cross)"
nice make -C "$MPY_DIR/mpy-cross" -j"$JOBS" >"$OUT_DIR/mpy-cross.log" 2>&1 \
    || { tail -20 "$OUT_DIR/mpy-cross.log"; die "mpy-cross did not build (log: $OUT_DIR/mpy-cross.log)"; }
echo "building MicroPython $TAG for $BOARD with the firmware frozen in (log: $OUT_DIR/build.log)"
nice make -C "$MPY_DIR/ports/rp2" BOARD=$BOARD BUILD="$BUILD" \
    FROZEN_MANIFEST="$MANIFEST" -j"$JOBS" >"$OUT_DIR/build.log" 2>&1 \
    || { tail -30 "$OUT_DIR/build.log"
         hint=""
         # (with no picotool given, the SDK clones picotool from GitHub: no network, no build)
         [ -n "$CMAKE_ARGS" ] || ! grep -q "Build step for picotool failed" "$OUT_DIR/build.log" || hint="
hint: the pico-sdk could not fetch picotool; give PICOTOOL_SRC_DIR=DIR (a picotool 2.1.1 checkout) or install picotool 2.1.1"
         die "the RP2 build failed (log: $OUT_DIR/build.log)$hint"; }

NAME=bgcompanion-$VERSION$SUFFIX.uf2
IMAGE="$OUT_DIR/$NAME"
cp "$BUILD/firmware.uf2" "$IMAGE"
(cd "$OUT_DIR" && sha256sum "$NAME" > "$NAME.sha256")
# The modules frozen in, as the build's frozen_content.c names them (mp_frozen_names)
python3 - "$BUILD/frozen_content.c" > "$IMAGE.frozen.txt" <<'EOF_NAMES' || die "no frozen module list in $BUILD/frozen_content.c"
import re, sys
text = open(sys.argv[1]).read()
block = re.search(r"mp_frozen_names\[\] = \{(.*?)\};", text, re.S).group(1)
names = [n for n in re.findall(r'"((?:[^"\\]|\\.)*)\\0"', block) if n]
print("\n".join(names))
EOF_NAMES
text=$(arm-none-eabi-size "$BUILD/firmware.elf" | awk 'NR == 2 {print $1 + $2}')
echo "wrote $IMAGE ($(wc -c < "$IMAGE") bytes; $text bytes of program in flash; $(wc -l < "$IMAGE.frozen.txt") frozen modules, listed in $NAME.frozen.txt)"
cat "$IMAGE.sha256"

if [ -n "$CHECK" ]; then
    # The whole build again in a fresh folder elsewhere (no object, generated header or path in
    # common but the sources), then the two images compared byte for byte.
    AGAIN=$(mktemp -d "${TMPDIR:-/tmp}/bgc-image-again.XXXXXX")
    [ ! -d "$OUT_DIR/picotool/picotool" ] || cp -r "$OUT_DIR/picotool" "$AGAIN/picotool"  # a build tool, not in the image
    echo "--check-reproducible: building again in $AGAIN"
    OUT_DIR="$AGAIN" BUILD_DIR="$AGAIN/build-rp2" BGC_LIB_DIR="${BGC_LIB_DIR:-$OUT_DIR/lib}" sh "$0" --board "$BOARD" "$MPY_DIR" >"$AGAIN.log" 2>&1 \
        || { tail -5 "$AGAIN.log"; die "the second build failed (log: $AGAIN.log)"; }
    if cmp -s "$IMAGE" "$AGAIN/$NAME"; then
        rm -rf "$AGAIN" "$AGAIN.log"
        echo "reproducible: a second build in a fresh folder gave the same bytes (sha256 $(cut -d' ' -f1 "$IMAGE.sha256"))"
    else
        die "not reproducible: the second build ($AGAIN/$NAME, $(sha256sum < "$AGAIN/$NAME" | cut -d' ' -f1)) differs from $IMAGE
hint: cmp -l the two images; strings on both show embedded dates, paths or versions"
    fi
fi
