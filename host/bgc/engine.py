"""Host-side helpers around the rules engine: argument parsing and board text shared by commands."""

from bgrules import Position, PositionError

from .cli import UserError


def read_position(text):
    try:
        return Position.from_id(text.strip())
    except PositionError as exc:
        raise UserError("bad Position ID: %s" % exc)


def read_die(text):
    try:
        d = int(text)
    except ValueError:
        raise UserError("a die is a number from 1 to 6, got %r" % text)
    if not 1 <= d <= 6:
        raise UserError("a die is a number from 1 to 6, got %d" % d)
    return d


def board_text(position, names=("X", "O")):
    """The board as text from the mover's side: mover is the first name, on points 1..24."""
    c = position.cells
    top = list(range(13, 25))
    bottom = list(range(12, 0, -1))

    def cell(p):
        if c[p]:
            return "%2d%s" % (c[p], names[0][0])
        n = c[26 + 25 - p]
        if n:
            return "%2d%s" % (n, names[1][0])
        return "  ."

    pips = position.pips()
    lines = [
        " " + " ".join("%3d" % p for p in top),
        " " + " ".join(cell(p) for p in top),
        " " + " ".join(cell(p) for p in bottom),
        " " + " ".join("%3d" % p for p in bottom),
        " bar: %s %d  %s %d   off: %s %d  %s %d   pips: %s %d  %s %d"
        % (names[0], c[25], names[1], c[51], names[0], c[0], names[1], c[26], names[0], pips[0], names[1], pips[1]),
    ]
    return "\n".join(lines)
