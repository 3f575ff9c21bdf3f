"""The virtual hardware: a physical model of the board behind the modules the firmware imports.

    from bgc.board import virtual      # CPython      |  import virtual   (MicroPython test tree)
    board = virtual.install()          # a Board with the reference build's figures
    from drivers.hall import HallScanner
    ...                                # the firmware runs unchanged; inspect/steer ``board``
    virtual.uninstall()

``install`` puts ``machine``, ``neopixel`` and ``time`` (the virtual clock) into sys.modules; on
CPython also ``framebuf`` and ``micropython`` (MicroPython has them built in) and the cached
micropython-lib ssd1306 driver on sys.path; on MicroPython also an ``os`` whose urandom comes from
the board (so dice are the board's seeded ones under both interpreters) and whose other calls are
the real ``os``.
"""
import sys

from . import clock, machine, neopixel
from .board import BLACK, WHITE, Board, load_geometry

MICROPYTHON = sys.implementation.name == "micropython"
_saved = {}
_current = None


class _BoardOs:
    """MicroPython's ``os`` with urandom taken from the board (seeded, reproducible)."""

    def __init__(self, real):
        self._real = real

    def urandom(self, n):
        return _current.urandom(n)

    def __getattr__(self, name):
        return getattr(self._real, name)


def _put(name, module):
    if name not in _saved:
        _saved[name] = sys.modules.get(name)
    sys.modules[name] = module


def install(board=None, **kwargs):
    """Make ``board`` (or ``Board(**kwargs)``) the hardware the firmware sees; returns it."""
    global _current
    if board is None:
        board = Board(**kwargs)
    _current = board
    machine._board = board
    clock.set_clock(board.clock)
    _put("machine", machine)
    _put("neopixel", neopixel)
    if MICROPYTHON:
        _put("time", clock)
        import os as real_os

        if not isinstance(real_os, _BoardOs):
            _put("os", _BoardOs(real_os))
    else:
        import time as real_time

        if real_time is not clock:
            clock._real = real_time
        _put("time", clock)
        from . import framebuf

        if "framebuf" not in sys.modules or sys.modules["framebuf"] is not framebuf:
            _put("framebuf", framebuf)
        if "micropython" not in sys.modules:
            _put("micropython", _micropython_module())
        try:
            from ...pico import libs

            libs.add_ssd1306_to_path()
        except Exception as exc:  # offline: the Oled driver then reports the driver as missing
            board.setup_error = str(exc)
    return board


def uninstall():
    """Put back what ``install`` replaced (CPython tests use this between tests)."""
    global _current
    for name, module in _saved.items():
        if module is None:
            sys.modules.pop(name, None)
        else:
            sys.modules[name] = module
    _saved.clear()
    _current = None
    machine._board = None


def current():
    return _current


def _micropython_module():
    import types

    m = types.ModuleType("micropython")
    m.const = lambda x: x
    m.heap_lock = lambda: 0
    m.heap_unlock = lambda: 0
    m.alloc_emergency_exception_buf = lambda n: None
    m.native = m.viper = lambda f: f
    return m
