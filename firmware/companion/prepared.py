# A turn's answers prepared while nobody waits: issue 33's "prepare at the roll, answer by lookup".
#
# When the dice are known the players look at the board for a second or more before a hand
# lifts a checker, and between two placements the hand takes hundreds of ms. The loop steps of
# that time answer nothing, so each of them does units of work here (one rules question each: a
# locate, a lift's destinations, DONE's play; main.py calls Companion.prepare() in a step that
# answered nothing; another unit while the step has taken under STEP_US), each cut off after
# UNIT_US (SearchCut: the question is then left to the lift that asks it, as if not prepared),
# so that a lift coming meanwhile waits a few ms at most; and the tracker's questions are then
# answered by a lookup:
#
#   * where the board as it stands begins the turn (Turn.locate of a legal partial position),
#   * where a checker lifted from each point may land (Turn.destinations, per source) and
#     whether the frame with that checker gone is itself legal (a checker borne off),
#   * at DONE, the play that gives a complete position (Turn._play_steps, which is_legal,
#     play_to and check then find in Turn._last).
#
# Every answer stored is the one today's path computes (the same Turn methods, called on the
# same cells), so a lookup gives exactly today's answer; a question about a position not
# prepared yet goes to the rules engine as before (design principle 4: a search that stops at
# the first witness). Listing every play of a roll is not what this does (up to ~2,000 plays):
# the positions are prepared nearest first: once a lift is answered, where that checker may land
# (the hand carries it for a few hundred ms, then its placement is a lookup); else from the
# position the board shows now (the tracker's ``known``): its play if complete, its lifts, then
# the positions each lift may land on, then theirs, breadth first,
# and at most NODES of them per turn (each ~280 B on a Pico: the table stays under ~34 KB, the doubles of
# the costliest variants included: docs/performance.md).
#
# A node is one position (bytes of its 52 cells) -> a bytearray:
#   [0]     its locate() answer: 0 = [] (not the start of a legal play), else 1 + index in ``opts``
#   [1]     the next source point whose lift is still to prepare (down from _first_source, round
#           from 25); 255 = all done
#   [2], [3] the next child to prepare: source point, place (children: where each lift may land)
#   [4]     the play that ends here: 255 not asked, 254 none / not storable, else its step count,
#           the steps at [5:17] (from, to, hit: three bytes each, four steps at most)
#   [17 + 5 * p:] for source p (0..25): its destinations as a 26-bit mask (four bytes; bit 31
#           set: not storable, asked again), then the locate() answer of the frame with that
#           checker gone (code as [0]; 255 = not prepared, 254 = not storable: asked again); the
#           frame is prepared a unit before the mask, so the mask holds only once [1] has passed p
# A position that is not legal is kept so (0 at [0], no play, no places, not in ``order``) only
# for its frames: the board with the checker in the hand read as borne off (_stacked).
# Other positions found not to be legal partial plays are kept as ``NOT_LEGAL`` (one shared object),
# those whose search was cut off (UNIT_US) or whose answer the table cannot hold (more than 200
# distinct ones) as ``CUT``: asked each time. A search cut off in one of the image's walks (a
# Backwards question: companion.search_fast.walk) goes on in the next unit where it stopped
# (``going``), up to GOES_ON units, before it is given up so.
#
# The firmware's interned names fill six of MicroPython's pools (1,260 names; a seventh is ~9 KB
# in one piece: docs/performance.md, "Every module at once"), so this module adds few: no private
# copy of a constant the tests read, the firmware's own words where they read as well; and its
# functions are explained in comments, not docstrings: the every-module check compiles it from
# source (tests/test_heap_budget.py), where each docstring is a string of the parse tree, ~6 KB here.

import sys

try:
    from micropython import const
except ImportError:

    def const(x):
        return x


from bgrules.position import OPP, BAR, waiting
from companion.prepared_next import HEAD, NODES, NOT_LEGAL, TODO, NextPositions
from companion.viper_source import compile_source

try:
    from time import ticks_us, ticks_add, ticks_diff
except ImportError:  # CPython (the simulator, the tests)
    from time import time_ns

    def ticks_us():
        return time_ns() // 1000

    def ticks_add(a, b):
        return a + b

    def ticks_diff(a, b):
        return a - b


