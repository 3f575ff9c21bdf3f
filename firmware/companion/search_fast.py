"""The rules searches a lift asks as machine code (MicroPython's viper emitter), for the image:
on the emulated Pico a bear-off lift asked the bytecode searches for up to 11 ms (its checker
gone: "is that a legal start?", then "where may it land?"), a Backwards lift for up to 14 ms, and
the turn's preparation cut those questions off at its 5 ms unit, so the lift asked them again
(docs/performance.md, round 7).

``install`` puts ``deepest`` and ``find`` in place of ``_Search.deepest`` and ``Turn._find``, and
``walk``, ``back_deepest`` and ``chain`` in place of Backwards' own (``BackSearch._walk``,
``deepest`` and ``chain``, given to each search as it is made):
each hands a search with no rule relaxed (a board's question: a play or the start of one) to one
viper function that walks the same steps in
the same order with a stack of its own, and leaves every other search (a variant's own class, a
diagnosis that relaxes a rule, every play listed) to the bytecode. What a walk needs of the rules
beyond a step (a position reached: ``Turn._found``; Backwards' reach of a step, its answers
settled) it asks of the same Python as before, so the answers are the bytecode's, which the tests
check on every interpreter. companion.prepared.install_image installs it where the code sits in
flash (companion.controller.PREPARES), as it builds companion.tracker_fast's tracker: a viper function
is compiled into the heap, and the .mpy deploy has none to spare.
"""
from array import array

from bgrules.turn import Turn, _Search
from companion.viper_source import compile_source

