"""Issue 33, prepare at the roll and answer by lookup: every answer the prepared table gives
(companion.prepared) is the one the rules engine gives when asked today (design principle 4's
search to the first witness): where a position begins the turn (Turn.locate), where a lifted
checker may land (Turn.destinations, per source), whether the frame with a checker lifted is
itself legal, and the play DONE names. Checked on positions of random games of every ruleset,
under CPython and under a real MicroPython, against a Turn of the same roll that was never
prepared; and the table's size stays within its bound."""
import os
import random
import sys

import pytest

from bgrules import Position, Turn
from bgrules.position import BAR, waiting
from bgrules.rules import VARIANTS, ruleset
from companion import prepared as P
from companion.prepared import Prepared

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "scripts", "bench"))
from bench_variants import after_steps  # noqa: E402


def game_turns(key, count, seed):
    """(start cells, d1, d2, a play's positions after each step) of random games of ``key``."""
    rules = ruleset(key)
    T = rules.turn or Turn
    rng = random.Random(seed)
    out = []
    for _game in range(50):
        pos = rules.start_position()
        for _ in range(300):
            a, b = rng.randint(1, 6), rng.randint(1, 6)
            turn = T(pos, a, b, rules)
            plays = turn.plays()
            if plays and turn.dice_to_play:
                play = rng.choice(plays)
                path = [bytes(after_steps(pos, play.steps[:k], rules).cells) for k in range(1, len(play.steps) + 1)]
                out.append((bytes(pos.cells), a, b, path))
                if len(out) == count:
                    return out
            before = pos
            if plays:
                pos = rng.choice(plays).position
            if rules.result(before, pos):
                break
            pos = rules.after(before, pos) if rules.pinning else pos.swapped()
    return out


# The comparison, one program for CPython (exec) and for a real MicroPython (a Pico-sized heap):
# for each case "KEY D1 D2 START-HEX PATH-HEX,...", the table prepared as the board would (from
# the start, then from each step of the play), then every answer it holds asked of it and of a
# Turn of the same roll that was never prepared. Prints "case KEY mismatches lookups nodes bytes".
PROGRAM = r"""
import gc
from binascii import unhexlify
from bgrules import Turn
from bgrules.position import Position, waiting
from bgrules.rules import ruleset
from companion import prepared as P

def prepare(turn, start, path, units):
    known = bytearray(start)
    prep = P.Prepared(turn, known, waiting(start))
    every = globals().get("CUT_EVERY", 0)
    if every:
        # searches cut off as by the deadline, at every ``every``-th node asked (deterministic)
        asked = [0]
        def stop():
            asked[0] += 1
            if asked[0] % every == 0:
                raise P.SearchCut()
        prep.stop = stop
    for at in [start] + path:
        known[:] = at
        k = 0
        while k < units // (len(path) + 1) and prep.step():
            k += 1
    return prep, known

def compare(key, a, b, start, path, units=4000):
    rules = ruleset(key)
    T = rules.turn or Turn
    turn = T(Position(bytearray(start)), a, b, rules)
    gc.collect()
    m0 = gc.mem_alloc() if hasattr(gc, "mem_alloc") else 0
    prep, known = prepare(turn, start, path, units)
    gc.collect()
    size = gc.mem_alloc() - m0 if hasattr(gc, "mem_alloc") else 0  # the table, held
    fresh = T(Position(bytearray(start)), a, b, rules)
    bad = []
    before = prep.hits
    for cells in list(prep.nodes):
        node = prep.nodes[cells]
        c = bytearray(cells)
        if prep.locate(c) != fresh.locate(c):
            bad.append(("locate", cells))
        if len(node) == 1:
            continue  # (not legal, or not prepared: P.NOT_LEGAL, P.CUT)
        opts = fresh.locate(c)
        for p in range(26):
            # (a lift whose frame or places were not prepared, cut off, is asked of the engine:
            # its steps back looked up in the table)
            if (c[p] or node[P.HEAD + 5 * p + 4] < P.ASK) and prep.destinations(c, p, opts) != fresh.destinations(c, p, opts):
                bad.append(("destinations", cells, p))
            if c[p] and node[P.HEAD + 5 * p + 4] < P.ASK:
                known[:] = c
                w = bytearray(c)
                w[p] -= 1
                if not waiting(start):
                    w[0] += 1
                if prep.locate(w) != fresh.locate(w):
                    bad.append(("lifted", cells, p))
        if node[4] < P.ASK:
            fresh._last = None
            if prep.is_legal(c) != fresh.is_legal(c) or turn.play_to(c).steps != fresh.play_to(c).steps:
                bad.append(("play", cells))
    for cells in list(prep.nodes):  # (a position no legal play ends on, not legal or not complete: looked up)
        fresh._last = turn._last = None
        if prep.is_legal(bytearray(cells)) != fresh.is_legal(bytearray(cells)):
            bad.append(("is_legal", cells))
    return bad, prep.hits - before, prep, size

for line in open(CASES):
    f = line.split()
    path = [bytes(unhexlify(x)) for x in f[4].split(",")] if len(f) > 4 else []
    bad, hits, prep, size = compare(f[0], int(f[1]), int(f[2]), bytes(unhexlify(f[3])), path)
    print("case %s %d %d %d %d %d %d %s" % (f[0], len(bad), hits, len(prep.nodes), size, prep.cuts, prep.went_on, bad[:2]))
"""