# The longest one unit's search may take: on the emulated Pico half the units take under 2 ms, a
# tenth over 9.5 ms (the doubles' searches, up to 164 ms in Backwards): those are cut off here
UNIT_US = const(5000)
# another unit is begun in the same loop step only before this much of it has gone: the step's
# worst is then STEP_US + UNIT_US, while units of a millisecond or two share the scan's 2 ms
STEP_US = const(1500)
# (not _-named: the tests read them, and MicroPython does not export _-named constants)
ASK = const(254)  # not storable here: the rules are asked each time
_GOING = const(253)  # (_locate: the search was cut off and goes on in the next unit)
# units a search cut off may go on for (each walks again the steps down to where it stopped)
GOES_ON = const(8)
_PLACE = const(0)  # the question a search going on answers: a position's locate,
_FRAME = const(1)  # a lift's frame's locate,
_PLAY = const(2)  # a complete position's play
CUT = b"\xfe"  # a position not prepared: its search was cut off, or its answer does not fit the table
# a node as placed: every lift still to prepare, from 25 down ([1]: _place sets where they begin;
# children, [2], [3], from 25 down once every lift is prepared)
_FRESH = bytes((0, 25, 25, 0, 0) + (0,) * (HEAD - 5) + (0, 0, 0, 0, TODO) * 26)


# A lookup's two loops over a board, as machine code (companion.viper_source): on the emulated
# Pico the bytecode took ~0.45 ms a lift each, of issue 33's 5 ms for the whole answer
_SOURCE = (
    (
        '@micropython.viper',
        'def lifted_point(cells, known, waited: int) -> int:',
        '    c = ptr8(cells)',
        '    k = ptr8(known)',
        '    p = -1',
        '    i = 1',
        '    while i < 52:',
        '        if c[i] != k[i]:',
        '            if p >= 0 or i > 25 or c[i] + 1 != k[i]:',
        '                return -1',
        '            p = i',
        '        i += 1',
        '    off = k[0] if waited else k[0] + 1',
        '    if p < 0 or c[0] != off:',
        '        return -1',
        '    return p',
    ),
    (
        '@micropython.viper',
        'def mask_points(node, i: int):',
        '    b = ptr8(node)',
        '    out = []',
        '    q = 0',
        '    while q < 26:',
        '        if b[i + (q >> 3)] >> (q & 7) & 1:',
        '            out.append(q)',
        '        q += 1',
        '    return out',
    ),
)
lifted_point = mask_points = None


def install():
    # The loops above compiled, once: by main.App at power-up (a collection and the compiler:
    # ~50 ms on the emulated Pico, which the first turn's first idle step took when it compiled
    # them: a lift in it waited that long), else by the first Prepared (the tests; a board back
    # from a chouette evening, which unloads this module).
    global lifted_point, mask_points
    if lifted_point is None:
        (lifted_point, mask_points), _ = compile_source(_SOURCE, ("lifted_point", "mask_points"))


def install_image(companion):
    # The image's code in flash, by main.App at power-up (the .mpy deploy would hold it in the
    # heap): the tracker's counting, the IDs' packing and the searches' walks as machine code, the
    # game screen made only when it changes, the loops above.
    from companion import display_fast, ids_fast, search_fast
    from companion.tracker_fast import FastTracker

    companion.tracker = FastTracker()
    display_fast.install()
    ids_fast.install()
    install()
    if sys.implementation.name == "micropython":  # (plain functions elsewhere: slower)
        search_fast.install()


def _after(p, first):
    # The source after p in a node's order: first, first - 1, ..., 1, then 25, 24, ..., first + 1
    # (TODO: every source done).
    p = p - 1 if p > 1 else 25
    return TODO if p == first else p


class SearchCut(Exception):
    """A rules search given up at its deadline (Prepared.stop, called by bgrules.turn._Search)."""


def step(t, m):
    # One unit of the preparation of the turn the tracker ``t`` follows in match ``m``, the table
    # made first if the turn has none (Companion.prepare); False when nothing is left to do, or
    # when nothing is prepared for this turn: the computer's play (companion.computer_turn: 16
    # positions at most) or a turn without a play.
    p = t.prepared
    if p is None:
        turn = t.turn
        if turn is None or turn is not m.turn or not turn.dice_to_play:
            return False
        p = t.prepared = Prepared(turn, t.known, t.wait0)
        p.final = t.final
    return p.step()


