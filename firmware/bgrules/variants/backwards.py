# Backwards ("Rückwärts", seed 002): "Jeder Spieler kann jederzeit seine Würfe auch für Züge
# rückwärts nutzen." A die moves a checker forward or, as the player likes, that many points
# backward (away from home). Chosen here (docs/variants.md): a backward step goes from point to
# point (never from the bar, never past the 24 point, never off), lands by the usual rules (a
# point the opponent holds with two is closed, a blot there is hit), and the bar rule holds (a
# checker on the bar enters first, forward); bearing off is forward only, with every checker home.
#
# Why this search is not the standard one. The standard search takes a double's sources in
# falling order, so that each board is reached once; with steps both ways that order no longer
# holds, and a checker may step out and back, so the board the turn started from (or any board)
# can be reached again two dice later. Walking every order of every step would take seconds on a
# Pico for one question. Instead the search knows what it is looking for and stops when it has it:
#
# - An answer is the number of dice used to reach the target (for a double; for two different
#   dice also which die went first). The board's questions want only a few of them: "is this a
#   whole play" wants one, "what is left to play from here" wants each at most once. Once every
#   wanted answer is settled (found, or found and refused: that depends only on the board and the
#   dice used), the search stops.
# - Before a step is taken, it is kept only if some unsettled answer is still within reach: each
#   step moves one checker, so the checkers standing where the target has fewer ("the gap") need
#   at least that many dice; each step on the board moves the mover's pip count by exactly its
#   die, up or down (hits move only the opponent's), and a bear-off by 1 to its die, so the pips
#   still to cover fix the parity and the least number of dice; and a checker to bear off needs
#   every checker home first.

try:
    from micropython import const
except ImportError:

    def const(x):
        return x


from bgrules.position import BAR, OPP
from bgrules.rules import Rules
from bgrules.turn import _Search, R_BAR, R_BLOCK, R_BEAROFF, FIND_PARTIAL, FIND_PLAY

_ALL = const(0xFF)