# A search's own bytes (``fast``): the opponent's place of each place (0-25), then the rules'
# block, bar_first, bear_higher, hitting, the checkers outside home (deepest's), and deepest's
# stack from 32: source, place, hit and way (1 on, 2 back) of each die (four dice at most).
# A walk's word: dice index to start from (bits 0-2), dice count (3-5), highest source (6-10),
# a double (11), stop at the first position found (12, find) or steps both ways (12, deepest:
# Backwards, whose search returns as soon as the dice left are sure to be played).
# Each function's source is a few strings of 24 lines: a board given the sources holds every
# string of a module it imports (line by line, ~500 objects: the every-module run of
# tests/test_heap_budget.py refused this module; in pieces of ~1 KB it leaves 12 KB more free),
# indented with tabs (a byte a level: 6 KB less than four spaces, which that run needed).
_SOURCE = (
    (
        """@micropython.viper
def deepest_walk(cells, dice, env, kn: int) -> int:
	c = ptr8(cells)
	e = ptr8(env)
	dd = ptr8(dice)
	k0 = kn & 7
	n = (kn >> 3) & 7
	double = (kn >> 11) & 1
	back = (kn >> 12) & 1
	block = e[26]
	first = e[27]
	higher = e[28]
	hitting = e[29]
	outside = e[30]
	best = k0
	lvl = k0
	src = 25 if c[25] and first else (kn >> 6) & 31
	way = 1
	while True:
		t = -1
		while src > 0:
			if src != 25 and c[25] and first:
				src = 0
				break""",
        """			if c[src]:
				if way == 1:
					t = src - dd[lvl]
					if t > 0:
						if c[26 + e[t]] >= block:
							t = -1
					elif outside:
						t = -1
					elif t < 0:
						q = src + 1
						while q < 7 and not c[q]:
							q += 1
						t = -1 if q < 7 or not higher else 0
					if t >= 0:
						break
					way = 2
				if back and src != 25:
					t = src + dd[lvl]
					if t < 25 and c[26 + e[t]] < block:
						break
					t = -1
			src -= 1
			way = 1
		if src > 0 and back and (lvl + 1 == n or double and t and src != 25):""",
        """			best = n
			src = 0
		if src > 0:
			e[44 + lvl] = way
			c[src] -= 1
			h = 0
			if t:
				o = 26 + e[t]
				if c[o] == 1 and hitting:
					c[o] = 0
					c[51] += 1
					h = 1
				c[t] += 1
				if src > 6:
					if t < 7:
						outside -= 1
				elif t > 6:
					outside += 1
			else:
				c[0] += 1
			e[32 + lvl] = src
			e[36 + lvl] = t
			e[40 + lvl] = h
			lvl += 1""",
        """			if lvl > best:
				best = lvl
			if lvl < n:
				src = 25 if c[25] and first or back else (src if double else 25)
				way = 1
				continue
			src = 0
		if lvl == k0:
			return best
		lvl -= 1
		src = e[32 + lvl]
		t = e[36 + lvl]
		if t:
			c[t] -= 1
			if e[40 + lvl]:
				c[26 + e[t]] = 1
				c[51] -= 1
			if src > 6:
				if t < 7:
					outside += 1
			elif t > 6:
				outside -= 1
		else:
			c[0] -= 1""",
        """		c[src] += 1
		if best == n:
			src = 0
		elif back and e[44 + lvl] == 1:
			way = 2
		else:
			src -= 1
			way = 1""",
    ),
    (
        """@micropython.viper
def find_walk(s, dice, hit, kn: int) -> int:
	c = ptr8(s.c)
	cum = ptr8(s.cum)
	tc = ptr8(s.tcum)
	tg = ptr8(s.target)
	ps = ptr8(s.p_src)
	pd = ptr8(s.p_dst)
	ph = ptr8(s.p_hit)
	pe = ptr8(s.p_die)
	e = ptr8(s.fast)
	dd = ptr8(dice)
	stop = s.stop
	k0 = kn & 7
	n = (kn >> 3) & 7
	double = (kn >> 11) & 1
	early = (kn >> 12) & 1
	block = e[26]
	first = e[27]
	higher = e[28]
	hitting = e[29]
	outside = int(s.outside)
	found = 0
	quit = 0""",
        """	nodes = 0
	lvl = k0
	src = 25 if c[25] and first else (kn >> 6) & 31
	entered = 0
	while True:
		if entered:
			entered = 0
			i = 0
			while i < 52 and c[i] == tg[i]:
				i += 1
			if i == 52:
				s.outside = outside
				if int(hit(lvl)):
					found = 1
					quit = early
				src = 0
			elif lvl == n:
				src = 0
			else:
				nodes += 1
				if stop and not nodes & 7:
					stop()
				src = 25 if c[25] and first else (ps[lvl - 1] if double else 25)
		if quit:""",
        """			src = 0
		while src > 0:
			if src != 25 and c[25] and first:
				src = 0
				break
			if c[src] and cum[src] > tc[src]:
				d = dd[lvl]
				t = src - d
				if t > 0:
					if c[26 + e[t]] >= block:
						t = -1
				elif outside:
					t = -1
				elif t < 0:
					q = src + 1
					while q < 7 and not c[q]:
						q += 1
					t = -1 if q < 7 or not higher else 0
				if t >= 0:
					q = src
					while q > t and cum[q] > tc[q]:
						q -= 1
					o = 26 + e[t]
					if q == t and not (t and c[o] == 1 and hitting and tg[o]):""",
        """						q = src
						while q > t:
							cum[q] -= 1
							q -= 1
						c[src] -= 1
						h = 0
						if t:
							if c[o] == 1 and hitting:
								c[o] = 0
								c[51] += 1
								h = 1
							c[t] += 1
							if src > 6:
								if t < 7:
									outside -= 1
							elif t > 6:
								outside += 1
						else:
							c[0] += 1
						ps[lvl] = src
						pd[lvl] = t
						ph[lvl] = h
						pe[lvl] = d
						lvl += 1""",
        """						entered = 1
						break
			src -= 1
		if entered:
			continue
		if lvl == k0:
			s.outside = outside
			return found
		lvl -= 1
		src = ps[lvl]
		t = pd[lvl]
		if t:
			c[t] -= 1
			if ph[lvl]:
				c[26 + e[t]] = 1
				c[51] -= 1
			if src > 6:
				if t < 7:
					outside += 1
			elif t > 6:
				outside -= 1
		else:
			c[0] -= 1
		c[src] += 1""",
        """		q = src
		while q > t:
			cum[q] += 1
			q -= 1
		src -= 1""",
    ),
)
# Backwards' walk (bgrules.variants.backwards.BackSearch._walk) with no rule relaxed: the same
# steps in the same order, each node's reach and a position's answer asked of the search's own
# Python (``ask``: 0 the target reached at k dice, 1 the reach of a step either way, 2 the same
# after an answer settled, 3 the reach after a bear-off), the reach's quick case (no bear-off to
# come, the dice left all alike: BackSearch._room's) worked out here from most_left (copied into
# the search's bytes from 64); a level's state kept in ``st`` (16 half-words a level: the node's
# gap, pips + 1024, off + 1024, then the walk's place in it).
_BACK = (
    """@micropython.viper
def back_walk(s, ask, st, kn: int) -> int:
	c = ptr8(s.c)
	tg = ptr8(s.target)
	mo = ptr8(s.more)
	ps = ptr8(s.p_src)
	pd = ptr8(s.p_dst)
	ph = ptr8(s.p_hit)
	pe = ptr8(s.p_die)
	e = ptr8(s.fast)
	dd = ptr8(s.q_dice)
	v = ptr16(st)
	stop = (kn >> 8) & 1
	k0 = kn & 7
	n = (kn >> 3) & 7
	partial = (kn >> 6) & 1
	double = (kn >> 7) & 1
	block = e[26]
	first = e[27]
	higher = e[28]
	hitting = e[29]
	outside = int(s.outside)
	found = 0
	quit = 0
	ver = 0
	nodes = 0
	R = v[94] - 1
	skip1 = 0
	chk = 0
	L = k0
	entered = 1
	g = 0
	pp = 0
	of = 0
	ahead = 0
	behind = 0
	best = 0
	top = 0
	low = 0
	again = 0
	src = 0
	way = 2
	gf = 0
	d = 0
	while True:""",
    """		b = L << 4
		if entered:
			entered = 0
			g = v[b]
			pp = v[b + 1] - 1024
			of = v[b + 2] - 1024
			src = -1
			nodes += 1
			chk = stop if L > R else 0
			if chk and not nodes & 7:
				ask(4, L, 0, 0)
			if not g and not pp:
				i = 0
				while i < 52 and c[i] == tg[i]:
					i += 1
				if i == 52:
					s.outside = outside
					s.depth = L
					if chk:
						ask(4, L, 0, 0)
					r = int(ask(0, L, 0, 0))
					if r & 4:
						ver += 1
					if r & 1:
						found = 1""",
    """						if not partial:
							quit = 1
					if r & 8:
						quit = 1
					if r & 2:
						src = 0
			if src and L == n:
				src = 0
			if src:
				d = dd[L]
				ol = int(s.open_at)
				k1 = L + 1
				sg = -1
				while sg < 2:
					p2 = pp + sg * d
					r = -2
					m = ol >> k1
					if of < 0 or not m:
						r = -1
					elif k1 == n:
						r = 0 if m & 1 and not p2 and not of else -1
					elif not of and (double or k1 + 1 == n):""",
    """						q = p2 if p2 >= 0 else 0 - p2
						a = dd[k1]
						r = -1
						if not q % a:
							q = q // a
							r = e[64 + 10 * ol + 2 * k1 + (q & 1)]
							r = r if r != 255 and r >= q else -1
					if sg < 0:
						ahead = r
					else:
						behind = r
					sg += 2
				if ahead == -2 or behind == -2:
					if chk:
						ask(4, L, 0, 0)
					r = int(ask(1, L, pp, of))
					ahead = (r & 255) - 1
					behind = (r >> 8) - 1
				if ahead < 0 and behind < 0 and of <= 0:""",
    """					src = 0
			if src:
				top = -1
				if of > 0:
					top = 25
					while top > 0 and not c[top]:
						top -= 1
					if top > 6:
						top = -1
				low = 1
				if c[25] and first:
					low = 25
					behind = -1
				best = 99 if of > 0 else (ahead if ahead > behind else behind)
				again = 0
				src = 26
				way = 2
				if L < R:
					src = v[b + 14] + 1
					skip1 = 1 if v[b + 15] == 2 else 0
		else:
			d = dd[L]
		if quit:
			src = 0
		while src > 0:
			if way == 2:""",
    """				if g > best:
					if g - 1 > best:
						src = 0
						break
					src -= 1
					while src >= low and not mo[src]:
						src -= 1
					if src < low:
						src = 0
						break
					gf = g - 1
				else:
					src -= 1
					if src < low:
						src = 0
						break
					if not c[src]:
						continue
					gf = g - 1 if mo[src] else g
				if gf > best:
					continue
				way = 0
			way += 1
			if skip1:
				skip1 = 0""",
    """				if way == 1 and src == v[b + 14]:
					continue
			if way == 1:
				t = src - d
				if t > 0:
					if ahead < gf:
						continue
					if c[26 + e[t]] >= block:
						continue
				elif of <= 0 or src != d and src != top:
					continue
				else:
					if src != 25 and c[25] and first:
						continue
					if outside:
						continue
					if t < 0:
						q = src + 1
						while q < 7 and not c[q]:
							q += 1
						if q < 7 or not higher:
							continue""",
    """					t = 0
			else:
				t = src + d
				if src == 25 or t > 24 or behind < gf:
					continue
				if c[26 + e[t]] >= block:
					continue
			o = 26 + e[t]
			if t and hitting and c[o] == 1 and tg[o]:
				continue
			gt = gf + 1 if c[t] >= tg[t] else gf
			if again:
				again = 0
				r = int(ask(2, L, pp, of))
				ahead = (r & 255) - 1
				behind = -1 if low == 25 else (r >> 8) - 1
				best = 99 if of > 0 else (ahead if ahead > behind else behind)
			if t:
				if gt > (ahead if way == 1 else behind):
					continue
				pt = pp + t - src""",
    """				ot = of
			else:
				pt = pp - src
				ot = of - 1
				if int(ask(3, L + 1, pt, ot)) - 1 < gt:
					continue
			if L < R and (src != v[b + 14] or way != v[b + 15]):
				R = -1
			v[b + 3] = src
			v[b + 4] = way
			v[b + 5] = gf
			v[b + 6] = ahead + 1
			v[b + 7] = behind + 1
			v[b + 8] = best + 1
			v[b + 9] = top + 1
			v[b + 10] = low
			v[b + 11] = ver
			v[b + 12] = mo[src]
			v[b + 13] = mo[t]
			c[src] -= 1
			h = 0
			if t:
				if c[o] == 1 and hitting:
					c[o] = 0
					c[51] += 1
					h = 1""",
    """				c[t] += 1
				if src > 6:
					if t < 7:
						outside -= 1
				elif t > 6:
					outside += 1
			else:
				c[0] += 1
			ps[L] = src
			pd[L] = t
			ph[L] = h
			pe[L] = d
			mo[src] = 1 if c[src] > tg[src] else 0
			if t:
				mo[t] = 1 if c[t] > tg[t] else 0
			v[b + 16] = gt
			v[b + 17] = pt + 1024
			v[b + 18] = ot + 1024
			L += 1
			entered = 1
			break
		if entered:
			continue
		if L == k0:
			s.outside = outside
			s.depth = k0
			return found
		R = -1
		L -= 1
		b = L << 4""",
    """		src = ps[L]
		t = pd[L]
		if t:
			c[t] -= 1
			if ph[L]:
				c[26 + e[t]] = 1
				c[51] -= 1
			if src > 6:
				if t < 7:
					outside += 1
			elif t > 6:
				outside -= 1
		else:
			c[0] -= 1
		c[src] += 1
		mo[t] = v[b + 13]
		mo[src] = v[b + 12]
		g = v[b]
		pp = v[b + 1] - 1024
		of = v[b + 2] - 1024
		way = v[b + 4]
		gf = v[b + 5]
		ahead = v[b + 6] - 1
		behind = v[b + 7] - 1
		best = v[b + 8] - 1
		top = v[b + 9] - 1
		low = v[b + 10]
		if v[b + 11] != ver:
			again = 1""",
)
# Backwards' chain (BackSearch.chain: where a lifted checker may go on, either way, with the dice
# left) with no rule relaxed: the same steps in the same order, each place reached asked of the
# turn (``ok``: Turn._goes_on, on the board as stepped) unless already in the answer (``mask``: bit
# q for place q, in the search's bytes 44-47 as it begins); returns the mask with the places
# found. A level's step kept in the search's bytes from 48: the place left, reached, the way tried
# last and the hit (four dice at most).
_CHAIN = (
    """@micropython.viper
def back_chain(s, dice, ok, kn: int) -> int:
	c = ptr8(s.c)
	e = ptr8(s.fast)
	mask = e[44] | e[45] << 8 | e[46] << 16 | e[47] << 24
	dd = ptr8(dice)
	been = ptr8(s.been)
	block = e[26]
	first = e[27]
	higher = e[28]
	hitting = e[29]
	outside = int(s.outside)
	n = kn >> 5
	at = kn & 31
	q = 0
	while q < 26:
		been[q] = 0
		q += 1
	j = 0
	way = 0
	while True:
		if way < 2:
			d = dd[j]
			stuck = 0
			if c[25] and first and at != 25:
				stuck = 1
			if way == 0:
				t = at - d
				if t <= 0:
					if stuck or outside:
						t = -1
					elif t < 0:
						q = at + 1""",
    """						while q < 7 and not c[q]:
							q += 1
						t = -1 if q < 7 or not higher else 0
				elif stuck or c[26 + e[t]] >= block:
					t = -1
			else:
				t = at + d
				if at == 25 or stuck or t > 24:
					t = -1
				elif c[26 + e[t]] >= block:
					t = -1
			way += 1
			if t < 0 or (been[t] >> j) & 1:
				continue
			been[t] |= 1 << j
			if j + 1 == n:
				if not (mask >> t) & 1 and int(ok(j)):
					mask |= 1 << t
				continue
			c[at] -= 1
			h = 0
			if t:
				o = 26 + e[t]""",
    """				if c[o] == 1 and hitting:
					c[o] = 0
					c[51] += 1
					h = 1
				c[t] += 1
				if at > 6:
					if t < 7:
						outside -= 1
				elif t > 6:
					outside += 1
			else:
				c[0] += 1
			e[48 + j] = at
			e[52 + j] = t
			e[56 + j] = way
			e[60 + j] = h
			if not (mask >> t) & 1:
				s.outside = outside
				if int(ok(j)):
					mask |= 1 << t
			if t:
				j += 1
				at = t
				way = 0
				continue
		elif j == 0:
			break
		else:
			j -= 1""",
    """		at = e[48 + j]
		t = e[52 + j]
		way = e[56 + j]
		if t:
			c[t] -= 1
			if e[60 + j]:
				c[26 + e[t]] = 1
				c[51] -= 1
			if at > 6:
				if t < 7:
					outside += 1
			elif t > 6:
				outside -= 1
		else:
			c[0] -= 1
		c[at] += 1
	s.outside = outside
	return mask""",
)
deepest_walk = find_walk = back_walk = back_chain = None  # compiled by install (prepared.install_image): an import compiles nothing
EMITTER = None
_deepest = _Search.deepest  # the bytecode's, for every other search
_find = Turn._find
_init = _Search.__init__


