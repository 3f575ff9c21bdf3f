# The running games (Fevga, Long Nardy; docs/variants.md): all fifteen start on the own 24
# point, the "head" in the far right corner of the other's side; both go the same way round,
# from diagonally opposite corners; a single checker holds a point and nothing is hit. Their
# rules on leaving the head and on six points in a row are the ruleset's switches read below.
# Imported only by those variants.
from bgrules.position import OFF, OPP
from bgrules.rules import Rules
from bgrules.turn import _Search
from bgrules.turn_codes import R_CAP

# The mover's point p is the opponent's p + 12 (mod 24): the opponent's head (its 24) is the
# mover's 12, and each side's home board (1-6) is the other's third quarter (13-18).
CROSS = bytes([25] + [(p + 11) % 24 + 1 for p in range(1, 25)] + [0])
HEAD = 24


class RunSearch(_Search):
    """The standard search (single checkers block, nothing is hit: Rules.block 1) with the head
    and six-in-a-row rules, each broken step told as R_CAP with the point it concerns (24: the
    head rule; else the point whose taking broke the row rule) for the ruleset's ``cap_why``."""

    # Whether a step may be taken depends on the steps before it (one checker off the head, a
    # first checker already past, a row of six), so a double's steps are tried in every order.
    ordered_doubles = False

    def __init__(self, rules):
        _Search.__init__(self, rules)
        self.first_past = rules.first_past
        self.head_doubles = rules.head_doubles
        self.row = rules.row
        self.head0 = -1

    def load(self, cells):
        _Search.load(self, cells)
        if self.head0 < 0:
            self.head0 = cells[HEAD]  # Turn loads its start first: the head as the turn began

    def dest(self, src, d):
        t = _Search.dest(self, src, d)
        if t < 0:
            return t
        at = 0
        c = self.c
        if src == HEAD and self._head_shut():
            at = HEAD
        elif t and not c[t]:
            c[src] -= 1  # the row as it stands after the step: src may be left empty
            if self._row_shut(t):
                at = t
            c[src] += 1
        if at:
            if not self.relax & R_CAP:
                return -1
            if not self.why:
                self.why = R_CAP
                self.at = at
        return t

    def _head_shut(self):
        c = self.c
        if self.head_doubles is not None:
            # Long Nardy: one checker off the head a turn; two on the first roll with one of the
            # doubles named (the head still whole: the player has not moved before)
            gone = self.head0 - c[HEAD]
            return gone >= (2 if self.head0 == 15 and self.double and self.double in self.head_doubles else 1)
        if self.first_past and c[HEAD] < 15 and not c[OFF]:
            # Fevga: a second checker leaves the head only once one stands on first_past or lower
            for q in range(1, self.first_past + 1):
                if c[q]:
                    return False
            return True
        return False

    def _row_shut(self, t):
        """Whether taking the empty point t breaks the row rule."""
        c = self.c
        row = self.row
        if row == "quarter":
            # Fevga: never all six points of the own start quarter, 19-24, at once
            if t < 19:
                return False
            for q in range(19, 25):
                if q != t and not c[q]:
                    return False
            return True
        if row == "ahead":
            # six in a row, as the opponent goes round (its points q, q-1 .. held by the mover),
            # only with at least one opponent checker already past them (or borne off)
            opp = self.opp
            q = opp[t]
            hi = q
            while hi < 24 and c[opp[hi + 1]]:
                hi += 1
            lo = q
            while lo > 1 and c[opp[lo - 1]]:
                lo -= 1
            if hi - lo < 5:
                return False
            if c[OPP + OFF]:
                return False
            for p in range(1, lo):
                if c[OPP + p]:
                    return False
            return True
        return False


def running(name, key, first_past=0, head_doubles=None, row="", why=None):
    """A running game's Rules: the start on the head, the crossed track, one checker blocks; a
    game counts 1, or 2 when the loser has borne off none. ``first_past``: Fevga's first
    checker rule (0: none); ``head_doubles``: Long Nardy's head rule (None: none), the doubles
    that let two leave on the first roll; ``row``: "quarter", "ahead" or "" (docs/variants.md);
    ``why``: the flag's words for a step against them (turn_why, R_CAP)."""
    if row not in ("quarter", "ahead", ""):
        raise ValueError("row is quarter, ahead or none")
    rules = Rules(name, (0,) * 24 + (15, 0), CROSS, key=key, block=1, cube=False, opening="reroll",
                  backgammons=False)
    rules.search = RunSearch
    rules.first_past = first_past
    rules.head_doubles = head_doubles
    rules.row = row
    rules.cap_why = why
    return rules
