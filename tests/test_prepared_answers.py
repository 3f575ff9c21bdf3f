"""Issue 33, prepare at the roll and answer by lookup: every answer the prepared table gives
(companion.prepared) is the one the rules engine gives when asked today (design principle 4's
search to the first witness): where a position begins the turn (Turn.locate), where a lifted
checker may land (Turn.destinations, per source), whether the frame with a checker lifted is
itself legal, and the play DONE names. Checked on positions of random games of every ruleset,
under CPython and under a real MicroPython, against a Turn of the same roll that was never
prepared; and the table's size stays within its bound."""
import random

import pytest

from bgrules import Position, Turn
from bgrules.position import OPP, BAR, waiting
from bgrules.rules import VARIANTS, ruleset
from companion import prepared as P
from companion.prepared import Prepared


def _after(pos, steps, rules):
    c = bytearray(pos.cells)
    for src, dst, hit in steps:
        if src != BAR or c[BAR]:
            c[src] -= 1
        if dst:
            if hit:
                c[OPP + (rules.across or rules.opposite)[dst]] -= 1
                c[OPP + BAR] += 1
            c[dst] += 1
        else:
            c[0] += 1
    return c


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
                path = [bytes(_after(pos, play.steps[:k], rules)) for k in range(1, len(play.steps) + 1)]
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


def _prepare(turn, start, path, units=4000):
    """A table prepared as the board would: from the start, then from each step of the play."""
    known = bytearray(start)
    prep = Prepared(turn, known, waiting(start))
    n = 0
    for at in [start] + path:
        known[:] = at
        k = 0
        while k < units // (len(path) + 1) and prep.step():
            k += 1
        n += k
    return prep, known


def compare(key, start, a, b, path):
    """Mismatches between the prepared answers and a fresh Turn's, and the lookups made."""
    rules = ruleset(key)
    T = rules.turn or Turn
    turn = T(Position(bytearray(start)), a, b, rules)
    prep, known = _prepare(turn, start, path)
    fresh = T(Position(bytearray(start)), a, b, rules)
    bad = []
    before = prep.hits
    for cells, node in list(prep.nodes.items()):
        c = bytearray(cells)
        got = prep.locate(c)
        if got != fresh.locate(c):
            bad.append(("locate", cells, got))
        if node is P._NOT:
            continue
        for p in range(26):
            if node[P._HEAD + 5 * p + 4] >= P._ASK:
                continue
            opts = fresh.locate(c)
            got = prep.destinations(c, p, opts)
            if got != fresh.destinations(c, p, opts):
                bad.append(("destinations", cells, p, got))
            if c[p]:
                known[:] = c
                w = bytearray(c)
                w[p] -= 1
                if not waiting(start):
                    w[0] += 1
                got = prep.locate(w)
                if got != fresh.locate(w):
                    bad.append(("lifted", cells, p, got))
        if node[4] < P._ASK:
            fresh._last = None
            got = prep.is_legal(c)
            if got != fresh.is_legal(c) or turn.play_to(c).steps != fresh.play_to(c).steps:
                bad.append(("play", cells))
    return bad, prep.hits - before, prep


def rulesets():
    return sorted(VARIANTS)


@pytest.mark.parametrize("key", rulesets())
def test_prepared_answers_are_the_rules_engines_answers(key):
    """Every prepared answer of 8 turns of random games of the ruleset equals a fresh Turn's."""
    hits = 0
    for start, a, b, path in game_turns(key, 8, seed=33):
        bad, n, prep = compare(key, start, a, b, path)
        assert not bad, (key, a, b, bad[:3])
        hits += n
        assert len(prep.nodes) <= P.NODES
    assert hits > 0, "the table answered nothing: the comparison compared the engine with itself"


def test_a_position_not_prepared_is_asked_of_the_engine():
    """A lookup of a position the table has not prepared yet is today's answer (the fallback)."""
    start = Position.start()
    turn = Turn(start, 6, 5)
    prep = Prepared(turn, bytearray(start.cells), 0)  # nothing prepared yet
    mid = _after(start, ((24, 18, 0),), ruleset("standard"))
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


def test_the_table_is_bounded_on_the_costliest_doubles():
    """1-1 from a spread position: far more partial positions than NODES; the table stops there
    and what it holds is still exact."""
    pos = Position.from_points([0, 2, 2, 2, 2, 2, 2, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0],
                               [2, 2, 2, 2, 2, 2, 0, 0, 0, 0, 0, 0, 3, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0])
    bad, hits, prep = compare("standard", bytes(pos.cells), 1, 1, [])
    assert not bad
    assert len(prep.nodes) == P.NODES
    assert hits > 0
