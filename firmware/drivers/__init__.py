"""Hardware drivers: the only firmware code that touches machine, neopixel and the ssd1306 driver.

One driver a module; import the one you need (``from drivers.hall import HallScanner``) so the
Pico only compiles what it uses. hardware/pinmap.md is the wiring these drivers assume.
"""
