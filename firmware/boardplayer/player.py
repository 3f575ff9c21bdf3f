# The board's own player (docs/board-player.md): its play, its cube actions and its answer to a
# resignation, from the net's 0-ply evaluations (boardplayer.net). The standard game and Nackgammon
# only (the net knows their geometry). What it decides is carried out as the PC's decisions are:
# companion.phase_computer receives the same actions, from here instead of the serial line.
#
# The play: every legal play of the roll (the rules engine's search, bgrules.turn, walked here one
# play at a time so that a double's hundreds of plays are never held at once), each final position
# evaluated from the opponent's side as it is about to roll, the best for the mover kept. Money: the
# cubeless equity; a match: the cubeless match winning chances through the match equity table
# (boardplayer.met). A level adds noise to each play's value, the same noise for the same position
# (as GNU Backgammon's deterministic noise), so a weaker level errs where a person might.
#
# The cube: Janowski's cubeful equity (GNU Backgammon's 0-ply formula, eval.c Cl2CfMoney) with a
# cube efficiency x (0.68 in contact, 0.6..0.7 by the pip count in a race, GNU Backgammon's
# settings). In a match the same interpolation is done in match winning chances: the take and cash
# points at the doubled cube from the match equity table and the gammon rates (docs/board-player.md).

from bgrules.position import OPP, BAR
from bgrules.turn import _Search
from boardplayer import met as MET

# Plays valued per slice of thinking (Player.think): one loop step's share. An evaluation takes
# about 3 ms on a Pico, so the loop's scan, LEDs and buttons answer within a slice (the longest
# 23 ms on the emulated Pico with the flash cache modelled, docs/board-player.md) while the board
# thinks; more per slice would shorten the think only by the scans between slices (~2 ms each).
SLICE = 4
CELLS = 52  # a position's cells (bgrules.position)

# (name, noise): the standard deviation (in money equity) of the noise added to each play's value
# (names short enough for the OLED's menu line "Level beginner")
LEVELS = (("expert", 0.0), ("club", 0.05), ("beginner", 0.15))
DEFAULT_LEVEL = "expert"


def level_names():
    return [n for n, _ in LEVELS]


def read_level(text):
    key = (text or "").strip().lower()
    for n, noise in LEVELS:
        if key == n:
            return n
    raise ValueError("no level %r: the levels are %s" % (text, ", ".join(level_names())))


_net = None


def net():
    """The net over the frozen weights, made once (the weights stay where they are, in flash)."""
    global _net
    if _net is None:
        from boardplayer.net import Net
        from boardplayer.net_weights import WEIGHTS

        _net = Net(WEIGHTS)
    return _net


def equity(p):
    """Cubeless money equity of the five outputs (win, win g, win bg, lose g, lose bg)."""
    return 2.0 * p[0] - 1.0 + p[1] - p[3] + p[2] - p[4]


def _win_kind(cells):
    """Points (1, 2, 3) of the mover who has borne off every checker in ``cells``."""
    if cells[OPP]:
        return 1
    if cells[OPP + BAR]:
        return 3
    for p in range(19, 25):  # the opponent's own numbering: the mover's home is its 19..24
        if cells[OPP + p]:
            return 3
    return 2