def _env(s, size=48):
    """The search's own bytes (made once per search: Turn makes one per turn)."""
    e = getattr(s, "fast", None)
    if e is None:
        e = s.fast = bytearray(size)
        e[0:26] = s.opp
        e[26] = s.block
        e[27] = 1 if s.bar_first else 0
        e[28] = 1 if s.bear_higher else 0
        e[29] = 1 if s.hitting else 0
        if size > 64:
            from bgrules.variants.backwards import most_left  # (filled by the first BackSearch)

            e[64:] = most_left
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


def _made(s, rules):
    """_Search.__init__, and a Backwards search given ``walk`` and ``back_deepest`` in place of
	its own (the variant's module is imported again for each match of it: its class is a new one
	each time)."""
    _init(s, rules)
    s.cut = s.resume = None  # (a Backwards walk cut off, to go on: walk)
    if rules.backwards:
        s._walk = lambda k, gap, pips, off: walk(s, k, gap, pips, off)
        s.deepest = lambda dice, k, n, top, double: back_deepest(s, dice, k, n, top, double)
        s.chain = lambda turn, at, dice, j, used, out: chain(s, turn, at, dice, j, used, out)


def back_deepest(s, dice, k, n, top, double):
    """BackSearch.deepest: steps both ways, from the bar down whatever ``top``."""
    if s.relax or k >= n:
        return type(s).deepest(s, dice, k, n, top, double)
    if s.stop is not None:
        s.stop()
    e = _env(s, 384)
    e[30] = s.outside
    return deepest_walk(s.c, dice, e, k | n << 3 | 25 << 6 | (6144 if double else 4096))


