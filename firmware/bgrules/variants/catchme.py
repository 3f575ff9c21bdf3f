# Catch me (seed 002; Iceland's "Chasing the girls"): six checkers a side on a circular track.
# A roll with a 1 or a 6 moves one checker by the sum; a point holds one checker (landing on an
# own one goes on to the next point not the mover's); a checker landed on is caught for good
# (on the board it goes to the bar and stays there); a player's last checker jumps to the next
# corner point and then moves corner to corner, a 1 one corner, a 6 two. Doubles: once, then
# roll again. The player left without checkers loses. docs/variants.md has the sources.
from bgrules.rules import Rules
from bgrules.position import OPP, BAR, Position
from bgrules.turn import Play

# The ends of the four quarters (bkgm.com "Chasing the Girls": points 1, 6, 7, 12 of each side).
CORNERS = (1, 6, 7, 12, 13, 18, 19, 24)


def _ahead(p, n):
    return (p - 1 - n) % 24 + 1


def _corner_after(p):
    for k in range(1, 25):
        q = _ahead(p, k)
        if q in CORNERS:
            return q


def _catch(c, q):
    o = OPP + 25 - q
    if c[o]:
        c[o] -= 1
        c[OPP + BAR] += 1
        return 1
    return 0


class CatchTurn:
    """Turn's interface (locate, destinations, is_legal, check, play_to, plays) for Catch me.
    A play is one checker's move: one step, or two for a last checker that jumps to a corner
    and then moves on; ``_plays`` holds each play's steps and the positions after each step."""

    def __init__(self, start, d1, d2, rules=None, names=("White", "Black")):
        if not (1 <= d1 <= 6 and 1 <= d2 <= 6):
            raise ValueError("dice are 1 to 6, got %d-%d" % (d1, d2))
        self.start = start
        self.rules = rules or RULES
        self.names = names
        self.d1 = max(d1, d2)
        self.d2 = min(d1, d2)
        self.double = d1 == d2
        self.forced_die = 0
        c = start.cells
        mine = [p for p in range(1, 25) if c[p]]
        self._plays = []
        for src in mine:
            steps = self._route(c, src, len(mine) == 1)
            if steps:
                w = bytearray(c)
                after = []
                out = []
                for a, b in steps:
                    w[a] -= 1
                    w[b] += 1
                    out.append((a, b, _catch(w, b)))
                    after.append(bytes(w))
                self._plays.append((tuple(out), after))
        self.dice_to_play = 2 if self._plays else 0

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

    def _cells(self, position):
        return bytes(position.cells if isinstance(position, Position) else position)

    def locate(self, position):
        cells = self._cells(position)
        if cells == bytes(self.start.cells):
            return [bytes((self.d1, self.d2)) if self._plays else b""]
        for steps, after in self._plays:
            if cells == after[-1]:
                return [b""]
            if cells in after:
                return [bytes((self.d1, self.d2))]
        return []

    def is_partial(self, position):
        return bool(self.locate(position))

    def destinations(self, position, point):
        cells = self._cells(position)
        out = []
        for steps, after in self._plays:
            before = [bytes(self.start.cells)] + after[:-1]
            for i in range(len(steps)):
                if cells == before[i] and steps[i][0] == point:
                    for a, b, hit in steps[i:]:
                        if b not in out:
                            out.append(b)
                if cells == after[i] and steps[i][1] == point and steps[i][0] not in out:
                    out.append(steps[i][0])  # a step back
        out.sort()
        return out

    def is_legal(self, final):
        cells = self._cells(final)
        if not self._plays:
            return cells == bytes(self.start.cells)
        for steps, after in self._plays:
            if cells == after[-1]:
                return True
        return False

    def play_to(self, final):
        cells = self._cells(final)
        if not self._plays:
            return Play((), Position(cells)) if cells == bytes(self.start.cells) else None
        for steps, after in self._plays:
            if cells == after[-1]:
                return Play(steps, Position(cells))
        return None

    def plays(self):
        return [Play(steps, Position(after[-1])) for steps, after in self._plays]

    def check(self, final):
        cells = self._cells(final)
        position = final if isinstance(final, Position) else Position(cells)
        problem = position.problem(self.names, None, 6)
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


class CatchRules(Rules):
    def result(self, start, final):
        c = final.cells
        for p in range(1, 25):
            if c[OPP + p]:
                return 0
        return 1


RULES = CatchRules("Catch me", (0,) * 19 + (1,) * 6 + (0,), key="catchme", checkers=6, cube=False,
                   gammons=False)
RULES.turn = CatchTurn
RULES.doubles = "once_again"
