# Reading move notation ("24/18 13/9*", "6/off(2)") into moves and positions: host side only
# (bgc, tests), so it lives in the host package: the firmware only writes notation (bgrules.notation)
# and never imports the host.

from bgrules.position import OFF, BAR, OPP
from bgrules.notation import NotationError, _place

def _read_place(word, text):
    w = word.strip().lower()
    if w == "bar":
        return BAR
    if w == "off":
        return OFF
    try:
        p = int(w)
    except ValueError:
        raise NotationError("not a point in %r: %r" % (text, word))
    if not 1 <= p <= 24:
        raise NotationError("points are 1 to 24 in %r" % text)
    return p


def parse_moves(text):
    """Read notation into moves: a list of (path, hits) where path is the list of places the
    checker visits and hits the set of places where it hits; repeated moves are expanded."""
    moves = []
    text = text.strip()
    if not text or text in ("-", "(no play)", "Cannot Move", "cannot move"):
        return moves
    for token in text.replace(",", " ").split():
        count = 1
        if token.endswith(")"):
            at = token.rfind("(")
            if at < 0:
                raise NotationError("unbalanced ( in %r" % text)
            try:
                count = int(token[at + 1 : -1])
            except ValueError:
                raise NotationError("bad repeat count in %r" % token)
            if not 1 <= count <= 4:
                raise NotationError("a move repeats 1 to 4 times in %r" % token)
            token = token[:at]
        parts = token.split("/")
        if len(parts) < 2:
            raise NotationError("a move is written from/to, e.g. 24/18: %r" % token)
        path = []
        hits = []
        for part in parts:
            hit = part.endswith("*")
            place = _read_place(part.rstrip("*"), text)
            path.append(place)
            if hit:
                hits.append(place)
        for i in range(1, len(path)):
            if path[i] >= path[i - 1]:
                raise NotationError("checkers move down the points: %r" % token)
        for _ in range(count):
            moves.append((path, hits))
    return moves


def apply_moves(position, text, opposite=None):
    """The position after the mover plays ``text`` (no check of the dice: see Turn.check)."""
    pos = position.copy()
    c = pos.cells
    moves = parse_moves(text)
    # A move that hits where it lands goes first: another checker may pass that point or land
    # there after the hit (bar/19*/13 bar/13*: the blot on 13 is hit by the second move).
    moves = [m for m in moves if m[0][-1] in m[1]] + [m for m in moves if m[0][-1] not in m[1]]
    for path, hits in moves:
        src = path[0]
        if not c[src]:
            raise NotationError("no checker of the player on roll on %s" % _place(src))
        c[src] -= 1
        for place in path[1:]:
            if place == OFF:
                c[OFF] += 1
                break
            o = OPP + (opposite[place] if opposite else 25 - place)
            if place in hits or (place == path[-1] and c[o] == 1):
                if c[o] != 1:
                    raise NotationError("no blot to hit on %d" % place)
                c[o] = 0
                c[OPP + BAR] += 1
            elif c[o] > 1:
                raise NotationError("point %d is blocked" % place)
        else:
            c[path[-1]] += 1
    return pos
