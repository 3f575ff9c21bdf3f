"""Hall-sensor grid scanner: 8 CD74HC4067 multiplexers behind a 74HC138, common output on ADC0.

One frame = 128 ADC reads. The 7-bit sensor address (bank << 4 | channel) lives on 7 consecutive
GPIOs and is walked in Gray-code order, so each step flips exactly one address bit: one write to
the SIO GPIO_OUT_SET or GPIO_OUT_CLR register per cell instead of seven Pin calls (pico-costs.md:
a Pin call ~6 us, a register write ~4 us). Step 0 clears the whole field, which also resyncs the
address if anything else ever touched those pins. Nothing is allocated per frame.
"""
from array import array

from machine import ADC, Pin, mem32
import time

try:
    from micropython import const
except ImportError:
    def const(x):  # type: ignore[misc]  # same behaviour, looser signature than the stub
        return x

from drivers import pinmap

try:
    import sys

    # register-level machine code, only where the registers are the RP2040's own
    if sys.platform != "rp2":
        raise ImportError
    from drivers import machine_code

    scan_frame = machine_code("scan_frame")
except (ImportError, SyntaxError):
    # Off the chip: a virtual board's machine module walks its registers in one call (the
    # simulator's, bgc.board.virtual); else the bytecode loop below.
    import machine

    scan_frame = getattr(machine, "scan_frame", None)

# RP2040 SIO block (datasheet 2.3.1.7): writes set / clear the given bits of GPIO_OUT.
SIO_GPIO_OUT_SET = const(0xD0000014)
SIO_GPIO_OUT_CLR = const(0xD0000018)
N = const(128)


def gray_steps(shift=pinmap.MUX_ADDR_SHIFT, bits=pinmap.MUX_ADDR_BITS):
    """(step masks, cell of each step) for a Gray-code walk of every address.

    A positive mask goes to GPIO_OUT_SET, a negative one (negated) to GPIO_OUT_CLR; step 0 is the
    clear of the whole address field.
    """
    n = 1 << bits
    steps = array("i", [0] * n)
    cells = bytearray(n)
    steps[0] = -(((1 << bits) - 1) << shift)
    prev = 0
    for i in range(n):
        g = i ^ (i >> 1)
        cells[i] = pinmap.cell_of_slot(g)
        if i:
            flip = g ^ prev
            steps[i] = (flip << shift) if g & flip else -(flip << shift)
        prev = g
    return steps, cells


class HallScanner:
    """Reads every sensor cell into ``raw`` (array of 128 unsigned 16-bit ADC counts, by cell).

    ``settle_us``: wait after each address change before the conversion. The mux switches in
    well under 1 us and the interpreter takes ~15 us per cell anyway, so 0 is right for the
    reference wiring; raise it if you add filtering capacitance on the common line.
    """

    def __init__(self, settle_us=0):
        self.settle_us = settle_us
        # the machine-code scan waits this many loop turns (~40 ns each) between the address
        # write and the conversion: ~1 us, ample for the 74HC138 and CD74HC4067 (< 0.3 us at 3.3 V)
        self._settle_turns = 25 + settle_us * 25
        shift = pinmap.MUX_ADDR_SHIFT
        # Pin(..., OUT) hands the pads to SIO; only then do SIO register writes reach them.
        self._addr_pins = [Pin(shift + i, Pin.OUT, value=0) for i in range(pinmap.MUX_ADDR_BITS)]
        self._en = Pin(pinmap.MUX_EN, Pin.OUT, value=1)
        self._adc = ADC(Pin(pinmap.ADC_PIN))
        self._read = self._adc.read_u16  # bound once: a bound method per call would allocate
        self._steps, self._cells = gray_steps()
        self.raw = array("H", [0] * N)
        self.frames = 0

    def scan(self):
        """Read one full frame into ``self.raw`` and return it (the same array every time)."""
        raw = self.raw
        steps = self._steps
        cells = self._cells
        read = self._read
        mem = mem32
        self._en.value(0)
        if scan_frame is not None:
            scan_frame(raw, steps, cells, N, pinmap.ADC_PIN - 26, self._settle_turns)
        elif self.settle_us:
            wait = time.sleep_us
            us = self.settle_us
            for i in range(N):
                m = steps[i]
                if m > 0:
                    mem[0xD0000014] = m
                else:
                    mem[0xD0000018] = -m
                wait(us)
                raw[cells[i]] = read()
        else:
            for i in range(N):
                m = steps[i]
                if m > 0:
                    mem[0xD0000014] = m
                else:
                    mem[0xD0000018] = -m
                raw[cells[i]] = read()
        self._en.value(1)  # all muxes off between frames: a stuck address cannot read on
        self.frames += 1
        return raw

    def read_cell(self, cell):
        """One cell on its own (calibration, diagnostics): 7-bit address set directly."""
        slot = pinmap.slot_of_cell(cell)
        field = ((1 << pinmap.MUX_ADDR_BITS) - 1) << pinmap.MUX_ADDR_SHIFT
        mem32[0xD0000018] = field
        mem32[0xD0000014] = slot << pinmap.MUX_ADDR_SHIFT
        self._en.value(0)
        if self.settle_us:
            time.sleep_us(self.settle_us)
        v = self._read()
        self._en.value(1)
        return v

    def disable(self):
        self._en.value(1)
