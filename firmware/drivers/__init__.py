"""Hardware drivers: the only firmware code that touches machine, neopixel and the ssd1306 driver.

One driver a module; import the one you need (``from drivers.hall import HallScanner``) so the
Pico only compiles what it uses. hardware/pinmap.md is the wiring these drivers assume.
"""

_machine_code = {}  # type: dict


def machine_code(name):
    """A per-frame loop of drivers.fastloops (``scan_frame``, ``classify_frame``), compiled to
    machine code on first use. The module itself is then dropped: a loaded .mpy keeps its string
    constants, the ~4 KB of viper source, for as long as the module lives. SyntaxError where the
    MicroPython has no native emitter."""
    if not _machine_code:
        import sys
        from drivers import fastloops

        _machine_code["scan_frame"] = fastloops.scan_frame
        _machine_code["classify_frame"] = fastloops.classify_frame
        sys.modules.pop("drivers.fastloops", None)
        globals().pop("fastloops", None)
    return _machine_code[name]
