# Why a play is refused: the rule it breaks, in words that fit the board's screen. Kept apart from
# bgrules.turn because only a refused play needs it (an illegal flag, a DONE refused), so the Pico
# loads it then and not at boot.
from bgrules.position import OPP, BAR, CHECKERS, waiting
from bgrules.turn_codes import R_BAR, R_BLOCK, R_BEAROFF, R_DICE, R_CAP, R_PIN, FIND_ANY, FIND_BROKEN


def why(self, cells):
    """Turn.check's answer for ``cells`` (mover-view), a position no legal play of ``self``
    (the Turn) gives."""
    names = self.names
    rules = self.rules
    start = self.start.cells
    # The opponent's checkers only move by being hit.
    hits = 0
    for i in range(1, 25):
        if cells[OPP + i] > start[OPP + i]:
            return "%s's checkers may not move" % names[1]
        if cells[OPP + i] < start[OPP + i]:
            if start[OPP + i] != 1:
                return "%s's checkers may not move" % names[1]
            hits += 1
    if cells[OPP + BAR] < start[OPP + BAR] + hits:
        return "Hit checker goes on the bar"
    if cells[OPP + BAR] > start[OPP + BAR] + hits:
        return "%s's checkers may not move" % names[1]
    if cells[BAR] and waiting(cells) < waiting(start):
        return "Enter from the bar first"  # a waiting checker came in before a hit one
    # (a checker waiting off the board counts as behind the bar)
    behind_start = waiting(start)
    behind_final = waiting(cells)
    for q in range(25, -1, -1):
        behind_start += start[q]
        behind_final += cells[q]
        if behind_final > behind_start and not rules.backwards:
            return "Checkers only move forward"
    if self.dice_to_play == 0:
        return "Roll lost: not playable whole" if self.rules.whole_roll else "No move is possible"
    dice = "%d-%d" % (self.d1, self.d2)
    # A legal beginning that stops too early.
    found = self._search_for(cells, FIND_ANY, R_DICE)
    if found:
        return _short_reason(self, found)
    if self.rules.smaller_first and not self.double:
        from bgrules.turn_parts import larger_first  # the variants with the rule only

        if larger_first(self, cells):
            return "Play the %d first" % self.d2
    # a variant's limit of checkers on a point last: a play that breaks another rule on its way
    # is told that rule, not a limit another order of its steps keeps (Old Britain, Mexican)
    for rule in (R_BAR, R_BLOCK, R_BEAROFF, R_CAP, R_BAR | R_BLOCK | R_BEAROFF | R_CAP):
        why = _first_violation(self, cells, rule | R_DICE)
        if why:
            return why
    return "No play of %s gives this" % dice


def _short_reason(self, found):
    left = min(len(f) for f in found)
    n = self.dice_to_play
    if self.double:
        more = n - (4 - left)
        if more > 0:
            return "Play %d more %d%s" % (more, self.d1, "s" if more > 1 else "")
    if n == 2:
        return "Both dice must be played"
    if not self.forced_die:
        return "One die must be played"
    return "The %d must be played" % self.forced_die


def _first_violation(self, cells, relax):
    found = self._search_for(cells, FIND_BROKEN, relax)
    if not found:
        return None
    why, at = found[0]
    if why == R_BAR:
        return "Enter from the bar first" if at else "Enter checkers first"
    if why == R_BLOCK:
        return "Point %d is blocked" % at
    if why == R_CAP:
        w = getattr(self.rules, "cap_why", None)  # a variant's own words (Ludus)
        return w % at if w else "At most %d checkers on %d" % (self.rules.cap, at)
    if why == R_PIN:
        return "Checker on %d is pinned" % at
    return "Checker still on %d: no bear-off" % at


def too_many(self, cells):
    """A side shows more checkers than it may (one from the tray, a borne-off one put back): what
    was done, rather than "White has 16 checkers" (the board lights the point red); else None.
    The opponent's waiting checkers stay beside the board, the mover's may come in (Puff)."""
    s = self.start.cells
    for side in (0, OPP):
        if sum(cells[side + 1:side + 26]) + s[side] + (waiting(s, side) if side else 0) > CHECKERS:
            # One line, as every reason: the OLED wraps it at the space (display.split), the
            # opponent's name cut to 10 letters so that "Extra NAME" fills its first line.
            return "Extra %s checker: lift it" % self.names[1][:10] if side else "Extra checker on board: lift it"
    return None


def unseen_step_hit(turn, start, cells, q):
    """Nothing of the mover's has moved from ``start`` (mover-view cells) to ``cells`` yet, and a
    legal play of ``turn`` hits on ``q``: the hit may need another checker's step first, one the
    sensors may not see (Long Puff's smaller die first, from a full point to a full point), so no
    single checker reaches ``q`` yet."""
    for i in range(1, 26):
        if cells[i] != start[i]:
            return False
    for play in turn.plays():
        for step in play.steps:
            if step[2] and step[1] == q:
                return True
    return False