def case_lines(keys, count, seed=33):
    out = []
    for key in keys:
        for start, a, b, path in game_turns(key, count, seed):
            out.append("%s %d %d %s %s\n" % (key, a, b, start.hex(), ",".join(c.hex() for c in path)))
    return out


def run_cpython(lines, tmp_path, cut_every=0, walks=False):
    """The comparison's rows; ``walks``: with the image's searches (companion.search_fast, as
    plain functions here), whose Backwards walks cut off go on in the next unit."""
    data = tmp_path / "cases.txt"
    data.write_text("".join(lines))
    import io
    from contextlib import redirect_stdout

    from bgrules.turn import _Search
    from companion import search_fast

    buf = io.StringIO()
    try:
        if walks:
            search_fast.install()
        with redirect_stdout(buf):
            exec(compile(PROGRAM, "prepared_check", "exec"), {"CASES": str(data), "__name__": "check",
                                                              "CUT_EVERY": cut_every})
    finally:
        _Search.deepest = search_fast._deepest
        Turn._find = search_fast._find
        _Search.__init__ = search_fast._init
    return [line.split(" ", 8) for line in buf.getvalue().splitlines()]


def one_unit_per_step(monkeypatch):
    """Prepared.step() does one unit, and no unit is cut off by the host's clock: beside two
    emulator runs a search of a few ms on this machine was cut off (UNIT_US) and its question
    left to the engine, which these tests count. The cut-offs have tests of their own."""
    monkeypatch.setattr(P, "STEP_US", 0)
    monkeypatch.setattr(P, "UNIT_US", 10 ** 9)


def rulesets():
    return sorted(VARIANTS)


@pytest.mark.parametrize("key", rulesets())
def test_prepared_answers_are_the_rules_engines_answers(key, tmp_path):
    """Every prepared answer of 8 turns of random games of the ruleset equals a fresh Turn's."""
    rows = run_cpython(case_lines([key], 8), tmp_path)
    assert len(rows) == 8
    for row in rows:
        assert row[2] == "0", row
        assert int(row[4]) <= P.NODES
    assert sum(int(r[3]) for r in rows) > 0, "the table answered nothing: the engine was compared with itself"


@pytest.mark.micropython
def test_prepared_answers_under_micropython_in_a_pico_heap(tmp_path):
    """The same comparison under a real MicroPython, every ruleset, in a Pico-sized heap; the
    table held after preparing a turn stays within its bound (measured: bytes allocated and kept)."""
    from bgc.pico import upy

    lines = case_lines(rulesets(), 3)
    data = tmp_path / "cases.txt"
    data.write_text("".join(lines))
    out = upy.run("CASES = 'cases.txt'\n" + PROGRAM, [upy.FIRMWARE_DIR, str(data)])
    rows = [line.split(" ", 8) for line in out.splitlines() if line.startswith("case ")]
    assert len(rows) == len(lines), out[-2000:]
    for row in rows:
        assert row[2] == "0", row
        if upy.heap_scale() == 1:  # 32-bit objects: a Pico's bytes
            assert int(row[5]) <= TABLE_BOUND, row
    assert sum(int(r[3]) for r in rows) > 0


@pytest.mark.parametrize("key", ["standard", "backwards", "ludus", "longnardy", "plakoto"])
def test_a_search_cut_off_leaves_its_question_to_the_engine(key, tmp_path):
    """A unit's search cut off by its deadline (UNIT_US; here at every 7th node it asks) stores
    nothing of that question: every answer the table gives is still the engine's, the cut ones
    are asked when a player asks them, and the searches after a cut start clean."""
    rows = run_cpython(case_lines([key], 6), tmp_path, cut_every=7)
    assert len(rows) == 6
    for row in rows:
        assert row[2] == "0", row
    assert sum(int(r[6]) for r in rows) > 0, "no search was cut off"
    assert sum(int(r[3]) for r in rows) > 0, "the table answered nothing"


def test_a_backwards_search_cut_off_goes_on_in_the_next_unit(tmp_path):
    """With the image's walks (companion.search_fast), a Backwards search cut off by the deadline
    (here at every 7th check) goes on in the next unit from where it stopped, up to GOES_ON units:
    a question its unit could not finish is still prepared, not left to the lift (on the emulated
    Pico the lifts that asked the engine such questions were Backwards' worst, up to 19 ms), and
    every answer the table gives is still the engine's."""
    lines = case_lines(["backwards"], 8)
    went = given_up = 0
    for row in run_cpython(lines, tmp_path, cut_every=7, walks=True):
        assert row[2] == "0", row
        given_up += int(row[6])
        went += int(row[7])
    assert went > 20, "no search went on"
    plain = sum(int(r[6]) for r in run_cpython(lines, tmp_path, cut_every=7))
    assert given_up < plain // 2, (given_up, plain)  # most of the cut questions prepared


