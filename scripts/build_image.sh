#!/bin/sh
# Build the bgcompanion firmware image: MicroPython for the Raspberry Pi Pico (RPI_PICO) with the
# whole firmware/ tree and micropython-lib's ssd1306 frozen in (scripts/image_manifest.py). Writes
# build/image/bgcompanion-<version>.uf2 and its .sha256 (the folder: OUT_DIR=...).
#
#   sh scripts/build_image.sh MICROPYTHON_DIR            # or MICROPYTHON_DIR=... sh scripts/build_image.sh
#   sh scripts/build_image.sh --install-toolchain MICROPYTHON_DIR   # apt-get the compilers first (Debian/Ubuntu)
#
# MICROPYTHON_DIR is a checkout of MicroPython at the pinned tag with the submodules the RP2 port needs.
# On a machine with internet access:
#
#   git clone --depth 1 --branch v1.27.0 https://github.com/micropython/micropython.git
#   make -C micropython/ports/rp2 submodules      # pico-sdk, tinyusb, mbedtls, micropython-lib at the tag's commits
#
# Why v1.27.0: the release after it, v1.28.0 (2026-04-06), has no change the firmware needs, and no
# release yet holds upstream PR #19370 (June 2026: the interpreter's core kept in RAM instead of run
# from flash through the XIP cache); v1.29.0 will. v1.27.0 is also what the project's emulated Pico
# and its unix/mpy-cross builds run (../shared/tools/README.md), so the image's .mpy ABI, interpreter
# and figures (docs/performance.md) are the ones tested.
#
# Toolchain: arm-none-eabi-gcc with newlib, cmake, make and a host C compiler (Debian:
# gcc-arm-none-eabi libnewlib-arm-none-eabi cmake build-essential). The pico-sdk makes the .uf2 with
# picotool 2.1.1: an installed `picotool` of that version is used; else PICOTOOL_SRC_DIR (a checkout of
# github.com/raspberrypi/picotool at tag 2.1.1) is built here without libusb; else the SDK clones it.
# SOURCE_DATE_EPOCH is the firmware commit's date, so two builds of one commit give the same image.
set -eu

TAG=v1.27.0
ROOT=$(cd "$(dirname "$0")/.." && pwd)

die() { echo "build_image: $*" >&2; exit 1; }

if [ "${1:-}" = "--install-toolchain" ]; then
    shift
    apt-get install -y gcc-arm-none-eabi libnewlib-arm-none-eabi cmake build-essential python3 git \
        || die "apt-get failed (run as root, after apt-get update)"
fi
MPY_DIR=${1:-${MICROPYTHON_DIR:-}}
[ -n "$MPY_DIR" ] || die "no MicroPython source folder given
usage: sh scripts/build_image.sh [--install-toolchain] MICROPYTHON_DIR  (see the comment at the top for how to get it)"
[ -f "$MPY_DIR/py/mpconfig.h" ] || die "$MPY_DIR is not a MicroPython source tree (no py/mpconfig.h)"
MPY_DIR=$(cd "$MPY_DIR" && pwd)

at=$(git -C "$MPY_DIR" describe --tags --exact-match 2>/dev/null || echo "not at a tag")
[ "$at" = "$TAG" ] || die "$MPY_DIR is $at, the image is built from $TAG
hint: git -C $MPY_DIR checkout $TAG && make -C $MPY_DIR/ports/rp2 submodules"
for sub in lib/pico-sdk lib/tinyusb lib/mbedtls lib/micropython-lib; do
    want=$(git -C "$MPY_DIR" ls-tree "$TAG" "$sub" | awk '{print $3}')
    have=$(git -C "$MPY_DIR/$sub" rev-parse HEAD 2>/dev/null || echo missing)
    [ "$have" = "$want" ] || die "$MPY_DIR/$sub is at $have, $TAG pins $want
hint: make -C $MPY_DIR/ports/rp2 submodules"
done
for tool in arm-none-eabi-gcc cmake make cc python3; do
    command -v $tool >/dev/null || die "$tool is not installed
hint: sh scripts/build_image.sh --install-toolchain $MPY_DIR  (Debian/Ubuntu, as root)"
done
[ -f /usr/lib/arm-none-eabi/newlib/libc.a ] || [ -n "$(arm-none-eabi-gcc -print-file-name=libc.a | grep /)" ] \
    || die "newlib for arm-none-eabi is missing (Debian: libnewlib-arm-none-eabi)"

VERSION=$(sed -n 's/^__version__ = "\(.*\)"/\1/p' "$ROOT/host/bgc/__init__.py")
[ -n "$VERSION" ] || die "no __version__ in host/bgc/__init__.py"
OUT_DIR=${OUT_DIR:-$ROOT/build/image}
BUILD=${BUILD_DIR:-$OUT_DIR/build-rp2}
mkdir -p "$OUT_DIR"
SOURCE_DATE_EPOCH=$(git -C "$ROOT" log -1 --format=%ct -- firmware scripts/image_manifest.py 2>/dev/null || date +%s)
export SOURCE_DATE_EPOCH

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
echo "building MicroPython $TAG for RPI_PICO with the firmware frozen in (log: $OUT_DIR/build.log)"
nice make -C "$MPY_DIR/ports/rp2" BOARD=RPI_PICO BUILD="$BUILD" \
    FROZEN_MANIFEST="$ROOT/scripts/image_manifest.py" -j"$JOBS" >"$OUT_DIR/build.log" 2>&1 \
    || { tail -30 "$OUT_DIR/build.log"; die "the RP2 build failed (log: $OUT_DIR/build.log)"; }

IMAGE="$OUT_DIR/bgcompanion-$VERSION.uf2"
cp "$BUILD/firmware.uf2" "$IMAGE"
(cd "$OUT_DIR" && sha256sum "bgcompanion-$VERSION.uf2" > "bgcompanion-$VERSION.uf2.sha256")
echo "wrote $IMAGE ($(wc -c < "$IMAGE") bytes)"
cat "$IMAGE.sha256"
