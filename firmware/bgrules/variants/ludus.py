# Ludus Lumbadorum (seed 002; bkgm.com "Ludus Lumbardorum"): half a board, twelve points a side.
# The picture with the numbering is lost; the board plays bkgm.com's form mirrored onto its outer
# half, points 7-18, so that checkers run the board's usual way: the game's point L is the
# mover's point 19 - L (L = 1, the start, is 18; the home table, L 7-12, is 12-7; checkers are
# borne off past 7, over the bar). Doubles are played once. The mover may not make a point (two
# checkers) on the opponent's points 3, 4, 5 (the mover's 9, 10, 11), and may enter on the own
# start point (18) only when no other checker of the mover stands there. docs/variants.md.
from bgrules.rules import Rules
from bgrules.position import OPP, BAR
from bgrules.turn import _Search
from bgrules.turn_codes import R_BLOCK, R_CAP


class LudusSearch(_Search):
    plain_steps = False  # entering is not d pips from the bar, and home is 7-12 (Turn._may_reach)

    def load(self, cells):
        _Search.load(self, cells)
        n = 0
        for i in range(13, 26):
            n += self.c[i]
        self.outside = n

    def dest(self, src, d):
        c = self.c
        relax = self.relax
        why = at = 0
        if src != BAR and c[BAR]:
            if not relax & 1:  # _R_BAR
                return -1
            why = 1
            at = BAR
        t = (19 if src == BAR else src) - d
        if t > 6:
            if c[OPP + 25 - t] >= 2 or (c[t] and (8 < t < 12 or t == 18)):
                if not relax & R_BLOCK:
                    return -1
                if not why:
                    why = R_BLOCK if c[OPP + 25 - t] >= 2 else R_CAP
                    at = t
            self.why = why
            self.at = at
            return t
        higher = 0
        for q in range(src + 1, 13):
            if c[q]:
                higher = q
        if self.outside or (t < 6 and higher):
            if not relax & 4:  # _R_BEAROFF
                return -1
            if not why:
                why = 4
                at = higher or 25
        self.why = why
        self.at = at
        return 0

    def push(self, src, dst, d):
        _Search.push(self, src, dst, d)
        # the home table is 7-12 (the standard search counts a checker home only in 1-6)
        if src > 12 and 0 < dst < 13:
            self.outside -= 1

    def pop(self):
        k = self.depth - 1
        src = self.p_src[k]
        dst = self.p_dst[k]
        _Search.pop(self)
        if src > 12 and 0 < dst < 13:
            self.outside += 1


RULES = Rules("Ludus Lumbadorum", (0,) * 18 + (15,) + (0,) * 7, key="ludus", gammons=False)
RULES.search = LudusSearch
RULES.doubles = "once"
RULES.cap_why = "Only one checker on %d"
