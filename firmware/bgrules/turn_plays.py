# Every legal play of a turn (Turn.plays): the host's (bgc, tests, hints against GNU Backgammon);
# the Pico checks the play on the board directly and never lists them, so this stays out of the
# modules it loads.

from bgrules.position import Position, BAR
from bgrules.notation import Play


def plays(turn):
    n = turn.dice_to_play
    if n == 0:
        return []
    s = turn._s
    seen = {}
    for dice in turn._orders:
        s.load(turn.start.cells)
        _collect(turn, dice, 0, n, BAR, seen)
    return list(seen.values())


def _collect(turn, dice, k, n, top, seen):
    s = turn._s
    c = s.c
    if k == n:
        if n == 1 and turn.forced_die and s.p_die[0] != turn.forced_die:
            return
        key = bytes(c)
        if key not in seen:
            steps = tuple((s.p_src[i], s.p_dst[i], s.p_hit[i]) for i in range(n))
            real = getattr(s, "real", None)  # a search that keeps waiting checkers on its bar
            seen[key] = Play(steps, Position(real() if real else c))
        return
    # Backwards (bgrules/variants/backwards.py): each die forward or back from every point, in
    # every order (the standard ordering of a double's steps, sources falling, holds for
    # forward steps only)
    back = turn._back
    d = dice[k]
    src = BAR if c[BAR] and s.bar_first else top
    while src > 0:
        if c[src]:
            for way in (0, 1) if back else (0,):
                t = s.back(src, d) if way else s.dest(src, d)
                if t >= 0:
                    s.push(src, t, d)
                    _collect(turn, dice, k + 1, n, src if turn.double and not back and s.ordered_doubles else BAR, seen)
                    s.pop()
        src -= 1
