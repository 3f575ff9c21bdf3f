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
#
# On the Pico each node of a walk costs about a millisecond and the firmware image prepares a
# turn's answers in units of 5 ms (companion/prepared.py), so a node does little: when only a
# checker standing where the target has fewer may move, those points are found at once (``more``,
# kept step by step); two different dice stop at the target (no step and step back returns to
# it); what a question measured of the board is kept for the next order of the dice; and the rest
# of a double is playable as soon as one checker can step on the board (it steps back and out
# again).

try:
    from micropython import const
except ImportError:

    def const(x):
        return x


from bgrules.position import BAR, OPP
from bgrules.rules import Rules
from bgrules.turn import _Search
from bgrules.turn_codes import R_BAR, R_BLOCK, R_BEAROFF, FIND_PARTIAL, FIND_PLAY

_ALL = const(0xFF)
_NONE = bytes(26)


# For each set m of numbers of dice used (bit j, four dice at most) that give an answer, each
# number already used k (0..4) and parity: the most dice still to play to such an answer with
# that parity (j - k), 255 none; row m starts at 10 * m. _room's quick case reads it at each node;
# worked out there it was most of _open's time on the Pico, which a settled answer asks again.
# Filled by the first search made (BackSearch.__init__), not at import: every module imported at
# once in 228 KB (tests/test_heap_budget.py) refused one when this module's loop ran there. (The
# names here are ones the firmware's modules before this one have: each new name is an interned
# string, and the names' pools are the heap budget's tightest part, docs/performance.md.)
most_left = bytearray(320)


