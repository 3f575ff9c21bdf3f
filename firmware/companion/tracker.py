# Rules-aided sensing: from classifier frames to what the player is doing with the checkers.
#
# The sensors say, per cell, empty / white / black and (unreliably) "two or more". A point has
# five cells, so up to five checkers are counted exactly; from the sixth on they stack and the
# count is only "five or more". The STACK flag is wrong about once in 2,500 readings, so counts
# on such points come from what the tracker already knows (the position at the start of the turn
# and the changes since), never from field levels. Borne-off checkers are not sensed: they are
# counted by conservation (15 a side). Checkers in a hand are simply missing for a while.
#
# For each stable frame the tracker asks the rules engine (Turn.locate / destinations / check) a
# handful of questions about the few positions that explain the frame, and answers with a verdict:
#
#   LEGAL    the board shows the start of a legal play (possibly the whole play)
#   LIFTED   checkers are in the air; their legal destinations are in ``lit``
#   HIT      legal, but a hit checker has not reached the bar yet: the bar LED asks for it
#   ILLEGAL  a checker was put where no legal continuation allows: ``red`` and ``reason``
#
# A hit is made either way round: the checker put down beside the blot first (both colours on
# the point: the bar LED asks for the blot), or the blot taken off first. Then, for the rules, the
# blot is still on its point until the hitting checker comes: the frame is legal as long as a
# checker can still land there (Turn.destinations).
#
# At DONE the player says the play is finished: checkers missing from the board are borne off,
# and a refusal names the rule that breaks; they are taken for checkers still in a hand only when
# no rule explains them as borne off.
#
# A point whose five cells are all taken has no free cell for one more checker: it goes on top of
# one. On its own colour the field grows (the unreliable STACK level, or nothing the classifier
# can tell): the count comes from the rules as above. On the other colour the two magnets
# partly cancel and the cell reads weaker than any one checker (UNDER, hardware/sensing.md);
# the cell still shows the colour underneath, so the checker on top would be lost. A weak cell
# is taken for a checker of the other colour on top only while that colour has a checker
# unaccounted for (lifted and not seen since) and, outside Pin, only on a point with no free cell
# (where there is one, a checker put down takes it and is seen): then it is on that point, and
# the point is judged like any other where both colours stand (a blot being hit, or a blocked point).
#
# Only the frames the classifier calls stable reach the tracker, so a checker sliding over
# points or a hand hovering is never judged; the final judgement is ``final()`` at DONE.
#
# Board points are white's numbering (1..24), the LED numbering: 25 is white's bar half, 0
# black's. Positions are bgrules cells (mover's view): index 0 off, 1..24 points, 25 bar, +26
# for the opponent in the opponent's own numbering. Black's place p is the board point
# Rules.opposite[p] (25 - p, or p where both move the same way): ``self.opp``.
#
# Checkers waiting to be entered (Puff, French 1, Acey Deucey: Rules.waiting) stand beside the
# board, like borne-off ones, and are not sensed: they are counted by conservation too. Nobody
# bears off in a turn that starts with checkers waiting (an entered checker needs 19 pips to
# reach the home board), so in such a turn checkers missing from the board are in a hand or
# still waiting, never off, and a checker that appears on an entry point is one entered from
# beside the board. While a side has checkers waiting and none on the bar, the entry points
# where one may go are lit (``lit`` with nothing lifted): the lift from beside the board is
# the one lift the sensors cannot see.

try:
    from micropython import const
except ImportError:

    def const(x):
        return x


from bgrules.position import Position, OPP, BAR, CHECKERS, waiting

_FAULT = const(8)
_STACK = const(4)
_UNDER = const(16)

SAME = 0
LEGAL = 1
LIFTED = 2
HIT = 3
ILLEGAL = 4

_ZERO = bytes(52)
_AGAINST = bytes([25 - p for p in range(26)])  # the standard board: black's p is 25 - p
NO_POINTS = bytes(25)  # nothing on any board point (``mixed``, ``under``, ``cover``, ``under_ok``)

# how a frame is explained (Tracker._explain)
_SEEN_LIFTED = const(1)
_SEEN = const(2)
_IN_HAND = const(3)
_FOUND = const(4)


def led_of(white, place, opposite=_AGAINST):
    """LED number (white's numbering, 25 white bar, 0 black bar) of ``place`` in the own
    numbering of the white (``white`` True) or black side; -1 for off. ``opposite`` is the
    ruleset's (bgrules.rules.Rules): black's place p is the board's point opposite[p]."""
    if place == 0:
        return -1
    return place if white else opposite[place]


