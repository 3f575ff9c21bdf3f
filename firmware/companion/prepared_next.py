# Which positions a turn's table (companion.prepared) prepares next, besides the board's own and
# its lifts' places in breadth-first order: those the board may show with no frame of their own
# (a checker borne off, or set down unseen on a stack of five or more: _unseen, _stacked),
# DONE's on the frame as it stands (_finals), where the checker in the hand may land (_held),
# and each prepared lift's places (_child). The table's layout is here too (companion.prepared's
# opening comment says what each byte of a node holds).
#
# Split from companion.prepared so that each compiles in a Pico's heap with every other module
# of the firmware loaded (tests/test_heap_budget.py: the whole file in one piece no longer did).
# As there, functions are explained in comments, not docstrings (a docstring is a string of the
# parse tree while the module compiles).

try:
    from micropython import const
except ImportError:

    def const(x):
        return x


from bgrules.position import OPP, BAR, OFF

# (not _-named: companion.prepared and the tests read them, and MicroPython does not export
# _-named constants)
NODES = const(120)  # positions prepared per turn at most (the table's bound: ~280 B each on a Pico)
HEAD = const(17)  # a node's bytes before its 26 sources (5 bytes each)
TODO = const(255)  # a node's answer or lift still to prepare
NOT_LEGAL = b"\x00"  # a position that is not the start of a legal play


