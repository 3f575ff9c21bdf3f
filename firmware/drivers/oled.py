"""SSD1306 128x64 OLED on I2C0: text screens of 16 columns x 8 rows of the built-in 8x8 font.

The panel is driven by micropython-lib's ``ssd1306`` (install it on the Pico with
``mpremote mip install ssd1306``); it is a framebuf.FrameBuffer, so all drawing is framebuf.
If no display answers on the bus the board still plays: ``present`` is False and drawing is a
no-op (the host sees the same screens over serial).

A whole screen on the bus takes about 23 ms at 400 kHz (and its drawing ~10 ms more on a Pico):
``lines`` redraws only the text rows that changed and sends only their SSD1306 pages (a text row
is one page of 8 pixel rows), and with ``pages`` it sends at most that many now: the loop sends
the rest in its next steps (``flush``), so no loop step waits for a whole screen (issue 33).
"""
from machine import I2C, Pin

from drivers import pinmap

COLS = 16
ROWS = 8
WIDTH = 128
HEIGHT = 64
_SET_COL_ADDR = 0x21  # SSD1306 commands (micropython-lib's ssd1306 sends them the same way)
_SET_PAGE_ADDR = 0x22


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
        self.shown = [None] * ROWS  # type: list  # per text row: (text, inverse) the frame buffer holds (None: unknown)
        self.dirty = 0  # pages (bit per text row) drawn but not yet sent
        if i2c is None:
            i2c = I2C(pinmap.I2C_ID, scl=Pin(pinmap.I2C_SCL), sda=Pin(pinmap.I2C_SDA), freq=400_000)
        self.i2c = i2c
        try:
            import ssd1306

            self.fb = ssd1306.SSD1306_I2C(WIDTH, HEIGHT, i2c, addr)
            self._buf = memoryview(self.fb.buffer)  # page-major: page p is bytes 128 p .. 128 p + 127
            self.present = True
        except ImportError:
            self.error = "ssd1306 driver missing: mpremote mip install ssd1306"
        except OSError as e:
            self.error = "no display at 0x%02x (%s)" % (addr, e)

    def clear(self):
        if self.fb:
            self.fb.fill(0)
            self._drawn_elsewhere()

    def _drawn_elsewhere(self):
        # drawn outside lines(): every row is to be drawn again by the next lines()
        for i in range(ROWS):
            self.shown[i] = None

    def text(self, row, col, text, inverse=False):
        """Draw ``text`` at character cell (row, col), clipped to the row."""
        fb = self.fb
        if not fb or not 0 <= row < ROWS or not 0 <= col < COLS:
            return
        s = fit(text)[: COLS - col]
        self._drawn_elsewhere()
        x = col * 8
        y = row * 8
        if inverse:
            fb.fill_rect(x, y, 8 * len(s), 8, 1)
            fb.text(s, x, y, 0)
        else:
            fb.fill_rect(x, y, 8 * len(s), 8, 0)
            fb.text(s, x, y, 1)

    def lines(self, rows, inverse_row=-1, pages=ROWS):
        """A whole screen: up to 8 strings, one per row. Only the rows that differ from what the
        panel shows are drawn and sent; at most ``pages`` of them now, the rest by ``flush``."""
        fb = self.fb
        if not fb:
            return
        shown = self.shown
        for i in range(ROWS):
            s = fit(rows[i]) if i < len(rows) else ""
            inverse = i == inverse_row
            was = shown[i]
            if was is not None and was[0] == s and was[1] == inverse:
                continue
            shown[i] = (s, inverse)
            y = i * 8
            fb.fill_rect(0, y, WIDTH, 8, 0)
            if inverse:
                fb.fill_rect(0, y, 8 * len(s), 8, 1)
            fb.text(s, 0, y, 0 if inverse else 1)
            self.dirty |= 1 << i
        self.flush(pages)

    def flush(self, pages=ROWS):
        """Send at most ``pages`` of the pages drawn and not yet sent (consecutive ones in one
        write); True when some are still waiting."""
        d = self.dirty
        fb = self.fb
        if fb is None:
            return False  # (no display: nothing is ever drawn, nothing to send)
        p = 0
        while d and pages > 0:
            while not d >> p & 1:
                p += 1
            q = p
            while q + 1 < ROWS and d >> (q + 1) & 1 and q + 1 - p < pages:
                q += 1
            fb.write_cmd(_SET_COL_ADDR)
            fb.write_cmd(0)
            fb.write_cmd(WIDTH - 1)
            fb.write_cmd(_SET_PAGE_ADDR)
            fb.write_cmd(p)
            fb.write_cmd(q)
            fb.write_data(self._buf[WIDTH * p:WIDTH * (q + 1)])
            for k in range(p, q + 1):
                d &= ~(1 << k)
            pages -= q + 1 - p
            p = q + 1
        self.dirty = d
        return bool(d)

    def bar(self, row, fraction):
        """A progress bar across one text row (0.0..1.0), e.g. for calibration."""
        if not self.fb or not 0 <= row < ROWS:
            return
        w = int(max(0.0, min(1.0, fraction)) * (WIDTH - 2))
        self._drawn_elsewhere()
        self.fb.rect(0, row * 8, WIDTH, 8, 1)
        self.fb.fill_rect(1, row * 8 + 1, w, 6, 1)

    def show(self):
        if self.fb:
            self.fb.show()
            self.dirty = 0

    def power(self, on):
        if self.fb:
            if on:
                self.fb.poweron()
            else:
                self.fb.poweroff()
