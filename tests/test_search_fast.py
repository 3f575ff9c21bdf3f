"""The image's rules searches as machine code (companion.search_fast: viper walks in place of
_Search.deepest, Turn._find and Backwards' BackSearch._walk, deepest and chain) give the bytecode's
answers to every question a board asks: the dice a roll lets a player play (and the die forced when
only one can be), where a board shown mid-turn begins a legal play and with which dice left, where
a lifted checker may land, and the play that ends on a position (its steps, for the journal). The
cases come from random games of the games played with the standard search (the standard game, No
hitting, Mexican, Hypergammon, Portes...) and of Backwards, a checker at a time to a place the
bytecode lights, then of random boards bearing off against closed points, and of a few checkers
among seven closed points (how many dice can be played): entering from the bar, hits, steps back,
bearing off with higher dice, doubles; each board mid-turn and each frame of a checker lifted off
it, legal or not. Compared on CPython (the same source as plain functions) and as viper under a
real MicroPython."""

import pytest

from firmware_script import run_on_cpython, run_on_micropython, seeded_random

CASES = r"""
from bgrules.position import Position, OPP, BAR, OFF
from bgrules.rules import ruleset
from bgrules.turn import Turn, _Search
from companion import search_fast


def step(cells, rules, a, b, h):
    cells[a] -= 1
    if b:
        cells[b] += 1
        if h:
            o = OPP + (rules.across or rules.opposite)[b]
            cells[o] -= 1
            cells[OPP + BAR] += 1
    else:
        cells[OFF] += 1


def bearing_off(rules):
    # the mover's checkers all home, the opponent's points in the mover's home (closed by two)
    cells = bytearray(52)
    n = 1 + rnd(15)
    for _ in range(n):
        cells[1 + rnd(6)] += 1
    cells[OFF] = 15 - n
    opp = rules.opposite
    left = 15
    while left:
        q = 1 + rnd(24)
        k = min(left, 1 + rnd(3))
        if not cells[q]:
            cells[OPP + opp[q]] += k
            left -= k
    return Position(cells)


def boxed(rules):
    # a few of the mover's checkers among seven closed points of the opponent's: steps blocked
    # either way, so that how many dice can be played is a real question
    cells = bytearray(52)
    opp = rules.opposite
    closed = 0
    while closed < 7:
        q = 1 + rnd(24)
        if not cells[OPP + opp[q]]:
            cells[OPP + opp[q]] = 2
            closed += 1
    cells[OPP + OFF] = 1
    n = 1 + rnd(4)
    low = 1 + 12 * rnd(2)  # the home half (bearing off, or stepping back out first) or the far half
    for _ in range(n):
        q = low + rnd(13 if low > 1 else 6)  # (the far half with the bar: steps back to the last points)
        while q < 25 and cells[OPP + opp[q]]:
            q = low + rnd(12 if low > 1 else 6)
        cells[q] += 1
    cells[OFF] = 15 - n
    return Position(cells)


def walked(rules, pos, d1, d2):
    # boards a hand makes mid-turn: a checker at a time to a place the (bytecode) turn lights,
    # from the start a few times over; and the last board of a whole play, if one was made
    t = Turn(pos, d1, d2, rules)
    boards = []
    end = None
    for _ in range(4):
        c = bytearray(pos.cells)
        for _ in range(12):
            options = t.locate(c)
            if not options:
                break
            if b"" in options:
                end = Position(bytes(c))
                break
            p = 1 + rnd(25)
            places = t.destinations(c, p, options) if c[p] else []
            if not places:
                continue
            q = places[rnd(len(places))]
            c[p] -= 1
            if q:
                c[q] += 1
                o = OPP + (rules.across or rules.opposite)[q]
                if q < 25 and rules.hitting and c[o] == 1:
                    c[o] = 0
                    c[OPP + BAR] += 1
            else:
                c[OFF] += 1
            boards.append(bytes(c))
    return boards, end


def cases(key):
    # (rules, start, dice, the boards asked about) of each turn of a random game of ``key``, then
    # of boards bearing off
    rules = ruleset(key)
    pos = rules.start_position()
    game = True
    for turn in range(TURNS + TURNS // 3 + TURNS // 2):
        if turn >= TURNS + TURNS // 3:
            pos = boxed(rules)
        elif turn >= TURNS or not game:
            game = False
            pos = bearing_off(rules)
        d1 = 1 + rnd(6)
        d2 = d1 if rnd(3) == 0 else 1 + rnd(6)  # doubles more often than the dice give them
        boards, end = walked(rules, pos, d1, d2)
        for c in boards[:]:  # a checker lifted: counted off (bearing off), or put one point on
            p = 1 + rnd(25)
            if c[p]:
                w = bytearray(c)
                w[p] -= 1
                w[OFF] += 1
                boards.append(bytes(w))
                if p > 1:
                    w[OFF] -= 1
                    w[p - 1] += 1
                    boards.append(bytes(w))
        yield [(rules, pos, d1, d2, boards)]  # (one turn at a time: a Pico's heap)
        pos = (end or pos).swapped()  # (no whole play made: the turn passes as it stood)
        game = game and pos.cells[OFF] < 15 and pos.cells[OPP + OFF] < 15


def digest(h, answer):
    for ch in repr(answer):
        h = (h * 31 + ord(ch)) & 0xFFFFFF
    return h


def answers(all_cases):
    # per turn a digest of its answers (the lists would not fit a Pico's heap), and how many
    # questions, legal starts and whole plays there were
    out = []
    figures = [0, 0, 0]
    for rules, pos, d1, d2, boards in all_cases:
        t = Turn(pos, d1, d2, rules)
        h = digest(0, (t.dice_to_play, t.forced_die))
        for c in boards:
            cells = bytearray(c)
            for dice in t._orders:  # how many of the dice can be played from this board
                for k in range(2):
                    t._s.load(cells)
                    h = digest(h, t._s.deepest(dice, k, len(dice), BAR, t.double))
            options = t.locate(cells)
            h = digest(h, options)
            figures[1] += 1 if options else 0
            for p in range(26):
                if cells[p]:
                    h = digest(h, t.destinations(cells, p, options))
                    figures[0] += 1
            steps = t._play_steps(cells)
            figures[2] += 1 if steps else 0
            h = digest(h, steps)
        out.append(h)
    return out, figures
"""

