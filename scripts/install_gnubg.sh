#!/bin/sh
# Installs GNU Backgammon (Debian/Ubuntu package gnubg) when /usr/games/gnubg is missing: the export
# tests compare our .mat/.sgf files with what GNU Backgammon itself rebuilds from them.
# Quiet; safe to run again. Needs root (or sudo) the first time.
set -eu
if [ -x /usr/games/gnubg ] || command -v gnubg >/dev/null 2>&1; then
    exit 0
fi
SUDO=""
if [ "$(id -u)" != 0 ]; then
    if command -v sudo >/dev/null 2>&1; then SUDO="sudo"; else
        echo "install_gnubg.sh: gnubg is missing and this is not root: run 'apt-get install gnubg' as root" >&2
        exit 1
    fi
fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq >/dev/null
$SUDO apt-get install -y -qq gnubg >/dev/null
