"""An SSD1306 controller on the virtual I2C bus: decodes the command and data bytes any driver
sends (control byte 0x80/0x00 = commands, 0x40 = data) into its 128x64 display RAM, and renders
what the panel shows (display on/off, inversion, entire-on, segment remap, COM scan direction,
start line). Name clash note: this is the *device*; the firmware's driver is micropython-lib's
ssd1306.py, which the virtual board never replaces."""

# Commands followed by argument bytes (datasheet section 9).
_ARGS = {0x20: 1, 0x21: 2, 0x22: 2, 0x81: 1, 0xA8: 1, 0xD3: 1, 0xDA: 1, 0xD5: 1, 0xD9: 1,
         0xDB: 1, 0x8D: 1, 0xA3: 2, 0x26: 6, 0x27: 6, 0x29: 5, 0x2A: 5}


class Ssd1306:
    def __init__(self, width=128, height=64):
        self.width = width
        self.height = height
        self.pages = height // 8
        self.ram = bytearray(self.pages * width)
        self.display_on = False
        self.inverted = False
        self.entire_on = False
        self.seg_remap = False
        self.com_remap = False
        self.start_line = 0
        self.contrast = 0x7F
        self.charge_pump = False
        self.mode = 2  # page addressing after reset
        self.col0, self.col1 = 0, width - 1
        self.page0, self.page1 = 0, self.pages - 1
        self.col = 0
        self.page = 0
        self._cmd = []
        self.commands = 0
        self.data_bytes = 0
        self.frames = 0  # data writes that covered the whole RAM

    # --- I2C side ---
    def i2c_write(self, data):
        i = 0
        n = len(data)
        while i < n:
            ctrl = data[i]
            i += 1
            if ctrl & 0x40:  # D/C# = 1: data
                if ctrl & 0x80:  # Co = 1: one data byte, then another control byte
                    if i < n:
                        self._data(data[i:i + 1])
                    i += 1
                else:
                    self._data(data[i:])
                    return
            else:
                if ctrl & 0x80:
                    if i < n:
                        self._command_byte(data[i])
                    i += 1
                else:
                    for b in data[i:]:
                        self._command_byte(b)
                    return

    def i2c_read(self, n):
        # Status byte: bit 6 = display off.
        return bytes([0x00 if self.display_on else 0x40] * n)

    # --- controller ---
    def _command_byte(self, b):
        self._cmd.append(b)
        need = _ARGS.get(self._cmd[0], 0)
        if len(self._cmd) > need:
            cmd = self._cmd
            self._cmd = []
            self._execute(cmd)

    def _execute(self, cmd):
        self.commands += 1
        c = cmd[0]
        if c == 0xAE or c == 0xAF:
            self.display_on = c == 0xAF
        elif c == 0xA6 or c == 0xA7:
            self.inverted = c == 0xA7
        elif c == 0xA4 or c == 0xA5:
            self.entire_on = c == 0xA5
        elif c == 0xA0 or c == 0xA1:
            self.seg_remap = c == 0xA1
        elif c == 0xC0 or c == 0xC8:
            self.com_remap = c == 0xC8
        elif 0x40 <= c <= 0x7F:
            self.start_line = c - 0x40
        elif c == 0x81:
            self.contrast = cmd[1]
        elif c == 0x8D:
            self.charge_pump = bool(cmd[1] & 0x04)
        elif c == 0x20:
            self.mode = cmd[1] & 3
        elif c == 0x21:
            self.col0 = cmd[1] & 0x7F
            self.col1 = cmd[2] & 0x7F
            self.col = self.col0
        elif c == 0x22:
            self.page0 = cmd[1] & 7
            self.page1 = cmd[2] & 7
            self.page = self.page0
        elif 0xB0 <= c <= 0xB7:
            self.page = c - 0xB0
        elif c <= 0x0F:
            self.col = (self.col & 0xF0) | c
        elif 0x10 <= c <= 0x1F:
            self.col = (self.col & 0x0F) | ((c & 0x0F) << 4)

    def _data(self, data):
        w = self.width
        for b in data:
            if self.page < self.pages and self.col < w:
                self.ram[self.page * w + self.col] = b
            self.data_bytes += 1
            if self.mode == 0:  # horizontal: column, then page, within the window
                if self.col >= self.col1:
                    self.col = self.col0
                    self.page = self.page + 1 if self.page < self.page1 else self.page0
                    if self.page == self.page0:
                        self.frames += 1
                else:
                    self.col += 1
            elif self.mode == 1:  # vertical
                if self.page >= self.page1:
                    self.page = self.page0
                    self.col = self.col + 1 if self.col < self.col1 else self.col0
                else:
                    self.page += 1
            else:  # page mode: column wraps within the page
                self.col = self.col + 1 if self.col < w - 1 else 0

    def ram_pixel(self, col, row):
        return (self.ram[(row >> 3) * self.width + col] >> (row & 7)) & 1

    def pixel(self, x, y):
        """What the viewer sees at (x, y) on a module mounted the usual way (pins at the top)."""
        if not self.display_on or not self.charge_pump:
            return 0
        if self.entire_on:
            v = 1
        else:
            col = x if self.seg_remap else self.width - 1 - x
            row = y if self.com_remap else self.height - 1 - y
            row = (row + self.start_line) % self.height
            v = self.ram_pixel(col, row)
        return v ^ 1 if self.inverted else v

    def pixels(self):
        """The visible image as a list of ``height`` bytearrays of 0/1."""
        return [bytearray(self.pixel(x, y) for x in range(self.width)) for y in range(self.height)]