class BackSearch(_Search):
    plain_steps = False  # a step back adds pips: Turn._may_reach's count does not hold

    def __init__(self, rules):
        _Search.__init__(self, rules)
        if not most_left[0]:  # (m = 0, k = 0, even: 255 once filled)
            for m in range(32):
                for k in range(5):
                    even = odd = 255
                    for j in range(4, k - 1, -1):
                        if m >> j & 1:
                            if (j - k) & 1:
                                if odd == 255:
                                    odd = j - k
                            elif even == 255:
                                even = j - k
                    most_left[10 * m + 2 * k] = even
                    most_left[10 * m + 2 * k + 1] = odd
        # The answer a path of k dice reaching the target gives (bit of want, settled): for a
        # double k itself; for two dice none (0), the first die alone (1: the larger, 2: the
        # smaller), both (3)
        self.want = _ALL  # answers the current question wants
        self.settled = 0  # answers already found or refused for it
        self.open_at = 0  # the numbers of dice used (bit j) that can still give one (_open)
        self.been = bytearray(26)  # (chain)
        self.q_turn = self.q_dice = self.q_found = None  # the question being walked (find)
        self.q_mode = 0
        self.exact_off = False  # every bear-off of this search moves exactly its die (find)
        # What find and load last worked out, kept because a question asks again from the same
        # board: Turn._search_for loads the start for each order of the dice (a third time before
        # them), and each order's find starts from the same board and target; on the Pico these
        # loops over the board were most of a question's time (a locate ~4.5 ms, its walk ~1)
        self.cells = bytearray(52)  # the board load counted the checkers outside home of (load)
        self.total = 0
        self.last = bytearray(52)  # the target find measured from the board in ``cells`` (find)
        # what it measured: gap, pips, checkers to bear off, and 1 while ``more`` holds for them
        self.state = [0, 0, 0, 0]
        # the sources (1..25) where the board has more of the mover's checkers than the target:
        # find sets them, each step of the walk keeps them (undone with it)
        self.more = bytearray(26)

    def load(self, cells):
        """_Search.load, the count of checkers outside the home board ok for the board it old
        made for (a question loads the same start up to three times)."""
        c = self.c
        c[:] = cells
        self.depth = 0
        if c != self.cells:
            n = 0
            for i in range(7, 26):
                n += c[i]
            self.total = n
            self.cells[:] = c
            self.state[3] = 0  # (find's figures were for another board)
        self.outside = self.total

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

    def set_target(self, cells):
        # The standard search's counts behind each place assume forward steps: not here.
        self.target[:] = cells
        return True

    def deepest(self, dice, k, n, top, double):
        # _Search.deepest both ways, the board steps tried inline as in _walk (the question
        # "can the rest still be played" is asked for every place a lifted checker may reach)
        if k == n:
            return n
        if self.stop is not None:
            self.stop()
        c = self.c
        d = dice[k]
        best = k
        relax = self.relax
        opp = self.opp
        block = self.block
        low = BAR if c[BAR] and self.bar_first and not relax & R_BAR else 1
        src = BAR
        while src >= low:
            if c[src]:
                way = 0
                while way < 2:
                    way += 1
                    if way == 1:
                        t = src - d
                        if t > 0 and not relax:
                            if c[OPP + opp[t]] >= block:
                                continue
                        else:
                            t = self.dest(src, d)
                            if t < 0:
                                continue
                    else:
                        t = src + d
                        if src == BAR or t > 24 or low == BAR:
                            continue
                        if relax:
                            t = self.back(src, d)
                            if t < 0:
                                continue
                        elif c[OPP + opp[t]] >= block:
                            continue
                    if k + 1 == n:
                        return n  # (the last die: any step plays it, nothing to walk after it)
                    if double and t and src != BAR and not relax and low != BAR:
                        # a double's step on the board can be taken back with the next die (the
                        # point left holds none of the opponent's) and out again: every die left
                        # is played so
                        return n
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

    def refuses(self, turn, cells, relax):
        """True when ``cells`` has more borne off than the dice can bear off, known before any
        search: a checker is borne off only with every checker home, so each checker outside
        home takes a die (or more, by its distance and the largest die) before the first. Asked
        once for every order of the dice (each has as many dice, and the same largest), with
        no board loaded: on the Pico a frame reading a lifted checker as borne off asked a
        whole search to refuse it (~1 ms, twice that with the flash cache cold: issue 33's
        slowest Backwards lift)."""
        if relax & R_BEAROFF:
            return False
        start = turn.start.cells
        far = turn.d1
        dice = len(turn._orders[0])
        steps = cells[0] - start[0]
        q = 25
        while steps <= dice and q > 6:
            if start[q]:
                steps += start[q] * ((q - 6 + far - 1) // far)
            q -= 1
        return steps > dice

    def start_search(self, turn, mode):
        """Which answers the question ``mode`` wants (the answer bits, __init__); none is settled yet."""
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

    def _open(self, turn, dice):
        """Which numbers of ``dice`` used (bit j) still give a wanted, unsettled answer (open_at),
        and (most_left's row 10 * open_at) for each number used k and parity, the most dice still to play to
        such an answer (_room's quick case)."""
        o = self.want & ~self.settled
        n = len(dice)
        if turn.double:
            m = o & ((2 << n) - 1)  # (the answer is j itself)
        else:
            # the answer of j dice used: 0 none, 1 or 2 the first die alone (larger, smaller), 3 both
            m = o & 1
            if n and o >> (1 if dice[0] == turn.d1 else 2) & 1:
                m |= 2
            if o & 8:
                m |= ((2 << n) - 1) & ~3
        self.open_at = m

    def find(self, turn, dice, k, top, mode, found):
        """Turn._find with steps both ways (see the opening comment)."""
        c = self.c
        target = self.target
        state = self.state
        if state[3] and c == self.cells and target == self.last:
            # the same board and target as the last find (the other order of the dice)
            gap = state[0]
            pips = state[1]
            off = state[2]
        else:
            gap = 0
            pips = 0
            more = self.more
            for i in range(26):
                a = c[i] - target[i]
                if a > 0:
                    gap += a
                    more[i] = 1
                else:
                    more[i] = 0
                pips += i * a
            more[0] = 0  # (borne off: no source)
            off = target[0] - c[0]
            self.last[:] = target
            state[0] = gap
            state[1] = pips
            state[2] = off
            # (the board is load's: find starts where it loaded; else not kept)
            state[3] = 1 if c == self.cells else 0
        # (more borne off than the dice can bring home and off: refused before, refuses)
        # A bear-off from below the die's point needs every checker below it then: when a double
        # cannot bring them there, bear one off and take the target's checkers on the die's point
        # or above back up in time, each bear-off moves exactly the die's pips
        self.exact_off = False
        if off > 0 and turn.double and not self.relax:
            d = dice[0]
            steps = 1
            for q in range(d, 26):
                if c[q]:
                    steps += c[q] * (q // d)  # down below d, a die at a time
                if target[q] and q < 25:
                    steps += target[q] * ((q - d) // d + 1)  # back up from below d
            self.exact_off = steps > len(dice) - k
        self._open(turn, dice)
        if self._room(turn, dice, k, pips, off) < gap:
            return False
        # the question, kept here for the walk (fewer arguments a step: MicroPython's calls
        # cost by their size)
        self.why = 0  # what push records for a step with no rule relaxed (dest and back set it so too)
        self.at = 0
        self.q_turn = turn
        self.q_dice = dice
        self.q_mode = mode
        self.q_found = found
        try:
            ok = state[3]
            state[3] = 0  # (a walk cut off leaves its steps in ``more``)
            hit = self._walk(k, gap, pips, off)
            state[3] = ok
            return hit
        finally:
            self.q_turn = self.q_dice = self.q_found = None

    def _walk(self, k, gap, pips, off):
        if self.stop is not None:
            self.stop()
        c = self.c
        target = self.target
        turn = self.q_turn
        dice = self.q_dice
        mode = self.q_mode
        any_found = False
        if not gap and not pips and c == target:
            r = self.answer(turn, dice, mode, k)
            if r & 2:
                return r & 1 == 1
            any_found = r & 1 == 1
        if k == len(dice):
            return any_found
        d = dice[k]
        opp = self.opp
        block = self.block
        hitting = self.hitting
        # The most checkers a step forward on the board, or back, may leave still to move with a
        # wanted answer still in reach: the step's pips are the same from every point, so this is
        # asked once a node, not once a step (-1: that way leads nowhere)
        # (_room, its cases of every node written out: two calls less a node, on the Pico a
        # tenth of its time)
        m = self.open_at >> k + 1
        if off < 0 or not m:
            ahead = behind = -1
        elif k + 1 == len(dice):
            ahead = 0 if m & 1 and pips == d and not off else -1
            behind = 0 if m & 1 and pips == -d and not off else -1
        elif not off and (turn.double or k + 2 == len(dice)):
            a = dice[k + 1]
            most = 10 * self.open_at + 2 * k + 2
            q = pips - d if pips >= d else d - pips
            if q % a:
                ahead = -1
            else:
                q //= a
                r = most_left[most + (q & 1)]
                ahead = r if r != 255 and r >= q else -1
            q = pips + d if pips + d >= 0 else -pips - d
            if q % a:
                behind = -1
            else:
                q //= a
                r = most_left[most + (q & 1)]
                behind = r if r != 255 and r >= q else -1
        else:
            ahead = self._room(turn, dice, k + 1, pips - d, off)
            behind = self._room(turn, dice, k + 1, pips + d, off)
        if ahead < 0 and behind < 0 and off <= 0:
            return any_found  # no step either way leads to a wanted answer (nor a bear-off)
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
        # a checker whose step leaves more to move than either way allows is passed over whole
        # (a bear-off, when one is still to come, has its own reach: below)
        best = 99 if off > 0 else ahead if ahead > behind else behind
        more = self.more
        again = False  # an answer settled below: ahead, behind and best to work out again
        src = BAR + 1
        while True:
            if gap > best:
                # every step must take a checker from where the target has fewer (``more``), the
                # next such point down found at once (its other points were most of a node's time)
                if gap - 1 > best:
                    break
                src = more.rfind(b"\x01", low, src)
                if src < 0:
                    break
                gap_from = gap - 1
            else:
                src -= 1
                if src < low:
                    break
                if not c[src]:
                    continue
                gap_from = gap - 1 if more[src] else gap
            if gap_from > best:
                continue  # (best only shrinks: what it passed over before stays passed over)
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
                if t and hitting and c[OPP + opp[t]] == 1 and target[OPP + opp[t]]:
                    continue  # the target still has that blot: it was not hit
                gap_to = gap_from + 1 if c[t] >= target[t] else gap_from
                if again:
                    # worked out only for a step the reach before the answer let through
                    again = False
                    self._open(turn, dice)
                    ahead = self._room(turn, dice, k + 1, pips - d, off)
                    behind = -1 if low == BAR else self._room(turn, dice, k + 1, pips + d, off)
                    best = 99 if off > 0 else ahead if ahead > behind else behind
                if t:
                    if gap_to > (ahead if way == 1 else behind):
                        continue
                    pips_to = pips + t - src
                    off_to = off
                else:
                    pips_to = pips - src
                    off_to = off - 1
                    if self._room(turn, dice, k + 1, pips_to, off_to) < gap_to:
                        continue
                settled = self.settled
                old = more[src]
                saved = more[t]
                self.push(src, t, d)
                more[src] = 1 if c[src] > target[src] else 0
                if t:
                    more[t] = 1 if c[t] > target[t] else 0
                if self._walk(k + 1, gap_to, pips_to, off_to):
                    any_found = True
                self.pop()
                more[t] = saved
                more[src] = old
                if any_found and mode != FIND_PARTIAL:
                    return True
                if self.settled != settled:
                    # an answer settled down there: what is worth a step from here shrank (worked
                    # out when another checker may still step: often none may)
                    if not self.want & ~self.settled:
                        return any_found
                    again = True
        return any_found

    def answer(self, turn, dice, mode, k):
        """The walk at the target after k dice: its answer found (1), or refused, and settled;
        the walk goes no further from here (2); an answer settled (4); none left to find (8,
        the whole walk ends: companion.search_fast's machine code reads these)."""
        before = self.settled
        out = 0
        # the answer bit of k dice used (__init__)
        if turn.double:
            bit = k
        elif k:
            bit = 3 if k >= 2 else 1 if dice[0] == turn.d1 else 2
        else:
            bit = 0
        if (self.want & ~self.settled) >> bit & 1:
            if turn._found(k, mode, dice, self.q_found):
                if mode != FIND_PARTIAL:
                    return 3
                out = 1
                self.settled |= 1 << bit
            elif mode == FIND_PARTIAL and (k or turn.double or turn.dice_to_play != 1):
                # refused: "can the rest still be played" depends on this board and the dice
                # used only (save the first die of a single playable die: that is the order's)
                self.settled |= 1 << bit
            if not self.want & ~self.settled:
                out |= 10
        if not turn.double:
            # two different dice cannot leave the target and come back to it (a step back
            # and one forward differ by the dice's difference; a checker borne off stays off)
            out |= 2
        elif not out & 8:
            self._open(turn, dice)
        return out | (4 if self.settled != before else 0)

    def _room(self, turn, dice, k, pips, off):
        """After k dice, with the mover ``pips`` away from the target and ``off`` checkers still to
        bear off: the most dice still to play among the wanted, unsettled answers whose pips can
        still be covered (-1: none). Each step moves one checker, so the checkers still to move
        (the gap) must be at most that."""
        if off < 0:
            return -1  # a checker borne off does not come back
        m = self.open_at >> k
        if not m:
            return -1
        n = len(dice)
        if k == n:
            return 0 if m & 1 and not pips and not off else -1
        a = dice[k]
        if not off and (turn.double or k + 1 == n):
            # the quick case: no bear-off, every die left shows a; the pips are a * j, where j
            # forward steps outnumber backward ones, so at least |j| dice and of |j|'s parity
            q = pips if pips >= 0 else -pips
            if q % a:
                return -1
            q //= a
            r = most_left[10 * self.open_at + 2 * k + (q & 1)]
            return r if r != 255 and r >= q else -1
        best = -1
        r = 0
        if turn.double or k + 1 == n:
            # the dice left all show a: pips = the bear-offs' (off of them, each off..a, or
            # exactly a when exact_off) + a * j, j the other steps' net count, -free..free, of
            # free's parity
            most = off * a
            least = most if self.exact_off else off
            while m:
                if m & 1 and off <= r:
                    free = r - off
                    lo = -((most - pips) // a)  # j at least (pips - most) / a, rounded up
                    hi = (pips - least) // a
                    if lo < -free:
                        lo = -free
                    if hi > free:
                        hi = free
                    if (lo - free) & 1:
                        lo += 1
                    if lo <= hi:
                        best = r
                m >>= 1
                r += 1
            return best
        # two different dice left (the first step of a roll): none, one or both of them
        b = dice[k + 1]
        while m:
            if m & 1 and off <= r:
                if r == 0:
                    ok = not pips
                elif r == 1:
                    ok = (1 <= pips <= a) if off else (pips == a or pips == -a)
                elif not off:
                    ok = pips == a + b or pips == -a - b or pips == a - b or pips == b - a
                elif off == 2:
                    ok = 2 <= pips <= a + b
                else:
                    ok = 1 <= pips - b <= a or 1 <= pips + b <= a or 1 <= pips - a <= b or 1 <= pips + a <= b
                if ok:
                    best = r
            m >>= 1
            r += 1
        return best

    def chain(self, turn, at, dice, j, used, out):
        """Turn._chain, the lifted checker going on either way. Out and back again it reaches a
        place a second time with as many dice played: the other checkers stand as they did (a hit
        moves only the opponent's, which never closes a point), so what follows is the same and
        is walked once (``been``: bit j for the place reached with j + 1 dice)."""
        if j == len(dice):
            return
        been = self.been
        if j == 0:
            been[:] = _NONE
            self.why = 0  # (what push records: no rule relaxed, as dest and back set it)
            self.at = 0
        d = dice[j]
        c = self.c
        # a step on the board either way tried inline (dest and back, written out: two calls
        # less a place), a bear-off and a diagnosis's relaxed rules by dest and back themselves
        stuck = c[BAR] and self.bar_first and at != BAR  # the bar rule holds this checker
        way = 0
        while way < 2:
            if self.relax:
                t = self.back(at, d) if way else self.dest(at, d)
            elif way:
                t = at + d
                if at == BAR or stuck or t > 24 or c[OPP + self.opp[t]] >= self.block:
                    t = -1
            else:
                t = at - d
                if t <= 0:
                    t = self.dest(at, d)
                elif stuck or c[OPP + self.opp[t]] >= self.block:
                    t = -1
            way += 1
            if t < 0 or been[t] >> j & 1:
                continue
            been[t] |= 1 << j
            if j + 1 == len(dice):
                # the last die: no step follows it, and Turn._goes_on looks at no board when no
                # die is left (push and pop were most of a lift's time on the Pico)
                if t not in out and turn._goes_on(dice, j, used):
                    out.append(t)
                continue
            self.push(at, t, d)
            if t not in out and turn._goes_on(dice, j, used):
                out.append(t)
            if t:  # a checker borne off goes no further (a step "back" from off is none)
                self.chain(turn, t, dice, j + 1, used, out)
            self.pop()


RULES = Rules("Backwards", None, key="backwards", search=BackSearch, backwards=True)