class Player:
    """The board playing ``side`` of the Match ``m`` at ``level``."""

    def __init__(self, level=DEFAULT_LEVEL, seed=0):
        self.level = read_level(level)
        self.noise = dict(LEVELS)[self.level]
        self.seed = seed & 0xFFFF
        self.net = net()
        self.evaluations = 0  # positions evaluated (the think time's measure)
        # the search's state, made once and kept between loop steps (think): the turn thought
        # about, its best play so far, each level's next point, the first order's plays
        self.turn = None
        self.choice = None
        self._order = -1
        self._s = None
        self._rules = None
        self._best = bytearray(CELLS)
        self._src = bytearray(5)
        self._seen = None

    # --- values of outcomes -----------------------------------------------------------------

    def _outcomes(self, m, side, cube):
        """(win 1, 2, 3 points, lose 1, 2, 3) x ``cube`` for ``side``: points (money) or match
        winning chances (a match)."""
        if not m.length:
            return (cube, 2 * cube, 3 * cube, -cube, -2 * cube, -3 * cube)
        a = m.length - m.score[side]
        b = m.length - m.score[1 - side]
        post = m.post_crawford or m.crawford_game
        return (MET.mwc(a - cube, b, post), MET.mwc(a - 2 * cube, b, post), MET.mwc(a - 3 * cube, b, post),
                MET.mwc(a, b - cube, post), MET.mwc(a, b - 2 * cube, post), MET.mwc(a, b - 3 * cube, post))

    def _value(self, p, v):
        """The cubeless value of outputs ``p`` with outcome values ``v``."""
        return ((p[0] - p[1]) * v[0] + (p[1] - p[2]) * v[1] + p[2] * v[2]
                + (1.0 - p[0] - p[3]) * v[3] + (p[3] - p[4]) * v[4] + p[4] * v[5])

    # --- the play ---------------------------------------------------------------------------

    def choose(self, m):
        """The final cells (bytes, the mover's view) of the play chosen for the Match's turn, or
        None when nothing can be played: the whole search at once (think's slices run to the end)."""
        if not self.begin(m):
            return None
        while not self.think(1 << 30):
            pass
        return self.choice

    def begin(self, m):
        """Start thinking about the Match's turn (its play found slice by slice by ``think``);
        False when nothing can be played (no search: ``choice`` None)."""
        turn = m.turn
        self.turn = turn
        self.choice = None
        n = turn.dice_to_play
        if not n:
            self._order = -1
            return False
        rules = turn.rules
        s = self._s
        if s is None or self._rules is not rules:
            # the player's own search state, apart from the turn's: the tracker goes on judging
            # the board with the turn's while the player thinks between its frames
            s = self._s = (rules.search or _Search)(rules)
            self._rules = rules
        s.double = turn.d1 if turn.double else 0
        self._m = m
        self._v = self._outcomes(m, m.on_roll, m.cube) if m.length else None
        self._best_value = -1e9
        self._found = False
        self._seen = [] if not turn.double else None
        self._n = n
        self._order = 0
        self._start_order()
        return True

    def thinking(self):
        """Whether a search begun is not yet over (main.py collects its garbage as it goes)."""
        return self._order >= 0

    def _start_order(self):
        s = self._s
        s.load(self.turn.start.cells)
        self._dice = self.turn._orders[self._order]
        self._k = 0
        self._src[0] = BAR

    def think(self, plays=SLICE):
        """Go on with the search begun by ``begin`` for at most ``plays`` plays found (each
        valued: one evaluation at most); True when every play has been valued and ``choice``
        holds the best. The same walk as the rules engine's (turn_plays._collect for the
        standard game) with its recursion unrolled onto ``_src`` (a level's next point to move
        from), so that it can stop between any two plays and go on in the next loop step."""
        if self._order < 0:
            return True
        turn = self.turn
        s = self._s
        c = s.c
        n = self._n
        src = self._src
        dice = self._dice
        k = self._k
        double = turn.double
        ordered = double and s.ordered_doubles
        while plays > 0:
            if k < 0:
                # this order of the dice is walked: the other, or the end
                self._order += 1
                if self._order >= len(turn._orders):
                    self._order = -1
                    self._seen = None
                    self.choice = bytes(self._best) if self._found else None
                    return True
                self._start_order()
                dice = self._dice
                k = 0
                continue
            if k == n:
                plays -= 1
                self._leaf(turn, c, n, double)
                k -= 1
                s.pop()
                continue
            d = dice[k]
            p = src[k]
            while p > 0:
                if c[p]:
                    t = s.dest(p, d)
                    if t >= 0:
                        break
                p -= 1
            if p > 0:
                src[k] = p - 1  # the next time at this level: the points below
                s.push(p, t, d)
                k += 1
                if k < n:
                    src[k] = BAR if c[BAR] and s.bar_first else (p if ordered else BAR)
            else:
                k -= 1  # every point of this level tried: back to the one before
                if k >= 0:
                    s.pop()
        self._k = k
        return False

    def _leaf(self, turn, c, n, double):
        """A play found (the search's cells ``c`` its final position): valued unless it is not
        a play (a single die not the one the roll forces) or was found in the other order of
        the dice already."""
        if n == 1 and turn.forced_die and self._s.p_die[0] != turn.forced_die:
            return
        if not double and self._seen_before(c):
            return
        v = self.value_after(c)
        if self.noise:
            v += self.noise * _noise(c, self.seed)
        if v > self._best_value:
            self._best_value = v
            self._best[:] = c
            self._found = True

    def _seen_before(self, c):
        """Whether the play ``c`` of two different dice was found before (in the other order of
        the dice, or by other steps in this order): then it is not valued again. The first
        order's plays are kept as bytes: a copy of 52 bytes a play, compared at C speed by the
        list's ``in`` (the hash and the compare written in Python cost half an evaluation a play
        on a Pico)."""
        key = bytes(c)
        seen = self._seen
        if key in seen:
            return True
        if self._order == 0:
            seen.append(key)
        return False

    def value_after(self, c):
        """The mover's value (money equity, or match winning chances) of the position ``c`` after
        its play (the mover's view, the opponent about to roll)."""
        m = self._m
        if c[0] == 15:
            k = _win_kind(c)
            return self._v[k - 1] if m.length else float(k)
        self.evaluations += 1
        p = self.net.probabilities(c, OPP)  # the opponent's chances, on roll
        if not m.length:
            return -equity(p)
        return self._value((1.0 - p[0], p[3], p[4], p[1], p[2]), self._v)

    # --- the cube -------------------------------------------------------------------------

    def chances(self, m, side):
        """The five outputs for ``side`` in the Match's position before a roll (its own, or the
        opponent's on roll, turned round)."""
        self.evaluations += 1
        p = self.net.probabilities(m.position.cells, 0)
        if m.on_roll == side:
            return p
        return [1.0 - p[0], p[3], p[4], p[1], p[2]]

    def _x(self, cells):
        """The cube efficiency (GNU Backgammon 1.07's: 0.68 in contact; a race by the pips)."""
        back0 = back1 = 0
        pips = 0
        for p in range(1, 26):
            if cells[p]:
                back0 = p
                pips += p * cells[p]
            if cells[OPP + p]:
                back1 = p
        if back0 + back1 > 25:
            return 0.68
        x = 0.55 + 0.00125 * pips
        return 0.6 if x < 0.6 else (0.7 if x > 0.7 else x)

    def cubeful(self, m, side, p, cube, owner, x):
        """Janowski's cubeful value for ``side`` with outputs ``p``, the cube at ``cube`` owned by
        ``owner`` (-1 centred): money equity (in points) or match winning chances."""
        if not m.length:
            jacoby = m.jacoby and owner < 0
            return cube * _money(p, owner, side, x, jacoby)
        v = self._outcomes(m, side, cube)
        dead = self._value(p, v)
        w = (p[0] - p[1]) * v[0] + (p[1] - p[2]) * v[1] + p[2] * v[2]
        w = w / p[0] if p[0] > 1e-7 else v[0]
        lo = 1.0 - p[0]
        l_ = (lo - p[3]) * v[3] + (p[3] - p[4]) * v[4] + p[4] * v[5]
        l_ = l_ / lo if lo > 1e-7 else v[3]
        # the doubled cube's dead values: where the side would drop (tp) and the opponent would
        # (cp), in winning chances
        v2 = self._outcomes(m, side, 2 * cube)
        w2 = (p[0] - p[1]) * v2[0] + (p[1] - p[2]) * v2[1] + p[2] * v2[2]
        w2 = w2 / p[0] if p[0] > 1e-7 else v2[0]
        l2 = (lo - p[3]) * v2[3] + (p[3] - p[4]) * v2[4] + p[4] * v2[5]
        l2 = l2 / lo if lo > 1e-7 else v2[3]
        span = w2 - l2
        if span <= 1e-9 or m.crawford_game:
            return dead  # no cube in the Crawford game
        tp = (v[3] - l2) / span
        cp = (v[0] - l2) / span
        pw = p[0]
        if owner < 0:
            pts = ((0.0, l_), (tp, v[3]), (cp, v[0]), (1.0, w))
        elif owner == side:
            pts = ((0.0, l_), (cp, v[0]), (1.0, w))
        else:
            pts = ((0.0, l_), (tp, v[3]), (1.0, w))
        live = _piecewise(pts, pw)
        return dead * (1.0 - x) + live * x

    def double_decision(self, m, side):
        """(double?, (no double, double take, double pass)) for ``side`` before its roll."""
        p = self.chances(m, side)
        x = self._x(m.position.cells if m.on_roll == side else bytes(m.position.cells[26:] + m.position.cells[:26]))
        owner = m.cube_owner
        nd = self.cubeful(m, side, p, m.cube, owner, x)
        dt = self.cubeful(m, side, p, 2 * m.cube, 1 - side, x)
        dp = self._outcomes(m, side, m.cube)[0]
        return min(dt, dp) > nd, (nd, dt, dp)

    def take_decision(self, m, side):
        """"take", "drop" or "beaver" for ``side``, doubled by the opponent (the cube offered at
        2 x m.cube)."""
        p = self.chances(m, side)
        x = self._x(m.position.cells if m.on_roll == side else bytes(m.position.cells[26:] + m.position.cells[:26]))
        cube = 2 * m.cube
        take = self.cubeful(m, side, p, cube, side, x)
        drop = self._outcomes(m, side, m.cube)[3]
        if take < drop:
            return "drop"
        if not m.length and m.beavers and m.offer + 1 <= m.beavers and take > 0:
            return "beaver"
        return "take"

    def resign_decision(self, m, side, kind):
        """"accept" or "reject" a resignation of ``kind`` (1-3 points x cube) offered to ``side``."""
        p = self.chances(m, side)
        x = self._x(m.position.cells if m.on_roll == side else bytes(m.position.cells[26:] + m.position.cells[:26]))
        keep = self.cubeful(m, side, p, m.cube, m.cube_owner, x)
        offered = self._outcomes(m, side, m.cube)[kind - 1]
        return "accept" if offered >= keep - 1e-6 else "reject"


