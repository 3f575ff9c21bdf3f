"""The standard search's two walks as machine code (MicroPython's viper emitter), for the image:
on the emulated Pico a bear-off lift asked the bytecode walks for up to 11 ms (its checker gone:
"is that a legal start?", then "where may it land?"), and the turn's preparation cut those
questions off at its 5 ms unit, so the lift asked them again (docs/performance.md, round 7).

``install`` puts ``deepest`` and ``find`` in place of ``_Search.deepest`` and ``Turn._find``:
each hands a search over the standard rules (the search class itself, no rule relaxed, a board's
question: a play or the start of one) to one viper function that walks the same steps in the same
order with a stack of its own, and leaves every other search (a variant's own class, a diagnosis
that relaxes a rule, every play listed) to the bytecode. A position reached is handed back to
``Turn._found`` as before, so the answers are the bytecode's, which the tests check on every
interpreter. main.py installs it where the code sits in flash (companion.controller.PREPARES), as
it builds companion.tracker_fast's tracker: a viper function is compiled into the heap, and the
.mpy deploy has none to spare.
"""
from bgrules.turn import Turn, _Search
from companion.viper_source import compile_source

# A search's own bytes (``fast``): the opponent's place of each place (0-25), then the rules'
# block, bar_first, bear_higher, hitting, the checkers outside home (deepest's), and deepest's
# stack from 32: source, place and hit of each die (four dice at most).
# A walk's word: dice index to start from (bits 0-2), dice count (3-5), highest source (6-10),
# a double (11), stop at the first position found (12, find).
_SOURCE = (
    (
        '@micropython.viper',
        'def deepest_walk(cells, dice, env, kn: int) -> int:',
        '    c = ptr8(cells)',
        '    e = ptr8(env)',
        '    dd = ptr8(dice)',
        '    k0 = kn & 7',
        '    n = (kn >> 3) & 7',
        '    double = (kn >> 11) & 1',
        '    block = e[26]',
        '    first = e[27]',
        '    higher = e[28]',
        '    hitting = e[29]',
        '    outside = e[30]',
        '    best = k0',
        '    lvl = k0',
        '    src = 25 if c[25] and first else (kn >> 6) & 31',
        '    while True:',
        '        t = -1',
        '        while src > 0:',
        '            if src != 25 and c[25] and first:',
        '                src = 0',
        '                break',
        '            if c[src]:',
        '                t = src - dd[lvl]',
        '                if t > 0:',
        '                    if c[26 + e[t]] >= block:',
        '                        t = -1',
        '                elif outside:',
        '                    t = -1',
        '                elif t < 0:',
        '                    q = src + 1',
        '                    while q < 7 and not c[q]:',
        '                        q += 1',
        '                    t = -1 if q < 7 or not higher else 0',
        '                if t >= 0:',
        '                    break',
        '            src -= 1',
        '        if src > 0:',
        '            c[src] -= 1',
        '            h = 0',
        '            if t:',
        '                o = 26 + e[t]',
        '                if c[o] == 1 and hitting:',
        '                    c[o] = 0',
        '                    c[51] += 1',
        '                    h = 1',
        '                c[t] += 1',
        '                if src > 6:',
        '                    if t < 7:',
        '                        outside -= 1',
        '                elif t > 6:',
        '                    outside += 1',
        '            else:',
        '                c[0] += 1',
        '            e[32 + lvl] = src',
        '            e[36 + lvl] = t',
        '            e[40 + lvl] = h',
        '            lvl += 1',
        '            if lvl > best:',
        '                best = lvl',
        '            if lvl < n:',
        '                src = 25 if c[25] and first else (src if double else 25)',
        '                continue',
        '            src = 0',
        '        if lvl == k0:',
        '            return best',
        '        lvl -= 1',
        '        src = e[32 + lvl]',
        '        t = e[36 + lvl]',
        '        if t:',
        '            c[t] -= 1',
        '            if e[40 + lvl]:',
        '                c[26 + e[t]] = 1',
        '                c[51] -= 1',
        '            if src > 6:',
        '                if t < 7:',
        '                    outside += 1',
        '            elif t > 6:',
        '                outside -= 1',
        '        else:',
        '            c[0] -= 1',
        '        c[src] += 1',
        '        if best == n:',
        '            src = 0',
        '        else:',
        '            src -= 1',
    ),
    (
        '@micropython.viper',
        'def find_walk(s, dice, hit, kn: int) -> int:',
        '    c = ptr8(s.c)',
        '    cum = ptr8(s.cum)',
        '    tc = ptr8(s.tcum)',
        '    tg = ptr8(s.target)',
        '    ps = ptr8(s.p_src)',
        '    pd = ptr8(s.p_dst)',
        '    ph = ptr8(s.p_hit)',
        '    pe = ptr8(s.p_die)',
        '    e = ptr8(s.fast)',
        '    dd = ptr8(dice)',
        '    stop = s.stop',
        '    k0 = kn & 7',
        '    n = (kn >> 3) & 7',
        '    double = (kn >> 11) & 1',
        '    early = (kn >> 12) & 1',
        '    block = e[26]',
        '    first = e[27]',
        '    higher = e[28]',
        '    hitting = e[29]',
        '    outside = int(s.outside)',
        '    found = 0',
        '    quit = 0',
        '    nodes = 0',
        '    lvl = k0',
        '    src = 25 if c[25] and first else (kn >> 6) & 31',
        '    entered = 0',
        '    while True:',
        '        if entered:',
        '            entered = 0',
        '            i = 0',
        '            while i < 52 and c[i] == tg[i]:',
        '                i += 1',
        '            if i == 52:',
        '                s.outside = outside',
        '                if int(hit(lvl)):',
        '                    found = 1',
        '                    quit = early',
        '                src = 0',
        '            elif lvl == n:',
        '                src = 0',
        '            else:',
        '                nodes += 1',
        '                if stop and not nodes & 7:',
        '                    stop()',
        '                src = 25 if c[25] and first else (ps[lvl - 1] if double else 25)',
        '        if quit:',
        '            src = 0',
        '        while src > 0:',
        '            if src != 25 and c[25] and first:',
        '                src = 0',
        '                break',
        '            if c[src] and cum[src] > tc[src]:',
        '                d = dd[lvl]',
        '                t = src - d',
        '                if t > 0:',
        '                    if c[26 + e[t]] >= block:',
        '                        t = -1',
        '                elif outside:',
        '                    t = -1',
        '                elif t < 0:',
        '                    q = src + 1',
        '                    while q < 7 and not c[q]:',
        '                        q += 1',
        '                    t = -1 if q < 7 or not higher else 0',
        '                if t >= 0:',
        '                    q = src',
        '                    while q > t and cum[q] > tc[q]:',
        '                        q -= 1',
        '                    o = 26 + e[t]',
        '                    if q == t and not (t and c[o] == 1 and hitting and tg[o]):',
        '                        q = src',
        '                        while q > t:',
        '                            cum[q] -= 1',
        '                            q -= 1',
        '                        c[src] -= 1',
        '                        h = 0',
        '                        if t:',
        '                            if c[o] == 1 and hitting:',
        '                                c[o] = 0',
        '                                c[51] += 1',
        '                                h = 1',
        '                            c[t] += 1',
        '                            if src > 6:',
        '                                if t < 7:',
        '                                    outside -= 1',
        '                            elif t > 6:',
        '                                outside += 1',
        '                        else:',
        '                            c[0] += 1',
        '                        ps[lvl] = src',
        '                        pd[lvl] = t',
        '                        ph[lvl] = h',
        '                        pe[lvl] = d',
        '                        lvl += 1',
        '                        entered = 1',
        '                        break',
        '            src -= 1',
        '        if entered:',
        '            continue',
        '        if lvl == k0:',
        '            s.outside = outside',
        '            return found',
        '        lvl -= 1',
        '        src = ps[lvl]',
        '        t = pd[lvl]',
        '        if t:',
        '            c[t] -= 1',
        '            if ph[lvl]:',
        '                c[26 + e[t]] = 1',
        '                c[51] -= 1',
        '            if src > 6:',
        '                if t < 7:',
        '                    outside += 1',
        '            elif t > 6:',
        '                outside -= 1',
        '        else:',
        '            c[0] -= 1',
        '        c[src] += 1',
        '        q = src',
        '        while q > t:',
        '            cum[q] += 1',
        '            q -= 1',
        '        src -= 1',
    ),
)
deepest_walk = find_walk = None  # compiled by install (main.App): an import compiles nothing
EMITTER = None
_deepest = _Search.deepest  # the bytecode's, for every other search
_find = Turn._find


