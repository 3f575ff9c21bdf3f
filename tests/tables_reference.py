"""A move generator for Plakoto, Fevga and Long Nardy written from their rules texts alone
(docs/variants.md names them), not from the engine: every order of the dice is tried step by
step on a plain board in the mover's numbering, the rules are checked on the board after each
step, and the distinct final boards of the plays that use the most dice (only one die: the
larger if it can be played) are the answer, as Position IDs.

The board: ``mine[p]`` and ``theirs[p]`` are the mover's and the opponent's checkers on the
mover's point p (1..24). The texts place the opponent so:
- Plakoto: "These checkers are placed on opponent's one-point", the two moving "in different
  direction" as in backgammon: the opponent's point q is the mover's 25 - q.
- Fevga, Long Nardy: "point 24 is White's head and point 12 is Black's head", both moving
  anticlockwise: the opponent's point q is the mover's q - 12 (q > 12) or q + 12, and the
  opponent's way round is the mover's 12, 11 .. 1, 24, 23 .. 13.
"""

from bgrules.position import OPP, Position


def _mover_point(game, q):
    if game == "plakoto":
        return 25 - q
    return q - 12 if q > 12 else q + 12


def opponent_path(game):
    """The opponent's way round as the mover's points, from its start to its last point."""
    return [_mover_point(game, q) for q in range(24, 0, -1)]


def _board(game, cells):
    mine = [0] * 25
    theirs = [0] * 25
    for p in range(1, 25):
        mine[p] = cells[p]
    for q in range(1, 25):
        theirs[_mover_point(game, q)] = cells[OPP + q]
    return mine, theirs


def _cells(game, mine, theirs, start):
    c = bytearray(52)
    for p in range(1, 25):
        c[p] = mine[p]
    for q in range(1, 25):
        c[OPP + q] = theirs[_mover_point(game, q)]
    c[0] = 15 - sum(mine)
    c[OPP] = start[OPP]
    return Position(c).id()


# --- one step by the texts ---------------------------------------------------------------

def _plakoto_step(mine, theirs, under, src, d):
    """Plakoto: "a checker can be positioned only on an open point", one "not occupied by two or
    more checkers of the opponent"; landing on a single opposing checker pins it ("the pinned
    piece cannot move until the covering man is released"); "Two or more pieces of the same side
    or a piece pinning an opposing man creates a block for the opponent". ``under[p]``: the
    mover's single checker on p is pinned there. Returns the new (mine, theirs, under) or None."""
    if under[src]:
        return None
    t = src - d
    mine = list(mine)
    under = list(under)
    if t >= 1:
        if theirs[t] >= 2 or (theirs[t] == 1 and under[t]):
            return None
        mine[src] -= 1
        mine[t] += 1
        return mine, theirs, under
    if any(mine[p] for p in range(7, 25)):
        return None  # bear off only with every checker in the home board
    if t < 0 and any(mine[p] for p in range(src + 1, 7)):
        return None  # a larger die bears off only from the highest point
    mine[src] -= 1
    return mine, theirs, under


def _running_step(mine, theirs, src, d):
    """Fevga, Long Nardy: "players may only move a piece onto an open point i.e. an empty point or
    one they already occupy"; bearing off as in backgammon."""
    t = src - d
    mine = list(mine)
    if t >= 1:
        if theirs[t]:
            return None
        mine[src] -= 1
        mine[t] += 1
        return mine
    if any(mine[p] for p in range(7, 25)):
        return None
    if t < 0 and any(mine[p] for p in range(src + 1, 7)):
        return None
    mine[src] -= 1
    return mine


def _row_without_one_past(game, mine, theirs, their_off):
    """Long Nardy: "It is forbidden to build a blockade of six men in a row unless at least one
    of the opponent's men is in front of it": six of the opponent's path held by the mover
    with no opponent checker further along it (or borne off)."""
    path = opponent_path(game)
    for i in range(len(path) - 5):
        if all(mine[p] for p in path[i:i + 6]):
            if their_off or any(theirs[p] for p in path[i + 6:]):
                continue
            return True
    return False


# --- the roll -------------------------------------------------------------------------------

def reference(game, position, d1, d2, first_past=11, row=None, head_doubles=(3, 4, 6)):
    """Sorted final Position IDs of every legal play of d1-d2 from ``position`` (mover's view;
    for Plakoto its ``pinned`` bits say which of the mover's checkers are pinned)."""
    cells = position.cells
    mine, theirs = _board(game, cells)
    their_off = cells[OPP]
    under = [0] * 25
    for p in range(1, 25):
        if position.pinned >> p & 1:
            under[p] = 1
    head_start = mine[24]
    double = d1 == d2
    orders = [(d1,) * 4] if double else [(d1, d2), (d2, d1)]
    # Long Nardy: "On a single turn, only one piece can be taken from the head (except on the
    # first throw)": two "when a player rolls 3-3, 4-4, or 6-6 for his first roll"
    head_limit = 2 if double and d1 in head_doubles and head_start == 15 else 1
    found = {}
    for order in orders:
        # each state: (mine, theirs, under, pieces off the head this turn, dice used)
        frontier = [(mine, theirs, under, 0)]
        for k, d in enumerate(order):
            nxt = []
            for m, o, u, off_head in frontier:
                for src in range(1, 25):
                    if not m[src]:
                        continue
                    if game == "plakoto":
                        r = _plakoto_step(m, o, u, src, d)
                        if r is None:
                            continue
                        m2, o2, u2 = r
                    else:
                        m2 = _running_step(m, o, src, d)
                        if m2 is None:
                            continue
                        o2, u2 = o, u
                    gone = off_head + (src == 24)
                    if game == "longnardy":
                        if gone > head_limit:
                            continue
                        if _row_without_one_past(game, m2, o2, their_off):
                            continue
                    if game == "fevga":
                        # "To begin with each player must advance one man past the opposing
                        # start point before moving a second piece"
                        if src == 24 and m[24] < 15 and not any(m[p] for p in range(0, first_past + 1)) \
                                and sum(m[1:]) == 15:
                            continue
                        if row == "quarter" and all(m2[p] for p in range(19, 25)):
                            continue  # "not allowed to occupy all six points of his starting quarter"
                        if row == "ahead" and _row_without_one_past(game, m2, o2, their_off):
                            continue
                    nxt.append((m2, o2, u2, gone))
            if not nxt:
                break
            frontier = nxt
            for m, o, u, g in frontier:
                found.setdefault(k + 1, {}).setdefault(_cells(game, m, o, cells), set()).add(order[0])
    if not found:
        return []
    most = max(found)
    plays = found[most]
    if most == 1 and not double:
        larger = max(d1, d2)
        if any(larger in firsts for firsts in plays.values()):
            plays = {k: v for k, v in plays.items() if larger in v}
    return sorted(plays)
