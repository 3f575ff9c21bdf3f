"""Points of six or more read "five or more" (companion.tracker): a checker lifted from such a
stack is not seen to go, so the frame after it is set down shows one checker too many, and the
tracker looks for the counts of those points that make a legal play (Tracker._search_ranged).
Each count it tries is a rules search (milliseconds on a Pico, issue 33)."""

import pytest

from bgc.board.virtual.frames import ideal_frame
from bgrules import Position, Turn
from bgrules.rules import ruleset
from companion.tracker import ILLEGAL, Tracker
from test_tracker_order_of_dice import _counts


@pytest.mark.parametrize("key", ["standard", "backwards"])
def test_a_checker_from_one_of_two_stacks_is_read_as_that_one_move_asking_the_nearest_counts_first(key):
    """Black, 2-2, six on its 1 point and six on its 6: 6/4 moves a checker from the 6 point's
    stack, which still reads "five or more". The board reads 6/4 (five left on the 6 point, six on
    the 1), and the counts the tracker asks the rules about are never farther from what it knows
    than the answer: in Backwards it first asked about one checker fewer on both stacks (the
    emulated Backwards match's slowest lifts, 11.25 ms: turn 46)."""
    rules = ruleset(key)
    cells = bytearray(52)
    cells[1], cells[6], cells[8] = 6, 6, 3
    cells[26 + (6 if key == "backwards" else 1)] = 15
    start = Position(cells)
    turn = (rules.turn or Turn)(start, 2, 2, rules)
    assert "6/4" in [p.notation()[:3] for p in turn.plays()]
    asked = []
    engine_locate = turn.locate

    def locate(c, *rest):
        asked.append(bytes(c))
        return engine_locate(c, *rest)

    turn.locate = locate
    white, black = _counts(start, rules)
    tracker = Tracker()
    tracker.begin(start, False, turn, rules)
    tracker.update(ideal_frame(white, black))
    black[rules.opposite[6]] -= 1
    tracker.update(ideal_frame(white, black))  # the stack still reads "five or more"
    del asked[:]
    black[rules.opposite[4]] += 1
    assert tracker.update(ideal_frame(white, black)) != ILLEGAL
    moved = bytearray(cells)
    moved[6] -= 1
    moved[4] += 1
    assert tracker.known == moved

    def away(c):  # how many checkers the counts of the two stacks differ from the start's
        return abs(c[1] - cells[1]) + abs(c[6] - cells[6])

    assert asked and asked[-1] == bytes(moved)
    assert all(away(c) <= away(moved) for c in asked), [(c[0], c[1], c[6]) for c in asked]
