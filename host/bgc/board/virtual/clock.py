"""Virtual clock, installed as the ``time`` module the firmware imports.

Time only moves when the firmware sleeps or a test/simulation calls ``advance``; ticks wrap at
2**30 as on MicroPython, so ticks_diff is exercised the same way. On CPython every other ``time``
attribute (time.time, perf_counter, ...) is forwarded to the real module, because installing this
as ``time`` is process-wide.
"""

TICKS_PERIOD = 1 << 30
TICKS_MAX = TICKS_PERIOD - 1
TICKS_HALF = TICKS_PERIOD // 2


class Clock:
    def __init__(self, start_ms=0):
        self.ms = start_ms  # kept as ms + sub-ms so sleeping never creates big ints on MicroPython
        self.sub_us = 0
        self.listeners = []

    def advance_us(self, us):
        if us < 0:
            raise ValueError("time cannot go backwards")
        s = self.sub_us + us
        if s >= 1000:
            self.ms += s // 1000
            s = s % 1000
        self.sub_us = s
        for f in self.listeners:
            f(self)

    def advance_ms(self, ms):
        self.advance_us(ms * 1000)

    def ticks_ms(self):
        return self.ms & TICKS_MAX

    def ticks_us(self):
        return (self.ms * 1000 + self.sub_us) & TICKS_MAX

    def seconds(self):
        return self.ms / 1000.0 + self.sub_us / 1e6


_clock = Clock()


def set_clock(c):
    global _clock
    _clock = c


def ticks_ms():
    return _clock.ticks_ms()


def ticks_us():
    return _clock.ticks_us()


def ticks_cpu():
    return _clock.ticks_us()


def ticks_diff(a, b):
    return ((a - b + TICKS_HALF) & TICKS_MAX) - TICKS_HALF


def ticks_add(t, delta):
    return (t + delta) & TICKS_MAX


def sleep_us(us):
    _clock.advance_us(int(us))


def sleep_ms(ms):
    _clock.advance_us(int(ms) * 1000)


def sleep(s):
    _clock.advance_us(int(s * 1000000))


def time():
    return _clock.ms // 1000


def time_ns():
    return (_clock.ms * 1000 + _clock.sub_us) * 1000


_real = None  # CPython's own time module, set by virtual.install


def __getattr__(name):
    if _real is not None:
        return getattr(_real, name)
    raise AttributeError(name)
