# Pin (seed 002): no hitting; a checker landing on a single opposing one pins it: both stay on the
# point (on the board the pinner sits on top of it or beside it), the pinned one may not move until
# the pinner leaves, and the point is closed to the pinned side. Two checkers of one colour close a
# point to the other as usual. A roll that cannot be played whole is lost; no cube; the winner
# scores the loser's pips, doubled for a gammon, tripled for a backgammon. The start (picture
# lost) is the documented Pin Game's: 13 on the opponent's 1 point, one each on its 8 and 10 points.
# Which checker of a point holding both colours is pinned is Position.pinned (not in the ID): it
# follows from the play, so the Match works it out after each turn (``after``) and replays agree.
from bgrules.position import OPP
from bgrules.rules import Rules
from bgrules.turn import _Search
from bgrules.turn_codes import R_BLOCK, R_PIN


class PinSearch(_Search):
    pinned = 0  # Turn sets the start's Position.pinned

    def dest(self, src, d):
        t = _Search.dest(self, src, d)
        if t < 0:
            return t
        p = self.pinned
        at = src if p >> src & 1 else (t if t and p >> t & 1 else 0)
        if at:
            # the mover's checker on src is pinned, or on t: pinner and pinned close the point
            if not self.relax & R_BLOCK:
                return -1
            if not self.why:
                self.why = R_PIN if at == src else R_BLOCK
                self.at = at
        return t


def after(start, final):
    """The position after the mover's ``final`` from the opponent's side, with its pins: at a
    point holding both colours the mover's checker stays pinned where it was at ``start``;
    anywhere else the opponent's checker is the pinned one."""
    pos = final.swapped()
    c = final.cells
    was = start.pinned
    m = 0
    for p in range(1, 25):
        if c[p] and c[OPP + 25 - p] and not was >> p & 1:
            m |= 1 << (25 - p)
    pos.pinned = m
    return pos


def locked(position, rules):
    """Whether neither player can ever move again: no roll plays for the mover nor, the board
    unchanged, for the opponent (two checkers pinned on the last points of the home boards, each
    side unable to bear off). The seed has no rule for it; the players end the game by a
    resignation (docs/variants.md)."""
    from bgrules.turn import Turn

    for view in (position, after(position, position)):
        for d1 in range(1, 7):
            for d2 in range(d1, 7):
                if Turn(view, d1, d2, rules).dice_to_play:
                    return False
    return True


RULES = Rules("Pin", (0,) * 15 + (1, 0, 1) + (0,) * 5 + (0, 13, 0), key="pin", hitting=False, cube=False)
RULES.search = PinSearch
RULES.pinning = RULES.whole_roll = RULES.pip_score = True
RULES.after = after
RULES.locked = locked