def chain(s, turn, at, dice, j, used, out):
    """BackSearch.chain, from the lifted checker's place (j = 0)."""
    if s.relax or j or not dice:
        return type(s).chain(s, turn, at, dice, j, used, out)
    mask = 0
    for q in out:
        mask |= 1 << q
    e = _env(s, 384)
    e[44] = mask & 255  # (a viper function takes four arguments)
    e[45] = mask >> 8 & 255
    e[46] = mask >> 16 & 255
    e[47] = mask >> 24
    found = back_chain(s, dice, lambda k: 1 if turn._goes_on(dice, k, used) else 0, at | len(dice) << 5) & ~mask
    q = 0
    while found:
        if found & 1:
            out.append(q)
        found >>= 1
        q += 1


def walk(s, k, gap, pips, off):
    """BackSearch._walk. A walk cut off by the clock (its search's ``stop``: companion.prepared,
	checked between two nodes only) leaves in ``s.cut`` where it was: the order of the dice, the
	answers settled and found, and the steps down to the node it was entering; given back as
	``s.resume`` to the same question, the walk goes down those steps again (nothing before them
	walked twice) and on from that node, so the answer is the uncut walk's."""
    dice = s.q_dice
    if s.relax or len(dice) > 4:
        return type(s)._walk(s, k, gap, pips, off)
    turn = s.q_turn
    mode = s.q_mode
    found = s.q_found
    _env(s, 384)
    st = getattr(s, "levels", None)
    if st is None:
        st = s.levels = array("H", bytes(192))
    st[k << 4] = gap
    st[(k << 4) + 1] = pips + 1024
    st[(k << 4) + 2] = off + 1024
    st[94] = st[95] = 0  # (1 + the level of the steps to walk down again; 1 + the level the clock stopped)
    r = s.resume
    if r is not None:
        if r[0] != dice:
            return False  # an order of the dice the cut walk had finished
        s.resume = None
        s.settled = r[1]
        found.extend(r[2])
        s._open(turn, dice)
        path = r[3]
        for j in range(0, len(path), 2):
            st[((k + j // 2) << 4) + 14] = path[j]
            st[((k + j // 2) << 4) + 15] = path[j + 1]
        st[94] = k + len(path) // 2 + 1
    room = s._room
    stop = s.stop
    s.stop = None  # (a cut inside a node's questions could not go on: the walk's checks only)

    def ask(op, j, pips, off):
        if op == 0:
            return s.answer(turn, dice, mode, j)
        if op == 3:
            return room(turn, dice, j, pips, off) + 1
        if op == 4:
            st[95] = j + 1
            stop()
            st[95] = 0
            return 0
        if op == 2:
            s._open(turn, dice)
        d = dice[j]
        return room(turn, dice, j + 1, pips - d, off) + 1 | room(turn, dice, j + 1, pips + d, off) + 1 << 8

    kn = k | len(dice) << 3 | (64 if mode == 1 else 0) | (128 if turn.double else 0) | (256 if stop else 0)
    try:
        return bool(back_walk(s, ask, st, kn))
    except Exception:
        j = st[95] - 1
        if j >= k:  # (the clock: SearchCut)
            s.cut = (dice, s.settled, found[:], bytes(st[(i << 4) + 3 + w] for i in range(k, j) for w in (0, 1)))
        raise
    finally:
        s.stop = stop


def install():
    """The standard search's walks as ``deepest_walk`` and ``find_walk``, Backwards' as
    ``back_walk`` and ``back_chain`` (compiled now) from here on."""
    global deepest_walk, find_walk, back_walk, back_chain, EMITTER
    if deepest_walk is None:
        (deepest_walk, find_walk, back_walk, back_chain), EMITTER = compile_source(
            _SOURCE + (_BACK, _CHAIN), ("deepest_walk", "find_walk", "back_walk", "back_chain"))
    _Search.deepest = deepest
    Turn._find = find
    _Search.__init__ = _made
