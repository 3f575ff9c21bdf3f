"""Blots taken off before the hitter arrives, in rulesets where the dice are played in an order
(Long Puff and Long Russian Puff: the smaller die first; docs/variants.md): found by
`scripts/reliability/reliability_games.py --variant all` (issue 22, docs/reliability.md)."""

import pytest

from bgc.board.virtual.frames import ideal_frame
from bgrules import Position, Turn
from bgrules.rules import ruleset
from companion.tracker import ILLEGAL, Tracker


def _counts(pos, rules):
    """Board counts (white, black) of ``pos`` seen by Black (the mover), Black's point p on board
    point rules.opposite[p] (both go the same way in the Long Puffs)."""
    white = [0] * 26
    black = [0] * 26
    for p in range(1, 26):
        black[rules.opposite[p] if p < 25 else 25] += pos.cells[p]
        white[p] += pos.cells[26 + p]
    return white, black


@pytest.mark.parametrize("key, pid, play, unseen, blot", [
    # Long Puff seed 5 (--illegal 0.1): Black 4-3 with six on its 23 and six on its 20 point
    # (both full: the sensors give "five or more"). 23/20 (the 3, the smaller die first) changes
    # nothing the sensors see; then White's blot on 19 is taken off first for 23/19*
    ("longpuff", "YDM3IA4AAM6PHw", "23/20 23/19*", (23, 20), 19),
    # Long Russian Puff seed 4: 3/off from six on the 3 point (unseen), then 5/1* blot first
    ("longrussianpuff", "AQAA+PcTAAAAAA", "5/1* 3/off", (3, 0), 1),
])
def test_a_blot_taken_off_first_for_a_hit_with_the_larger_die_after_an_unseen_step_is_not_flagged(
        key, pid, play, unseen, blot):
    # the hit can still come (with the larger die, once the smaller one is played), but the
    # board said "No play of 4-3 gives this", three times, for a legal play
    rules = ruleset(key)
    start = Position.from_id(pid, rules.opposite, False)
    turn = (rules.turn or Turn)(start, 4, 3, rules)
    assert play in [p.notation() for p in turn.plays()]
    white, black = _counts(start, rules)
    assert black[unseen[0]] == 6 and white[blot] == 1
    tr = Tracker()
    tr.begin(start, False, turn, rules)
    assert tr.update(ideal_frame(white, black)) != ILLEGAL
    black[unseen[0]] -= 1  # five left: the sensors see no change
    black[unseen[1]] += 1 if unseen[1] else 0
    assert tr.update(ideal_frame(white, black)) != ILLEGAL
    white[blot] = 0  # the blot in the hand, on its way to the bar
    assert tr.update(ideal_frame(white, black)) != ILLEGAL, tr.reason
    white[25] = 1  # on the bar
    assert tr.update(ideal_frame(white, black)) != ILLEGAL, tr.reason
