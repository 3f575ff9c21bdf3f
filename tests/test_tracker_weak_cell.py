"""A weakly sensed checker is not a checker on top (hardware/sensing.md, "How the firmware tells"):
a cell that reads weak (UNDER) while every checker is accounted for holds a checker that reads
weak, not one of the other colour on top of it. Found by `scripts/reliability/reliability_games.py --variant
longpuff --games 1 --seed 7 --illegal 0.3` (issue 22, docs/reliability.md)."""

from bgc.board.virtual.frames import ideal_frame
from bgrules import Position, Turn
from bgrules.rules import ruleset
from companion.tracker import ILLEGAL, LEGAL, LIFTED, Tracker
from drivers.classify import UNDER
from test_tracker_order_of_dice import _counts

RIM_19 = 5 * (19 - 1)  # the rim cell of board point 19


def _frame(white, black, weak):
    f = ideal_frame(white, black)
    for cell in weak:
        f[cell] |= UNDER
    return f


def test_a_weakly_sensed_checker_whose_flag_comes_and_goes_is_not_a_checker_on_top():
    # Long Puff, Black 5-5 (the top of the double) at MGcOzEAABmB7Ow plays 23/18(2) 20/15(2).
    # White's two on board point 19 were six earlier; the checker on the rim cell was the bottom
    # of two, so the classifier's level for it is the pair's and the one left reads about a
    # fifth of a unit under it, at the UNDER threshold: the flag comes and goes with noise. It
    # came back while Black carried the last checker of 20 over 19 to 15, and the board said
    # "Point 19 is blocked", red LED on 19, for a legal play.
    rules = ruleset("longpuff")
    start = Position.from_id("MGcOzEAABmB7Ow", rules.opposite, False)
    turn = (rules.turn or Turn)(start, 5, 5, rules)
    assert "23/18(2) 20/15(2)" in [p.notation() for p in turn.plays()]
    white, black = _counts(start, rules)
    assert white[19] == 2 and black[20] == 2
    tr = Tracker()
    tr.begin(start, False, turn, rules)
    assert tr.update(_frame(white, black, [RIM_19])) != ILLEGAL  # weak, nothing missing
    assert tr.update(_frame(white, black, [])) != ILLEGAL  # the flag gone a while, nothing moved
    steps = ((23, 18), (23, 18), (20, 15), (20, 15))
    for n, (src, dst) in enumerate(steps):
        black[src] -= 1
        assert tr.update(_frame(white, black, [])) == LIFTED
        if n == len(steps) - 1:
            # the flag back, the checker in the hand: it is not on top of White's two on 19
            assert tr.update(_frame(white, black, [RIM_19])) != ILLEGAL, tr.reason
            assert tr.verdict == LIFTED and tr.red == [] and dst in tr.lit
        black[dst] += 1
        weak = [RIM_19] if n == len(steps) - 1 else []
        assert tr.update(_frame(white, black, weak)) == LEGAL, tr.reason
    assert tr.complete


def test_a_checker_on_top_of_a_cell_weak_before_its_point_changed_is_still_flagged():
    # The weak cell is remembered only while its point holds the same checkers: Black's 6 point
    # (board point 19) read weak on its rim cell with nothing missing, then Black played 6/5 and
    # 6/4 from it. White's next turn: a checker of White's put on top of one of Black's three
    # left there is on a blocked point.
    std = ruleset("standard")
    start = Position.start()
    turn = Turn(start, 2, 1)
    white, black = _counts(start, std)
    assert black[19] == 5
    tr = Tracker()
    tr.begin(start, False, turn, std)
    assert tr.update(_frame(white, black, [RIM_19])) != ILLEGAL  # weak, nothing missing
    for dst in (20, 21):  # Black's 6/5 6/4
        black[19] -= 1
        assert tr.update(_frame(white, black, [])) == LIFTED
        black[dst] += 1
        assert tr.update(_frame(white, black, [])) == LEGAL, tr.reason
    assert tr.complete
    after = Position.from_points(white[1:25], [black[25 - p] for p in range(1, 25)])  # White's view
    tr.begin(after, True, Turn(after, 5, 2), std)
    assert tr.update(_frame(white, black, [])) != ILLEGAL
    white[24] -= 1  # White lifts from its 24 point and sets it on top of a checker on 19
    assert tr.update(_frame(white, black, [])) == LIFTED
    assert tr.update(_frame(white, black, [RIM_19])) == ILLEGAL
    assert tr.reason == "Point 19 is blocked" and tr.red == [19]
