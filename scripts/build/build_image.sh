#!/bin/sh
# Build the bgcompanion firmware image: MicroPython for the Raspberry Pi Pico (RPI_PICO) with the
# whole firmware/ tree and micropython-lib's ssd1306 frozen in (scripts/build/image_manifest.py). Writes
# build/image/bgcompanion-<version>.uf2 and its .sha256 (the folder: OUT_DIR=...).
#
#   sh scripts/build/build_image.sh MICROPYTHON_DIR            # or MICROPYTHON_DIR=... sh scripts/build/build_image.sh
#   sh scripts/build/build_image.sh --install-toolchain MICROPYTHON_DIR   # apt-get the compilers first (Debian/Ubuntu)
#   sh scripts/build/build_image.sh --check-reproducible MICROPYTHON_DIR  # then build again elsewhere and compare the bytes
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
# Two builds of one commit give the same bytes (see SOURCE_DATE_EPOCH below; --check-reproducible
# proves it), with the same toolchain: Debian 12's gcc-arm-none-eabi 12.2.1 (its version is in the image).
set -eu

TAG=v1.27.0
ROOT=$(cd "$(dirname "$0")/../.." && pwd)

die() { echo "build_image: $*" >&2; exit 1; }

CHECK=""
if [ "${1:-}" = "--check-reproducible" ]; then
    CHECK=1
    shift
fi
if [ "${1:-}" = "--install-toolchain" ]; then
    shift
    apt-get install -y gcc-arm-none-eabi libnewlib-arm-none-eabi cmake build-essential python3 git \
        || die "apt-get failed (run as root, after apt-get update)"
fi
MPY_DIR=${1:-${MICROPYTHON_DIR:-}}
[ -n "$MPY_DIR" ] || die "no MicroPython source folder given
usage: sh scripts/build/build_image.sh [--install-toolchain] MICROPYTHON_DIR  (see the comment at the top for how to get it)"
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
hint: sh scripts/build/build_image.sh --install-toolchain $MPY_DIR  (Debian/Ubuntu, as root)"
done
[ -f /usr/lib/arm-none-eabi/newlib/libc.a ] || [ -n "$(arm-none-eabi-gcc -print-file-name=libc.a | grep /)" ] \
    || die "newlib for arm-none-eabi is missing (Debian: libnewlib-arm-none-eabi)"

VERSION=$(sed -n 's/^__version__ = "\(.*\)"/\1/p' "$ROOT/host/bgc/__init__.py")
[ -n "$VERSION" ] || die "no __version__ in host/bgc/__init__.py"
OUT_DIR=${OUT_DIR:-$ROOT/build/image}
BUILD=${BUILD_DIR:-$OUT_DIR/build-rp2}
mkdir -p "$OUT_DIR"
# What makes two builds of one commit give the same bytes, wherever they run: the build date
# (MicroPython's version line and the pico-sdk's binary info, __DATE__) is the firmware's last
# commit date, which MicroPython's makeversionhdr.py and gcc read from SOURCE_DATE_EPOCH; the
# version is the tag itself, not what `git describe --dirty` makes of the checkout (a file missing
# in a submodule's work tree gave "v1.27.0-dirty") nor a hash abbreviated to the clone's size.
SOURCE_DATE_EPOCH=$(git -C "$ROOT" log -1 --format=%ct -- firmware scripts/build/image_manifest.py 2>/dev/null || true)
[ -n "$SOURCE_DATE_EPOCH" ] || die "no commit date for firmware/ (build from a git checkout of bgcompanion)"
MICROPY_GIT_TAG=$TAG
MICROPY_GIT_HASH=$(git -C "$MPY_DIR" rev-parse --short=10 "$TAG^{commit}")
export SOURCE_DATE_EPOCH MICROPY_GIT_TAG MICROPY_GIT_HASH
changed=$(git -C "$MPY_DIR" status --porcelain --ignore-submodules=none 2>/dev/null | head -5)
[ -z "$changed" ] || echo "build_image: warning: $MPY_DIR has local changes; where the build reads them, the image
differs from a clean checkout's:
$changed" >&2
changed=$(git -C "$ROOT" status --porcelain -- firmware scripts/build/image_manifest.py 2>/dev/null | head -5)
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
echo "building MicroPython $TAG for RPI_PICO with the firmware frozen in (log: $OUT_DIR/build.log)"
nice make -C "$MPY_DIR/ports/rp2" BOARD=RPI_PICO BUILD="$BUILD" \
    FROZEN_MANIFEST="$ROOT/scripts/build/image_manifest.py" -j"$JOBS" >"$OUT_DIR/build.log" 2>&1 \
    || { tail -30 "$OUT_DIR/build.log"
         hint=""
         # (with no picotool given, the SDK clones picotool from GitHub: no network, no build)
         [ -n "$CMAKE_ARGS" ] || ! grep -q "Build step for picotool failed" "$OUT_DIR/build.log" || hint="
hint: the pico-sdk could not fetch picotool; give PICOTOOL_SRC_DIR=DIR (a picotool 2.1.1 checkout) or install picotool 2.1.1"
         die "the RP2 build failed (log: $OUT_DIR/build.log)$hint"; }

IMAGE="$OUT_DIR/bgcompanion-$VERSION.uf2"
cp "$BUILD/firmware.uf2" "$IMAGE"
(cd "$OUT_DIR" && sha256sum "bgcompanion-$VERSION.uf2" > "bgcompanion-$VERSION.uf2.sha256")
echo "wrote $IMAGE ($(wc -c < "$IMAGE") bytes)"
cat "$IMAGE.sha256"

if [ -n "$CHECK" ]; then
    # The whole build again in a fresh folder elsewhere (no object, generated header or path in
    # common but the sources), then the two images compared byte for byte.
    AGAIN=$(mktemp -d "${TMPDIR:-/tmp}/bgc-image-again.XXXXXX")
    [ ! -d "$OUT_DIR/picotool/picotool" ] || cp -r "$OUT_DIR/picotool" "$AGAIN/picotool"  # a build tool, not in the image
    echo "--check-reproducible: building again in $AGAIN"
    OUT_DIR="$AGAIN" BUILD_DIR="$AGAIN/build-rp2" sh "$0" "$MPY_DIR" >"$AGAIN.log" 2>&1 \
        || { tail -5 "$AGAIN.log"; die "the second build failed (log: $AGAIN.log)"; }
    if cmp -s "$IMAGE" "$AGAIN/bgcompanion-$VERSION.uf2"; then
        rm -rf "$AGAIN" "$AGAIN.log"
        echo "reproducible: a second build in a fresh folder gave the same bytes (sha256 $(cut -d' ' -f1 "$IMAGE.sha256"))"
    else
        die "not reproducible: the second build ($AGAIN/bgcompanion-$VERSION.uf2, $(sha256sum < "$AGAIN/bgcompanion-$VERSION.uf2" | cut -d' ' -f1)) differs from $IMAGE
hint: cmp -l the two images; strings on both show embedded dates, paths or versions"
    fi
fi
