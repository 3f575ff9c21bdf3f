"""The tracker with its per-frame counting compiled to machine code (MicroPython's viper emitter),
for the image: on the emulated Pico the bytecode ``Tracker.read`` took about 5 ms of every
frame's answer (3.3 ms its cell loop, 1.9 ms the weak-cell pass ``_on_top``), against issue 33's
5 ms target for the whole answer (docs/performance.md).

main.py builds this tracker only where the code sits in flash (companion.controller.PREPARES): a
viper function is compiled into the heap (here by the first FastTracker), and the .mpy deploy has
none to spare (tests/test_heap_budget.py). The code is source compiled by the emitter of the
MicroPython that runs it (companion.viper_source), plain functions where there is none, so the
tests compare it with ``Tracker.read`` on every interpreter.
"""
from bgrules.position import OPP, BAR, CHECKERS
from companion.tracker import Tracker, NO_POINTS
from companion.viper_source import compile_source

# The functions' lines (companion.viper_source: why short strings). Tracker.read's cell loop
# returns the faulty cells + 256 x white's bar cells + 4096 x black's + 65536 if white's bar
# count is only a lower bound + 131072 if black's is; the two must agree (tests/test_tracker_fast.py). Cells: 8 FAULT, 16 UNDER (weak), 4 STACK, colour in the low bits.
_SOURCE = (
    (
        '@micropython.viper',
        'def read_cells(frame, known, opp, seen, lo, rng, mixed, under, wb: int, bb: int) -> int:',
        '    fr = ptr8(frame)',
        '    kn = ptr8(known)',
        '    op = ptr8(opp)',
        '    se = ptr8(seen)',
        '    lw = ptr8(lo)',
        '    rg = ptr8(rng)',
        '    mx = ptr8(mixed)',
        '    un = ptr8(under)',
        '    i = 0',
        '    while i < 52:',
        '        se[i] = 0',
        '        lw[i] = 0',
        '        rg[i] = 0',
        '        i += 1',
        '    faults = 0',
        '    base = 0',
        '    p = 1',
        '    while p < 25:',
        '        nw = 0',
        '        nb = 0',
        '        rw = 0',
        '        rb = 0',
        '        u = 0',
        '        cell = base',
        '        while cell < base + 5:',
        '            s = fr[cell]',
        '            cell += 1',
        '            if s == 0:',
        '                continue',
        '            if s == 8:',
        '                faults += 1',
        '                rw = 1',
        '                rb = 1',
        '                continue',
        '            c = s & 3',
        '            if c == 1:',
        '                nw += 1',
        '                if s & 16:',
        '                    u += 1',
        '                if s & 4:',
        '                    rw = 1',
        '            elif c == 2:',
        '                nb += 1',
        '                if s & 16:',
        '                    u += 16',
        '                if s & 4:',
        '                    rb = 1',
        '            elif s & 16:',
        '                u += 16',
        '        base += 5',
        '        un[p] = u',
        '        if nw + nb == 5:',
        '            if nw:',
        '                rw = 1',
        '            if nb:',
        '                rb = 1',
        '        if nw and nb:',
        '            mx[p] = 1',
        '        else:',
        '            mx[p] = 0',
        '        i = wb + p',
        '        if nw:',
        '            lw[i] = nw',
        '            if rw or nw == 5:',
        '                rg[i] = 1',
        '                if kn[i] > nw:',
        '                    nw = kn[i]',
        '            se[i] = nw',
        '        elif rw:',
        '            rg[i] = 1',
        '            se[i] = kn[i]',
        '        i = bb + op[p]',
        '        if nb:',
        '            lw[i] = nb',
        '            if rb or nb == 5:',
        '                rg[i] = 1',
        '                if kn[i] > nb:',
        '                    nb = kn[i]',
        '            se[i] = nb',
        '        elif rb:',
        '            rg[i] = 1',
        '            se[i] = kn[i]',
        '        p += 1',
        '    nw = 0',
        '    nb = 0',
        '    rw = 0',
        '    rb = 0',
        '    cell = 120',
        '    while cell < 128:',
        '        s = fr[cell]',
        '        cell += 1',
        '        if s == 8:',
        '            faults += 1',
        '            rw = 1',
        '            rb = 1',
        '            continue',
        '        c = s & 3',
        '        if c == 1:',
        '            nw += 1',
        '            if s & 4 or nw >= 4:',
        '                rw = 1',
        '        elif c == 2:',
        '            nb += 1',
        '            if s & 4 or nb >= 4:',
        '                rb = 1',
        '    return faults + (nw << 8) + (nb << 12) + (rw << 16) + (rb << 17)',
    ),
    (
        '@micropython.viper',
        'def count_on(cells, side: int) -> int:',
        '    c = ptr8(cells)',
        '    n = 0',
        '    i = side + 1',
        '    while i < side + 26:',
        '        n += c[i]',
        '        i += 1',
        '    return n',
    ),
    (
        '@micropython.viper',
        'def put_back(h, known, deficit: int) -> int:',
        '    a = ptr8(h)',
        '    k = ptr8(known)',
        '    i = 25',
        '    while i > 0:',
        '        while deficit > 0 and a[i] < k[i]:',
        '            a[i] += 1',
        '            deficit -= 1',
        '        i -= 1',
        '    return deficit',
    ),
)

# Compiled by the first FastTracker (main.App, in a heap still whole), not when the module is
# imported: an import compiles nothing (tests/test_heap_budget.py imports every module at once)
read_cells = count_on = put_back = None
EMITTER = None  # "viper", or "python" (CPython) / "bytecode" (no emitter), once compiled


class FastTracker(Tracker):
    """``Tracker`` whose frame reading runs as machine code: the same counts (tests)."""

    def __init__(self):
        global read_cells, count_on, put_back, EMITTER
        if read_cells is None:
            (read_cells, count_on, put_back), EMITTER = compile_source(_SOURCE, ("read_cells", "count_on", "put_back"))
        Tracker.__init__(self)

    def read(self, frame):
        seen = self.seen
        wb = 0 if self.mover_white else OPP  # where white's places start in mover-view cells
        bb = OPP - wb
        r = read_cells(frame, self.known, self.opp, seen, self.lo, self.rng, self.mixed, self.under, wb, bb)
        self._put(wb + BAR, r >> 8 & 15, r >> 16 & 1)
        self._put(bb + BAR, r >> 12 & 15, r >> 17 & 1)
        self.faults = r & 255
        if not (self.under == NO_POINTS and self.cover == NO_POINTS and self.under_ok == NO_POINTS):
            self._on_top(wb, bb)  # (with no weak cell now or before it changes nothing)
        for side in (0, OPP):  # off: what is not on the board (for the mover: off or in a hand)
            on = count_on(seen, side)
            seen[side] = CHECKERS - on if on <= CHECKERS else 0

    def _on(self, cells, side):
        return count_on(cells, side)

    def _returned(self, cand, deficit, h=None):
        # (every lift asks it: its loop took ~0.4 ms of the answer as bytecode on the emulated Pico)
        if h is None:
            h = bytearray(cand)
        else:
            h[:] = cand
        put_back(h, self.known, deficit)
        if not self.wait0:
            h[0] = CHECKERS - count_on(h, 0)
        return h