@pytest.mark.parametrize("key", ["standard", "backwards", "plakoto", "longnardy", "ludus"])
def test_a_unit_asks_the_rules_one_question(key, monkeypatch):
    """Each unit of preparation asks the rules engine one question at most (a locate or DONE's
    play), so the deadline that lets the longest single search through never cuts a lift's
    destinations short: their steps back toward where the checker came from (Turn.destinations'
    step-back rule, a whole search each) are looked up in the table, a step back not there yet
    being placed by a unit of its own first. Before, a lift's destinations made one search per
    step back inside a single unit: on the Pico those were most of the units cut off, and each
    such lift then went to the engine (issue 33, docs/performance.md)."""
    one_unit_per_step(monkeypatch)
    rules = ruleset(key)
    T = rules.turn or Turn
    asked = [0]
    most = 0
    units = 0
    for start, a, b, path in game_turns(key, 8, 33):
        turn = T(Position(bytearray(start)), a, b, rules)
        for name in ("locate", "_play_steps"):
            def counted(*args, _f=getattr(turn, name)):
                asked[0] += 1
                return _f(*args)
            setattr(turn, name, counted)
        known = bytearray(start)
        prep = Prepared(turn, known, waiting(start))
        for at in [start] + path:
            known[:] = at
            for _ in range(400):
                asked[0] = 0
                if not prep.step():
                    break
                if len(prep.nodes) < P.NODES:  # (a full table asks for a step back in the unit)
                    most = max(most, asked[0])
                    units += 1
    assert units > 100
    assert most == 1, "a unit asked the rules %d questions" % most


def test_a_unit_looks_through_the_places_of_one_source_at_most(monkeypatch):
    """A unit is a few ms at most on the Pico, so that a lift coming meanwhile waits little: the
    unit that finds a node's next child not yet in the table looks through one source's places
    (a landed position made and looked up for each). Before, when the children were all there
    already (the table's breadth-first order reaches most of them from elsewhere) one unit looked
    through all 26 sources' places: loop steps of 22-32 ms on the emulated Pico."""
    one_unit_per_step(monkeypatch)
    start = Position.start()
    turn = Turn(start, 6, 5)
    known = bytearray(start.cells)
    prep = Prepared(turn, known, 0)
    sources = []
    real = prep._landed

    def landed(key, p, q):
        sources.append(p)
        return real(key, p, q)

    prep._landed = landed
    units = most = 0
    while prep.step() and units < 2000:
        units += 1
        most = max(most, len(set(sources)))
        sources.clear()
    assert units < 2000 and prep.done()
    assert most == 1, "a unit looked through the places of %d sources" % most


def test_cheap_units_share_a_loop_step(monkeypatch):
    """Units that take little (a lift's frame: ~1.4 ms on the Pico) share a loop step until it
    has taken STEP_US, so the scan's 2 ms of each loop step is paid once for several; none is
    begun once STEP_US has gone (each may take UNIT_US more: the step's worst)."""
    clock = [0]
    monkeypatch.setattr(P, "ticks_us", lambda: clock[0])
    start = Position.start()
    prep = Prepared(Turn(start, 6, 5), bytearray(start.cells), 0)
    real = prep._next
    began = []

    def unit():
        began.append(clock[0])
        clock[0] += 700  # each unit takes 0.7 ms of the board's clock
        return real()

    prep._next = unit
    t = clock[0]
    assert prep.step()
    assert len(began) == 3 and all(b - t < P.STEP_US for b in began), began
    assert clock[0] - t >= P.STEP_US


def test_a_position_not_prepared_is_asked_of_the_engine():
    """A lookup of a position the table has not prepared yet is today's answer (the fallback)."""
    start = Position.start()
    turn = Turn(start, 6, 5)
    prep = Prepared(turn, bytearray(start.cells), 0)  # nothing prepared yet
    mid = after_steps(start, ((24, 18, 0),), ruleset("standard")).cells
    assert prep.locate(mid) == [b"\x05"]
    assert prep.destinations(mid, 18, [b"\x05"]) == [13, 24]  # on with the 5, or back
    assert prep.misses == 2 and prep.hits == 0


def test_the_start_lifts_are_prepared_first_and_answered_by_lookup():
    """After a few units at the roll, a lift from any point of the start is a lookup: the
    position the board shows is prepared before any other."""
    start = Position.start()
    turn = Turn(start, 6, 5)
    known = bytearray(start.cells)
    prep = Prepared(turn, known, 0)
    units = 0
    while not prep.done():
        assert prep.step()
        units += 1
    assert units <= 40
    fresh = Turn(start, 6, 5)
    for p in (24, 13, 8, 6):
        assert prep.destinations(known, p, prep.locate(known)) == fresh.destinations(start.cells, p)
    assert prep.misses == 0


