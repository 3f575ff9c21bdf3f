"""A pure-Python ``framebuf`` for CPython (MicroPython has its own, built in).

MONO_VLSB, MONO_HLSB and MONO_HMSB buffers with MicroPython's drawing primitives and its 8x8
font (font_petme128_8x8, ASCII 32..127, dumped from MicroPython 1.27's framebuf.text so the
pixels match the real one exactly).
"""

MONO_VLSB = 0
MVLSB = 0
RGB565 = 1
GS4_HMSB = 2
MONO_HLSB = 3
MONO_HMSB = 4
GS2_HMSB = 5
GS8 = 6

FONT = bytes.fromhex(
    "00000000000000000000004f4f0000000007070000070700147f7f14147f7f14"
    "00242e6b6b3a1200006333180c66630000327f4d4d7772500000000406030100"
    "00001c3e63410000000041633e1c0000082a3e1c1c3e2a080008083e3e080800"
    "000080e0600000000008080808080800000000606000000000406030180c0602"
    "003e7f49457f3e000040447f7f40400000627351494f460000226349497f3600"
    "00181814167f7f1000276745457d3900003e7f49497b3200000303797d070300"
    "00367f49497f360000266f49497f3e000000002424000000000080e464000000"
    "00081c3663414100001414141414140000414163361c080000020351590f0600"
    "003e7f414d4f2e00007c7e0b0b7e7c00007f7f49497f3600003e7f4141632200"
    "007f7f41633e1c00007f7f4949414100007f7f0909010100003e7f41497b3a00"
    "007f7f08087f7f000000417f7f410000002060417f3f0100007f7f1c36634100"
    "007f7f4040404000007f7f060c067f7f007f7f0e1c7f7f00003e7f41417f3e00"
    "007f7f09090f0600001e3f21617f5e00007f7f19396f460000266f49497b3200"
    "0001017f7f010100003f7f40407f3f00001f3f60603f1f00007f7f3018307f7f"
    "0063771c1c77630000070f78780f0700006171594d47430000007f7f41410000"
    "0002060c18306040000041417f7f000000080c06060c0800c0c0c0c0c0c0c0c0"
    "000001030604000000207454547c7800007f7f44447c380000387c44446c2800"
    "00387c44447f7f0000387c54545c580000087e7f090302000098bca4a4fc7c00"
    "007f7f04047c78000000007d7d0000000040c08080fd7d00007f7f30386c4400"
    "0000417f7f400000007c7c1830187c7c007c7c04047c780000387c44447c3800"
    "00fcfc24243c180000183c2424fcfc00007c7c04040c080000485c5454742000"
    "04043f7f44642000003c7c40407c3c00001c3c60603c1c00001c7c3018307c1c"
    "00446c38386c4400009cbca0a0fc7c00004464745c4c44000008083e77414100"
    "000000ffff000000004141773e0808000002030103020301aa55aa55aa55aa55"
)


class FrameBuffer:
    def __init__(self, buf, width, height, format, stride=None):
        if format not in (MONO_VLSB, MONO_HLSB, MONO_HMSB):
            raise ValueError("virtual framebuf supports the monochrome formats only")
        self.buf = buf
        self.width = width
        self.height = height
        self.format = format
        self.stride = width if stride is None else stride

    def _set(self, x, y, c):
        if self.format == MONO_VLSB:
            i = (y >> 3) * self.stride + x
            bit = 1 << (y & 7)
        else:
            i = (y * self.stride + x) >> 3
            bit = (0x80 >> (x & 7)) if self.format == MONO_HLSB else (1 << (x & 7))
        if c:
            self.buf[i] |= bit
        else:
            self.buf[i] &= ~bit & 0xFF

    def _get(self, x, y):
        if self.format == MONO_VLSB:
            return (self.buf[(y >> 3) * self.stride + x] >> (y & 7)) & 1
        v = self.buf[(y * self.stride + x) >> 3]
        return (v >> (7 - (x & 7)) if self.format == MONO_HLSB else v >> (x & 7)) & 1

    def pixel(self, x, y, c=None):
        if not (0 <= x < self.width and 0 <= y < self.height):
            return None
        if c is None:
            return self._get(x, y)
        self._set(x, y, c)
        return None

    def fill(self, c):
        v = 0xFF if c else 0
        for i in range(len(self.buf)):
            self.buf[i] = v

    def fill_rect(self, x, y, w, h, c):
        for yy in range(max(0, y), min(self.height, y + h)):
            for xx in range(max(0, x), min(self.width, x + w)):
                self._set(xx, yy, c)

    def rect(self, x, y, w, h, c, f=False):
        if f:
            self.fill_rect(x, y, w, h, c)
            return
        self.hline(x, y, w, c)
        self.hline(x, y + h - 1, w, c)
        self.vline(x, y, h, c)
        self.vline(x + w - 1, y, h, c)

    def hline(self, x, y, w, c):
        self.fill_rect(x, y, w, 1, c)

    def vline(self, x, y, h, c):
        self.fill_rect(x, y, 1, h, c)

    def line(self, x1, y1, x2, y2, c):
        dx = abs(x2 - x1)
        dy = -abs(y2 - y1)
        sx = 1 if x1 < x2 else -1
        sy = 1 if y1 < y2 else -1
        err = dx + dy
        while True:
            self.pixel(x1, y1, c)
            if x1 == x2 and y1 == y2:
                return
            e2 = 2 * err
            if e2 >= dy:
                err += dy
                x1 += sx
            if e2 <= dx:
                err += dx
                y1 += sy

    def text(self, s, x, y, c=1):
        for ch in s:
            code = ord(ch)
            if code < 32 or code > 127:
                code = 127
            glyph = FONT[(code - 32) * 8:(code - 31) * 8]
            for col in range(8):
                bits = glyph[col]
                xx = x + col
                if 0 <= xx < self.width:
                    for row in range(8):
                        if bits >> row & 1:
                            yy = y + row
                            if 0 <= yy < self.height:
                                self._set(xx, yy, c)
            x += 8

    def scroll(self, dx, dy):
        w, h = self.width, self.height
        snap = [[self._get(x, y) for x in range(w)] for y in range(h)]
        for y in range(h):
            for x in range(w):
                sx, sy = x - dx, y - dy
                if 0 <= sx < w and 0 <= sy < h:
                    self._set(x, y, snap[sy][sx])

    def blit(self, fbuf, x, y, key=-1, palette=None):
        for sy in range(fbuf.height):
            for sx in range(fbuf.width):
                v = fbuf._get(sx, sy)
                if v != key:
                    self.pixel(x + sx, y + sy, v)


def FrameBuffer1(buf, width, height, stride=None):
    return FrameBuffer(buf, width, height, MONO_VLSB, stride)