def _piecewise(pts, x):
    for i in range(1, len(pts)):
        x0, y0 = pts[i - 1]
        x1, y1 = pts[i]
        if x <= x1 or i == len(pts) - 1:
            if x1 - x0 <= 1e-9:
                return y1
            return y0 + (y1 - y0) * (x - x0) / (x1 - x0)
    return pts[-1][1]


def _money(p, owner, side, x, jacoby):
    """GNU Backgammon's Cl2CfMoney (eval.c): Janowski's cubeful equity for the cube's ``owner``
    (-1 centred), normalised to a cube of 1, for the side whose outputs are ``p``."""
    pw = p[0]
    rw = 1.0 + (p[1] + p[2]) / pw if pw > 1e-7 else 1.0
    rl = 1.0 + (p[3] + p[4]) / (1.0 - pw) if pw < 1.0 - 1e-7 else 1.0
    if jacoby:
        dead = 2.0 * pw - 1.0  # Jacoby: no gammons while the cube is in the middle
    else:
        dead = equity(p)
    if owner < 0:
        tp = (rl - 0.5) / (rw + rl + 0.5)
        cp = (rl + 1.0) / (rw + rl + 0.5)
        if pw < tp:
            live = -1.0 if jacoby else -rl + (-1.0 + rl) * pw / tp
        elif pw < cp:
            live = -1.0 + 2.0 * (pw - tp) / (cp - tp)
        else:
            live = 1.0 if jacoby else 1.0 + (rw - 1.0) * (pw - cp) / (1.0 - cp)
    elif owner == side:
        cp = (rl + 1.0) / (rw + rl + 0.5)
        if pw < cp:
            live = -rl + (1.0 + rl) * pw / cp
        else:
            live = (rw * (pw - cp) + (1.0 - pw)) / (1.0 - cp)
    else:
        tp = (rl - 0.5) / (rw + rl + 0.5)
        if pw < tp:
            live = (-rl * (tp - pw) - pw) / tp
        else:
            live = -1.0 + (rw + 1.0) * (pw - tp) / (1.0 - tp)
    return dead * (1.0 - x) + live * x


def _noise(c, seed):
    """A normal deviate (mean 0, deviation 1) fixed by the position ``c`` and the seed: a 16-bit
    hash of the cells, then the sum of four draws of a 16-bit LCG (Irwin-Hall), centred and scaled."""
    h = 0x9DC5 ^ seed  # 16 bits throughout: small ints on the Pico, no allocation
    for b in c:
        h = ((h ^ b) * 4093 + 1) & 0xFFFF
    t = 0
    for _ in range(4):
        h = (h * 25173 + 13849) & 0xFFFF
        t += h
    return (t / 65536.0 - 2.0) * 1.7320508