@pytest.mark.parametrize("key, dice", [("standard", (6, 5)), ("backwards", (4, 2)), ("aceydeucey", (3, 1))])
def test_the_frame_of_each_lift_from_the_board_is_answered_by_lookup(key, dice):
    """A checker lifted from any point of the prepared board: the frame without it (the checker
    counted borne off; where checkers wait beside the board, one more waiting) is answered from
    the table, as the rules answer it, before its destinations are."""
    rules = ruleset(key)
    start = rules.start_position()
    T = rules.turn or Turn
    turn = T(start, dice[0], dice[1], rules)
    if key == "aceydeucey":  # (a checker entered first: then there are points to lift from)
        start = after_steps(start, ((25, 25 - dice[0], 0),), rules)
        turn = T(rules.start_position(), dice[0], dice[1], rules)
    known = bytearray(start.cells)
    prep = Prepared(turn, known, waiting(rules.start_position().cells))
    while not prep.done():
        assert prep.step()
    fresh = T(rules.start_position(), dice[0], dice[1], rules)
    lifts = 0
    for p in range(1, 26):
        if not known[p]:
            continue
        frame = bytearray(known)
        frame[p] -= 1
        if not waiting(rules.start_position().cells):
            frame[0] += 1
        before = prep.hits
        assert prep.locate(frame) == fresh.locate(frame), p
        assert prep.hits == before + 1, "the frame of a lift from %d went to the engine" % p
        lifts += 1
    assert lifts >= 1 and prep.misses == 0


SPREAD = Position.from_points([0, 2, 2, 2, 2, 2, 2, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0],
                              [2, 2, 2, 2, 2, 2, 0, 0, 0, 0, 0, 0, 3, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0])
# The most a turn's table holds on a Pico (32-bit objects): NODES positions of ~280 B
TABLE_BOUND = 36 * 1024


def test_the_table_is_bounded_on_the_costliest_doubles(tmp_path):
    """1-1 from a spread position: far more partial positions than NODES; the table stops there
    and what it holds is still exact."""
    rows = run_cpython(["standard 1 1 %s \n" % bytes(SPREAD.cells).hex()], tmp_path)
    assert rows[0][2] == "0" and int(rows[0][4]) == P.NODES and int(rows[0][3]) > 0


@pytest.mark.micropython
def test_the_table_of_the_costliest_doubles_fits_its_bound_under_micropython(tmp_path):
    """The full table (NODES positions) measured in a Pico-sized heap of a real MicroPython:
    the costliest case for memory, every position a legal partial play of a double."""
    from bgc.pico import upy

    data = tmp_path / "cases.txt"
    data.write_text("standard 1 1 %s \n" % bytes(SPREAD.cells).hex())
    out = upy.run("CASES = 'cases.txt'\n" + PROGRAM, [upy.FIRMWARE_DIR, str(data)])
    row = [line.split(" ", 8) for line in out.splitlines() if line.startswith("case ")][0]
    assert row[2] == "0" and int(row[4]) == P.NODES
    assert int(row[5]) > 0, row
    if upy.heap_scale() == 1:  # 32-bit objects: the bytes a Pico's table takes (a 64-bit build's are larger)
        assert int(row[5]) <= TABLE_BOUND, row


def test_a_position_whose_answer_the_table_cannot_hold_is_asked_not_refused():
    """When the table's list of distinct answers is full, a position's answer is not stored: the
    lookup asks the engine (a legal start of the play stays legal), it is not taken for an
    illegal one (the first round kept it as 'not legal': a lift of the start lit nothing)."""
    start = Position.start()
    turn = Turn(start, 6, 5)
    prep = Prepared(turn, bytearray(start.cells), 0)
    prep.opts.extend([bytes((9, k)) for k in range(200)])  # full: no answer of this roll fits
    assert prep.step()
    assert prep.locate(bytearray(start.cells)) == Turn(start, 6, 5).locate(start.cells) != []
    assert prep.misses == 1
    assert prep.done()  # nothing more to prepare there: its questions go to the engine


# French 2 (fr38's case, from the whole game of tests/test_variants_board.py): the mover has
# checkers on 1 and 4 and one on the bar, the opponent on its 2, 7 and 8; 2-1 is rolled and the
# bar checker entered with the 1 on the 12 point (13 - 1). The checker on 4 may then go on with
# the 2 to the 2 point; the board refused that play as illegal.
FRENCH2_START = bytes([12, 1, 0, 0, 1] + [0] * 20 + [1] + [12, 0, 1, 0, 0, 0, 0, 1, 1] + [0] * 17)


@pytest.mark.parametrize("key, start, dice, entered", [
    ("standard", bytes(Position.start().cells), (6, 5), None),
    ("french2", FRENCH2_START, (2, 1), (BAR, 12)),
], ids=["standard-start-6-5", "french2-entered-2-1"])
def test_a_lift_asked_between_two_units_of_its_preparation_is_the_engines(key, start, dice, entered, monkeypatch):
    """Where a lifted checker may land (Turn.destinations: the rules' moves of the dice left) is
    the engine's answer after every unit of preparation, not only once the table is done. A
    lift is prepared in two units, the frame with the checker gone and then its places: a lift
    asked between the two (a hand faster than the idle loop steps) was answered "nowhere" from
    the places not yet written, so the checker's legal move was refused as illegal (found in
    French 2's whole game on the virtual board: 4 to 2 with the 2 after entering with the 1;
    here the entered checker's own lift, 12 on to 10 or back to the bar, is asked first)."""
    one_unit_per_step(monkeypatch)  # one unit per step: asked after each
    rules = ruleset(key)
    T = rules.turn or Turn
    turn = T(Position(bytearray(start)), dice[0], dice[1], rules)
    fresh = T(Position(bytearray(start)), dice[0], dice[1], rules)
    known = bytearray(start)
    if entered:
        known[entered[0]] -= 1
        known[entered[1]] += 1
    prep = Prepared(turn, known, waiting(start))
    asked = 0
    while not prep.done():
        assert prep.step()
        opts = fresh.locate(known)
        assert opts, "the board's position must begin a legal play"
        for p in range(1, 26):
            if known[p]:
                assert prep.destinations(known, p, opts) == fresh.destinations(known, p, opts), (p, prep.units)
                asked += 1
    assert prep.hits > 0, "the table answered nothing: the engine was compared with itself"
    assert asked


