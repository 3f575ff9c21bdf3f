# Old Britain (seed 002): the standard start; at most five checkers on a point; when both dice
# cannot be played, either one may be; no cube.
from bgrules.rules import STANDARD, Rules
from bgrules.turn import _Search
from bgrules.turn_codes import R_CAP

CAP = 5


class CappedSearch(_Search):
    """The standard search, with a point holding CAP of the mover's checkers closed to them.

    The limit holds at every moment ("Es dürfen nur maximal 5 Steine auf einer Spitze stehen"), so
    the order of a double's steps matters: a checker leaves a full point before another lands on
    it (1/off 2/1 1/off 2/1 with five on 1). The search tries every order of them."""

    ordered_doubles = False

    def dest(self, src, d):
        t = _Search.dest(self, src, d)
        if t > 0 and self.c[t] >= CAP:
            if not self.relax & R_CAP:
                return -1
            if not self.why:
                self.why = R_CAP
                self.at = t
        return t


RULES = Rules("Old Britain", STANDARD.start, key="oldbritain", larger_forced=False, cube=False)
RULES.search = CappedSearch
RULES.cap = CAP
