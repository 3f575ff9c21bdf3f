"""WS2812B chain: one LED per point, one per bar half, two status LEDs (hardware/pinmap.md).

Colours are named for what they mean in the game, so the controller never picks RGB values.
They are deliberately dim: at full white a WS2812B draws ~60 mA, and the power budget
(hardware/power.md) allows 28 LEDs at the ``brightness`` cap, not at full power.
"""
from machine import Pin
from neopixel import NeoPixel

from drivers import pinmap

OFF = (0, 0, 0)
LEGAL = (0, 255, 0)  # a legal destination for the lifted checker
LIFTED = (0, 96, 255)  # where the lifted checker came from
ILLEGAL = (255, 0, 0)  # the position is illegal: this point is wrong
TURN = (255, 160, 0)  # whose turn it is (status LED of that side)
HINT = (160, 0, 255)  # attention: press DONE, take the cube, ...
WHITE_SIDE = (255, 255, 255)
COLOURS = {"off": OFF, "legal": LEGAL, "lifted": LIFTED, "illegal": ILLEGAL, "turn": TURN,
           "hint": HINT, "white": WHITE_SIDE}


class Leds:
    def __init__(self, pin=pinmap.LED_DATA, n=pinmap.N_LEDS, brightness=64):
        self.n = n
        self.np = NeoPixel(Pin(pin, Pin.OUT), n)
        self.brightness = brightness  # 0..255, applied to every colour set

    def set(self, index, colour):
        if not 0 <= index < self.n:
            raise IndexError("LED %d out of range 0..%d" % (index, self.n - 1))
        b = self.brightness
        self.np[index] = ((colour[0] * b) // 255, (colour[1] * b) // 255, (colour[2] * b) // 255)

    def point(self, point, colour):
        """Point 1..24 (white's numbering); 0 and 25 are the black and white bar halves."""
        if point == 25:
            self.set(pinmap.LED_BAR_WHITE, colour)
        elif point == 0:
            self.set(pinmap.LED_BAR_BLACK, colour)
        elif 1 <= point <= 24:
            self.set(point - 1, colour)
        else:
            raise IndexError("no LED for point %r" % (point,))

    def status(self, white, colour):
        self.set(pinmap.LED_STATUS_WHITE if white else pinmap.LED_STATUS_BLACK, colour)

    def clear(self):
        self.np.fill(OFF)

    def show(self):
        self.np.write()