SCRIPT = seeded_random(20261129) + CASES + r"""
calls = [0]


def fast_answers(game):
    try:
        search_fast.install()
        real = search_fast.find_walk, search_fast.back_walk

        def counted(*a):
            calls[0] += 1
            return real[0](*a)

        def counted_back(*a):
            calls[0] += 1
            return real[1](*a)

        search_fast.find_walk = counted
        search_fast.back_walk = counted_back
        return answers(game)
    finally:
        search_fast.find_walk, search_fast.back_walk = real
        _Search.deepest = search_fast._deepest
        Turn._find = search_fast._find
        _Search.__init__ = search_fast._init


# the bytecode's walks (a board built earlier in this process, main.App, may have installed the
# machine code's: the plain answers must be the bytecode's)
_Search.deepest = search_fast._deepest
Turn._find = search_fast._find
_Search.__init__ = search_fast._init
turns = differ = 0
figures = [0, 0, 0]
for key in KEYS:
    if ruleset(key).search is None or ruleset(key).backwards:
        for turn in cases(key):
            plain, f = answers(turn)
            turns += 1
            differ += plain != fast_answers(turn)[0]
            figures = [a + b for a, b in zip(figures, f)]
print("search_fast", search_fast.EMITTER, turns, figures[0], differ, figures[1], figures[2], calls[0])
"""

KEYS = ["standard", "nohitting", "mexican", "hypergammon", "portes", "eureka", "backwards"]

