# French Backgammon 2 (seed 002; the 17th-century Tourne-case): three checkers a side, each on its
# own half. They wait on the bar and are entered: die d puts one on the mover's point 13 - d (the
# 12 point is the first of the track, the 1 point, the corner, its end). No point is shared but
# the 1 point, no checker passes another of its own, the 1 point is reached exactly, a double is
# played once (as two dice), and landing on point t hits the opposing checker on the point across
# the board (its own t, the 1 point excepted), which goes back to the bar. The first to stack all
# three on the 1 point wins. docs/variants.md says what is assumed.
from bgrules.position import BAR
from bgrules.rules import Rules
from bgrules.turn import _Search

ENTRY = 13  # a checker on the bar enters as if it stood here


class TrackSearch(_Search):
    plain_steps = False  # entering from the bar moves 12 + d pips (Turn._may_reach)

    def dest(self, src, d):
        c = self.c
        if src != BAR and c[BAR] and self._free(ENTRY, d):
            return -1  # a checker that can enter, enters first
        if not self._free(ENTRY if src == BAR else src, d):
            return -1
        self.why = 0
        self.at = 0
        return (ENTRY if src == BAR else src) - d

    def _free(self, at, d):
        # Lands on an empty point (or the 1 point, exactly) passing none of the mover's own.
        c = self.c
        t = at - d
        if t < 1 or (t > 1 and c[t]):
            return False
        q = t + 1
        while q < at:
            if c[q]:
                return False
            q += 1
        return True


def result(start, final):
    return 1 if final.cells[1] == 3 else 0  # all three on the 1 point: a single game


# The opposing checker that a checker landing on t hits is the one on the opponent's own t, across
# the board; the 1 points are exempt, so the 1 point maps to the opponent's 24, never used here.
OPPOSITE = bytes((0, 24) + tuple(range(2, 26)))

RULES = Rules("French Backgammon 2", (0,) * 25 + (3,), key="french2", across=OPPOSITE, checkers=3,
                bar_first=False, cube=False, gammons=False, doubles="once")
RULES.search = TrackSearch
RULES.result = result  # a function, not a subclass: less RAM
