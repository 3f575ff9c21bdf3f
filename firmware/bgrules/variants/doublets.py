# Doublets (seed 002, "Doubletten"; the English tables game, Iceland's "Ofanfelling"): no checker
# changes its point. Twelve checkers a side as towers of two on the points 1-6 (the picture is
# lost: assumed). Each die takes the tower on its point apart (two checkers side by side), then,
# once all six are apart, puts it back together, then bears it off; a die whose point has nothing
# left to do is lost; a double counts once and the same player rolls again.
#
# What the board counts is what its sensors see: a tower is one occupied cell, so it counts as
# one checker and its second checker as off the board (the Position's conservation keeps the 15).
# A point then shows 1 (a tower) or 2 (apart), in both halves of the game; to tell them apart the
# player who has taken the last tower apart puts a spare checker on the own bar half: a marker
# that stays there. docs/variants.md, docs/player-guide.md.
from bgrules.position import OFF, BAR, Position
from bgrules.variants.listed import EmptyLoses, ListedTurn, cells_of

_WORDS = ("Take the tower on %d apart", "Stack the two on %d", "Bear off the tower on %d")


def _stage(c):
    """0 taking the towers apart, 1 stacking them again, 2 bearing them off."""
    if not c[BAR]:
        return 0
    for p in range(1, 7):
        if c[p] == 2:
            return 1
    return 2


def _step(c, a, b):
    if b == BAR:  # the marker, from the spare checkers
        c[BAR] += 1
        c[OFF] -= 1
    elif b == a and c[a] == 1:  # apart
        c[a] = 2
        c[OFF] -= 1
    else:  # stacked (the second checker hides in the tower) or borne off
        c[a] -= 1
        c[OFF] += 1
    return 0


class DoubletsTurn(ListedTurn):
    """One play: a step for each die whose point has work in this stage ((p, p) apart or
    stacked, (p, 0) borne off) and, when the last tower comes apart, the marker (0, bar);
    listed in every order so that any partial play is located."""

    def _list(self, c):
        stage = self.stage = _stage(c)
        want = 1 if stage != 1 else 2
        steps = []
        for d in (self.d1, self.d2) if not self.double else (self.d1,):
            if c[d] == want:
                steps.append((d, 0 if stage == 2 else d))
        if stage == 0:
            apart = 0
            for p in range(1, 7):
                apart += c[p] == 2 or (p, p) in steps
            if apart == 6:
                steps.append((OFF, BAR))
        self.grows = 0
        for a, b in steps:
            self.grows += b == BAR or (stage == 0 and a == b)
        out = []
        n = len(steps)
        for order in ((0, 1, 2), (1, 0, 2), (2, 0, 1), (0, 2, 1), (1, 2, 0), (2, 1, 0)):
            if sorted(order[:n]) == list(range(n)):
                out.append(self._walk(c, [steps[i] for i in order[:n]], _step))
        return out if n else []

    def check(self, final):
        cells = cells_of(final)
        problem = Position(cells).problem(self.names, None, 13)
        if problem:
            return problem
        if self.is_legal(cells):
            return None
        start = self.start.cells
        for p in range(7, 25):
            if cells[p] != start[p]:
                return "Checkers stay on 1-6"
        if not self._plays:
            return "No move is possible"
        goal = self._plays[0][1][-1]
        for p in range(1, 7):
            if cells[p] != goal[p]:
                if goal[p] != start[p]:
                    return _WORDS[self.stage] % p
                return "Point %d stays as it is" % p
        if cells[BAR] != goal[BAR]:
            return "All apart: marker on bar"
        return "No play of %d-%d gives this" % (self.d1, self.d2)


RULES = EmptyLoses("Doublets", (0,) + (1,) * 6 + (0,) * 19, key="doublets", checkers=13, cube=False,
                      gammons=False)
RULES.turn = DoubletsTurn
RULES.doubles = "once_again"