@pytest.mark.micropython
def test_the_mpy_deploy_prepares_nothing_where_its_code_would_take_the_heap(tmp_path):
    """The .mpy deploy holds its code in the heap: there the answers are not prepared (the module
    and its table would take a Tavli match below the in-play floor, tests/test_heap_budget.py),
    and the lifts ask the rules. From source (the host, the frozen image) they are."""
    import shutil

    from bgc import FIRMWARE_DIR
    from bgc.pico.upy import run
    from firmware_script import compile_with_mpy_cross

    program = "import companion.controller as c\nprint('prepares', c.PREPARES)\n"
    deploy = tmp_path / "firmware"
    shutil.copytree(FIRMWARE_DIR, deploy)
    compile_with_mpy_cross(str(deploy / "companion" / "controller.py"), deploy / "companion")
    os.remove(deploy / "companion" / "controller.py")
    assert "prepares False" in run(program, sources=[str(deploy)])
    assert "prepares True" in run(program, sources=[FIRMWARE_DIR])


def test_where_a_lifted_checker_may_land_is_prepared_while_the_hand_holds_it(monkeypatch):
    """Once a lift is answered (its places looked up), the next units place the positions that
    checker may land on, whatever the breadth-first order had reached: the hand carries it for a
    few hundred ms, and its placement is then a lookup. Before, those positions waited for every
    other lift of the board's position and their places (from the 24 point down): in the
    emulated standard match most of the lookups missed were such placements, each a whole search
    at the moment the checker was put down. Here 6-5 from the start, the 8 point's checker
    lifted once the start's lifts are prepared: its two places (3 and 2) are placed by the next
    two units, and both placements are then answered by lookup, the engine's answers."""
    one_unit_per_step(monkeypatch)
    start = Position.start()
    turn = Turn(start, 6, 5)
    known = bytearray(start.cells)
    prep = Prepared(turn, known, 0)
    node = None
    while node is None or node[1] != P.TODO:  # the start's lifts prepared, their places not yet
        assert prep.step()
        node = prep.nodes.get(bytes(known))
        node = node if node is not None and len(node) > 1 else None
    places = prep.destinations(known, 8, prep.locate(known))
    assert places == Turn(start, 6, 5).destinations(start.cells, 8) == [2, 3]
    assert prep.step() and prep.step()
    fresh = Turn(start, 6, 5)
    misses = prep.misses
    for q in (3, 2):
        landed = bytearray(start.cells)
        landed[8] -= 1
        landed[q] += 1
        assert prep.locate(landed) == fresh.locate(landed) != []
    assert prep.misses == misses, "a placement of the lifted checker went to the engine"


def test_a_lift_asked_again_when_the_checker_is_put_down_is_not_asked_twice():
    """When the lifted checker is put down the tracker asks where it could go again (which
    checker moved): the lift's answer, looked up or asked of the engine when the lift came
    before its preparation, answers it. Found in the emulated standard match: a lift asked of the
    engine, then its placement asked the same question of the engine again, ~3 ms more in the
    slowest placements (issue 33)."""
    start = Position.start()
    turn = Turn(start, 6, 5)
    known = bytearray(start.cells)
    prep = Prepared(turn, known, 0)  # nothing prepared yet: the hand was quicker
    options = prep.locate(known)
    places = prep.destinations(known, 13, options)
    assert prep.misses == 2  # (the board's locate and the lift: the engine's)
    assert prep.destinations(known, 13, options) == places == Turn(start, 6, 5).destinations(start.cells, 13)
    assert prep.misses == 2 and prep.hits == 1
    # another lift is another question
    assert prep.destinations(known, 8, options) == Turn(start, 6, 5).destinations(start.cells, 8)
    assert prep.misses == 3


def prepare_until_done(prep):
    """Units until Prepared.done() (the board's position and what it may show next prepared)."""
    for _ in range(300):
        if prep.done():
            return
        assert prep.step()
    assert prep.done()