class Prepared(NextPositions):
    """The answers of one turn, prepared a unit at a time and looked up (see the top)."""

    def __init__(self, turn, known, wait0):
        install()
        self.turn = turn
        self.known = known  # the tracker's last legal position (its buffer: read, never written)
        self.wait0 = wait0  # checkers waiting beside the board: a lifted one is not counted off
        self.nodes = {}
        self.order = []  # node keys in the order found (breadth first from the start)
        self.at = 0  # the first node of ``order`` that may still have work
        self.opts = []  # the distinct locate() answers (shared by every node that has one)
        self.units = 0  # units of work done (for the benchmark)
        self.hits = 0  # questions answered by a lookup
        self.misses = 0  # questions asked of the rules engine
        self.work = bytearray(52)  # a position being made (no allocation per child)
        opp = turn.rules.across or turn.rules.opposite
        self.opp = opp
        self.hitting = turn.rules.hitting
        self.waiting = turn.rules.waiting
        # DONE's play is kept where the turn keeps its last one (Turn._last): a turn class of its
        # own (Catch me, Doublets) answers DONE itself
        self.keeps_play = hasattr(turn, "_play_steps")
        self.search = getattr(turn, "_s", None)  # the turn's search state (its stop function)
        self.cuts = 0  # searches cut off for good (for the benchmark)
        self.went_on = 0  # units that went on with a search cut off before (for the benchmark)
        # a search cut off that goes on in the next unit: (what it answers: _PLACE, _FRAME,
        # _PLAY; the node's key; the source point; where it stopped: the search's ``cut``; units)
        self.going = None
        self.until = 0  # the time (ticks_us) the unit's search is cut off at
        # a step-back position a lift's destinations need (Turn.destinations' probe) not in the
        # table yet: the next unit places it, and the destinations are asked again after it
        self.pending = None
        # the lift the hand holds (its position, source and places: the last destinations asked)
        # and the next of its places to look at: where it lands is prepared first (_held)
        self.held = None
        self.held_p = 0
        self.held_to = None
        self.held_q = 0
        # the tracker's final() (given by step()), and the positions DONE on the frame as it
        # stands asks about (None: the frame changed since)
        self.final = None
        self.finals = None

    # --- the lookups -------------------------------------------------------------------------

    def locate(self, cells):
        # turn.locate(cells), from the table when prepared.
        node = self.nodes.get(bytes(cells))
        if node is not None and node is not CUT:
            self.hits += 1
            return self._opt(node[0])
        node, p = self._lifted_from_known(cells)
        if node is not None:
            code = node[HEAD + 5 * p + 4]
            if code < ASK:
                self.hits += 1
                return self._opt(code)
        self.misses += 1
        return self.turn.locate(cells)

    def destinations(self, cells, point, options):
        # turn.destinations(cells, point, options) (options: locate(cells), as the tracker passes).
        key = bytes(cells)
        if point == self.held_p and key == self.held:
            # the lift the hand holds, asked again when it is put down (which checker moved):
            # its places as answered at the lift, looked up or asked of the engine
            self.hits += 1
            return self.held_to
        node = self.nodes.get(key)
        if node is not None and len(node) > 1 and 0 <= point <= 25:
            i = HEAD + 5 * point
            # node[1] == point: only the frame of that lift is prepared, not yet its places (the
            # next unit): the mask still reads "nowhere"
            if node[i + 4] != TODO and node[1] != point and not node[i + 3] & 128:
                self.hits += 1
                return self._hold(key, point, mask_points(node, i))
        self.misses += 1
        if self.search is None:
            return self._hold(key, point, self.turn.destinations(cells, point, options))
        return self._hold(key, point, self.turn.destinations(cells, point, options, self._looked_up))

    def _hold(self, key, point, places):
        # ``places``, remembered as the lift the hand holds (a checker of ``key`` lifted from
        # ``point``): the next units place where it may land (_held).
        if self.held != key or self.held_p != point:
            self.held = key
            self.held_p = point
            self.held_q = 0
        self.held_to = places
        return places

    def is_legal(self, cells):
        # turn.is_legal(cells): the play prepared for a complete position is handed to the turn
        # (Turn._last, where is_legal, play_to and check look first); a position prepared that no
        # legal play ends on (no legal play begins so, or dice are left to play) is not legal.
        node = self.nodes.get(bytes(cells))
        if node is NOT_LEGAL or node is not None and len(node) > 1 and self.keeps_play \
                and b"" not in self._opt(node[0]):
            self.hits += 1
            return False
        if node is not None and len(node) > 1 and node[4] < ASK:
            n = node[4]
            steps = []
            for k in range(n):
                j = 5 + 3 * k
                steps.append((node[j], node[j + 1], node[j + 2]))
            self.turn._last = (bytes(cells), tuple(steps))
            self.hits += 1
        else:
            self.misses += 1
        return self.turn.is_legal(cells)

    def _opt(self, code):
        return self.opts[code - 1] if code else []

    def _looked_up(self, cells):
        # turn.locate(cells) for a step back of a lift the table has not prepared: the table's
        # answer for that position when it holds one (a search saved), else the engine's.
        node = self.nodes.get(bytes(cells))
        if node is not None and node is not CUT:
            return self._opt(node[0])
        return self.turn.locate(cells)

    def _lifted_from_known(self, cells):
        # (node of ``known``, p) when ``cells`` is ``known`` with one checker lifted from p (the
        # frame of a lift: that checker counted off, or waiting again); or of ``known`` with the
        # checker the hand held borne off (nothing is put down then: the next lift's frame shows
        # both gone, _unseen, or set down unseen on a stack, _stacked); (None, 0) otherwise.
        key = self.known
        p = lifted_point(cells, key, self.wait0)
        h = self.held_p
        if p < 0 and self.held == key and not self.wait0 and 0 < h <= 25 and key[h]:
            # (the held checker borne off, or set down unseen on a stack: _stacked)
            key = self._landed(self.held, h, 0)
            p = lifted_point(cells, key, self.wait0)
        if p < 0:
            return None, 0
        node = self.nodes.get(bytes(key))
        if node is None or len(node) == 1:
            return None, 0
        return node, p

    # --- the preparation (the positions to prepare next: companion.prepared_next) ------------

    def step(self):
        # Units of preparation for one loop step: another while the step has taken less than
        # STEP_US (a unit of a lift's frame takes ~1.4 ms on the Pico, the scan of the loop step
        # ~2); False when nothing was left to do.
        t = ticks_us()
        did = False
        while self._next():
            did = True
            if ticks_diff(ticks_us(), t) >= STEP_US:
                break
        return did

    def _next(self):
        # One unit of preparation (one rules search); False when nothing is left to do.
        g = self.going
        if g is not None:
            key = g[1]
            node = self.nodes.get(key)
            if g[0] == _PLACE:
                if node is None:
                    self._place(key, g[2])
                    return True
            elif node is not None and len(node) > 1:
                if g[0] == _FRAME and node[1] == g[2] and node[HEAD + 5 * g[2] + 4] == TODO:
                    self._lift(key, node)
                    return True
                if g[0] == _PLAY and node[4] == TODO:
                    self._play(key, node)
                    return True
            self.going = None
        key = self.pending
        if key is not None:
            self.pending = None
            if key not in self.nodes:
                self._place(key)
                return True
        key = bytes(self.known)  # (the board as it stands first: its lifts come next)
        held = self.held == key  # (a checker lifted from it is in the hand, not put down yet)
        if held:
            # a checker held that may be borne off: where it lands and the position with it off
            # take turns (that one shows only with the next lift, which then waits for nothing)
            if self.units & 1 and 0 in self.held_to and self._unseen(key, True):
                return True
            if self._held():
                return True
        if (self._finals(True) or self._unit(key) or self._unseen(key, True) or self._finals(True, True)
                or held and self._stacked(key, True)):
            return True
        # Once it is put down, the other places of that lift wait for the board's new position:
        # the hand lifts from there next, and lands on one of them only when it takes back a move.
        if self.held is not None and not held and self._held():
            return True
        order = self.order
        while self.at < len(order):
            if self._unit(order[self.at]):
                return True
            self.at += 1
        return False

    def done(self):
        # Nothing left to prepare for the position the board shows (its lifts, and where each
        # may land), nor for those the sensors may show next without a frame between (_unseen).
        key = bytes(self.known)
        node = self.nodes.get(key)
        return node is not None and (len(node) == 1 or node[1] == TODO and node[2] == TODO
                                     and not self._unseen(key, False) and not self._finals(False, True)
                                     and not self._stacked(key, False))

    def _unit(self, key):
        # One unit of work on the node ``key`` (made first if new); False when it has none.
        node = self.nodes.get(key)
        if node is None:
            if len(self.nodes) >= NODES:
                return False
            self._place(key)
            return True
        if len(node) == 1:
            return False  # (NOT_LEGAL, CUT: nothing more to prepare there)
        if node[4] == TODO:
            # DONE's play first: a complete position's lifts are only steps back, while DONE
            # is pressed on it at every turn's end
            self._play(key, node)
            return True
        if node[1] != TODO:
            self._lift(key, node)
            return True
        if node[2] != TODO:
            return self._child(node, key)
        return False

    def _place(self, key, frames=0):
        # The position ``key``: is it the start of a legal play (and with what dice left)? With
        # ``frames`` (1) one that is not is kept with its lifts' frames still to prepare (_stacked).
        self.units += 1
        code = self._locate(bytearray(key), _PLACE, key, frames)
        if code == _GOING:
            return  # (placed when its search is done)
        if code == 0 and not frames or code == ASK:
            self.nodes[key] = NOT_LEGAL if code == 0 else CUT
            return
        self._node(key, code)

    def _node(self, key, code):
        # The node of ``key``, whose locate() answer is ``code``: every lift still to prepare
        # (code 0, a position not legal: their frames only).
        node = bytearray(_FRESH)  # (a copy: no loop over the 26 sources, a good part of a unit on a Pico)
        node[0] = code
        node[1] = self._first_source(key, code)
        self.nodes[key] = node
        if not code:
            node[4] = ASK  # (no play ends here, nothing lands from here)
            node[2] = TODO
            return
        node[4] = TODO if self.keeps_play and b"" in self.opts[code - 1] else ASK
        self.order.append(key)

    def _first_source(self, key, code):
        # The point a node's lifts are prepared from: down from there, then round from 25 (_after).
        # 25, but in a bear-off with dice left: the point the highest die left bears off from.
        # After a checker borne off the hand most often bears off the next with the other die,
        # and the frame of that lift shows both gone (_unseen): its answer was the node's last.
        for p in range(7, 26):
            if key[p]:
                return 25
        first = 25
        for left in self._opt(code):
            for d in left:
                if d <= 6 and key[d] and (first == 25 or d > first):
                    first = d
        return first

    def _lift(self, key, node):
        # The lift from the next source point of ``key`` that holds a checker, in two units:
        # the frame with that checker gone (one search), then where it may land (one or more).
        p = node[1]
        c = bytearray(key)  # (the rules get a board of their own, as the tracker's)
        first = self._first_source(key, node[0])
        while p != TODO and not c[p] and not (p == BAR and self.waiting and waiting(c) > 0):
            p = _after(p, first)
        if p == TODO:
            node[1] = TODO
            return
        node[1] = p
        self.units += 1
        i = HEAD + 5 * p
        if node[i + 4] == TODO and c[p]:
            w = self.work
            w[:] = c
            w[p] -= 1
            if not self.wait0:
                w[0] += 1
            code = self._locate(w, _FRAME, key, p)
            if code != _GOING:
                node[i + 4] = code
                if not node[0]:
                    node[i + 3] = 128  # (a position not legal: its frames only, no places)
                    node[1] = _after(p, first)
            return  # its places in the next unit
        else:
            if node[i + 4] == TODO:
                node[i + 4] = ASK  # (a checker from beside the board: the sensors see no lift)
            mask = -1
            self._deadline()
            try:
                if self.search is None:
                    dest = self.turn.destinations(c, p, self._opt(node[0]))
                else:
                    dest = self.turn.destinations(c, p, self._opt(node[0]), self._probe)
                mask = 0
            except SearchCut:
                if self.pending is not None:
                    return  # a step back not prepared: placed in the next unit, then this again
                self.cuts += 1
            finally:
                self._deadline(False)
            last = -1
            for q in dest if mask == 0 else ():
                if not 0 <= q <= 25 or q <= last:
                    mask = -1  # not the sorted places this table holds: asked each time
                    break
                mask |= 1 << q
                last = q
            if mask < 0:
                node[i + 3] = 128  # (asked each time)
            else:
                for b in range(4):
                    node[i + b] = mask >> (8 * b) & 255
        node[1] = _after(p, first)

    def _probe(self, cells):
        # turn.locate(cells) for a step back of the lift being prepared (Turn.destinations'
        # probe, a whole search each: the most of a lift's time on the Pico, docs/performance.md):
        # the table's answer; a position not in it yet ends this unit (``pending``: the next one
        # places it, as any position, then the destinations are asked again); one whose own search
        # was cut off ends it as cut off (the same search would be cut again here).
        key = bytes(cells)
        node = self.nodes.get(key)
        if node is None:
            if len(self.nodes) >= NODES:
                return self.turn.locate(cells)  # (the table is full: searched in this unit)
            self.pending = key
            raise SearchCut()
        if node is CUT:
            raise SearchCut()
        return self._opt(node[0])

    def _play(self, key, node):
        # The play that ends on the complete position ``key`` (DONE's question).
        self.units += 1
        n = self._resume(_PLAY, key, 0)
        try:
            steps = self.turn._play_steps(bytearray(key))
        except SearchCut:
            if self._cut(_PLAY, key, 0, n) == ASK:
                node[4] = ASK
            return
        finally:
            self._deadline(False)
        n = len(steps) if steps is not None and len(steps) <= 4 else -1
        for k in range(n if n > 0 else 0):
            s = steps[k]
            if len(s) != 3 or not (0 <= s[0] <= 253 and 0 <= s[1] <= 253 and 0 <= s[2] <= 253):
                n = -1
                break
            for j in range(3):
                node[5 + 3 * k + j] = s[j]
        node[4] = n if n >= 0 else ASK

    def _locate(self, cells, kind, key, p):
        # turn.locate(cells) as a code (_code), the answer to ``kind`` of the node ``key`` (its
        # source p); ASK when its search was cut off, _GOING when it goes on in the next unit.
        n = self._resume(kind, key, p)
        try:
            return self._code(self.turn.locate(cells))
        except SearchCut:
            return self._cut(kind, key, p, n)
        finally:
            self._deadline(False)

    def _resume(self, kind, key, p):
        # The unit's deadline set; the question's search given where it was cut off, when it
        # was (``going``); the units it went on for before.
        self._deadline()
        g = self.going
        if g is None or g[0] != kind or g[2] != p or g[1] != key:
            return 0
        self.going = None
        self.search.resume = g[3]
        self.went_on += 1
        return g[4]

    def _cut(self, kind, key, p, n):
        # A search cut off: _GOING when it may go on in the next unit, else ASK.
        cut = getattr(self.search, "cut", None)
        if cut is not None and n < GOES_ON:
            self.going = (kind, key, p, cut, n + 1)
            return _GOING
        self.cuts += 1
        return ASK

    def _deadline(self, on=True):
        # The turn's searches cut off UNIT_US from now (on), or never again (off).
        s = self.search
        if s is not None:
            self.until = ticks_add(ticks_us(), UNIT_US)
            s.stop = self.stop if on else None
            if getattr(s, "cut", None) is not None or not on and getattr(s, "resume", None) is not None:
                s.cut = s.resume = None

    def stop(self):
        # The turn's search, at each node: SearchCut once the unit's time is up.
        if ticks_diff(ticks_us(), self.until) > 0:
            raise SearchCut()

    def _code(self, options):
        # ``options`` (a locate() answer) as a code: 0 = [], else 1 + its index in ``opts``.
        if not options:
            return 0
        opts = self.opts
        for i in range(len(opts)):
            if opts[i] == options:
                return i + 1
        if len(opts) >= 200:
            return ASK
        opts.append(options)
        return len(opts)

