"""What a player sees on the virtual board, read back from it: the LEDs by the game's colour names,
the checkers on each point and on the bar, the OLED's text in the firmware's font.

The simulator, its automated players and the terminal view read the board through these."""

from .board import BLACK, WHITE
from .framebuf import FONT

WHITE_BAR_CELLS = (120, 121, 122, 123)
BLACK_BAR_CELLS = (124, 125, 126, 127)

# The game's LED colours (drivers/leds.py) by name, for reading the chain back.
LED_COLOURS = {"LEGAL": (0, 255, 0), "LIFTED": (0, 96, 255), "ILLEGAL": (255, 0, 0),
               "TURN": (255, 160, 0), "HINT": (160, 0, 255), "WHITE": (255, 255, 255),
               "GNU_FROM": (0, 255, 255), "GNU_TO": (255, 255, 0), "GNU_HIT": (255, 0, 128)}
LED_WORDS = {"LEGAL": "green", "LIFTED": "blue", "ILLEGAL": "red", "TURN": "amber", "HINT": "purple",
             "WHITE": "white", "OFF": "off", "GNU_FROM": "cyan", "GNU_TO": "yellow", "GNU_HIT": "pink"}
LED_STATUS_WHITE = 26
LED_STATUS_BLACK = 27
LED_BAR_WHITE = 24
LED_BAR_BLACK = 25


_GLYPHS = {}


def _glyph_table():
    if not _GLYPHS:
        for code in range(32, 128):
            cols = FONT[(code - 32) * 8:(code - 31) * 8]
            _GLYPHS[bytes(cols)] = (chr(code), False)
            _GLYPHS[bytes(255 - b for b in cols)] = (chr(code), True)
        _GLYPHS[bytes(8)] = (" ", False)
        _GLYPHS[bytes([255] * 8)] = (" ", True)
    return _GLYPHS


def oled_rows(board):
    """The OLED as 8 rows of 16 characters, read back from the panel's pixels with the firmware's
    8x8 font (the text grid of drivers/oled.py). A cell that is not a character reads '#';
    trailing blanks are stripped."""
    px = board.oled.pixels()
    table = _glyph_table()
    rows = []
    for r in range(8):
        out = []
        for c in range(16):
            cols = bytearray(8)
            for i in range(8):
                x = c * 8 + i
                v = 0
                for j in range(8):
                    if px[r * 8 + j][x]:
                        v |= 1 << j
                cols[i] = v
            hit = table.get(bytes(cols))
            out.append(hit[0] if hit else "#")
        rows.append("".join(out).rstrip())
    return rows


def oled_text(board):
    return "\n".join(oled_rows(board))


def led_name(rgb):
    """The game colour an LED shows (LEGAL, ILLEGAL, ...), OFF when dark, or 'rgb(r,g,b)'."""
    r, g, b = rgb
    if max(rgb) == 0:
        return "OFF"
    best = None
    for name, ref in LED_COLOURS.items():
        top = max(ref)
        k = max(rgb) / float(top)
        err = abs(r - ref[0] * k) + abs(g - ref[1] * k) + abs(b - ref[2] * k)
        if best is None or err < best[0]:
            best = (err, name)
    if best[0] <= 0.15 * max(rgb) + 3:
        return best[1]
    return "rgb(%d,%d,%d)" % rgb


def point_led(board, point):
    """LED colour name of point 1..24, or the bar halves (25 = white's, 0 = black's)."""
    if point == 25:
        return led_name(board.leds[LED_BAR_WHITE])
    if point == 0:
        return led_name(board.leds[LED_BAR_BLACK])
    return led_name(board.leds[point - 1])


def lit_points(board, name):
    """The points (1..24, 25/0 the bar halves) whose LED shows colour ``name``."""
    out = [p for p in range(1, 25) if point_led(board, p) == name]
    if point_led(board, 25) == name:
        out.append(25)
    if point_led(board, 0) == name:
        out.append(0)
    return out


def point_cells(point):
    """The five sensor cells of a point (white's numbering), rim first."""
    return [5 * (point - 1) + k for k in range(5)]


def point_content(board, point):
    """(colour, count) on a point: colour WHITE/BLACK/0 (of the checkers there)."""
    n = 0
    colour = 0
    for c in point_cells(point):
        n += board.count(c)
        colour = colour or board.colour(c)
    return colour, n


def bar_count(board, colour):
    cells = WHITE_BAR_CELLS if colour == WHITE else BLACK_BAR_CELLS
    return sum(board.count(c) for c in cells)


def board_counts(board):
    """(white, black): lists 0..25 of checkers per point in white's numbering, 25 = bar."""
    w = [0] * 26
    b = [0] * 26
    for p in range(1, 25):
        for c in point_cells(p):
            for checker in board.stacks[c]:
                if checker[0] == WHITE:
                    w[p] += 1
                else:
                    b[p] += 1
    w[25] = bar_count(board, WHITE)
    b[25] = bar_count(board, BLACK)
    return w, b
