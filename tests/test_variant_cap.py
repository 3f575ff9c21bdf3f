"""The five-checker limit of Old Britain and Mexican (seed 002), against a move generator written
here from the seed's text alone.

DE "Es dürfen nur maximal 5 Steine auf einer Spitze stehen" (Old Britain), "Es dürfen max. 5 Steine
auf einer Spitze stehen" (Mexican); FR "Cinq pions au maximum peuvent se trouver sur une même
case"; IT "Sono concesse al massimo 5 pedine su una punta". The limit is on the checkers standing
on a point at any moment, so a checker may land on a full point once another has left it, and
every die that can be played must be (the standard rules the variants keep).

The reference below walks every order of the dice one step at a time, breadth first, with the
standard game's steps written anew (not the engine's search), and keeps the results that play the
most dice; Old Britain then lets either die be the one played ("dürfen Sie auch den niedrigeren
Würfel setzen"), Mexican plays the smaller first or loses the roll ("zuerst der niedrigere Wert
... Geht das nicht, verfällt der gesamte Wurf") and bears off exactly ("mit exakt passenden
Werten").
"""

import random

import pytest

from bgrules import Position, Turn
from bgrules.position import OPP, BAR
from bgrules.rules import ruleset

from variant_parts_helpers import bgc

OLD_BRITAIN = ruleset("oldbritain")
MEXICAN = ruleset("mexican")
CAP = 5


# --- the reference -------------------------------------------------------------------------------

def _state(pos):
    c = pos.cells
    me = tuple(c[i] for i in range(26))  # 0 off, 1..24 points, 25 bar
    opp = tuple([0] + [c[OPP + 25 - p] for p in range(1, 25)])  # in the mover's numbering
    return me, opp, c[OPP + BAR]


def _steps(state, d, exact):
    """Every state one die ``d`` makes by the standard rules and the limit of five."""
    me, opp, opp_bar = state
    out = []
    sources = [25] if me[25] else [p for p in range(1, 25) if me[p]]
    all_home = not any(me[7:26])
    for s in sources:
        t = s - d
        m = list(me)
        o = list(opp)
        ob = opp_bar
        if t >= 1:
            if o[t] >= 2 or m[t] >= CAP:
                continue
            if o[t] == 1:
                o[t] = 0
                ob += 1
            m[s] -= 1
            m[t] += 1
        else:
            if not all_home:
                continue
            if t < 0 and (exact or any(me[s + 1:7])):
                continue
            m[s] -= 1
            m[0] += 1
        out.append((tuple(m), tuple(o), ob))
    return out


def _id(state):
    me, opp, opp_bar = state
    mover = list(me[1:25])
    opponent = [opp[25 - q] for q in range(1, 25)]  # back to its own numbering
    return Position.from_points(mover, opponent, me[25], opp_bar).id()


def reference(pos, d1, d2, rules):
    """The Position IDs of every legal play of d1-d2 (a set; {start} when none can be played)."""
    mexican = rules is MEXICAN
    hi, lo = max(d1, d2), min(d1, d2)
    if d1 == d2:
        orders = [(d1,) * 4]
    elif mexican:
        orders = [(lo, hi)]
    else:
        orders = [(hi, lo), (lo, hi)]
    reached = {}  # state -> set of first dice of the orders that reach it, with the dice used
    best = 0
    for order in orders:
        layer = {_state(pos)}
        for k, d in enumerate(order):
            nxt = set()
            for st in layer:
                nxt.update(_steps(st, d, mexican))
            if not nxt:
                break
            layer = nxt
            if k + 1 > best:
                best = k + 1
                reached = {}
            if k + 1 == best:
                for st in layer:
                    reached.setdefault(st, set()).add(order[0])
    if best == 0:
        return {pos.id()}
    return {_id(st) for st in reached}


def ours(pos, d1, d2, rules):
    plays = Turn(pos, d1, d2, rules).plays()
    return {p.position.id() for p in plays} if plays else {pos.id()}


def random_capped_position(rng):
    """A position both sides of which keep the limit, stacked high (five on a point often), with
    checkers on the bar and borne off now and then, often in the bear-off."""
    while True:
        mover = [0] * 25
        opp = [0] * 25  # in its own numbering
        bear_off = rng.random() < 0.5
        off = rng.randint(0, 8) if bear_off else 0
        bar = 1 if not bear_off and rng.random() < 0.15 else 0
        points = list(range(1, 7)) if bear_off else list(range(1, 25))
        weights = [1 if p > 6 else 4 for p in points]
        left = 15 - off - bar
        while left:
            p = rng.choices(points, weights)[0]
            if mover[p] < CAP:
                mover[p] += 1
                left -= 1
        free = [q for q in range(1, 25) if not mover[25 - q]]
        left = 15 - rng.randint(0, 4)
        opp_bar = 1 if rng.random() < 0.1 else 0
        left -= opp_bar
        tries = 0
        while left and tries < 500:
            tries += 1
            q = rng.choice(free)
            if opp[q] < CAP:
                opp[q] += 1
                left -= 1
        if left:
            continue
        return Position.from_points(mover[1:25], opp[1:25], bar, opp_bar)