def own_point(white, led, opposite=_AGAINST):
    """The place in white's or black's own numbering of LED point ``led`` (led_of's inverse)."""
    return led if white else opposite[led]


def cell_index(mover_white, white, place):
    """Index into mover-view cells of ``place`` (own numbering) of the white/black side."""
    return place if white == mover_white else OPP + place


class Tracker:
    def __init__(self):
        self.seen = bytearray(52)  # this frame, counts resolved against ``known``
        self.lo = bytearray(52)  # cells actually occupied (a lower bound where ranged)
        self.rng = bytearray(52)  # 1: only "lo or more" is sensed here (5+ on a point, fault)
        self.prev = bytearray(52)
        self.known = bytearray(52)  # the last legal position seen with every checker accounted
        self.work = bytearray(52)  # the frame as the rules see it (at DONE: the position seen)
        self.alt = bytearray(52)  # the same with blots taken off ahead of the hit put back
        self.entered = bytearray(52)  # ``alt`` with a missing checker landed unseen (_landed_unseen)
        self.base = bytearray(52)  # the legal position that explains the frame
        self.mixed = bytearray(25)  # board points showing both colours (a hit in progress)
        self.under = bytearray(25)  # weak cells on a point: white ones + 16 * black ones
        self.under_ok = bytearray(25)  # ``under`` seen with every checker accounted for, kept per point until it changes
        # per point: 1 = a checker on top is one the rules placed there; 2 = a weak cell whose
        # other colour was seen in a cell of its own (beside it, not on top)
        self.cover = bytearray(25)
        self.turn = None
        self.start = None
        self.mover_white = True
        self.verdict = SAME
        self.lit = []  # LED points: legal destinations of the checker in the air
        self.lifted = -1  # LED point the checker was lifted from
        self.bear_off = False  # the lifted checker may be borne off
        self.red = []  # LED points to light red
        self.hint = []  # LED points to light as a request (hit checker to the bar)
        self.reason = ""
        self.complete = False  # the board shows a whole legal play: press DONE
        self.faults = 0
        self.opp = _AGAINST  # the ruleset's board mapping (Rules.opposite)
        self.wait0 = 0  # the mover's checkers waiting off the board at the start of the turn
        self.memo = []  # the last few (cells, turn.locate(cells)) of this turn: see _locate
        # None, or the turn's answers prepared in idle loop steps (companion.prepared): asked
        # instead of the turn (locate, destinations, is_legal: the same answers, looked up)
        self.prepared = None

    # --- set-up ------------------------------------------------------------------------------

    def begin(self, position, mover_white, turn=None, rules=None):
        """A new turn (or a position to hold, with ``turn`` None): ``position`` is the mover's view;
        ``rules`` (else the turn's) name the board's points."""
        self.start = position
        self.turn = turn
        self.mover_white = mover_white
        rules = rules or (turn.rules if turn else None)
        self.opp = rules.opposite if rules else _AGAINST
        self.wait0 = waiting(position.cells)
        self.memo = []
        self.prepared = None
        self.known[:] = position.cells
        self.prev[:] = position.cells
        self.seen[:] = position.cells
        self._clear()
        self.complete = turn is not None and turn.dice_to_play == 0
        if turn is not None and turn.dice_to_play:
            # The first lift asks where the board as it stands begins the turn: asked now, in the
            # roll's answer, rather than in that frame's (in Backwards it is a search, ~10 ms)
            self._locate(position.cells)

    def _clear(self):
        self.verdict = LEGAL
        self.lit = []
        self.lifted = -1
        self.bear_off = False
        self.red = []
        self.hint = []
        self.reason = ""

    # --- reading a frame ---------------------------------------------------------------------

    def empty_cells(self, mask):
        """mask[cell] = 1 for the sensor cells (bytearray(128)) on points and bar halves where the
        last position the game accounted for has no checker. The classifier's baseline follows
        drift only on such cells (and only while they also read empty), so a weakly sensed
        checker is never taken into the baseline."""
        known = self.known
        wb = 0 if self.mover_white else OPP
        bb = OPP if self.mover_white else 0
        for p in range(1, 25):
            e = 0 if known[wb + p] or known[bb + self.opp[p]] else 1
            base = 5 * (p - 1)
            for k in range(5):
                mask[base + k] = e
        e = 0 if known[wb + BAR] else 1
        for cell in range(120, 124):
            mask[cell] = e
        e = 0 if known[bb + BAR] else 1
        for cell in range(124, 128):
            mask[cell] = e

    def read(self, frame):
        """Fill ``seen``/``lo``/``rng`` from a classifier frame (bytearray(128)). No judgement."""
        seen = self.seen
        lo = self.lo
        rng = self.rng
        known = self.known
        mixed = self.mixed
        under = self.under
        seen[:] = _ZERO
        lo[:] = _ZERO
        rng[:] = _ZERO
        mw = self.mover_white
        wb = 0 if mw else OPP  # where white's places start in mover-view cells
        bb = OPP if mw else 0
        faults = 0
        opp = self.opp
        base = 0
        for p in range(1, 25):
            nw = nb = 0
            rw = rb = 0
            u = 0
            for cell in range(base, base + 5):
                s = frame[cell]
                if not s:
                    continue  # an empty cell: most of them
                if s == _FAULT:
                    faults += 1
                    rw = rb = 1
                    continue
                c = s & 3
                if c == 1:
                    nw += 1
                    if s & _UNDER:
                        u += 1
                    if s & _STACK:
                        rw = 1
                elif c == 2:
                    nb += 1
                    if s & _UNDER:
                        u += 16
                    if s & _STACK:
                        rb = 1
                elif s & _UNDER:
                    u += 16
            base += 5
            under[p] = u
            if nw + nb == 5:  # no free cell: a checker more of either colour went on top
                if nw:
                    rw = 1
                if nb:
                    rb = 1
            mixed[p] = 1 if nw and nb else 0
            # the counts as seen, or the last known count where only "lo or more" is sensed
            i = wb + p
            if nw:
                lo[i] = nw
                if rw or nw == 5:
                    rng[i] = 1
                    if known[i] > nw:
                        nw = known[i]
                seen[i] = nw
            elif rw:
                rng[i] = 1
                seen[i] = known[i]
            i = bb + opp[p]
            if nb:
                lo[i] = nb
                if rb or nb == 5:
                    rng[i] = 1
                    if known[i] > nb:
                        nb = known[i]
                seen[i] = nb
            elif rb:
                rng[i] = 1
                seen[i] = known[i]
        nw = nb = 0
        rw = rb = 0
        for cell in range(120, 128):
            s = frame[cell]
            if s == _FAULT:
                faults += 1
                rw = rb = 1
                continue
            c = s & 3
            if c == 1:
                nw += 1
                if s & _STACK or nw >= 4:
                    rw = 1
            elif c == 2:
                nb += 1
                if s & _STACK or nb >= 4:
                    rb = 1
        self._put(wb + BAR, nw, rw)
        self._put(bb + BAR, nb, rb)
        self.faults = faults
        self._on_top(wb, bb)
        # Off is what is not on the board (for the mover: borne off or in a hand).
        for side in (0, OPP):
            on = 0
            for i in range(1, 26):
                on += seen[side + i]
            seen[side] = CHECKERS - on if on <= CHECKERS else 0

    def _on_top(self, wb, bb):
        """Weak cells (UNDER): a checker of the other colour on top, counted there while that
        colour has a checker unaccounted for (see the opening comment)."""
        under = self.under
        seen = self.seen
        known = self.known
        cover = self.cover
        # A checker on top that the position already holds there (Pin: the pinner on its pinned
        # checker) stays counted, whatever else is missing or counted from the rules.
        for p in range(1, 25):
            cover[p] &= 2
            u = under[p]
            if u and not cover[p]:
                i = wb + p if u >> 4 else bb + self.opp[p]
                if known[i] > seen[i]:
                    seen[i] += 1
                    self.lo[i] += 1
                    self.mixed[p] = 1
                    cover[p] = 1
        short_w = self._on(known, wb) - self._on(seen, wb)
        short_b = self._on(known, bb) - self._on(seen, bb)
        ok = self.under_ok
        if short_w <= 0 and short_b <= 0:
            # A cell that reads weak with nothing missing is a weakly sensed checker, not one on
            # top: only a cell that turns weak while a checker is unaccounted for counts. It
            # stays weak for the tracker until its point's checkers change, as its flag comes
            # and goes with noise where the reading sits at the threshold (a level learnt from
            # two checkers stacked, the top one since lifted: hardware/sensing.md).
            # And where the other colour was then seen in a cell of its own (Pin: the pinner
            # beside a weakly sensed pinned checker), nothing is on top: when that checker
            # leaves, the weak cell must not keep it counted.
            mixed = self.mixed
            opp = self.opp
            for p in range(1, 25):
                u = under[p]
                o = ok[p]
                if o and seen[wb + p] == known[wb + p] and seen[bb + opp[p]] == known[bb + opp[p]]:
                    if o & 15 > u & 15:
                        u = u & 240 | o & 15
                    if o & 240 > u & 240:
                        u = u & 15 | o & 240
                ok[p] = u
                c = cover[p] & 1
                cover[p] = 2 if under[p] and mixed[p] and not c else c
            return
        lo = self.lo
        # Outside Pin a checker goes on top of another only where the point has no free cell
        # (hardware/sensing.md): on a point with one, it would be seen in a cell of its own, so
        # a weak cell there is a weakly sensed checker, whatever is missing (Fixed roll seed
        # 913093: "Point 23 is blocked" for Black's legal 22/21 21/19*, White's three on its 2
        # point, whose rim cell's flag came back while Black held a checker).
        turn = self.turn
        anywhere = turn is not None and turn.rules.pinning
        opp = self.opp
        for side, shift, short in ((wb, 4, short_w), (bb, 0, short_b)):
            p = 1
            while short > 0 and p < 25:
                weak = (under[p] >> shift) & 15
                if (weak > (ok[p] >> shift) & 15 and not cover[p] & 1
                        and (anywhere or lo[wb + p] + lo[bb + opp[p]] >= 5)):
                    i = side + (p if side == wb else self.opp[p])
                    # a full point's count comes from ``known`` (the checker on top already in
                    # it, Pin: a pinner that joined its pinned checker): count one more only
                    # while the count is short of the cells seen and the weak ones under a
                    # checker on top
                    if seen[i] < lo[i] + weak:
                        seen[i] += 1
                        lo[i] += 1
                        self.mixed[p] = 1
                        short -= 1
                p += 1

    def _put(self, i, n, ranged):
        self.lo[i] = n
        self.rng[i] = ranged
        k = self.known[i]
        self.seen[i] = k if ranged and k > n else n

    def _on(self, cells, side):
        n = 0
        for i in range(1, 26):
            n += cells[side + i]
        return n

    # --- the verdict on one stable frame ----------------------------------------------------

    def update(self, frame):
        """Judge a stable frame. Returns the verdict (SAME when nothing the tracker sees changed)."""
        self.read(frame)
        if self.seen == self.prev and self.verdict != SAME:
            return SAME
        # where a checker just left (the most recent lift), for the destinations
        prev = self.prev
        seen = self.seen
        recent = -1
        for i in range(25, 0, -1):
            if seen[i] < prev[i]:
                recent = i
                break
        prev[:] = seen
        self._clear()
        if self.prepared is not None:
            self.prepared.finals = None  # (DONE's questions on this frame: asked again)
        turn = self.turn
        if turn is None:
            return self._hold()
        known = self.known
        start = self.start.cells
        cand = self.work
        cand[:] = seen
        # Opponent's checkers on a point the mover also occupies are being hit: count them as
        # on their way to the bar.
        hit_pts = []
        blocked = 0
        pins = turn.rules.pinning  # Pin: both colours on a point is a pin, judged by the rules
        mixed = self.mixed
        for p in range(1, 25) if not pins and mixed != NO_POINTS else ():
            if mixed[p]:
                io = cell_index(self.mover_white, not self.mover_white, self.opp[p] if self.mover_white else p)
                n = cand[io]
                if n >= 2:
                    blocked = p
                cand[io] = 0
                hit_pts.append(p)
        opp_need = self._on(start, OPP)
        od = opp_need - self._on(cand, OPP)
        if od > 0:
            cand[OPP + BAR] += od
        cand[OPP] = start[OPP]
        need = self._on(start, 0)
        deficit = need - self._on(cand, 0)
        if self.wait0:
            # checkers may appear from beside the board: surplus only beyond those waiting;
            # the checkers in a hand are those gone from where ``known`` had them
            surplus = -deficit - self.wait0 if -deficit > self.wait0 else 0
            deficit = self._gone(cand)
            cand[0] = start[0]
        elif deficit < 0:
            surplus = -deficit
            deficit = 0
            if surplus <= getattr(turn, "grows", 0):
                surplus = 0  # Doublets: a tower taken apart shows one checker more
        else:
            surplus = 0
        if not self.wait0:
            cand[0] = CHECKERS - self._on(cand, 0) if not surplus else 0
        # Additions: where the mover's checkers appeared (mover side) compared with ``known``.
        added = []
        for i in range(1, 26):
            if cand[i] > known[i]:
                added.append(i)
        how = 0
        pending = None
        if not blocked:
            how = self._explain(cand, deficit, surplus, added)
            if not how:
                # Blots taken off before the checker that hits them arrives: for the rules they
                # are still on their points, and the frame is legal if those hits can still come
                # (any others on the bar were hit by a checker that went on).
                off = self._blots_off(cand)
                if off:
                    alt = self.alt
                    opposite = turn.rules.across or turn.rules.opposite
                    n = len(off) if len(off) < 4 else 4
                    for mask in range(1, 1 << n):
                        pending = [off[j] for j in range(n) if mask >> j & 1]
                        alt[:] = cand
                        for q in pending:
                            alt[OPP + opposite[q]] = 1
                            alt[OPP + BAR] -= 1
                        how = self._explain(alt, deficit, surplus, added)
                        if how and self._can_hit(alt if how < _IN_HAND else self.base, pending, recent):
                            cand = alt
                            break
                        if how and (self.wait0 or deficit) and self._landed_unseen(alt, pending, recent):
                            how = _SEEN
                            cand = self.entered
                            break
                        # 7/1* 2/off, blot first, then 7 lifted: 7/off also reads the frame but
                        # leaves nothing to hit with; the checker in the air may be the hitter
                        if (how == _SEEN_LIFTED and self._in_hand(alt, deficit)
                                and self._can_hit(self.base, pending, recent)):
                            how = _IN_HAND
                            cand = alt
                            break
                        how = 0
                    if not how:
                        pending = None
        if how == _SEEN_LIFTED:
            # Only lifts since the last legal position: a checker in the air (or borne off).
            self._lifted(cand, recent, True)
        elif how == _SEEN:
            known[:] = cand
            self.verdict = LEGAL
        elif how == _IN_HAND:
            # Checkers in a hand: they go back where they were lifted from.
            if added:
                known[:] = self.base
            self._lifted(self.base, recent, False)
        elif how == _FOUND:
            known[:] = self.base
            self.verdict = LEGAL
        if how:
            if od > 0 or hit_pts:
                if self.verdict == LEGAL:
                    self.verdict = HIT
                self.hint = [0 if self.mover_white else 25] + hit_pts
                self.reason = "Hit checker to the bar"
            self.complete = (self.verdict in (LEGAL, HIT) and od <= 0 and not hit_pts and not pending
                             and self._is_complete(known))
            # (checkers waiting only where some waited at the turn's start: a lift never adds one)
            if self.verdict == LEGAL and self.wait0 and not known[BAR] and waiting(known):
                self.lit = [led_of(self.mover_white, d, self.opp) for d in (self.prepared or turn).destinations(known, BAR, self._locate(known)) if d]
            return self.verdict
        # Illegal: light where checkers appeared (or anything that differs) red, say why.
        self.verdict = ILLEGAL
        mw = self.mover_white
        red = []
        if blocked:
            red.append(blocked)
            self.reason = "Point %d is blocked" % own_point(mw, blocked, self.opp)
        else:
            for i in added:
                red.append(led_of(mw, i, self.opp))
            if not red:
                for i in range(1, 26):
                    if cand[i] != known[i]:
                        red.append(led_of(mw, i, self.opp))
                    if cand[OPP + i] != known[OPP + i]:
                        red.append(led_of(not mw, i, self.opp))
            # (with checkers waiting, one gone from a point may have moved: judge as seen)
            h = self._returned(cand, deficit) if deficit and not self.wait0 else cand
            self.reason = turn.check(Position(h)) or "Illegal position"
        self.red = red
        return ILLEGAL

    def _hold(self):
        # No turn: the board should show ``known``; wrong points are red (set-up check).
        wrong = self.wrong_points()
        if wrong:
            self.verdict = ILLEGAL
            self.red = wrong
        else:
            self.verdict = LEGAL
        return self.verdict

    def _explain(self, cand, deficit, surplus, added):
        """How the legal (partial) play the frame ``cand`` shows is reached: _SEEN_LIFTED (as
        seen, only lifts since ``known``: checkers in the air or borne off), _SEEN (as seen),
        _IN_HAND (the missing checkers are in a hand: ``base`` has them put back), _FOUND (a
        count the sensors cannot tell, resolved: ``base``); 0 when no legal play explains it."""
        turn = self.turn
        if not surplus and self._locate(cand):
            return _SEEN_LIFTED if deficit and not added else _SEEN
        if deficit and self._in_hand(cand, deficit):
            return _IN_HAND
        found = self._search_ranged(cand, surplus, deficit)
        if found is not None:
            self.base[:] = found
            return _FOUND
        return 0

    def _blots_off(self, cand):
        """Points (mover's numbering) whose blot of the opponent has gone to the bar (or a
        hand) while none of the mover's checkers stands there: taken off ahead of the checker
        that hits it. None when there are none."""
        start = self.start.cells
        opposite = self.turn.rules.across or self.turn.rules.opposite
        extra = cand[OPP + BAR] - start[OPP + BAR]
        out = None
        for q in range(1, 25):
            o = OPP + opposite[q]
            if extra > 0 and start[o] == 1 and cand[o] == 0 and cand[q] == 0:
                if out is None:
                    out = []
                out.append(q)
                extra -= 1
        return out

    def _landed_unseen(self, alt, pending, recent):
        """A checker the frame misses (in a hand, or still waiting to enter) may have landed on
        a point of the mover's five or more, on top of one of them, where the sensors do not see
        it (hardware/sensing.md): then the blots in ``pending`` may be hit by checkers that could
        not move before it (Long Puff: every checker enters first; the Puffs: the smaller die
        first). True, with that position in ``self.entered``, when such a landing is a legal
        part of the play and leaves the hits possible."""
        e = self.entered
        for p in range(1, 25):
            if alt[p] >= 5:
                e[:] = alt
                e[p] += 1
                if not self.wait0:
                    if not e[0]:
                        return False
                    e[0] -= 1  # the missing checker was counted as borne off
                if self._locate(e) and self._can_hit(e, pending, recent):
                    return True
        return False

    def _can_hit(self, base, pending, recent):
        """Each blot in ``pending`` can still be hit from the legal mid-turn ``base``: a checker
        behind it may land on it (the one just lifted is asked first)."""
        turn = self.turn
        reach = 0
        options = self._locate(base)
        for left in options:
            n = 0
            for d in left:
                n += d
            if n > reach:
                reach = n
        # A variant's track may enter away from 25 - d (Ludus) or go round the board (Catch me,
        # ``wraps``): then the bar, or every point, may hold the checker that hits; in Backwards
        # (``back``) a checker in front of the blot may hit it stepping back.
        wraps = getattr(turn, "wraps", False)
        back = getattr(turn, "_back", False)
        ask = self.prepared or turn  # (its answers prepared in idle loop steps, when they are)
        for q in pending:
            ok = ((wraps and recent > 0 or recent == BAR or recent > q and recent - q <= reach
                   or back and 0 < recent < q and q - recent <= reach) and base[recent]
                  and q in ask.destinations(base, recent, options))
            s = 25 if base[BAR] or wraps else min(25, q + reach)
            low = 0 if wraps else (q - reach - 1 if back and q > reach else (0 if back else q))
            while s > low and not ok:
                if s != recent and s != q and base[s] and q in ask.destinations(base, s, options):
                    ok = True
                s -= 1
            if not ok:
                # (loaded only here, as the diagnosis is: a hit whose other checker's step the
                # sensors may not see, Long Puff's smaller die first)
                from bgrules.turn_why import unseen_step_hit

                if not unseen_step_hit(self.turn, self.start.cells, base, q):
                    return False
        return True

    def _lifted(self, base, recent, bear):
        self.verdict = LIFTED
        turn = self.turn
        mw = self.mover_white
        # (the last checker of a point lifted while bearing off leaves ``base`` empty there)
        known = self.known
        if recent < 0 or not (base[recent] or known[recent]):
            recent = -1
            for i in range(25, 0, -1):
                if known[i] > self.seen[i] and (base[i] or known[i]):
                    recent = i
                    break
        if recent < 0:
            return
        # Destinations are those of the checker before it was lifted: put it back, keep any
        # other missing checker borne off if that is legal, else go back to ``known``.
        back = bytearray(base)
        back[recent] += 1
        on = self._on(back, 0)
        if on <= CHECKERS - back[0] if self.wait0 else on <= CHECKERS:
            if not self.wait0:
                back[0] = CHECKERS - on
            base = back if self._locate(back) else self.known
        else:
            base = self.known
        dest = (self.prepared or turn).destinations(base, recent, self._locate(base))
        self.lifted = led_of(mw, recent, self.opp)
        lit = []
        for d in dest:
            if d == 0:
                self.bear_off = True
            elif d != recent:
                lit.append(led_of(mw, d, self.opp))
        self.lit = lit

    def _returned(self, cand, deficit, h=None):
        """``cand`` with ``deficit`` missing checkers put back where ``known`` had them (into
        ``h`` when given)."""
        if h is None:
            h = bytearray(cand)
        else:
            h[:] = cand
        known = self.known
        for i in range(25, 0, -1):
            while deficit and h[i] < known[i]:
                h[i] += 1
                deficit -= 1
        if not self.wait0:
            h[0] = CHECKERS - self._on(h, 0)
        return h

    def _gone(self, cand):
        """The mover's checkers gone from where ``known`` had them (in a hand, or back beside
        the board: with checkers waiting the count on the board does not tell)."""
        known = self.known
        n = 0
        for i in range(1, 26):
            if known[i] > cand[i]:
                n += known[i] - cand[i]
        return n

    def _in_hand(self, cand, deficit):
        """The missing checkers of ``cand`` read as still in a hand: ``base`` gets them put back;
        True when that is a legal (partial) play."""
        self._returned(cand, deficit, self.base)
        return bool(self._locate(self.base))

    def _search_ranged(self, cand, surplus, deficit, final=False, ask=None):
        """The first legal position that differs from ``cand`` only in the count of places the
        sensors cannot count (5+ on a point), keeping 15 checkers a side; None if there is none
        (the counts nearest ``cand``'s first). With ``final`` every legal complete play other than ``cand`` itself is collected (a list):
        each position so counted is handed to ``ask`` (final()'s: is it a legal complete play?)."""
        ranged = []
        for i in range(1, 26):
            if self.rng[i]:
                ranged.append(i)
        if not ranged:
            return [] if final else None
        turn = self.turn
        start = self.start.cells
        k = 2 * turn.dice_to_play  # a play moves at most this many checker-place counts
        # the checkers a legal (partial) play has on the board: none borne off while some
        # wait (then up to dice_to_play entered), else up to dice_to_play borne off
        most = self._on(start, 0) + (min(turn.dice_to_play, self.wait0) if self.wait0 else 0)
        fewest = most - turn.dice_to_play
        w = bytearray(cand)
        out = []
        lo = self.lo
        budget = [k]

        def rec(j):
            if j == len(ranged):
                if not final and budget[0]:
                    return None  # (not this pass's distance from ``cand``)
                on = self._on(w, 0)
                if on > most:
                    return None
                if not self.wait0:
                    w[0] = CHECKERS - on
                if final:
                    if budget[0] == k:
                        return None  # every count as seen: that is ``cand``, which final() judged
                    if ask(w):
                        out.append(bytes(w))
                    return None
                return bytes(w) if self._locate(w) else None
            i = ranged[j]
            keep = w[i]
            first = max(lo[i], start[i] - k, 0)
            last = start[i] + k
            if j == len(ranged) - 1:
                # Only counts that keep the checkers conserved can pass: none put back from
                # off, at most dice_to_play borne off. Skips the leaves the test below would
                # refuse anyway (a 3-3 DONE with two stacks went from ~140 searches to ~17).
                w[i] = 0
                rest = self._on(w, 0)
                w[i] = keep
                first = max(first, fewest - rest)
                last = min(last, most - rest)
            for x in range(first, last + 1):
                cost = x - keep if x > keep else keep - x
                if cost > budget[0] and x != keep:
                    continue
                budget[0] -= cost
                w[i] = x
                r = rec(j + 1)
                budget[0] += cost
                if r is not None:
                    w[i] = keep
                    return r
            w[i] = keep
            return None

        if final:
            rec(0)
            return out
        # The counts nearest ``cand``'s (what the tracker knows there) first, a pass for each
        # distance: a frame after a checker lifted unseen from one stack, with another stack
        # beside it, is most often that one lift, and each count tried is a rules search (the
        # emulated Backwards match's slowest lifts tried the other stack's lower counts first,
        # issue 33)
        for x in range(k + 1):
            budget[0] = x
            r = rec(0)
            if r is not None:
                return bytearray(r)
        return None

    def _locate(self, cells):
        """``turn.locate(cells)``, remembered for the last few positions: a lift asks about the
        position the frame before was judged on, a placement's verdict asks twice about the same
        position, and each search costs the Pico milliseconds."""
        memo = self.memo
        for m in memo:
            if m[0] == cells:
                return m[1]
        r = (self.prepared or self.turn).locate(cells)
        if len(memo) == 3:
            memo.pop()
        memo.insert(0, (bytes(cells), r))
        return r

    def _is_complete(self, cells):
        for left in self._locate(cells):
            if not left:
                return True
        return False

    # --- DONE --------------------------------------------------------------------------------

    def final(self, ask=None):
        """At DONE: (positions, reason). ``positions`` lists the distinct legal complete plays
        the current frame can be (one: play it; several: ask the player); when it is empty,
        ``reason`` says why DONE is refused and ``self.work`` holds the position as seen.
        With ``ask`` (companion.prepared: DONE's questions asked before DONE is pressed) each
        position DONE reads is handed to it instead of to the rules; nothing is refused then."""
        turn = self.turn
        start = self.start.cells
        seen = self.seen
        cand = self.work
        cand[:] = seen
        cand[OPP] = start[OPP]
        mw = self.mover_white
        for p in range(1, 25):
            if self.mixed[p] and not turn.rules.pinning:
                if cand[cell_index(mw, not mw, self.opp[p] if mw else p)] >= 2:
                    self.red = [p]
                    return [], "Point %d is blocked" % own_point(mw, p, self.opp)
                return [], "Hit checker to the bar"
        short = self._on(start, OPP) - self._on(cand, OPP)
        if short > 0:
            # A bar half holds four on its cells; more stack unseen (Catch me keeps its caught
            # checkers there): with four or more seen, the missing ones are taken to be there.
            if not self.rng[OPP + BAR]:
                return [], "Hit checker goes on the bar"
            cand[OPP + BAR] += short
        on = self._on(cand, 0)
        if self.wait0:
            cand[0] = start[0]
        else:
            cand[0] = CHECKERS - on if on <= CHECKERS else 0
        is_legal = ask or (self.prepared or turn).is_legal
        found = []
        if on <= CHECKERS - start[0] + getattr(turn, "grows", 0) and is_legal(cand):
            found.append(bytes(cand))
        more = self._search_ranged(cand, 0, 0, True, is_legal)
        for f in more:
            if f not in found:
                found.append(f)
        if found or ask is not None:
            return [bytearray(f) for f in found], ""
        # DONE says the play is finished, so the checkers missing from the board are borne off
        # (15 a side) and the refusal names the rule that breaks. Only when the engine can name
        # no rule (no die could have taken them off, nor a rule relaxed) and putting them back
        # where they were lifted from is the start of a legal play are they taken for checkers
        # still in a hand. A checker lifted from outside the home board is not read as borne off
        # (the engine would name a rule about a route to the tray no player had in mind).
        reason = turn.check(Position(cand))
        short = self._gone(cand) if self.wait0 else CHECKERS - start[0] - on
        if short > 0 and (self.wait0 or not reason or reason == "No play of %d-%d gives this" % (turn.d1, turn.d2)
                          or self._lifted_outside(cand)):
            h = self._returned(cand, short)
            if self._locate(h):
                return [], "Checker in hand: put it down"
        return [], reason or "Illegal play"

    def _lifted_outside(self, cand):
        known = self.known
        for i in range(7, 26):
            if cand[i] < known[i]:
                return True
        return False

    # --- set-up check --------------------------------------------------------------------------

    def wrong_points(self):
        """LED points where the last frame read differs from ``known`` (5+ counts as matching
        any count of 5 or more)."""
        wrong = []
        seen = self.seen
        known = self.known
        mw = self.mover_white
        for i in range(1, 26):
            for side in (0, OPP):
                j = side + i
                if seen[j] != known[j] and not (self.rng[j] and known[j] >= self.lo[j] and self.lo[j] > 0):
                    led = led_of(mw if side == 0 else not mw, i, self.opp)
                    if led not in wrong:
                        wrong.append(led)
        return wrong

    def missing_text(self, names):
        """What the set-up check says: the first wrong place in words, e.g. 'Black: 1 missing
        on 13' (the point in that player's own numbering). ``names`` are (white's, black's)."""
        seen = self.seen
        known = self.known
        mw = self.mover_white
        for i in range(25, 0, -1):
            for side in (0, OPP):
                j = side + i
                if self.rng[j] and known[j] >= self.lo[j] and self.lo[j] > 0:
                    continue
                d = known[j] - seen[j]
                if d:
                    white = mw if side == 0 else not mw
                    name = names[0] if white else names[1]
                    where = "bar" if i == BAR else str(i)
                    if d > 0:
                        return "%s: %d missing on %s" % (name, d, where)
                    return "%s: %d extra on %s" % (name, -d, where)
        return ""
