"""Pictures of the virtual board: a text view for terminals and a PNG (Pillow, CPython only)."""

from .board import WHITE
from .view import LED_BAR_BLACK, LED_BAR_WHITE, LED_STATUS_BLACK, LED_STATUS_WHITE, bar_count, led_name, point_content


def oled_text(board):
    """The OLED as 32 lines of half-block characters (two pixel rows per character)."""
    px = board.oled.pixels()
    chars = {(0, 0): " ", (1, 0): "\u2580", (0, 1): "\u2584", (1, 1): "\u2588"}
    lines = []
    for y in range(0, 64, 2):
        lines.append("".join(chars[(px[y][x], px[y + 1][x])] for x in range(128)))
    return lines


# The terminal board is one grid: every column is COL characters wide and its text is
# right-aligned in it, so a point's number, its LED and its checkers sit in the same column.
COL = 4
LABEL = 4  # the row labels on the left ("LED")
TOP = tuple(range(13, 19)) + ("bar",) + tuple(range(19, 25)) + ("turn",)
BOTTOM = tuple(range(12, 6, -1)) + ("bar",) + tuple(range(6, 0, -1)) + ("turn",)
WIDTHS = (COL,) * 6 + (COL + 1,) + (COL,) * 6 + (COL + 1,)  # the column widths, left to right

# LED colour name (view.LED_COLOURS) -> (letter, terminal style, what it tells the player)
LED_KEY = (
    ("LEGAL", "g", "bold green", "may go"),
    ("LIFTED", "b", "bold blue", "lifted from"),
    ("ILLEGAL", "r", "bold red", "illegal"),
    ("TURN", "a", "bold dark_orange", "to act"),
    ("HINT", "p", "bold magenta", "press a button"),
    ("WHITE", "w", "bold white", "GNU bears off"),
    ("GNU_FROM", "c", "bold cyan", "GNU's checker"),
    ("GNU_TO", "y", "bold yellow", "GNU's checker to"),
    ("GNU_HIT", "k", "bold deep_pink2", "GNU hits"),
)
LED_LETTER = {name: (letter, style) for name, letter, style, _ in LED_KEY}
WHITE_STYLE = "bold black on bright_white"
BLACK_STYLE = "bold bright_white on grey30"
LEGEND = [
    "LEDs: " + "  ".join("%s %s" % (letter, what) for name, letter, _, what in LED_KEY[:5]) + "  . off",
    "bar column: checkers on the bar and the bar LED (top White's, bottom Black's)",
    "turn column: the status LED of the player to act (top Black's, bottom White's)",
]


def _led_cell(board, index):
    name = led_name(board.leds[index])
    if name == "OFF":
        return ".", None
    return LED_LETTER.get(name, ("*", "bold"))


def _checker_cell(colour, n):
    if not n:
        return ".", None
    if colour == WHITE:
        return "W%d" % n, WHITE_STYLE
    return "B%d" % n, BLACK_STYLE


def _row(label, cells):
    """One line of the grid as (text, style) segments."""
    segs = [(label.ljust(LABEL), "dim" if label else None)]
    for (text, style), width in zip(cells, WIDTHS):
        pad = width - 1 - len(text)
        segs.append((" " * pad, None))
        segs.append((text, style))
        segs.append((" ", None))
    return segs


def board_lines(board):
    """The board as lines of (text, style) segments: point numbers, LEDs and checkers in one grid
    (top half 13..24, bottom half 12..1 as White sees the board), the bar and the status LEDs in
    their own columns, the hand, and a legend."""
    def numbers(cols):
        return _row("", [(str(c), "bold" if c in ("bar", "turn") else None) for c in cols])

    def leds(cols, bar_led, status_led):
        cells = []
        for c in cols:
            if c == "bar":
                cells.append(_led_cell(board, bar_led))
            elif c == "turn":
                cells.append(_led_cell(board, status_led))
            else:
                cells.append(_led_cell(board, c - 1))
        return _row("LED", cells)

    def checkers(cols, bar_colour):
        cells = []
        for c in cols:
            if c == "bar":
                cells.append(_checker_cell(bar_colour, bar_count(board, bar_colour)))
            elif c == "turn":
                cells.append(("", None))
            else:
                cells.append(_checker_cell(*point_content(board, c)))
        return _row("", cells)

    from .board import BLACK

    hand = board.hand
    held = "empty" if hand is None else ("a White checker" if hand[0] == WHITE else "a Black checker")
    width = LABEL + sum(WIDTHS)
    return [
        numbers(TOP),
        leds(TOP, LED_BAR_WHITE, LED_STATUS_BLACK),
        checkers(TOP, WHITE),
        [(" " * LABEL + "-" * (width - LABEL - 1) + " ", "dim")],
        checkers(BOTTOM, BLACK),
        leds(BOTTOM, LED_BAR_BLACK, LED_STATUS_WHITE),
        numbers(BOTTOM),
        [("hand: " + held, None)],
    ] + [[(line, "dim")] for line in LEGEND]


def plain(lines):
    return "\n".join("".join(t for t, _ in segs).rstrip() for segs in lines)


def rich_text(lines):
    """The same lines as a rich Text with the LEDs and checkers in colour."""
    from rich.text import Text

    out = Text()
    for i, segs in enumerate(lines):
        if i:
            out.append("\n")
        for t, style in segs:
            out.append(t, style=style)
    return out


def board_text(board, oled=True):
    """The grid of board_lines as plain text, then (``oled``) the OLED's pixels."""
    lines = [plain(board_lines(board))]
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
        if led["what"].startswith("point "):  # the point's number beside its LED, not under it
            x, y = P(led["x"] + 9, led["y"])
            d.text((x, y), led["what"][6:], fill="#f3e2c0", anchor="lm")
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