class BackSearch(_Search):
    plain_steps = False  # a step back adds pips: Turn._may_reach's count does not hold

    def __init__(self, rules):
        _Search.__init__(self, rules)
        self.want = _ALL  # answers (bits, see _bit) the current question wants
        self.settled = 0  # answers already found or refused for it
        self.open_at = 0  # the numbers of dice used (bit j) that can still give one (_open)

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
                way = 0
                while way < 2:
                    t = self.back(src, d) if way else self.dest(src, d)
                    way += 1
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

    # --- the target search (Turn._search_for) -------------------------------------------------

    def start_search(self, turn, mode):
        """Which answers the question ``mode`` wants (bits of _bit); none is settled yet."""
        self.settled = 0
        n = turn.dice_to_play
        if mode == FIND_PARTIAL or mode == FIND_PLAY:
            if turn.double:
                want = 1 << n
                if mode == FIND_PARTIAL:
                    want = (2 << n) - 1  # 0..n dice used
            elif n == 2:
                want = 8
                if mode == FIND_PARTIAL:
                    want = 15
            elif n == 1:
                want = 6 if not turn.forced_die else (2 if turn.forced_die == turn.d1 else 4)
                if mode == FIND_PARTIAL:
                    want |= 1
            else:
                want = 1
            self.want = want
        else:
            self.want = _ALL  # a diagnosis: any number of dice, the path matters
        self.mode = mode

    def _bit(self, turn, dice, k):
        """The answer a path of ``k`` of ``dice`` reaching the target gives: for a double the
        dice used; for two dice none (0), the first die alone (1: the larger, 2: the smaller),
        both (3)."""
        if turn.double:
            return k
        if k == 0:
            return 0
        if k >= 2:
            return 3
        return 1 if dice[0] == turn.d1 else 2

    def _open(self, turn, dice):
        """Which numbers of ``dice`` used (bit j) still give a wanted, unsettled answer."""
        o = self.want & ~self.settled
        m = 0
        for j in range(len(dice) + 1):
            if o >> self._bit(turn, dice, j) & 1:
                m |= 1 << j
        self.open_at = m

    def _hopeful(self, turn, dice, k, gap, pips, off):
        """Whether, after ``k`` dice, with ``gap`` checkers still to move, the mover ``pips``
        away from the target and ``off`` checkers still to bear off, some wanted answer not yet
        settled can still be reached."""
        if off < 0:
            return False  # a checker borne off does not come back
        m = self.open_at >> k
        r = 0
        while m:
            if m & 1 and gap <= r and off <= r and self._pips_fit(turn, dice, k, r, pips, off):
                return True
            m >>= 1
            r += 1
        return False

    def _pips_fit(self, turn, dice, k, r, need, off):
        """Whether ``r`` dice from dice[k], ``off`` of them bearing a checker off, can move the
        mover's pip count by exactly ``need``: a step on the board moves it by its die, up or
        down; a bear-off by the point it left, 1 to the die."""
        if r == 0:
            return need == 0
        a = dice[k]
        if turn.double or r == 1:
            if not off:
                p = need if need >= 0 else -need
                return p % a == 0 and p // a <= r and not (r - p // a) & 1
            free = r - off
            m = -free
            while m <= free:
                if off <= need - a * m <= off * a:
                    return True
                m += 2
            return False
        b = dice[k + 1]  # two different dice still to play
        if not off:
            return need == a + b or need == -a - b or need == a - b or need == b - a
        if off == 2:
            return 2 <= need <= a + b
        return 1 <= need - b <= a or 1 <= need + b <= a or 1 <= need - a <= b or 1 <= need + a <= b

    def find(self, turn, dice, k, top, mode, found):
        """Turn._find with steps both ways (see the opening comment)."""
        c = self.c
        target = self.target
        gap = 0
        pips = 0
        for i in range(26):
            if c[i] > target[i]:
                gap += c[i] - target[i]
            pips += i * (c[i] - target[i])
        off = target[0] - c[0]
        if off > 0 and not self.relax & R_BEAROFF:
            # before the first bear-off every checker is home: the steps that takes come first
            far = 0
            for d in dice:
                if d > far:
                    far = d
            steps = off
            for q in range(7, 26):
                if c[q]:
                    steps += c[q] * ((q - 6 + far - 1) // far)
            if steps > len(dice) - k:
                return False
        self._open(turn, dice)
        if not self._hopeful(turn, dice, k, gap, pips, off):
            return False
        return self._walk(turn, dice, k, gap, pips, off, mode, found)

    def _walk(self, turn, dice, k, gap, pips, off, mode, found):
        c = self.c
        target = self.target
        any_found = False
        if not gap and not pips and c == target:
            bit = self._bit(turn, dice, k)
            if (self.want & ~self.settled) >> bit & 1:
                if turn._found(k, mode, dice, found):
                    if mode != FIND_PARTIAL:
                        return True
                    any_found = True
                    self.settled |= 1 << bit
                elif mode == FIND_PARTIAL and (k or turn.double or turn.dice_to_play != 1):
                    # refused: "can the rest still be played" depends on this board and the dice
                    # used only (save the first die of a single playable die: that is the order's)
                    self.settled |= 1 << bit
                if not self.want & ~self.settled:
                    return any_found
                self._open(turn, dice)
        if k == len(dice):
            return any_found
        d = dice[k]
        opp = self.opp
        block = self.block
        # The most checkers a step forward on the board, or back, may leave still to move with a
        # wanted answer still in reach: the step's pips are the same from every point, so this is
        # asked once a node, not once a step (-1: that way leads nowhere)
        ahead = self._room(turn, dice, k + 1, pips - d, off)
        behind = self._room(turn, dice, k + 1, pips + d, off)
        relax = self.relax
        # a bear-off with this die: from point d, or from the highest point below it (bear_higher)
        # with every checker home; -1 when none can be (a diagnosis asks dest for each)
        top = -1
        if off > 0 and not relax:
            top = BAR
            while top > 0 and not c[top]:
                top -= 1
            if top > 6:
                top = -1
        low = 1
        if c[BAR] and self.bar_first and not relax & R_BAR:
            low = BAR  # the bar rule: a checker on the bar enters first, forward
            behind = -1
        src = BAR
        while src >= low:
            if c[src]:
                gap_from = gap - 1 if c[src] > target[src] else gap
                way = 0
                while way < 2:
                    way += 1
                    if way == 1:
                        t = src - d
                        if t > 0:
                            if ahead < gap_from:
                                continue
                            if relax:
                                t = self.dest(src, d)  # records the rule a diagnosis relaxed
                                if t < 0:
                                    continue
                            elif c[OPP + opp[t]] >= block:
                                continue
                            else:
                                self.why = 0  # (push records it)
                                self.at = 0
                        elif off <= 0 or not relax and src != d and src != top:
                            continue
                        else:
                            t = self.dest(src, d)  # a bear-off: its rules are dest's
                            if t < 0:
                                continue
                    else:
                        t = src + d
                        if src == BAR or t > 24 or behind < gap_from:
                            continue
                        if relax:
                            t = self.back(src, d)
                            if t < 0:
                                continue
                        elif c[OPP + opp[t]] >= block:
                            continue
                        else:
                            self.why = 0
                            self.at = 0
                    if t and self.hitting and c[OPP + opp[t]] == 1 and target[OPP + opp[t]]:
                        continue  # the target still has that blot: it was not hit
                    gap_to = gap_from + 1 if c[t] >= target[t] else gap_from
                    if t:
                        if gap_to > (ahead if way == 1 else behind):
                            continue
                        pips_to = pips + t - src
                        off_to = off
                    else:
                        pips_to = pips - src
                        off_to = off - 1
                        if not self._hopeful(turn, dice, k + 1, gap_to, pips_to, off_to):
                            continue
                    self.push(src, t, d)
                    if self._walk(turn, dice, k + 1, gap_to, pips_to, off_to, mode, found):
                        any_found = True
                    self.pop()
                    if any_found and mode != FIND_PARTIAL:
                        return True
                    if not self.want & ~self.settled:
                        return any_found
            src -= 1
        return any_found

    def _room(self, turn, dice, k, pips, off):
        """The most checkers that may still be to move after k dice, with ``pips`` and ``off`` as
        given, and a wanted answer not yet settled within reach (-1: none is): the most dice
        left among the answers whose pips fit."""
        if off < 0:
            return -1
        m = self.open_at >> k
        r = 0
        best = -1
        while m:
            if m & 1 and off <= r and self._pips_fit(turn, dice, k, r, pips, off):
                best = r
            m >>= 1
            r += 1
        return best

    def chain(self, turn, at, dice, j, used, out):
        """Turn._chain, the lifted checker going on either way."""
        if j == len(dice):
            return
        d = dice[j]
        way = 0
        while way < 2:
            t = self.back(at, d) if way else self.dest(at, d)
            way += 1
            if t < 0:
                continue
            self.push(at, t, d)
            if t not in out and turn._goes_on(dice, j, used):
                out.append(t)
            self.chain(turn, t, dice, j + 1, used, out)
            self.pop()


RULES = Rules("Backwards", None, key="backwards", search=BackSearch, backwards=True)