# A Backwards question cut off by the clock in its walk and asked again from where it stopped
# (companion.prepared: the next unit of the preparation; search_fast.walk keeps the place in
# ``s.cut`` and is given it back as ``s.resume``) gives the uncut bytecode's answer: where a board
# mid-turn begins a legal play, with which dice left, and the play ending on it. The clock stops
# the walk at every first, second or third check (before a node's questions to the rules, and
# every 8 nodes).
RESUMED = seeded_random(20261130) + CASES + r"""
class Cut(Exception):
    pass


def in_pieces(t, ask, cells, every):
    s = t._s
    n = [0]

    def stop():
        n[0] += 1
        if n[0] % every == 0:
            raise Cut()

    went = 0
    while True:
        s.stop = stop
        try:
            return ask(cells), went
        except Cut:
            assert s.cut is not None  # (cut between two nodes: it can go on)
            s.resume = s.cut
            s.cut = None
            went += 1
        finally:
            s.stop = None


rules = ruleset("backwards")
asked = went = differ = 0
for turn in cases("backwards"):
    for rules, pos, d1, d2, boards in turn:
        plain = Turn(pos, d1, d2, rules)
        want = [(plain.locate(bytearray(c)), plain._play_steps(bytearray(c))) for c in boards]
        search_fast.install()
        try:
            t = Turn(pos, d1, d2, rules)
            for c, w in zip(boards, want):
                every = 1 + rnd(3)
                options, k = in_pieces(t, t.locate, bytearray(c), every)
                t._last = None
                steps, j = in_pieces(t, t._play_steps, bytearray(c), every)
                asked += 1
                went += k + j
                differ += (options, steps) != w
        finally:
            _Search.deepest = search_fast._deepest
            Turn._find = search_fast._find
            _Search.__init__ = search_fast._init
print("resumed", search_fast.EMITTER, asked, went, differ)
"""


def _result(out):
    line = [x for x in out.splitlines() if x.startswith("search_fast ")][-1].split()
    return line[1], [int(v) for v in line[2:]]


def _check(emitter, figures, want_emitter):
    turns, lifts, differ, legal, plays, walks = figures
    assert emitter == want_emitter
    assert differ == 0  # every turn's answers the bytecode's
    assert turns > 300 and lifts > 20 * turns  # the cases are real games' boards
    assert legal > turns and plays > turns // 2  # legal starts and whole plays among them
    assert walks > lifts // 4  # the machine code answered them (not the bytecode behind it)


def test_the_fast_search_answers_as_the_bytecode(tmp_path):
    script = "TURNS = 150\nKEYS = %r\n" % KEYS + SCRIPT
    emitter, figures = _result(run_on_cpython(script, tmp_path))
    _check(emitter, figures, "python")


@pytest.mark.micropython
def test_the_fast_search_as_viper_machine_code_answers_as_the_bytecode():
    script = "TURNS = 60\nKEYS = %r\n" % KEYS + SCRIPT
    emitter, figures = _result(run_on_micropython(script))
    _check(emitter, figures, "viper")


def _resumed(out):
    line = [x for x in out.splitlines() if x.startswith("resumed ")][-1].split()
    return line[1], [int(v) for v in line[2:]]


def test_a_backwards_search_cut_off_goes_on_where_it_stopped(tmp_path):
    emitter, (asked, went, differ) = _resumed(run_on_cpython("TURNS = 200\n" + RESUMED, tmp_path))
    assert emitter == "python"
    assert asked > 1000 and went > asked // 4  # a search in four cut off at least once
    assert differ == 0


@pytest.mark.micropython
def test_a_backwards_search_cut_off_goes_on_where_it_stopped_as_viper():
    emitter, (asked, went, differ) = _resumed(run_on_micropython("TURNS = 60\n" + RESUMED))
    assert emitter == "viper"
    assert asked > 300 and went > asked // 4
    assert differ == 0