@pytest.mark.parametrize("key", ["standard", "backwards"])
def test_a_stack_read_as_five_or_more_is_prepared_down_to_where_its_lifts_show(key, monkeypatch):
    """A point of six or more reads "five or more" (companion.tracker), so the board's next frame
    after lifts from it shows them all at once, once four are left: here 8 on the one point,
    2-2 to bear off, three off unseen and the fourth lifted. That frame's questions (is four off a
    legal start, is three off one, where may a checker from the one point go from there) are
    looked up once the board's position is prepared (Prepared.done). Found in the emulated
    Backwards match: such a frame asked the engine three questions, 19.5 ms (issue 33)."""
    one_unit_per_step(monkeypatch)  # one unit per step: no more than done() asks for
    rules = ruleset(key)
    cells = bytearray(52)
    cells[0] = 7
    cells[1] = 8
    cells[P.OPP + 19] = 15 if key == "standard" else 0
    if key == "backwards":
        cells[P.OPP + 6] = 15
    start = Position(cells)
    turn = Turn(start, 2, 2, rules)
    fresh = Turn(start, 2, 2, rules)
    known = bytearray(cells)
    prep = Prepared(turn, known, 0)
    prepare_until_done(prep)
    misses = prep.misses
    off = []
    for j in (3, 4):
        c = bytearray(cells)
        c[1] -= j
        c[0] += j
        off.append(c)
        assert prep.locate(c) == fresh.locate(c) != []
    assert 0 in prep.destinations(off[0], 1, fresh.locate(off[0])) == fresh.destinations(off[0], 1)
    assert prep.misses == misses, "the frame after lifts the sensors could not see went to the engine"


def test_the_position_after_a_checker_borne_off_is_prepared_before_the_next_lift_shows_it(monkeypatch):
    """A checker borne off is put nowhere: the board's position stands until the next lift, whose
    frame then shows both gone. Once the hand holds a checker that may go off, the position with it
    off and its lifts are prepared with the board's own, so that frame is looked up (found in the
    emulated Backwards match, 5-1: 16 ms when asked of the engine, issue 33)."""
    one_unit_per_step(monkeypatch)  # one unit per step: no more than done() asks for
    cells = bytearray(52)
    cells[0] = 2
    cells[1], cells[2], cells[3], cells[4], cells[5], cells[6] = 5, 2, 2, 2, 1, 1
    cells[P.OPP + 6] = 15
    start = Position(cells)
    turn = Turn(start, 5, 1)
    fresh = Turn(start, 5, 1)
    known = bytearray(cells)
    prep = Prepared(turn, known, 0)
    options = prep.locate(known)
    assert 0 in prep.destinations(known, 5, options)  # the hand holds the 5 point's checker
    prepare_until_done(prep)
    misses = prep.misses
    gone = bytearray(cells)
    gone[5] -= 1
    gone[0] += 1  # borne off, nothing placed: the board's position stands
    both = bytearray(gone)
    both[1] -= 1
    both[0] += 1  # the next lift, from the one point, shows both gone
    assert prep.locate(gone) == fresh.locate(gone) != []
    assert prep.locate(both) == fresh.locate(both)
    assert prep.destinations(gone, 1, fresh.locate(gone)) == fresh.destinations(gone, 1)
    assert prep.misses == misses, "the frame after a checker borne off went to the engine"


def test_a_checker_held_that_may_go_off_shares_the_units_with_the_position_it_leaves(monkeypatch):
    """In Backwards a checker lifted in the home board may land on many points (forward, backward,
    off): placing them all, then the board's own lifts, took the units of the whole time the hand
    carried it, and a checker borne off is put nowhere, so the next lift's frame (both gone) came
    before the position with it off was prepared: 16 ms asked of the engine in the emulated
    Backwards match (5-1, issue 33). The two now take turns: by the time every place of the held
    checker is placed, the next lifts from the 6 and 4 points after the bear-off are looked up."""
    one_unit_per_step(monkeypatch)
    rules = ruleset("backwards")
    cells = bytearray(52)
    cells[0] = 2
    cells[1], cells[2], cells[3], cells[4], cells[5], cells[6] = 5, 2, 2, 2, 1, 1
    cells[P.OPP + 6] = 15
    start = Position(cells)
    turn = Turn(start, 5, 1, rules)
    fresh = Turn(start, 5, 1, rules)
    known = bytearray(cells)
    prep = Prepared(turn, known, 0)
    options = prep.locate(known)
    places = prep.destinations(known, 5, options)
    assert 0 in places and len(places) >= 6  # off, and on points forward and backward
    for _ in range(100):
        if all(prep._landed(bytes(known), 5, q) in prep.nodes for q in places):
            break
        assert prep.step()
    gone = bytearray(cells)
    gone[5] -= 1
    gone[0] += 1  # borne off, nothing placed: the board's position stands
    misses = prep.misses
    for p in (6, 4):  # (each the frame of a next lift while the hand still held the one gone)
        both = bytearray(gone)
        both[p] -= 1
        both[0] += 1  # the next lift shows both gone
        assert prep.locate(both) == fresh.locate(both)
    for p in (6, 4):
        assert prep.destinations(gone, p, fresh.locate(gone)) == fresh.destinations(gone, p)
    assert prep.misses == misses, "the next lift after the bear-off went to the engine"


