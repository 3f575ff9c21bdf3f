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
    # 8/6, one of its five lifted (it may have been the weak one) and another put there. White's
    # next turn: a checker of White's put on top of Black's five, the point with no free cell, is
    # on a blocked point.
    std = ruleset("standard")
    start = Position.start()
    turn = Turn(start, 2, 1)
    white, black = _counts(start, std)
    assert black[19] == 5
    tr = Tracker()
    tr.begin(start, False, turn, std)
    assert tr.update(_frame(white, black, [RIM_19])) != ILLEGAL  # weak, nothing missing
    for src, dst in ((19, 20), (17, 19)):  # Black's 6/5 8/6
        black[src] -= 1
        assert tr.update(_frame(white, black, [])) == LIFTED
        black[dst] += 1
        assert tr.update(_frame(white, black, [])) == LEGAL, tr.reason
    assert tr.complete and black[19] == 5
    after = Position.from_points(white[1:25], [black[25 - p] for p in range(1, 25)])  # White's view
    tr.begin(after, True, Turn(after, 5, 2), std)
    assert tr.update(_frame(white, black, [])) != ILLEGAL
    white[24] -= 1  # White lifts from its 24 point and sets it on top of a checker on 19
    assert tr.update(_frame(white, black, [])) == LIFTED
    assert tr.update(_frame(white, black, [RIM_19])) == ILLEGAL
    assert tr.reason == "Point 19 is blocked" and tr.red == [19]


RIM_2 = 5 * (2 - 1)  # the rim cell of board point 2


def test_a_weak_cell_on_a_point_with_a_free_cell_is_no_checker_on_top_of_it():
    """The rule (hardware/sensing.md): outside Pin a checker goes on top of another only where
    its point has no free cell; on a point with one it lands in a cell of its own, where the
    sensors see it. Found by `bgc sim --demo --seed 913093 --variant fixedroll` (issue 29): White's
    four on its 2 point, the rim cell weakly sensed, its flag coming and going. White put a checker
    from 7 on 2 by mistake and took it back, then played 7/6 2/off: its 2 point changed, so the
    tracker forgot the weak cell. In Black's turn (22/21 21/19*) the flag came back while Black
    held the checker from 22 over 21, and the board said "Point 23 is blocked" for a legal play."""
    rules = ruleset("fixedroll")
    start = Position.from_id("/w8AAAseEwAAAA", rules.opposite, False)  # White to play 2-1
    turn = (rules.turn or Turn)(start, 2, 1, rules)
    assert "7/6 2/off" in [p.notation() for p in turn.plays()]
    black, white = _counts(start, rules)  # (White is the mover here: _counts' Black)
    white = [white[rules.opposite[p]] if 1 <= p <= 24 else white[p] for p in range(26)]
    black = [black[rules.opposite[p]] if 1 <= p <= 24 else black[p] for p in range(26)]
    assert white[2] == 4 and white[7] == 1 and black[3] == 1 and black[4] == 2
    tr = Tracker()
    tr.begin(start, True, turn, rules)
    assert tr.update(_frame(white, black, [RIM_2])) != ILLEGAL  # weak, nothing missing
    assert tr.update(_frame(white, black, [])) != ILLEGAL  # the flag down a while
    white[7] -= 1
    assert tr.update(_frame(white, black, [])) == LIFTED
    white[2] += 1  # the wrong placement: 7 to 2, flagged
    assert tr.update(_frame(white, black, [])) == ILLEGAL and tr.red == [2]
    white[2] -= 1
    assert tr.update(_frame(white, black, [])) == LIFTED
    white[6] += 1
    assert tr.update(_frame(white, black, [])) == LEGAL, tr.reason  # 7/6
    white[2] -= 1
    white[0] += 1
    assert tr.update(_frame(white, black, [])) in (LIFTED, LEGAL), tr.reason  # 2/off
    found, reason = tr.final()  # DONE
    assert len(found) == 1, reason
    # Black's turn: 22/21 21/19*, the checker from 21 first, set beside White's blot on 6
    after = Position.from_id("jgUAgP8HAIAFAA", rules.opposite, False)
    turn = (rules.turn or Turn)(after, 2, 1, rules)
    assert "22/21 21/19*" in [p.notation() for p in turn.plays()]
    tr.begin(after, False, turn, rules)
    assert tr.update(_frame(white, black, [])) != ILLEGAL
    black[4] -= 1
    assert tr.update(_frame(white, black, [])) == LIFTED
    black[6] += 1
    assert tr.update(_frame(white, black, [])) in (LEGAL, LIFTED, 3), tr.reason  # beside the blot: a hit
    white[6] -= 1
    white[25] += 1  # White's blot to the bar
    assert tr.update(_frame(white, black, [])) == LEGAL, tr.reason
    black[3] -= 1  # the checker from 22 in the hand, over 21: White's rim cell on 2 reads weak again
    assert tr.update(_frame(white, black, [RIM_2])) == LIFTED, tr.reason
    assert tr.red == [] and 4 in tr.lit
    black[4] += 1
    assert tr.update(_frame(white, black, [RIM_2])) == LEGAL, tr.reason
    assert tr.complete
