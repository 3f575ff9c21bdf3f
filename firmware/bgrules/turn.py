# One turn: a start position and a roll, and the questions a board asks about it.
#
# Everything here is a depth-first search over checker steps applied to and undone from a single
# bytearray (no copies per step). Doubles are searched with non-increasing source points, which
# reaches every distinct result once instead of once per ordering. No question lists every play
# except Turn.plays(), which the host uses; the Pico asks directly and stops at the first witness.

try:
    from micropython import const
except ImportError:

    def const(x):
        return x


from bgrules.position import OPP, BAR, OFF, Position, PositionError, waiting
from bgrules.notation import Play
from bgrules.rules import STANDARD

# Rules a diagnosis may relax to find out which one a play broke.
_R_BAR = const(1)
_R_BLOCK = const(2)
_R_BEAROFF = const(4)
_R_DICE = const(8)
_R_CAP = const(16)  # a variant's limit of checkers on a point (Ludus relaxes it with _R_BLOCK)
_R_PIN = const(32)  # Pin: the mover's checker is pinned (relaxed with _R_BLOCK)
# These codes and the _FIND_ ones below are bgrules.turn_codes' (R_BAR, FIND_ANY...), for the
# modules that relax rules or search (bgrules.turn_why, the variants' searches): written again
# here because const() inlines a number only in its own module (tests/test_import_directions.py
# checks that the two agree).

# What the target search is for.
_FIND_PLAY = const(0)  # a complete legal play (as many dice as possible, the larger die)
_FIND_PARTIAL = const(1)  # the start of a complete legal play
_FIND_ANY = const(2)  # any number of dice (diagnosis)
_FIND_BROKEN = const(3)  # a path that broke a relaxed rule: which rule, where (diagnosis)


class _Search:
    """Apply/undo search state: one board, the current path, no allocation per step."""

    # Every step moves a checker exactly its die's pips forward (bearing off: at most that many)
    # and bears off only with every checker in the home board: Turn._may_reach relies on it. A
    # subclass whose steps break this sets it False.
    plain_steps = True
    # A double's steps are searched from non-increasing source points: every result is reached
    # once. A rule under which the order of the steps matters (a limit of checkers on a point:
    # one leaves a full point before another arrives) sets it False to search every order.
    ordered_doubles = True
    # the die of a double roll, 0 for two different dice (Turn sets it): Long Nardy's first roll
    double = 0

    def __init__(self, rules):
        self.opp = rules.across or rules.opposite
        self.block = rules.block
        self.hitting = rules.hitting
        self.bar_first = rules.bar_first
        self.bear_higher = rules.bear_off_higher
        self.c = bytearray(52)
        self.outside = 0
        self.relax = 0
        self.depth = 0
        # None, or a function called at each node of a search, which may end it by raising (the
        # answers prepared in idle loop steps, companion.prepared, give each search a deadline so
        # that no loop step waits long for one; a question cut off is asked when a player asks it)
        self.stop = None
        self.p_src = bytearray(4)
        self.p_dst = bytearray(4)
        self.p_hit = bytearray(4)
        self.p_die = bytearray(4)
        self.p_why = bytearray(4)  # relaxed rule used by the step (diagnosis)
        self.p_at = bytearray(4)  # the point that rule concerns
        self.why = 0
        self.at = 0
        # Target search: checkers at or behind each place, for the current board and the target.
        self.cum = bytearray(26)
        self.tcum = bytearray(26)
        self.target = bytearray(52)

    def load(self, cells):
        c = self.c
        c[:] = cells
        n = 0
        for i in range(7, 26):
            n += c[i]
        self.outside = n
        self.depth = 0

    def dest(self, src, d):
        """Where a checker on ``src`` lands with die ``d`` (0 = off), or -1 if it may not move."""
        c = self.c
        relax = self.relax
        why = 0
        at = 0
        if src != BAR and c[BAR] and self.bar_first:
            if not relax & _R_BAR:
                return -1
            why = _R_BAR
            at = BAR
        t = src - d
        if t > 0:
            if c[OPP + self.opp[t]] >= self.block:
                if not relax & _R_BLOCK:
                    return -1
                if not why:
                    why = _R_BLOCK
                    at = t
            self.why = why
            self.at = at
            return t
        if self.outside:
            if not relax & _R_BEAROFF:
                return -1
            if not why:
                why = _R_BEAROFF
                at = 25
                while not c[at]:
                    at -= 1
        elif t < 0:
            higher = 0
            for q in range(src + 1, 7):
                if c[q]:
                    higher = q
            if higher or not self.bear_higher:
                if not relax & _R_BEAROFF:
                    return -1
                if not why:
                    why = _R_BEAROFF
                    at = higher or src
        self.why = why
        self.at = at
        return 0

    def push(self, src, dst, d):
        c = self.c
        k = self.depth
        c[src] -= 1
        hit = 0
        if dst:
            o = OPP + self.opp[dst]
            if c[o] == 1 and self.hitting:
                c[o] = 0
                c[OPP + BAR] += 1
                hit = 1
            c[dst] += 1
            # checkers outside the home board; a step back out (Backwards) counts too
            if src > 6:
                if dst < 7:
                    self.outside -= 1
            elif dst > 6:
                self.outside += 1
        else:
            c[OFF] += 1
        self.p_src[k] = src
        self.p_dst[k] = dst
        self.p_hit[k] = hit
        self.p_die[k] = d
        self.p_why[k] = self.why
        self.p_at[k] = self.at
        self.depth = k + 1

    def pop(self):
        c = self.c
        k = self.depth - 1
        self.depth = k
        src = self.p_src[k]
        dst = self.p_dst[k]
        if dst:
            c[dst] -= 1
            if self.p_hit[k]:
                c[OPP + self.opp[dst]] = 1
                c[OPP + BAR] -= 1
            if src > 6:
                if dst < 7:
                    self.outside += 1
            elif dst > 6:
                self.outside -= 1
        else:
            c[OFF] -= 1
        c[src] += 1

    def deepest(self, dice, k, n, top, double):
        """The most dice of ``dice[k:n]`` that can be played from here (stops as soon as all can)."""
        if k == n:
            return n
        if self.stop is not None:
            self.stop()
        c = self.c
        d = dice[k]
        best = k
        src = BAR if c[BAR] and self.bar_first and not self.relax & _R_BAR else top
        while src > 0:
            if c[src]:
                t = self.dest(src, d)
                if t >= 0:
                    self.push(src, t, d)
                    r = self.deepest(dice, k + 1, n, src if double and self.ordered_doubles else BAR, double)
                    self.pop()
                    if r > best:
                        if r == n:
                            return n
                        best = r
            src -= 1
        return best

    def set_target(self, cells):
        tc = self.tcum
        self.target[:] = cells
        cu = self.cum
        c = self.c
        n = 0
        m = 0
        bad = False
        for q in range(25, -1, -1):  # (one loop: on the Pico each is a good part of a locate)
            n += cells[q]
            tc[q] = n
            m += c[q]
            cu[q] = m
            if m < n:
                bad = True
        return not bad


