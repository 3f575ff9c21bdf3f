"""The smaller die first (seed 002, Puff: "immer erst der kleinere Wurf gezogen werden muss. Ist
dies nicht möglich, verfällt auch der größere"; Mexican: "Es wird immer zuerst der niedrigere Wert
gezogen. Geht das nicht, verfällt der gesamte Wurf"): the engine's switch ``smaller_first`` against
a brute force written here from those sentences, over positions of random games."""

import random

from bgrules import Position, Turn
from bgrules.rules import STANDARD, Rules
from bgrules.turn import legal_plays

SMALLER_FIRST = Rules("Smaller first", STANDARD.start, key="smallerfirst")
SMALLER_FIRST.smaller_first = True


def _step(cells, src, d):
    """One checker from ``src`` moved ``d`` pips by the standard rules, or None (brute force)."""
    c = bytearray(cells)
    if not c[src] or (c[25] and src != 25):
        return None
    t = src - d
    if t > 0:
        opp = 26 + 25 - t
        if c[opp] >= 2:
            return None
        if c[opp] == 1:
            c[opp] = 0
            c[26 + 25] += 1
        c[src] -= 1
        c[t] += 1
        return bytes(c)
    if sum(c[7:26]):
        return None
    if t < 0 and sum(c[src + 1:7]):
        return None
    c[src] -= 1
    c[0] += 1
    return bytes(c)


def _reference(start, d1, d2):
    """Final positions the seed's sentence allows: the smaller die, then the larger; if the
    larger cannot follow, the smaller alone; if the smaller cannot be played, nothing."""
    lo, hi = min(d1, d2), max(d1, d2)
    firsts = [p for p in (_step(start, s, lo) for s in range(1, 26)) if p]
    if not firsts:
        return {bytes(start)}
    both = {p for f in firsts for p in (_step(f, s, hi) for s in range(1, 26)) if p}
    return both or set(firsts)


def _pos(mover, opponent, mover_bar=0):
    """A position from {point: checkers} for each side (own numbering)."""
    return Position.from_points([mover.get(p, 0) for p in range(1, 25)],
                                [opponent.get(p, 0) for p in range(1, 25)], mover_bar)


def _positions(n, seed):
    rng = random.Random(seed)
    out = []
    pos = Position.start()
    while len(out) < n:
        d1, d2 = rng.randint(1, 6), rng.randint(1, 6)
        plays = legal_plays(pos, d1, d2)
        if plays:
            pos = rng.choice(plays).position
        if pos.result():
            pos = Position.start()
            continue
        pos = pos.swapped()
        out.append(pos)
    return out


def test_smaller_die_first_equals_the_seeds_sentence_by_brute_force():
    differs = 0
    for pos in _positions(250, 7):
        for d1 in range(2, 7):
            for d2 in range(1, d1):
                turn = Turn(pos, d1, d2, SMALLER_FIRST)
                got = {bytes(p.position.cells) for p in turn.plays()} or {bytes(pos.cells)}
                want = _reference(pos.cells, d1, d2)
                assert got == want, (pos.id(), d1, d2)
                for final in want:
                    assert turn.check(Position(final)) is None
                std = {bytes(p.position.cells) for p in legal_plays(pos, d1, d2)} or {bytes(pos.cells)}
                if std != want:
                    differs += 1
    assert differs > 20  # the rule decides real plays, not only corner cases


def test_smaller_die_not_playable_loses_the_larger_too():
    # White's checker on the bar enters with a die d on White's 25 - d, Black's point d: Black
    # holds its 4 point, so the 4 of 5-4 cannot enter; the 5 could (Black's 5 point is open).
    pos = _pos({6: 14}, {4: 2, 6: 13}, 1)
    turn = Turn(pos, 5, 4, SMALLER_FIRST)
    assert turn.dice_to_play == 0
    assert Turn(pos, 5, 4).dice_to_play >= 1  # the standard game enters with the 5
    assert turn.check(pos) is None


def test_larger_die_first_is_flagged_with_the_rule_named():
    pos = Position.start()
    turn = Turn(pos, 6, 1, SMALLER_FIRST)
    # 24/18 alone: the 6 played without the 1.
    hi_only = _pos({24: 1, 18: 1, 13: 5, 8: 3, 6: 5}, {24: 2, 13: 5, 8: 3, 6: 5})
    assert turn.check(hi_only) == "Play the 1 first"
    lo_only = _pos({24: 1, 23: 1, 13: 5, 8: 3, 6: 5}, {24: 2, 13: 5, 8: 3, 6: 5})
    assert turn.locate(lo_only) == [bytes((6,))]


def test_larger_die_put_down_first_is_not_flagged_while_the_smaller_can_still_make_it_a_legal_play():
    # On the board a player may put the 6 down before the 1: 24/18, then 6/5 or 13/12, ends
    # where 6/5 24/18 or 13/12 24/18 (the 1 first) ends, and the finished board cannot tell the
    # order. So mid-turn 24/18 begins a legal play, with the 1 left; only DONE judges the order.
    turn = Turn(Position.start(), 6, 1, SMALLER_FIRST)
    hi_only = _pos({24: 1, 18: 1, 13: 5, 8: 3, 6: 5}, {24: 2, 13: 5, 8: 3, 6: 5})
    assert turn.locate(hi_only) == [bytes((1,))]
    both = _pos({24: 1, 18: 1, 13: 5, 8: 3, 6: 4, 5: 1}, {24: 2, 13: 5, 8: 3, 6: 5})
    assert turn.check(both) is None


def test_larger_die_put_down_first_is_flagged_when_no_smaller_step_then_gives_a_legal_play():
    # Entering from the bar with 3-1, the 1 first must hit on 24 (Black's 1 point holds a blot):
    # entering with the 3 first (bar/22) can only end without that hit, which the 1 first never
    # gives. That placement is flagged at once.
    pos = _pos({14: 10, 17: 1, 19: 1, 20: 2}, {1: 1, 7: 1, 9: 1, 10: 1, 12: 2, 13: 2, 14: 2, 15: 2, 16: 3}, 1)
    turn = Turn(pos, 3, 1, SMALLER_FIRST)
    assert all("bar/24*" in str(p) for p in turn.plays())
    bar_22 = _pos({14: 10, 17: 1, 19: 1, 20: 2, 22: 1}, {1: 1, 7: 1, 9: 1, 10: 1, 12: 2, 13: 2, 14: 2, 15: 2, 16: 3})
    assert turn.locate(bar_22) == []
    assert turn.check(bar_22) == "Play the 1 first"


def test_lifted_checker_lights_only_the_smaller_die_first():
    # From the start with 6-1, a checker lifted from 8 may go to 7 (the 1), not to 2 (the 6).
    turn = Turn(Position.start(), 6, 1, SMALLER_FIRST)
    dest = turn.destinations(Position.start(), 8)
    assert 7 in dest and 2 not in dest
    assert 2 in Turn(Position.start(), 6, 1).destinations(Position.start(), 8)