@pytest.mark.parametrize("key, dice, held, stack", [("standard", (6, 5), 13, 7), ("backwards", (5, 5), 6, 1)])
def test_the_next_lift_after_a_checker_set_down_unseen_on_a_stack_of_five_is_answered_by_lookup(
        key, dice, held, stack, monkeypatch):
    """A checker set down on a point of five or more is not seen (the point reads "five or
    more"), so the board's position stands until the next lift, whose frame shows both checkers
    gone: the tracker asks first whether both are borne off, a search that finds nothing when the
    held one may not bear off (standard 6-5 from the 13 point onto the 7, Backwards 5-5 from the
    6 onto the 1). Those frames were asked of the engine: the emulated Backwards match's three
    slowest lifts (11.6 ms, issue 33). They are now prepared while the hand holds the checker,
    each answer the engine's."""
    one_unit_per_step(monkeypatch)  # one unit per step: no more than done() asks for
    rules = ruleset(key)
    T = rules.turn or Turn
    cells = bytearray(52)
    if key == "backwards":
        cells[0], cells[1], cells[2], cells[3], cells[4], cells[6] = 2, 5, 2, 2, 2, 2
        cells[P.OPP + 6] = 15
    else:
        cells[6], cells[7], cells[8], cells[13] = 5, 5, 3, 2
        cells[P.OPP + 19] = 15
    start = Position(cells)
    turn = T(start, dice[0], dice[1], rules)
    fresh = T(start, dice[0], dice[1], rules)
    known = bytearray(cells)
    prep = Prepared(turn, known, 0)
    places = prep.destinations(known, held, prep.locate(known))
    assert stack in places and 0 not in places and known[stack] >= 5  # the hand holds it; it may not go off
    prepare_until_done(prep)
    misses = prep.misses
    asked = 0
    for p in range(1, 26):
        if known[p] > (p == held):
            frame = bytearray(known)
            frame[held] -= 1
            frame[p] -= 1
            frame[0] += 2  # the next lift: both gone, read as borne off
            assert prep.locate(frame) == fresh.locate(frame)
            asked += 1
    assert asked >= 4
    assert prep.misses == misses, "a lift after the checker set down on the stack went to the engine"


@pytest.mark.parametrize("key", ["standard", "backwards"])
def test_after_a_bear_off_the_lift_the_die_left_bears_off_is_prepared_first(key, monkeypatch):
    """A position's lifts were prepared from the 25 point down, so after 5-1's five borne off the
    lift that bears off with the one, the likeliest next, was its position's last: the emulated
    Backwards match's worst lift (turn 51: 15.8 ms, its frame and places asked of the engine,
    issue 33). In a bear-off the lifts now begin at the point the highest die left bears off
    from: that lift's frame is looked up before the six point's, and every answer is the engine's."""
    one_unit_per_step(monkeypatch)
    rules = ruleset(key)
    T = rules.turn or Turn
    cells = bytearray(52)
    cells[0] = 2
    cells[1], cells[2], cells[3], cells[4], cells[5], cells[6] = 5, 2, 2, 2, 1, 1
    cells[P.OPP + 19] = 15
    start = Position(cells)
    turn = T(start, 5, 1, rules)
    fresh = T(start, 5, 1, rules)
    known = bytearray(cells)
    prep = Prepared(turn, known, 0)
    assert 0 in prep.destinations(known, 5, prep.locate(known))
    gone = bytearray(cells)
    gone[5] -= 1
    gone[0] += 1  # the five borne off: put nowhere, the board's position stands
    frames = {}
    for p in (1, 6):
        f = bytearray(gone)
        f[p] -= 1
        f[0] += 1  # the next lift's frame shows both gone
        frames[p] = f
    looked_up = {}
    for unit in range(300):
        for p, f in frames.items():
            if p not in looked_up:
                misses = prep.misses
                assert prep.locate(f) == fresh.locate(f)
                if prep.misses == misses:
                    looked_up[p] = unit
        if len(looked_up) == 2:
            break
        assert prep.step(), "the preparation ended before both lifts were prepared"
    assert looked_up[1] < looked_up[6], looked_up
    misses = prep.misses
    assert prep.destinations(gone, 1, fresh.locate(gone)) == fresh.destinations(gone, 1)
    assert prep.misses == misses, "the lift bearing off with the one went to the engine"


def _done_with_and_without_preparation(key, cells, dice, play, hands):
    """Two trackers of ``key``'s turn from ``cells`` (Black to move ``dice``, ``play`` among its
    plays) after ``hands(black, show)`` moved checkers (``black``: the mover's counts per board
    point; ``show()``: the frame read): the first with the table prepared until done(), the
    second with nothing prepared."""
    from types import SimpleNamespace

    from bgc.board.virtual.frames import ideal_frame
    from companion.tracker import Tracker
    from test_tracker_order_of_dice import _counts

    rules = ruleset(key)
    T = rules.turn or Turn
    start = Position(cells)
    trackers = []
    for prepares in (True, False):
        turn = T(start, dice[0], dice[1], rules)
        assert play in [p.notation() for p in turn.plays()]
        white, black = _counts(start, rules)
        tr = Tracker()
        tr.begin(start, False, turn, rules)
        tr.update(ideal_frame(white, black))
        hands(black, lambda: tr.update(ideal_frame(white, black)), rules.opposite)
        match = SimpleNamespace(turn=turn)
        for _ in range(400 if prepares else 0):
            if tr.prepared is not None and tr.prepared.done():
                break
            assert P.step(tr, match)
        trackers.append(tr)
    return trackers


