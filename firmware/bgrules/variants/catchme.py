# Catch me (seed 002; Iceland's "Chasing the girls"): six checkers a side on a circular track.
# A roll with a 1 or a 6 moves one checker by the sum; a point holds one checker (landing on an
# own one goes on to the next point not the mover's); a checker landed on is caught for good
# (on the board it goes to the bar and stays there); a player's last checker jumps to the next
# corner point and then moves corner to corner, a 1 one corner, a 6 two. Doubles: once, then
# roll again. The player left without checkers loses. docs/variants.md has the sources.
from bgrules.position import OPP, BAR, Position
from bgrules.variants.listed import EmptyLoses, ListedTurn, cells_of

# The ends of the four quarters (bkgm.com "Chasing the Girls": points 1, 6, 7, 12 of each side).
CORNERS = (1, 6, 7, 12, 13, 18, 19, 24)


def _ahead(p, n):
    return (p - 1 - n) % 24 + 1


def _corner_after(p):
    for k in range(1, 25):
        q = _ahead(p, k)
        if q in CORNERS:
            return q


def _step(c, a, q):
    c[a] -= 1
    c[q] += 1
    o = OPP + 25 - q
    if c[o]:
        c[o] -= 1
        c[OPP + BAR] += 1
        return 1
    return 0


class CatchTurn(ListedTurn):
    """A play is one checker's move: one step, or two for a last checker that jumps to a corner
    and then moves on."""

    wraps = True  # round the board: a checker may catch one on a higher point (the tracker)

    def _list(self, c):
        mine = [p for p in range(1, 25) if c[p]]
        out = []
        for src in mine:
            steps = self._route(c, src, len(mine) == 1)
            if steps:
                out.append(self._walk(c, steps, _step))
        return out

    def _route(self, c, src, last):
        """The steps [(from, to)] of the checker on ``src``; [] when the roll does not move it."""
        d1, d2 = self.d1, self.d2
        if last:
            n = (d1 == 1) + (d2 == 1) + 2 * ((d1 == 6) + (d2 == 6))
            jump = src if src in CORNERS else _corner_after(src)
            t = jump
            for _ in range(n):
                t = _corner_after(t)
            steps = [(src, jump)] if jump != src else []
            if t != jump:
                steps.append((jump, t))
            return steps
        if d1 != 6 and d2 != 1:
            return []
        t = _ahead(src, d1 + d2)
        while c[t]:  # an own checker there: on to the next point
            t = _ahead(t, 1)
        return [(src, t)]

    def check(self, final):
        cells = cells_of(final)
        problem = Position(cells).problem(self.names, None, 6)
        if problem:
            return problem
        if self.is_legal(cells):
            return None
        start = self.start.cells
        if not self._plays:
            return "No 1 or 6: no move"
        moved = [p for p in range(1, 26) if cells[p] < start[p]]
        if len(moved) != 1 or start[BAR] != cells[BAR]:
            return "Move one checker"
        for steps, after in self._plays:
            if steps[0][0] == moved[0]:
                a, b, hit = steps[-1]
                if cells[b] and cells[OPP + 25 - b]:
                    return "Caught checker to the bar"
                if len(steps) == 2 or steps[0][0] != a:
                    return "Last checker: to corner %d" % b
                return "%d-%d from %d lands on %d" % (self.d1, self.d2, steps[0][0], b)
        return "No play of %d-%d gives this" % (self.d1, self.d2)


RULES = EmptyLoses("Catch me", (0,) * 19 + (1,) * 6 + (0,), key="catchme", checkers=6, cube=False,
                   gammons=False)
RULES.turn = CatchTurn
RULES.doubles = "once_again"
