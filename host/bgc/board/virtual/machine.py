"""The rp2 port's ``machine`` module as the virtual board's firmware sees it.

Pin, ADC, I2C, PWM and mem32 behave as on the RP2040: Pin(n, Pin.OUT) hands the pad to SIO, and
mem32 writes to the SIO GPIO_OUT(_SET/_CLR/_XOR) registers move those pins; the multiplexers, the
buttons and the I2C devices only see pin levels. Everything reaches the board installed by
``virtual.install`` at call time, so firmware modules imported once work across boards.
"""

_board = None


def _b():
    if _board is None:
        raise RuntimeError("virtual board not installed: call virtual.install() first")
    return _board


class Pin:
    IN = 0
    OUT = 1
    OPEN_DRAIN = 2
    ALT = 3
    PULL_UP = 1
    PULL_DOWN = 2
    IRQ_FALLING = 4
    IRQ_RISING = 8

    def __init__(self, id, mode=-1, pull=-1, *, value=None, alt=-1):
        if id == "LED":
            id = 25
        if not isinstance(id, int) or not 0 <= id <= 29:
            raise ValueError("invalid pin")
        self.id = id
        self._irq = None
        self.init(mode, pull, value=value)

    def init(self, mode=-1, pull=-1, *, value=None, alt=-1):
        b = _b()
        bit = 1 << self.id
        if value is not None:
            b.gpio_write(self.id, value)
        if mode == Pin.OUT or mode == Pin.OPEN_DRAIN:
            b.oe |= bit
        elif mode == Pin.IN:
            b.oe &= ~bit
        if pull == Pin.PULL_UP:
            b.pull_up |= bit
            b.pull_down &= ~bit
        elif pull == Pin.PULL_DOWN:
            b.pull_down |= bit
            b.pull_up &= ~bit
        elif pull is None:
            b.pull_up &= ~bit
            b.pull_down &= ~bit

    def value(self, x=None):
        b = _b()
        if x is None:
            return b.gpio_level(self.id)
        b.pin_writes += 1
        b.gpio_write(self.id, x)
        return None

    def __call__(self, x=None):
        return self.value(x)

    def on(self):
        self.value(1)

    def off(self):
        self.value(0)

    high = on
    low = off

    def toggle(self):
        self.value(1 - _b().gpio_level(self.id))

    def irq(self, handler=None, trigger=IRQ_FALLING | IRQ_RISING, hard=False):
        # Kept for API completeness; the drivers poll, so the virtual board never fires these.
        self._irq = handler

    def __repr__(self):
        return "Pin(GPIO%d)" % self.id


class _Mem32:
    def __getitem__(self, addr):
        return _b().mem_read(addr)

    def __setitem__(self, addr, value):
        # _b() written out: the scan writes here 128 times a frame
        b = _board
        if b is None:
            _b()
        b.mem_write(addr, value)


mem32 = _Mem32()


def scan_frame(raw, steps, cells, n, channel, settle):
    """The hall grid's frame in one call, as drivers.fastloops.scan_frame does it on the Pico (not
    an rp2 ``machine`` function: drivers.hall takes it where it finds it, off the chip)."""
    b = _board
    if b is None:
        _b()
    b.scan_frame(raw, steps, cells, n, channel)


class ADC:
    CORE_TEMP = 4

    def __init__(self, id, *, sample_ns=0, atten=0):
        if isinstance(id, Pin):
            gpio = id.id
        elif isinstance(id, int) and 0 <= id <= 4:
            gpio = 26 + id
        else:
            gpio = id
        if gpio not in (26, 27, 28, 29, 30):
            raise ValueError("Pin doesn't have ADC capabilities")
        self.gpio = gpio
        if gpio != 30:
            _b().oe &= ~(1 << gpio)

    def read_u16(self):
        b = _board  # _b() written out: the scan reads here 128 times a frame
        if b is None:
            _b()
        return b.adc_read(self.gpio)


# rp2 I2C pin options: SDA on GPIO 0,4,8,..., SCL on 1,5,9,... for I2C0; +2 for I2C1.
_I2C_DEFAULT = {0: (9, 8), 1: (7, 6)}


class I2C:
    def __init__(self, id, *, scl=None, sda=None, freq=400000, timeout=50000):
        if id not in (0, 1):
            raise ValueError("I2C(%s) doesn't exist" % (id,))
        scl_n = scl.id if isinstance(scl, Pin) else (scl if scl is not None else _I2C_DEFAULT[id][0])
        sda_n = sda.id if isinstance(sda, Pin) else (sda if sda is not None else _I2C_DEFAULT[id][1])
        if sda_n % 4 != 2 * id or sda_n > 29:
            raise ValueError("bad SDA pin")
        if scl_n % 4 != 2 * id + 1 or scl_n > 29:
            raise ValueError("bad SCL pin")
        self.id = id
        self.scl = scl_n
        self.sda = sda_n
        self.freq = freq

    def _dev(self, addr):
        dev = _b().i2c_device(self.sda, self.scl, addr)
        if dev is None:
            raise OSError(5)  # EIO: no ACK, as the rp2 port reports
        return dev

    def scan(self):
        return _b().i2c_scan(self.sda, self.scl)

    def writeto(self, addr, buf, stop=True):
        self._dev(addr).i2c_write(bytes(buf))
        return len(buf)

    def writevto(self, addr, vector, stop=True):
        data = b"".join(bytes(v) for v in vector)
        self._dev(addr).i2c_write(data)
        return len(data)

    def readfrom(self, addr, nbytes, stop=True):
        return self._dev(addr).i2c_read(nbytes)

    def readfrom_into(self, addr, buf, stop=True):
        data = self.readfrom(addr, len(buf))
        for i in range(len(buf)):
            buf[i] = data[i]

    def writeto_mem(self, addr, memaddr, buf, *, addrsize=8):
        self.writeto(addr, bytes([memaddr]) + bytes(buf))

    def readfrom_mem(self, addr, memaddr, nbytes, *, addrsize=8):
        self.writeto(addr, bytes([memaddr]))
        return self.readfrom(addr, nbytes)


SoftI2C = I2C


class PWM:
    def __init__(self, dest, *, freq=0, duty_u16=0, duty_ns=0, invert=False):
        self.pin = dest.id if isinstance(dest, Pin) else dest
        self._freq = freq
        self._duty = duty_u16
        _b().pwm[self.pin] = self

    def freq(self, f=None):
        if f is None:
            return self._freq
        self._freq = f

    def duty_u16(self, d=None):
        if d is None:
            return self._duty
        self._duty = d

    def deinit(self):
        self._duty = 0


def freq(hz=None):
    return 125000000


def unique_id():
    return b"\xe6\x60\x58\x38\x83\x4b\x2a\x2f"


def idle():
    _b().clock.advance_us(1)


def reset():
    raise SystemExit("machine.reset() on the virtual board")


def soft_reset():
    raise SystemExit("machine.soft_reset() on the virtual board")
