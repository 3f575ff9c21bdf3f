"""SSD1306 128x64 OLED on I2C0: text screens of 16 columns x 8 rows of the built-in 8x8 font.

The panel is driven by micropython-lib's ``ssd1306`` (install it on the Pico with
``mpremote mip install ssd1306``); it is a framebuf.FrameBuffer, so all drawing is framebuf.
If no display answers on the bus the board still plays: ``present`` is False and drawing is a
no-op (the host sees the same screens over serial).
"""
from machine import I2C, Pin

from drivers import pinmap

COLS = 16
ROWS = 8
WIDTH = 128
HEIGHT = 64


def fit(text):
    """What of ``text`` fits on one row (16 characters; the font has ASCII 32..127 only)."""
    out = []
    for ch in str(text)[:COLS]:
        out.append(ch if 32 <= ord(ch) < 128 else "?")
    return "".join(out)


class Oled:
    def __init__(self, i2c=None, addr=pinmap.OLED_ADDR):
        self.present = False
        self.error = ""
        self.fb = None
        if i2c is None:
            i2c = I2C(pinmap.I2C_ID, scl=Pin(pinmap.I2C_SCL), sda=Pin(pinmap.I2C_SDA), freq=400_000)
        self.i2c = i2c
        try:
            import ssd1306

            self.fb = ssd1306.SSD1306_I2C(WIDTH, HEIGHT, i2c, addr)
            self.present = True
        except ImportError:
            self.error = "ssd1306 driver missing: mpremote mip install ssd1306"
        except OSError as e:
            self.error = "no display at 0x%02x (%s)" % (addr, e)

    def clear(self):
        if self.fb:
            self.fb.fill(0)

    def text(self, row, col, text, inverse=False):
        """Draw ``text`` at character cell (row, col), clipped to the row."""
        fb = self.fb
        if not fb or not 0 <= row < ROWS or not 0 <= col < COLS:
            return
        s = fit(text)[: COLS - col]
        x = col * 8
        y = row * 8
        if inverse:
            fb.fill_rect(x, y, 8 * len(s), 8, 1)
            fb.text(s, x, y, 0)
        else:
            fb.fill_rect(x, y, 8 * len(s), 8, 0)
            fb.text(s, x, y, 1)

    def lines(self, rows, inverse_row=-1):
        """A whole screen: up to 8 strings, one per row, then shown."""
        if not self.fb:
            return
        self.fb.fill(0)
        for i in range(min(ROWS, len(rows))):
            self.text(i, 0, rows[i], i == inverse_row)
        self.fb.show()

    def bar(self, row, fraction):
        """A progress bar across one text row (0.0..1.0), e.g. for calibration."""
        if not self.fb or not 0 <= row < ROWS:
            return
        w = int(max(0.0, min(1.0, fraction)) * (WIDTH - 2))
        self.fb.rect(0, row * 8, WIDTH, 8, 1)
        self.fb.fill_rect(1, row * 8 + 1, w, 6, 1)

    def show(self):
        if self.fb:
            self.fb.show()

    def power(self, on):
        if self.fb:
            if on:
                self.fb.poweron()
            else:
                self.fb.poweroff()