def _env(s):
    """The search's own bytes (made once per search: Turn makes one per turn)."""
    e = getattr(s, "fast", None)
    if e is None:
        e = s.fast = bytearray(44)
        e[0:26] = s.opp
        e[26] = s.block
        e[27] = 1 if s.bar_first else 0
        e[28] = 1 if s.bear_higher else 0
        e[29] = 1 if s.hitting else 0
    return e


def deepest(s, dice, k, n, top, double):
    """_Search.deepest."""
    if type(s) is not _Search or s.relax or k >= n:
        return _deepest(s, dice, k, n, top, double)
    if s.stop is not None:
        s.stop()
    e = _env(s)
    e[30] = s.outside
    return deepest_walk(s.c, dice, e, k | n << 3 | top << 6 | (2048 if double else 0))


def find(turn, dice, k, top, mode, found):
    """Turn._find."""
    s = turn._s
    # (a mode above 1: a diagnosis, or any number of dice; the search's own walk from k > 0: it began in bytecode)
    if type(s) is not _Search or s.relax or mode > 1 or k or len(dice) > 4:
        return _find(turn, dice, k, top, mode, found)
    if s.c == s.target:
        return turn._found(k, mode, dice, found)
    if not dice:
        return False
    if s.stop is not None:
        s.stop()
    _env(s)
    early = 4096 if mode != 1 or turn._one_hit else 0
    hit = lambda j: 1 if turn._found(j, mode, dice, found) else 0  # noqa: E731
    return bool(find_walk(s, dice, hit, len(dice) << 3 | top << 6 | (2048 if turn.double else 0) | early))


def install():
    """The standard search's walks as ``deepest_walk`` and ``find_walk`` (compiled now) from here on."""
    global deepest_walk, find_walk, EMITTER
    if deepest_walk is None:
        (deepest_walk, find_walk), EMITTER = compile_source(_SOURCE, ("deepest_walk", "find_walk"))
    _Search.deepest = deepest
    Turn._find = find
