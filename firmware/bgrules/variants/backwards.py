# Backwards ("Rückwärts", seed 002): "Jeder Spieler kann jederzeit seine Würfe auch für Züge
# rückwärts nutzen." A die moves a checker forward or, as the player likes, that many points
# backward (away from home). Chosen here (docs/variants.md): a backward step goes from point to
# point (never from the bar, never past the 24 point, never off), lands by the usual rules (a
# point the opponent holds with two is closed, a blot there is hit), and the bar rule holds (a
# checker on the bar enters first, forward); bearing off is forward only, with every checker home.
#
# The standard search orders the sources of a double so that each result is reached once; that
# holds for forward steps only, so this search tries both directions from every source at every
# step and prunes by what is left to the target instead: each step moves one checker, so a board
# that differs from the target by more checkers than dice remain cannot reach it.

from bgrules.position import BAR, OPP
from bgrules.rules import Rules
from bgrules.turn import _Search, R_BLOCK, FIND_PARTIAL


class BackSearch(_Search):
    plain_steps = False  # a step back adds pips: Turn._may_reach's count does not hold
    def back(self, src, d):
        """Where a checker on ``src`` lands moving ``d`` backwards, or -1."""
        c = self.c
        if src == BAR or c[BAR] and self.bar_first:
            return -1
        t = src + d
        if t > 24:
            return -1
        self.why = 0
        self.at = 0
        if c[OPP + self.opp[t]] >= self.block:
            if not self.relax & R_BLOCK:
                return -1
            self.why = R_BLOCK
            self.at = t
        return t

    def push(self, src, dst, d):
        _Search.push(self, src, dst, d)
        if src < 7 < dst:
            self.outside += 1  # moved back out of the home board

    def pop(self):
        k = self.depth - 1
        src = self.p_src[k]
        dst = self.p_dst[k]
        _Search.pop(self)
        if src < 7 < dst:
            self.outside -= 1

    def set_target(self, cells):
        # The standard search's counts behind each place assume forward steps: not here.
        self.target[:] = cells
        return True

    def deepest(self, dice, k, n, top, double):
        if k == n:
            return n
        c = self.c
        d = dice[k]
        best = k
        src = BAR
        while src > 0:
            if c[src]:
                for t in (self.dest(src, d), self.back(src, d)):
                    if t >= 0:
                        self.push(src, t, d)
                        r = self.deepest(dice, k + 1, n, BAR, double)
                        self.pop()
                        if r > best:
                            if r == n:
                                return n
                            best = r
            src -= 1
        return best

    def gap(self):
        """The mover's checkers the board still has where the target has fewer."""
        c = self.c
        t = self.target
        n = 0
        for i in range(26):
            if c[i] > t[i]:
                n += c[i] - t[i]
        return n

    def find(self, turn, dice, k, top, mode, found):
        """Turn._find with steps both ways (see the opening comment)."""
        c = self.c
        any_found = False
        if c == self.target and turn._found(k, mode, dice, found):
            # (a checker may come back where it was: the target can recur deeper, with other
            # dice left, which a partial play's options must list too)
            if mode != FIND_PARTIAL:
                return True
            any_found = True
        if k == len(dice) or self.gap() > len(dice) - k:
            return any_found
        d = dice[k]
        target = self.target
        src = BAR
        while src > 0:
            if c[src]:
                for t in (self.dest(src, d), self.back(src, d)):
                    if t < 0:
                        continue
                    if t and c[OPP + self.opp[t]] == 1 and self.hitting and target[OPP + self.opp[t]]:
                        continue  # the target still has that blot: it was not hit
                    self.push(src, t, d)
                    if self.find(turn, dice, k + 1, BAR, mode, found):
                        any_found = True
                    self.pop()
                    if any_found and mode != FIND_PARTIAL:
                        return True
            src -= 1
        return any_found

    def chain(self, turn, at, dice, j, used, out):
        """Turn._chain, the lifted checker going on either way."""
        if j == len(dice):
            return
        for t in (self.dest(at, dice[j]), self.back(at, dice[j])):
            if t < 0:
                continue
            self.push(at, t, dice[j])
            if turn._goes_on(dice, j, used) and t not in out:
                out.append(t)
            self.chain(turn, t, dice, j + 1, used, out)
            self.pop()


RULES = Rules("Backwards", None, key="backwards", search=BackSearch, backwards=True)