class Turn:
    """A start position (mover on roll) and a roll: what the turn allows and whether a position
    reached on the board is the start of, or all of, a legal play.

    >>> turn = Turn(Position.start(), 6, 1)
    >>> turn.dice_to_play
    2
    """

    _one_hit = False  # the search may stop at its first hit (_search_for)

    def __init__(self, start, d1, d2, rules=STANDARD, names=("White", "Black")):
        if not (1 <= d1 <= 6 and 1 <= d2 <= 6):
            raise ValueError("dice are 1 to 6, got %d-%d" % (d1, d2))
        self.start = start
        self.rules = rules
        self.names = names
        self.d1 = max(d1, d2)
        self.d2 = min(d1, d2)
        # doubles "once" (French 2, Ludus): a double's value is played once, as one die ("Bei
        # einem Pasch wird der Wert nur einmal (1x) gezogen"; "nella pariglia va giocato un solo
        # numero")
        once = d1 == d2 and rules.doubles == "once"
        self.double = d1 == d2 and not once
        self._last = None  # (cells, steps) of the last legal play is_legal / play_to found
        # Backwards: the search's own find/chain/collect try both ways (variants/backwards.py)
        self._back = rules.backwards
        s = self._s = (rules.search or _Search)(rules)
        if rules.pinning:
            s.pinned = start.pinned
        if d1 == d2:
            s.double = d1
        s.load(start.cells)
        if once or rules.smaller_first and not self.double:
            # Smaller die first (Puff, Mexican): one order only; if the smaller die cannot be
            # played, the larger is lost too, so the only single die ever played is the smaller.
            # A double "once": its one die.
            k = 2 - once
            self._orders = (bytes((self.d2, self.d1)[:k]),)
            self.dice_to_play = n = s.deepest(self._orders[0], 0, k, BAR, False)
            self.forced_die = self.d2 if n == 1 else 0
        elif self.double:
            self._orders = (bytes((d1, d1, d1, d1)),)
            self.dice_to_play = s.deepest(self._orders[0], 0, 4, BAR, True)
            self.forced_die = 0
        else:
            hi, lo = self.d1, self.d2
            self._orders = (bytes((hi, lo)), bytes((lo, hi)))
            n = s.deepest(self._orders[0], 0, 2, BAR, False)
            if n < 2:
                n = max(n, s.deepest(self._orders[1], 0, 2, BAR, False))
            self.dice_to_play = n
            # Only one die playable: the larger one if it can be played at all.
            self.forced_die = 0
            if n == 1 and rules.larger_forced:
                self.forced_die = hi if s.deepest(self._orders[0], 0, 1, BAR, False) else lo
        if rules.whole_roll and self.dice_to_play < len(self._orders[0]):
            # Pin: a roll that cannot be played whole is lost, unless it bears off the last checker
            end = bytearray(start.cells)
            end[0:26] = bytes(26)
            end[OFF] = 15
            if not self._search_for(end, _FIND_PLAY):
                self.dice_to_play = 0
                self.forced_die = 0

    # --- the target search ------------------------------------------------------------

    def _accept(self, k, mode, dice):
        s = self._s
        n = self.dice_to_play
        if mode == _FIND_ANY:
            return True
        if k > n:
            return False
        if k == 1 and n == 1 and self.forced_die and s.p_die[0] != self.forced_die:
            return False
        if k == n:
            return True
        if mode != _FIND_PARTIAL:
            return False
        # The rest of the roll must still be playable from here.
        if self.double:
            dice = self._orders[0]
            return s.deepest(dice, k, n, BAR, True) == n
        if n == 1:
            # k == 0: the forced die is playable by definition; a free one must be tried.
            return bool(self.forced_die) or s.deepest(dice, 0, 1, BAR, False) == 1
        if k == 0:
            return True
        other = self.d2 if s.p_die[0] == self.d1 else self.d1
        return s.deepest(bytes((other,)), 0, 1, BAR, False) == 1

    def _find(self, dice, k, top, mode, found):
        """Depth-first search for the target; ``found`` collects the dice left at each hit."""
        s = self._s
        c = s.c
        if c == s.target:
            return self._found(k, mode, dice, found)
        if k == len(dice):
            return False
        if s.stop is not None:
            s.stop()
        d = dice[k]
        cum = s.cum
        tcum = s.tcum
        target = s.target
        double = self.double and s.ordered_doubles
        src = BAR if c[BAR] and s.bar_first and not s.relax & _R_BAR else top
        any_found = False
        while src > 0:
            if c[src] and cum[src] > tcum[src]:
                t = s.dest(src, d)
                if t >= 0:
                    # Moving src -> t lowers the count at or behind every place in (t, src].
                    ok = True
                    q = src
                    while q > t:
                        if cum[q] <= tcum[q]:
                            ok = False
                            break
                        q -= 1
                    if ok and t:
                        o = OPP + s.opp[t]
                        if c[o] == 1 and s.hitting and target[o]:
                            ok = False  # the target still has that blot: it was not hit
                    if ok:
                        q = src
                        while q > t:
                            cum[q] -= 1
                            q -= 1
                        s.push(src, t, d)
                        if self._find(dice, k + 1, src if double else BAR, mode, found):
                            any_found = True
                        s.pop()
                        q = src
                        while q > t:
                            cum[q] += 1
                            q -= 1
                        if any_found and (mode != _FIND_PARTIAL or self._one_hit):
                            return True
            src -= 1
        return any_found

    def _found(self, k, mode, dice, found):
        """The search reached the target after ``k`` dice: record what ``mode`` asks for."""
        s = self._s
        if mode == _FIND_BROKEN:
            for i in range(k):
                if s.p_why[i]:
                    found.append((s.p_why[i], s.p_at[i]))
                    return True
            return False
        if not self._accept(k, mode, dice):
            return False
        if mode == _FIND_PLAY:
            found.append(tuple((s.p_src[i], s.p_dst[i], s.p_hit[i]) for i in range(k)))
        else:
            found.append(bytes(dice[k:]) if mode != _FIND_PARTIAL else self._left(k, dice))
        return True

    def _left(self, k, dice):
        s = self._s
        if self.double:
            return bytes((self.d1,) * (self.dice_to_play - k))
        if k == 0:
            return self._orders[0][: self.dice_to_play] if self.dice_to_play != 1 else bytes((self.forced_die or dice[0],))
        if k >= self.dice_to_play:
            return b""
        return bytes((self.d2 if s.p_die[0] == self.d1 else self.d1,))

    def _search_for(self, cells, mode, relax=0, stop=True):
        s = self._s
        found = []
        if mode <= _FIND_PARTIAL and not relax and s.plain_steps and not self._may_reach(cells, mode):
            return found
        if self._back and cells[OFF] > self.start.cells[OFF] and s.refuses(self, cells, relax):
            return found
        s.load(self.start.cells)
        s.relax = relax
        # A double's partial play: every way to the position moves the same pips (plain steps,
        # nothing borne off), so the same number of dice, and the dice left are all the answer
        # (_left): the first way found is enough. A search of every order (the running games,
        # the five-checker limit) would otherwise reach it once per order of the same steps:
        # 24 for four (Fevga's 1-1 frame answer, 102 ms on the Pico, docs/performance.md).
        # Two different dice likewise: nothing borne off, each die moves its own pips, so the
        # pips moved tell which dice were used (none, one: which, both) and the dice left are
        # the same whichever way and order reaches it; but the start itself (none used) is the
        # start of each order, whose dice left differ when only one die can be played.
        start = self.start.cells
        self._one_hit = (mode == _FIND_PARTIAL and not relax and s.plain_steps and not self._back
                         and cells[OFF] == start[OFF] and (self.double or cells != start))
        try:
            if not s.set_target(cells):
                return found
            if self._back:
                s.start_search(self, mode)  # the answers wanted, kept across both orders
            # Each order of the dice starts from the start and the target. A plain search
            # undoes every step (board, counts, depth), so it needs no second load: on the Pico
            # each load and target is a loop over the board, a third of a locate's time
            # (companion.prepared cut most of its searches off for it, docs/performance.md).
            # Backwards and the variants' own searches load again.
            again = self._back or type(s) is not _Search
            first = True
            for dice in self._orders:
                if self._back or not first and again:
                    s.load(self.start.cells)
                    s.set_target(cells)
                first = False
                if self._back:
                    hit = s.find(self, dice, 0, BAR, mode, found)
                else:
                    hit = self._find(dice, 0, BAR, mode, found)
                if hit and (stop or self._one_hit):
                    return found
            return found
        finally:
            s.relax = 0
            self._one_hit = False

    def _may_reach(self, cells, mode):
        """False when no play of these dice (the start of one, for _FIND_PARTIAL) can end on
        ``cells``, by the pips it moved: a cheap refusal before the search, which would look
        through every way of playing the dice to find nothing."""
        start = self.start.cells
        moved = 0
        for i in range(1, 26):
            moved += i * (start[i] - cells[i])
        n = self.dice_to_play
        hi = self.d1
        lo = self.d2
        full = n * hi if self.double else (hi + lo if n == 2 else (hi if n == 1 else 0))
        if cells[OFF] != start[OFF]:
            # a checker borne off: every checker was home then, and still is
            for i in range(7, 26):
                if cells[i]:
                    return False
            return 0 < moved <= full
        if self.double:
            return moved == full or (mode == _FIND_PARTIAL and moved >= 0 and moved < full and moved % hi == 0)
        if n == 2:
            return moved == full or (mode == _FIND_PARTIAL and moved in (0, hi, lo))
        if n == 1:
            f = self.forced_die
            return moved == f or (not f and moved in (hi, lo)) or (mode == _FIND_PARTIAL and moved == 0)
        return moved == 0

    # --- the board's questions ------------------------------------------------------------

    def locate(self, position):
        """The dice still to play when ``position`` is the start of a legal play, as a list of
        options (usually one, e.g. [b'\\x04']); an empty list when no legal play begins so."""
        cells = position.cells if isinstance(position, Position) else position
        found = self._search_for(cells, _FIND_PARTIAL, stop=False)
        out = []
        for left in found:
            if left not in out:
                out.append(left)
        if not out and self.rules.smaller_first and len(self._orders) == 1 and self.dice_to_play == 2:
            from bgrules.turn_parts import larger_put_first  # the variants with the rule only

            return larger_put_first(self, cells)
        return out

    def destinations(self, position, point, options=None, locate=None):
        """The places (1..24, 0 = off, 25 = bar) where a checker lifted from ``point`` of the
        mid-turn ``position`` may be put down so that the turn can still be completed legally,
        including taking a step back toward where it came from. ``options``: ``locate(position)``
        when the caller has it already. ``locate``: a function giving ``self.locate(cells)`` for
        the step-back positions, when the caller knows them already (companion.prepared's table:
        each is a whole search, most of a lift's time on the Pico)."""
        cells = position.cells if isinstance(position, Position) else position
        if not cells[point] and not (point == BAR and self.rules.waiting and waiting(cells)):
            return []
        if options is None:
            options = self.locate(cells)
        if not options:
            return []
        out = []
        s = self._s
        for left in options:
            used = self.dice_to_play - len(left)
            orders = (left,) if len(left) < 2 or left[0] == left[1] or len(self._orders) == 1 else (left, bytes((left[1], left[0])))
            for dice in orders:
                s.load(cells)
                if self._back:
                    s.chain(self, point, dice, 0, used, out)
                else:
                    self._chain(point, dice, 0, used, out)
        # Taking a step back: toward a place that held more of the mover's checkers at the start.
        start = self.start.cells
        probe = bytearray(cells)
        if locate is None:
            locate = self.locate
        for q in range(point + 1, 26):
            # (a place the dice reach already needs no search: Backwards steps back with them)
            if start[q] > cells[q] and q not in out:
                probe[point] -= 1
                probe[q] += 1
                if locate(probe):
                    out.append(q)
                else:
                    # The step that left q may have hit a blot on ``point``: put it back too.
                    o = OPP + (self.rules.across or self.rules.opposite)[point]
                    if point < 25 and start[o] == 1 and probe[o] == 0 and probe[OPP + BAR]:
                        probe[o] = 1
                        probe[OPP + BAR] -= 1
                        if locate(probe):
                            out.append(q)
                        probe[o] = 0
                        probe[OPP + BAR] += 1
                probe[point] += 1
                probe[q] -= 1
        out.sort()
        return out

    def _chain(self, at, dice, j, used, out):
        """Move the lifted checker on with the dice left; record each place the turn can go on."""
        s = self._s
        if j == len(dice):
            return
        t = s.dest(at, dice[j])
        if t < 0:
            return
        s.push(at, t, dice[j])
        if t not in out and self._goes_on(dice, j, used):
            out.append(t)
        if t:  # a checker borne off goes no further
            self._chain(t, dice, j + 1, used, out)
        s.pop()

    def _goes_on(self, dice, j, used):
        """Whether the step just pushed with dice[j] (after ``used`` dice) can still be part of
        a legal play: the rest of the turn's dice can follow it."""
        s = self._s
        k = used + j + 1
        n = self.dice_to_play
        if self.double:
            return k == n or s.deepest(self._orders[0], k, n, BAR, True) == n
        if k < n:
            return s.deepest(dice, j + 1, len(dice), BAR, False) == len(dice)
        return not (n == 1 and self.forced_die and dice[j] != self.forced_die)

    def _play_steps(self, cells):
        # DONE asks about the same position three times (the tracker's verdict, the play's name
        # for the journal, Match.play's check): the last legal play found is kept
        last = self._last
        if last is not None and last[0] == cells:
            return last[1]
        found = self._search_for(cells, _FIND_PLAY)
        if not found:
            return None
        self._last = (bytes(cells), found[0])
        return found[0]

    def is_legal(self, final):
        cells = final.cells if isinstance(final, Position) else final
        return self._play_steps(cells) is not None

    def play_to(self, final):
        """The legal play that gives ``final`` (its steps, so its notation), or None. The board
        sees only where the checkers end up; this names the play for the journal."""
        cells = final.cells if isinstance(final, Position) else final
        steps = self._play_steps(cells)
        if steps is None:
            return None
        return Play(steps, Position(cells))

    def check(self, final):
        """None when ``final`` is the result of a legal play of this roll; otherwise the first
        rule the play breaks, in words that fit two lines of the board's screen."""
        cells = final.cells if isinstance(final, Position) else bytearray(final)
        if not isinstance(final, Position):
            final = Position(cells)
        names = self.names
        rules = self.rules
        problem = final.problem(names, rules.opposite, rules.checkers, rules.pinning, rules.waiting)
        if problem:
            from bgrules.turn_why import too_many  # loaded only when a play is refused

            return too_many(self, cells) or problem
        if self.is_legal(cells):
            return None
        from bgrules.turn_why import why  # loaded only when a play is refused

        return why(self, cells)

    # --- every play (host side) -------------------------------------------------------------

    def plays(self):
        """Every distinct legal play, one per resulting position; [] when nothing can be played."""
        from bgrules.turn_plays import plays  # the Pico never lists plays: kept out of its RAM

        return plays(self)


def legal_plays(position, d1, d2, rules=STANDARD):
    """Every distinct legal play of the roll (doubles too); [] when the turn is lost."""
    return Turn(position, d1, d2, rules).plays()


def check_play(start, d1, d2, final, rules=STANDARD, names=("White", "Black")):
    """None if ``final`` is a legal play of d1-d2 from ``start``; otherwise the reason."""
    return Turn(start, d1, d2, rules, names).check(final)


__all__ = ["Turn", "legal_plays", "check_play", "PositionError"]
