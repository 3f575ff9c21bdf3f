# Move notation as players and GNU Backgammon write it: 24/18 13/10*, bar/22, 6/off, 8/5(2),
# 24/20*/16. Points are the mover's own numbers; 25 is written "bar", 0 "off".
# The Pico only writes notation: reading it (parse_moves, apply_moves) is the host's, in
# bgc.rules.notation_read, and the firmware never imports the host. Play (a legal play: its steps,
# so its notation, and the position it gives) lives here, below bgrules.turn, which makes them,
# and bgrules.turn_plays, which lists them for the host.

from bgrules.position import OPP, BAR, OFF, Position


class NotationError(ValueError):
    """Move notation that cannot be read, or that does not fit the position."""


def _place(p):
    if p == BAR:
        return "bar"
    if p == OFF:
        return "off"
    return str(p)


def format_steps(steps):
    """Notation for a play given as single-die steps (from, to, hit), in the order played."""
    chains = []  # each: [from, to, hit-at-to, [intermediate places that hit]]
    for src, dst, hit in steps:
        # The same checker going on: join the steps into one move (24/18/16 -> 24/16). Of the
        # checkers that reached ``src``, continue one that did not hit there, so the hit stays
        # written where it happened (bar/19* bar/13, not bar/19 bar/19*/13).
        going_on = None
        for ch in chains:
            if ch[1] == src and src != OFF and (going_on is None or going_on[2] and not ch[2]):
                going_on = ch
        if going_on is None:
            chains.append([src, dst, hit, []])
        else:
            if going_on[2]:
                going_on[3].append(src)
            going_on[1] = dst
            going_on[2] = hit
    words = []
    for src, dst, hit, mids in chains:
        w = _place(src)
        for m in mids:
            w += "/%s*" % _place(m)
        w += "/" + _place(dst) + ("*" if hit else "")
        words.append((src, dst, w))
    # one order on every Python: MicroPython's sort is not stable, so equal keys would keep no
    # order of their own (24/20 24/20* and 24/20* 24/20): the words themselves break the tie,
    # the longer first (a hit written before the plain move: 6/4* 6/4)
    words.sort(key=lambda x: (-x[0], -x[1], -len(x[2]), x[2]))
    out = []
    i = 0
    while i < len(words):
        n = 1
        while i + n < len(words) and words[i + n][2] == words[i][2]:
            n += 1
        out.append(words[i][2] + ("(%d)" % n if n > 1 else ""))
        i += n
    return " ".join(out)


__all__ = ["format_steps", "NotationError"]


class Play:
    """A legal play: its checker steps and the resulting position (mover's view, turn not passed)."""

    def __init__(self, steps, position):
        self.steps = steps  # tuple of (from, to, hit); 25 is the bar, 0 is off
        self.position = position

    def notation(self):
        return format_steps(self.steps)

    def __str__(self):
        return self.notation()

    def __repr__(self):
        return "Play(%r, %r)" % (self.notation(), self.position.id())
