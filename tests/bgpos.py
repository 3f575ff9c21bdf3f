"""Build test positions the way the rules texts describe them: from White's side (White on roll)."""

from bgrules import Position


def board(white, red=None, white_bar=0, red_bar=0):
    """``white``: {point: checkers} in White's numbering; ``red``: {point: checkers} where the
    point is White's number for it (Red's 6-point is White's 19). Missing checkers are borne off."""
    mover = [0] * 24
    opp = [0] * 24
    for p, n in white.items():
        mover[p - 1] = n
    for p, n in (red or {}).items():
        opp[25 - p - 1] = n
    return Position.from_points(mover, opp, white_bar, red_bar)


def results(turn):
    return sorted(p.notation() for p in turn.plays())
