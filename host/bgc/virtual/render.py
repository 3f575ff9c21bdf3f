"""Pictures of the virtual board: a text view for terminals and a PNG (Pillow, CPython only)."""

from .board import WHITE


def oled_text(board):
    """The OLED as 32 lines of half-block characters (two pixel rows per character)."""
    px = board.oled.pixels()
    chars = {(0, 0): " ", (1, 0): "\u2580", (0, 1): "\u2584", (1, 1): "\u2588"}
    lines = []
    for y in range(0, 64, 2):
        lines.append("".join(chars[(px[y][x], px[y + 1][x])] for x in range(128)))
    return lines


def _point_text(board, p):
    n = 0
    colour = 0
    for k in range(5):
        c = (p - 1) * 5 + k
        n += board.count(c)
        colour = colour or board.colour(c)
    if not n:
        return " . "
    return "%s%2d" % ("W" if colour == WHITE else "B", n)


def _led(rgb):
    r, g, b = rgb
    if r == g == b == 0:
        return "."
    if r > 2 * max(g, b):
        return "r"
    if g > 2 * max(r, b):
        return "g"
    if b > 2 * max(r, g):
        return "b"
    return "*"


def board_text(board, oled=True):
    """Points (W3 = three white checkers), bar, hand, LED colours (r/g/b/*), then the OLED."""
    top = " ".join(_point_text(board, p) for p in range(13, 19)) + " | " + \
        " ".join(_point_text(board, p) for p in range(19, 25))
    bot = " ".join(_point_text(board, p) for p in range(12, 6, -1)) + " | " + \
        " ".join(_point_text(board, p) for p in range(6, 0, -1))
    leds_top = "  ".join(" " + _led(board.leds[p - 1]) for p in range(13, 19)) + "   |  " + \
        "  ".join(" " + _led(board.leds[p - 1]) for p in range(19, 25))
    leds_bot = "  ".join(" " + _led(board.leds[p - 1]) for p in range(12, 6, -1)) + "   |  " + \
        "  ".join(" " + _led(board.leds[p - 1]) for p in range(6, 0, -1))
    bar_w = sum(board.count(c) for c in range(120, 124))
    bar_b = sum(board.count(c) for c in range(124, 128))
    lines = ["13 14 15 16 17 18 | 19 20 21 22 23 24", leds_top, top,
             "bar: white %d black %d   hand: %s   status LEDs W:%s B:%s" % (
                 bar_w, bar_b, "empty" if board.hand is None else
                 ("white" if board.hand[0] == WHITE else "black"),
                 _led(board.leds[26]), _led(board.leds[27])),
             bot, leds_bot, "12 11 10  9  8  7 |  6  5  4  3  2  1"]
    if oled:
        lines.append("+" + "-" * 128 + "+")
        lines += ["|" + line + "|" for line in oled_text(board)]
        lines.append("+" + "-" * 128 + "+")
    return "\n".join(lines)


def board_png(board, path, scale=1.5):
    """Whole board (points, checkers with stack counts, LEDs, hand) and the OLED beside it."""
    from PIL import Image, ImageDraw

    g = board.geometry["board"]
    m = 40
    W, H = g["width"], g["height"]
    oled_w = 128 * 3
    img = Image.new("RGB", (int((W + 2 * m) * scale) + oled_w + 40, int((H + 2 * m) * scale)), "#2b1a0e")
    d = ImageDraw.Draw(img)

    def P(x, y):
        return ((x + m) * scale, (y + m) * scale)

    d.rectangle([P(0, 0), P(W, H)], fill="#f3e2c0")
    d.rectangle([P(W / 2 - g["bar_width"] / 2, 0), P(W / 2 + g["bar_width"] / 2, H)], fill="#8b5a2b")
    pw = g["point_width"]
    plen = g["cell_pitch"] * g["cells_per_point"]
    r = g["checker_diameter"] / 2 - 1
    for c in board.geometry["cells"]:
        if c["kind"] == "point" and c["index"] == 0:
            p, x = c["point"], c["x"]
            base, tip = (H, H - plen) if p <= 12 else (0, plen)
            d.polygon([P(x - pw / 2, base), P(x + pw / 2, base), P(x, tip)],
                      fill="#c9a06a" if p % 2 else "#7a4a2a")
    for c in board.geometry["cells"]:
        i = c["cell"]
        n = board.count(i)
        x, y = c["x"], c["y"]
        if n:
            white = board.colour(i) == WHITE
            d.ellipse([P(x - r, y - r), P(x + r, y + r)], fill="#fbfbf4" if white else "#1b1b1b", outline="#555")
            if n > 1:
                d.text(P(x - 3, y - 5), str(n), fill="black" if white else "white")
        else:
            d.ellipse([P(x - 2, y - 2), P(x + 2, y + 2)], fill="#999")
    for led in board.geometry["leds"]:
        rgb = board.leds[led["led"]]
        k = max(rgb) or 1
        shown = tuple(int(v * 255 / k) for v in rgb) if max(rgb) else (40, 40, 40)
        d.ellipse([P(led["x"] - 6, led["y"] - 6), P(led["x"] + 6, led["y"] + 6)], fill=shown, outline="#000")
    if board.hand is not None:
        colour, hx, hy, _ = board.hand
        d.ellipse([P(hx - r, hy - r), P(hx + r, hy + r)], outline="#fbfbf4" if colour == WHITE else "#1b1b1b", width=3)
    ox = int((W + 2 * m) * scale) + 20
    oy = 40
    px = board.oled.pixels()
    d.rectangle([ox - 4, oy - 4, ox + oled_w + 4, oy + 64 * 3 + 4], fill="#111")
    for y in range(64):
        for x in range(128):
            if px[y][x]:
                d.rectangle([ox + 3 * x, oy + 3 * y, ox + 3 * x + 2, oy + 3 * y + 2], fill="#9fe8ff")
    img.save(path)
    return path
