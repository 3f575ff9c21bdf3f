# Checkers that start off the board and are entered (Puff, Long Puff, Russian Puff, Long Russian
# Puff, French Backgammon 1, Russian Backgammon, Acey Deucey): imported only by those variants.
#
# A waiting checker enters exactly as a hit checker does (die d on the mover's point 25 - d), so
# the search keeps the waiting checkers on the bar of its own board, behind the hit ones: the
# standard steps, hits, blocks and bear-off rule (a waiting checker is outside the home board)
# then hold unchanged. Only the bar rule differs, read once per load: the hit checkers and the
# first Rules.enter_first waiting ones must enter before anything else moves; the rest
# (``free``) may wait. Positions outside the search keep the waiting checkers off the board
# (bgrules.position.waiting), as the board shows them.

from bgrules.position import BAR, waiting
from bgrules.turn import _Search
from bgrules.turn_codes import R_BAR


class EnterSearch(_Search):
    plain_steps = False  # an entered checker was not on the board: Turn._may_reach's pips do not hold
    def __init__(self, rules):
        _Search.__init__(self, rules)
        self.bar_first = False  # the bar rule is in dest: more than ``free`` on the bar
        self.first = rules.enter_first
        self.checkers = rules.checkers
        self.free = 0
        self.wait = 0
        self.tbuf = bytearray(52)

    def load(self, cells):
        w = waiting(cells)
        _Search.load(self, cells)
        self.c[BAR] += w
        self.outside += w
        self.wait = w
        must = self.first - (self.checkers - w)  # waiting checkers still to enter before moving
        self.free = w - must if 0 < must < w else (0 if must > 0 else w)

    def set_target(self, cells):
        w = waiting(cells)
        if w < 0:
            return False  # more than 15 checkers: no play reaches it
        b = cells[BAR] + w
        if cells[BAR] != b - (self.wait if b > self.wait else b):
            return False  # a waiting checker in while a hit one is still on the bar: hits first
        t = self.tbuf
        t[:] = cells
        t[BAR] += w
        return _Search.set_target(self, t)

    def dest(self, src, d):
        c = self.c
        forced = src != BAR and c[BAR] > self.free
        if forced and not self.relax & R_BAR:
            return -1
        t = _Search.dest(self, src, d)
        if forced and t >= 0:
            self.why = R_BAR
            self.at = BAR if c[BAR] > self.wait else 0  # a hit checker, or a waiting one
        return t

    def real(self):
        """The search's board as a position: the waiting checkers back off the board (the
        hit ones enter first, so those left on the bar cell are waiting up to ``wait``)."""
        c = bytearray(self.c)
        w = self.wait if c[BAR] > self.wait else c[BAR]
        c[BAR] -= w
        return c
