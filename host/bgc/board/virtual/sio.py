"""The RP2040's GPIO as the virtual machine.Pin and mem32 see it: the SIO output, output-enable
and pull registers of the 30 pads, and what an input pad reads.

``Board`` (the physical model) is one; the virtual Pico's board link (bgc.vboard_guest, inside
MicroPython) is another, whose inputs come from a board that lives on the host. Runs under
CPython and MicroPython.
"""


class Sio:
    def __init__(self):
        self.out = 0
        self.oe = 0
        self.pull_up = 0
        self.pull_down = 0
        self.mem_writes = 0
        self.pin_writes = 0

    def external_level(self, gpio):
        """The level something outside drives on an input pad (a button), or None."""
        return None

    def gpio_write(self, gpio, value):
        bit = 1 << gpio
        if value:
            self.out |= bit
        else:
            self.out &= ~bit

    def gpio_level(self, gpio):
        bit = 1 << gpio
        if self.oe & bit:
            return 1 if self.out & bit else 0
        ext = self.external_level(gpio)
        if ext is not None:
            return ext
        if self.pull_up & bit:
            return 1
        return 0  # pulled down or floating (a floating pad reads 0 here; on a Pico, anything)

    def mem_write(self, addr, value):
        self.mem_writes += 1
        value &= 0x3FFFFFFF
        if addr == 0xD0000014:
            self.out |= value
        elif addr == 0xD0000018:
            self.out &= ~value
        elif addr == 0xD000001C:
            self.out ^= value
        elif addr == 0xD0000010:
            self.out = value
        elif addr == 0xD0000024:
            self.oe |= value
        elif addr == 0xD0000028:
            self.oe &= ~value
        elif addr == 0xD0000020:
            self.oe = value
        else:
            raise ValueError("virtual board: mem32 write to 0x%08x is not modelled" % addr)

    def mem_read(self, addr):
        if addr == 0xD0000004:
            v = 0
            for g in range(30):
                if self.gpio_level(g):
                    v |= 1 << g
            return v
        if addr == 0xD0000010:
            return self.out
        if addr == 0xD0000020:
            return self.oe
        raise ValueError("virtual board: mem32 read of 0x%08x is not modelled" % addr)

    def scan_frame(self, raw, steps, cells, n, channel):
        """drivers.fastloops.scan_frame's register walk (the Pico's machine-code scan) in one call:
        for each of the ``n`` steps one write of the address (a positive mask to GPIO_OUT_SET, a
        negative one to GPIO_OUT_CLR), then one conversion of ADC ``channel`` (the board's
        adc_read) stored at ``cells[step]``: the bytecode loop of drivers.hall without its two
        calls a cell into the virtual machine module. Allocation-free (integers only; a method
        called, never bound)."""
        gpio = 26 + channel
        for i in range(n):
            m = steps[i]
            if m > 0:
                self.out |= m & 0x3FFFFFFF
            else:
                self.out &= ~(-m & 0x3FFFFFFF)
            raw[cells[i]] = self.adc_read(gpio)
        self.mem_writes += n
