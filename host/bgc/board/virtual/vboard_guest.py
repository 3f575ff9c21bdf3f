# The guest half of the virtual board behind a virtual Pico (`bgc vpico --board`): this file runs
# INSIDE MicroPython, in the virtual Pico's interpreter, never under CPython. bgc.board.vboard
# copies it as vb/__init__.py beside the virtual rp2 port's machine.py, neopixel.py and sio.py
# (this folder's), mounts that folder at /.vboard and imports it in the virtual Pico's setup hook,
# before boot.py and main.py.
#
# The physical model (checkers, magnets, sensors, LEDs, OLED, buttons) lives on the host, where the
# automated players and the prompt move the checkers and press the buttons. Here a BoardLink takes
# its place behind the virtual machine.Pin/ADC/I2C/PWM/mem32 and neopixel: the pins are kept here
# (Sio), and what the host must know or answer goes through host calls (_vpico.call):
#
#   vb_scan   when the firmware enables the multiplexers (the start of a frame), the host reads
#             every sensor as the ADC would at each address and says what drives the input pads
#             (the buttons); the frame's 128 reads are then answered here, without a call each
#   vb_adc    a read the frame does not cover (the mux disabled, the temperature sensor)
#   vb_leds   the bytes a NeoPixel.write() sends down the chain
#   vb_i2c_*  the I2C bus (the OLED): scan, write, read
#   vb_urandom  os.urandom: the dice (forced from the prompt with `dice A B`, else the board's)
#
# The RP2040's registers are modelled through mem32 (SIO), not as memory: the firmware's viper
# scan loop (drivers.fastloops), which dereferences them, cannot run here, so drivers.fastloops is
# stood in by a module without machine code; drivers.hall then takes the virtual machine's
# scan_frame (Sio.scan_frame: the same register walk in one call) and drivers.classify keeps its
# bytecode loop.

import sys

from _vpico import call
from . import machine as _machine
from . import neopixel as _neopixel
from .sio import Sio

MUX_EN = 9  # hardware/pinmap.md, as bgc.virtual.board sees it
MUX_SHIFT = 2
ADC_COMMON = 26
INPUT_REFRESH_MS = 20  # an input pad read without a frame since is asked for afresh


I2C_CALL_BYTES = 256  # a write's bytes per host call: a whole OLED frame would need 2-4 KB blocks


class _I2cDevice:
    def __init__(self, sda, scl, addr):
        self._where = (sda, scl, addr)

    def i2c_write(self, data):
        # One bus transaction, sent in pieces (the host puts them together) so that the link
        # needs no large block of the heap, where the Pico's own I2C needs none.
        sda, scl, addr = self._where
        view = memoryview(data)
        n = len(view)
        i = 0
        while True:
            j = i + I2C_CALL_BYTES
            call("vb_i2c_write", sda, scl, addr, bytes(view[i:j]).hex(), j < n)
            if j >= n:
                return
            i = j

    def i2c_read(self, n):
        return bytes.fromhex(call("vb_i2c_read", self._where[0], self._where[1], self._where[2], n))


class BoardLink(Sio):
    """The board as bgc.virtual.machine sees it, with the physics on the host."""

    def __init__(self, ticks_ms, ticks_diff):
        Sio.__init__(self)
        self.adc_reads = 0
        self.pwm = {}
        self._codes = bytes(256)  # read_u16 of each mux slot, big-endian, from the last vb_scan
        self._inputs = [None] * 30
        self._scanned = None
        self._buses = {}
        self._ticks_ms = ticks_ms
        self._ticks_diff = ticks_diff

    def _scan(self):
        r = call("vb_scan", self.out, self.oe, self.pull_up, self.pull_down)
        self._codes = bytes.fromhex(r[0])
        self._inputs = r[1]
        self._scanned = self._ticks_ms()

    def gpio_write(self, gpio, value):
        Sio.gpio_write(self, gpio, value)
        # The multiplexers enabled: a frame of reads begins (drivers.hall scan, read_cell).
        if gpio == MUX_EN and not value and (self.oe >> MUX_EN) & 1:
            self._scan()

    def external_level(self, gpio):
        if self._scanned is None or self._ticks_diff(self._ticks_ms(), self._scanned) > INPUT_REFRESH_MS:
            self._scan()
        return self._inputs[gpio]

    def adc_read(self, gpio):
        self.adc_reads += 1
        oe = self.oe
        lv = self.out & oe
        if gpio == ADC_COMMON and (oe >> MUX_EN) & 1 and not (lv >> MUX_EN) & 1:
            i = ((lv >> MUX_SHIFT) & 127) * 2
            codes = self._codes
            return (codes[i] << 8) | codes[i + 1]
        return call("vb_adc", gpio, self.out, self.oe, self.pull_up, self.pull_down)

    def neopixel_write(self, gpio, data, bpp):
        call("vb_leds", gpio, bytes(data).hex(), bpp, self.oe)

    def i2c_device(self, sda, scl, addr):
        key = (sda, scl)
        if key not in self._buses:
            self._buses[key] = call("vb_i2c_scan", sda, scl)
        if addr not in self._buses[key]:
            return None
        return _I2cDevice(sda, scl, addr)

    def i2c_scan(self, sda, scl):
        return call("vb_i2c_scan", sda, scl)


class _NoMachineCode:
    # drivers.fastloops on a board whose registers are not memory: no machine code, so the
    # classifier runs its bytecode loop and the scanner the board link's walk (see the top).
    scan_frame = None
    classify_frame = None


def _urandom(n):
    return bytes.fromhex(call("vb_urandom", n))


def install():
    """Put the board behind the virtual Pico's machine module, neopixel and os.urandom."""
    time = sys.modules["time"]
    link = BoardLink(time.ticks_ms, time.ticks_diff)
    _machine._board = link
    machine = sys.modules["machine"]
    for name in ("Pin", "ADC", "I2C", "SoftI2C", "PWM", "mem32"):
        setattr(machine, name, getattr(_machine, name))
    sys.modules["neopixel"] = _neopixel
    sys.modules["drivers.fastloops"] = _NoMachineCode
    sys.modules["os"].urandom = _urandom
    return link