# --- the cases the independent check found ---------------------------------------------------------

def test_old_britain_a_checker_lands_on_a_full_point_once_another_has_left_it(capsys):
    # five on the 1 point: 1/off 2/1 1/off 2/1 never holds more than five there
    status, out, err = bgc(capsys, "check", "--variant", "oldbritain", "3wcCIULfewAAAA", "1", "1", "3wcCIULfHgAAAA")
    assert (status, out.strip()) == (0, "legal")
    start = Position.from_id("3wcCIULfewAAAA")
    assert ours(start, 1, 1, OLD_BRITAIN) == reference(start, 1, 1, OLD_BRITAIN)
    assert len(reference(start, 1, 1, OLD_BRITAIN)) == 6
    status, out, err = bgc(capsys, "moves", "--variant", "oldbritain", "3wcCIULfewAAAA", "1", "1")
    assert out.strip().endswith("6 legal plays")


def test_old_britain_every_die_that_can_be_played_must_be_with_the_limit(capsys):
    # 4-4: 6/2 6/2 10/6 plays three dice (the first checker leaves the full 6 point before the
    # one from 10 lands there); 6/2(2) plays two and is no legal play
    start = Position.from_id("sN0AADh8CAAAAA")
    ref = reference(start, 4, 4, OLD_BRITAIN)
    assert ref == {"sN0AAPjwAAAAAA"}
    status, out, err = bgc(capsys, "moves", "--variant", "oldbritain", "sN0AADh8CAAAAA", "4", "4")
    assert out.split()[-3:] == ["1", "legal", "play"] and "sN0AAPjwAAAAAA" in out
    status, out, err = bgc(capsys, "check", "--variant", "oldbritain", "sN0AADh8CAAAAA", "4", "4", "sN0AAPhwCAAAAA")
    assert status == 1 and "Play 1 more 4" in out


def test_mexican_a_double_plays_four_when_the_limit_allows_it_in_some_order(capsys):
    # 2-2: 3/1(2) 5/3(2) plays four twos; 5/1 3/1 plays three and is no legal play
    start = Position.from_id("BxxxYcB5PgAAAA")
    assert reference(start, 2, 2, MEXICAN) == {"BxxxYcDnOQAAAA"}
    status, out, err = bgc(capsys, "moves", "--variant", "mexican", "BxxxYcB5PgAAAA", "2", "2")
    assert "BxxxYcDnOQAAAA" in out and out.strip().endswith("1 legal play")
    # 1-1: 1/off 2/1 5/4/3 is legal
    status, out, err = bgc(capsys, "check", "--variant", "mexican", "AwAA+D4CAAAAAA", "1", "1", "AwAA+F4AAAAAAA")
    assert (status, out.strip()) == (0, "legal")


def short_of(pos, d, rules):
    """Positions three of a double's four steps reach, each step keeping the limit: a play that
    stops a die early (when four can be played)."""
    layer = {_state(pos)}
    for _ in range(3):
        layer = {n for st in layer for n in _steps(st, d, rules is MEXICAN)}
    return {_id(st) for st in layer}


def test_a_play_short_of_a_die_is_told_so_not_refused_for_the_limit_it_kept():
    # "At most 5 checkers on N" was given for positions with five or fewer on N, reached by steps
    # that never held more: what such a play broke is the number of dice
    rng = random.Random(7)
    told = 0
    for _ in range(120):
        pos = random_capped_position(rng)
        d = rng.randint(1, 6)
        turn = Turn(pos, d, d, OLD_BRITAIN)
        if turn.dice_to_play != 4:
            continue
        for pid in sorted(short_of(pos, d, OLD_BRITAIN))[:4]:
            reason = turn.check(Position.from_id(pid))
            assert reason == "Play 1 more %d" % d, (pos.id(), d, pid, reason)
            told += 1
    assert told > 100


# --- every play of random stacked positions ---------------------------------------------------------

@pytest.mark.parametrize("rules", [OLD_BRITAIN, MEXICAN], ids=["oldbritain", "mexican"])
def test_every_play_of_random_stacked_positions_equals_the_reference(rules):
    rng = random.Random(2026)
    doubles = 0
    for i in range(150):
        pos = random_capped_position(rng)
        d1 = rng.randint(1, 6)
        d2 = d1 if i % 2 == 0 else rng.randint(1, 6)
        if rules is MEXICAN and {d1, d2} == {1, 2}:
            continue  # not a roll that is played (test_variant_mexican.py)
        doubles += d1 == d2
        ref = reference(pos, d1, d2, rules)
        assert ours(pos, d1, d2, rules) == ref, (pos.id(), d1, d2)
        turn = Turn(pos, d1, d2, rules)
        for pid in ref:
            if pid != pos.id():
                assert turn.check(Position.from_id(pid)) is None, (pos.id(), d1, d2, pid)
    assert doubles >= 60