def _done_asks_nothing_and_answers_as_unprepared(trackers):
    prep = trackers[0].prepared
    assert prep.done() and len(prep.finals) > 1  # the frame as seen and the stacks' other counts
    misses = prep.misses
    found, reason = trackers[0].final()
    assert prep.misses == misses, "DONE asked the engine"
    assert (found, reason) == trackers[1].final() and len(found) == 1


@pytest.mark.parametrize("key", ["standard", "backwards"])
def test_dones_questions_on_points_read_five_or_more_are_prepared(key, monkeypatch):
    """DONE asks the rules about the play the board shows, and about every position that differs
    from it only in the counts of points the sensors read "five or more" (is another play as
    legal? companion.tracker's final()): each a whole search when DONE is pressed (Backwards'
    worst DONE asked nine, issue 33). The preparation now asks them while the board is still, from
    the frame as it stands (here 6-1 borne off, two checkers lifted and not put down, beside two
    stacks of six): DONE then asks the engine nothing and gives the unprepared tracker's answer."""
    from companion.tracker import LIFTED

    def hands(black, show, opposite):
        for src in (6, 1):
            black[opposite[src]] -= 1
            assert show() == LIFTED

    one_unit_per_step(monkeypatch)
    cells = bytearray(52)
    cells[0], cells[1], cells[3], cells[4], cells[6] = 1, 1, 6, 6, 1
    cells[P.OPP + 6] = 15
    _done_asks_nothing_and_answers_as_unprepared(
        _done_with_and_without_preparation(key, cells, (6, 1), "6/off 1/off", hands))


@pytest.mark.parametrize("key", ["standard", "backwards"])
def test_dones_questions_are_prepared_when_the_last_checkers_went_unseen_onto_a_stack_of_five(key, monkeypatch):
    """A play whose checkers land on a point the sensors read "five or more" shows no frame of
    their landing: the board as it stands reads as two checkers gone (not a legal position), and
    the play is one of the positions with more on that stack (the tracker's final()). Those were
    not prepared once the frame as seen was not a legal play, so DONE searched them (Backwards'
    worst DONE, issue 33): now they are, after the board's lifts, and DONE asks the engine
    nothing and gives the unprepared tracker's answer."""
    def hands(black, show, opposite):
        for src in (5, 4):
            black[opposite[src]] -= 1
            show()
            black[opposite[3]] += 1  # onto the stack: the frame does not change
            show()

    one_unit_per_step(monkeypatch)
    cells = bytearray(52)
    cells[3], cells[4], cells[5], cells[8] = 5, 1, 1, 8
    cells[P.OPP + 6] = 15
    _done_asks_nothing_and_answers_as_unprepared(
        _done_with_and_without_preparation(key, cells, (2, 1), "5/3 4/3", hands))


@pytest.mark.parametrize("key", ["standard", "backwards"])
def test_once_the_checker_is_put_down_the_new_positions_lifts_come_before_its_other_places(key, monkeypatch):
    """The hand carries a lifted checker for a few frames; while it does, the units place where
    it may land. Once it is put down, the board's new position is the one the next lift comes
    from: its lifts (frame and places) are prepared before the rest of the old lift's places,
    which only a move taken back lands on. Before, those places came first, and in the
    emulated Backwards match a lift 300 ms after a placement still found its frame and places
    not prepared (each asked of the engine: up to 15 ms, issue 33)."""
    one_unit_per_step(monkeypatch)
    rules = ruleset(key)
    T = rules.turn or Turn
    start = rules.start_position()
    turn = T(start, 6, 5, rules)
    fresh = T(start, 6, 5, rules)
    known = bytearray(start.cells)
    prep = Prepared(turn, known, 0)
    node = None
    while node is None or node[1] != P.TODO:  # the start's lifts prepared
        assert prep.step()
        node = prep.nodes.get(bytes(known))
        node = node if node is not None and len(node) > 1 else None
    source, places = max(((p, fresh.destinations(start.cells, p)) for p in range(1, 26) if start.cells[p]),
                         key=lambda sp: len(sp[1]))
    assert len(places) >= 2
    assert prep.destinations(known, source, prep.locate(known)) == places
    # put down at once, on its first place, before any other place is prepared
    landed = prep._landed(bytes(known), source, places[0])
    others = [prep._landed(bytes(known), source, q) for q in places[1:]]
    others = [o for o in others if o not in prep.nodes]
    assert others, "every place was prepared already: nothing to order"
    known[:] = landed
    for _ in range(400):
        node = prep.nodes.get(landed)
        if node is not None and (len(node) == 1 or node[1] == P.TODO):
            break
        assert prep.step()
        assert not any(o in prep.nodes for o in others), "the old lift's places came before the new position's lifts"
    assert node is not None and len(node) > 1, "the position put down is a legal step of the roll"
    misses = prep.misses
    for p in range(1, 26):
        if landed[p]:
            lifted = bytearray(landed)
            lifted[p] -= 1
            lifted[0] += 1
            assert prep.locate(lifted) == fresh.locate(lifted)
            assert prep.destinations(landed, p, fresh.locate(landed)) == fresh.destinations(landed, p)
    assert prep.misses == misses, "a lift from the position put down went to the engine"
