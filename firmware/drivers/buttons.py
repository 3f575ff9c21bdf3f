"""The four player buttons: debounced, with short-press and long-press events.

Buttons close to GND and use the internal pull-ups, so pressed reads 0. ``poll(now_ms)`` is called
from the main loop (every few ms) with ``time.ticks_ms()``; it returns one event code per call
(0 when there is none), so call it until it returns 0. A long press is reported once, as soon as
the button has been held ``long_ms``; its release then reports nothing, so a long press never
also counts as a short one. A button already held when the board starts (a long press cut by the
power and still held as the board comes back) counts only once it has been seen released: its
hold gives neither a long press nor, when let go, a short one.
"""
import time

from machine import Pin

try:
    from micropython import const
except ImportError:
    def const(x):  # type: ignore[misc]  # same behaviour, looser signature than the stub
        return x

from drivers import pinmap

ROLL_W = const(0)  # white player's ROLL/DONE
CUBE_W = const(1)
ROLL_B = const(2)
CUBE_B = const(3)
SHORT = const(1)
LONG = const(2)
BUTTON_NAMES = ("ROLL_W", "CUBE_W", "ROLL_B", "CUBE_B")


def event(button, kind):
    return (button << 2) | kind


def button_of(ev):
    return ev >> 2


def kind_of(ev):
    return ev & 3


def name(ev):
    if not ev:
        return "none"
    return "%s %s" % (BUTTON_NAMES[ev >> 2], "long" if ev & 3 == LONG else "short")


class Buttons:
    def __init__(self, pins=pinmap.BUTTON_PINS, debounce_ms=20, long_ms=800):
        self._pins = [Pin(p, Pin.IN, Pin.PULL_UP) for p in pins]
        n = len(pins)
        self.debounce_ms = debounce_ms
        self.long_ms = long_ms
        self._last_raw = bytearray(n)
        self._stable = bytearray(n)  # 1 = pressed
        self._changed_at = [0] * n
        self._down_at = [0] * n
        self._long_sent = bytearray(n)
        self._queue = bytearray(8)  # ring of pending events: one poll can see several buttons
        self._head = 0
        self._len = 0
        for i in range(n):
            self._last_raw[i] = 1 - self._pins[i].value()
            self._stable[i] = self._last_raw[i]
            # held since before power-up: not a press of this boot (the hold and its release
            # report nothing, as after a long press)
            self._long_sent[i] = self._stable[i]

    def _push(self, ev):
        if self._len < len(self._queue):
            self._queue[(self._head + self._len) % len(self._queue)] = ev
            self._len += 1

    def pressed(self, button):
        return bool(self._stable[button])

    def poll(self, now_ms):
        diff = time.ticks_diff
        for i in range(len(self._pins)):
            raw = 1 - self._pins[i].value()
            if raw != self._last_raw[i]:
                self._last_raw[i] = raw
                self._changed_at[i] = now_ms
            elif raw != self._stable[i] and diff(now_ms, self._changed_at[i]) >= self.debounce_ms:
                self._stable[i] = raw
                if raw:
                    self._down_at[i] = now_ms
                    self._long_sent[i] = 0
                elif not self._long_sent[i]:
                    self._push(event(i, SHORT))
            if self._stable[i] and not self._long_sent[i] and diff(now_ms, self._down_at[i]) >= self.long_ms:
                self._long_sent[i] = 1
                self._push(event(i, LONG))
        if not self._len:
            return 0
        ev = self._queue[self._head]
        self._head = (self._head + 1) % len(self._queue)
        self._len -= 1
        return ev