class NextPositions:
    # The methods of companion.prepared.Prepared that choose and place the positions to prepare
    # next (its base class: they use its table, ``nodes``, and its units, _place, _play, _lift).

    def _finals(self, do, rest=False):
        # A unit of work (done when ``do``) on DONE's questions on the frame as it stands: the
        # position it reads (most often the board's, or with the checkers lifted borne off), and,
        # once that is a complete play, the positions differing from it only where the sensors
        # count "five or more" (asked of the tracker's final()), each placed and its play prepared. They
        # were whole searches at DONE: Backwards' worst DONE asked nine (issue 33). A position
        # that is not complete leaves the rest until ``rest`` (after the board's lifts): most
        # often a checker is in the hand, but the play may be complete with a checker unseen on a
        # stack of five or more (Backwards' worst DONE asked five such). False when there is
        # nothing to do.
        f = self.finals
        if f is None:
            if self.final is None:
                return False
            if do:
                self.units += 1
                f = self.finals = []
                self.final(lambda w: f.append(bytes(w)))
            return True
        for i in range(len(f)):
            q = f[i]
            c = self.nodes.get(q)
            if c is None:
                if len(self.nodes) >= NODES:
                    return False
                if do:
                    self._place(q)
                return True
            if len(c) == 1:
                if i == 0 and not rest:
                    return False
                continue
            if c[4] == TODO:
                if do:
                    self._play(q, c)
                return True
            if i == 0 and not rest and b"" not in self._opt(c[0]):
                return False
        return False

    def _unseen(self, key, do):
        # A unit of work (done when ``do``) on a position the board may go to from ``key`` with
        # no frame of its own: a checker borne off is put nowhere, so the board's position stands
        # until the next lift shows both (the lift held, when it may go off); and a point of six
        # or more reads "five or more" (companion.tracker), so its lifts show only once four are
        # left: the positions after each bear-off from it, their play and lifts (the tracker's
        # questions about such a frame are theirs). False when there is none.
        node = self.nodes.get(key)
        # (``key`` not placed yet goes on: the held checker's lift was answered, so it is legal)
        if node is not None and len(node) == 1:
            return False
        for p in range(1, 7):
            if key[p] < 6 and not (p == self.held_p and key == self.held and 0 in self.held_to):
                continue
            k = key
            for _ in range(self.turn.dice_to_play):
                child = self._landed(k, p, 0)
                c = self.nodes.get(child)
                if c is None:
                    if len(self.nodes) >= NODES:
                        return False
                    if do:
                        self._place(child)
                    return True
                if len(c) == 1 or not c[0]:
                    break  # (not legal: nothing after it is)
                if c[4] == TODO or c[1] != TODO:
                    if do:
                        if c[4] == TODO:
                            self._play(child, c)
                        else:
                            self._lift(child, c)
                    return True
                if child[p] < 5:
                    break  # (its next lift from p shows)
                k = child
        return False

    def _stacked(self, key, do):
        # A unit of work (done when ``do``) on the frames of the checker in the hand set down on
        # a stack of five or more: the sensors still read "five or more" there, so nothing
        # changes until the next lift, whose frame shows both checkers gone, the one held read
        # as borne off. That position (``key`` with it off) is most often not legal (it may not
        # bear off): then it is kept with its frames only (each lift's locate: the tracker's
        # first question, a whole search that finds nothing: Backwards' three slowest lifts).
        # A legal one is _unseen's. False when there is nothing to do.
        p = self.held_p
        if self.held != key or self.wait0 or not 0 < p <= 25 or not key[p]:
            return False
        for q in self.held_to:
            if 0 < q < 25 and key[q] >= 5:
                break
        else:
            return False
        off = self._landed(key, p, 0)
        node = self.nodes.get(off)
        if node is None:
            if len(self.nodes) >= NODES:
                return False
            if do:
                self._place(off, 1)
            return True
        if node is NOT_LEGAL:
            if do:
                self._node(off, 0)  # (placed as not legal by DONE's questions: _finals)
            return True
        if len(node) == 1 or node[0] or node[1] == TODO:
            return False
        if do:
            self._lift(off, node)
        return True

    def _child(self, node, key):
        # The next position a prepared lift of ``key`` may land on, placed (one search); or the
        # places of one source looked through, all already in the table. A unit never looks
        # through more than one source's places: all of a node's (26 x 26 bits, a landed position
        # made for each) took up to ~30 ms on the Pico, where a unit should take a few.
        p = node[2]
        q = node[3]
        while p != TODO:
            i = HEAD + 5 * p
            seen = False
            if key[p] and (node[i] or node[i + 1] or node[i + 2] or node[i + 3]):
                while q <= 25:
                    b = node[i + (q >> 3)] >> (q & 7)
                    if not b:
                        q = (q | 7) + 1  # (the rest of that byte: no place)
                        continue
                    q += 1
                    if b & 1 and q - 1 != p:
                        seen = True
                        child = self._landed(key, p, q - 1)
                        if child not in self.nodes:
                            node[2] = p
                            node[3] = q
                            if len(self.nodes) >= NODES:
                                break
                            self._place(child)
                            return True
                if q <= 25:
                    break  # the table is full
            p = p - 1 if p > 0 else TODO
            q = 0
            if seen and p != TODO:
                node[2] = p
                node[3] = 0
                return True  # (the next source in the next unit)
        node[2] = TODO
        return False

    def _held(self):
        # The next place the lifted checker may land on (its lift looked up: ``held``), placed
        # (one search); False once they are all in the table. The hand
        # carries the checker for a few hundred ms: a placement then finds its position prepared,
        # wherever the breadth-first order had reached (before, those positions waited for every
        # lift of the board's position: most of the lookups the standard match missed).
        key = self.held
        p = self.held_p
        places = self.held_to
        k = self.held_q
        # (a checker from beside the board, or no checker there: the sensors see no lift)
        while 0 <= p <= 25 and key[p] and k < len(places) and len(self.nodes) < NODES:
            q = places[k]
            k += 1
            if q != p:
                child = self._landed(key, p, q)
                if child not in self.nodes:
                    self.held_q = k
                    self._place(child)
                    return True
        self.held_q = k  # (all placed: the lift is kept, for destinations)
        return False

    def _landed(self, key, p, q):
        # ``key`` with a checker moved from p to q as the sensors see it (q = 0: borne off; a
        # blot of the other side on q taken to its bar).
        w = self.work
        w[:] = key
        w[p] -= 1
        if q:
            w[q] += 1
            o = OPP + self.opp[q]
            if q < 25 and self.hitting and w[o] == 1:
                w[o] = 0
                w[OPP + BAR] += 1
        else:
            w[OFF] += 1
        return bytes(w)
