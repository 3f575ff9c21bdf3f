"""Rules-aided sensing at the board (design.md principle 3): how players really handle the
checkers, fed to the companion as classifier frames. One test per behaviour a player notices.

These come from the simulated games on the virtual board (tests/test_sim_reliability.py,
scripts/reliability/reliability_games.py, scripts/reliability/illegal_corpus.py)."""
import pytest

from bgrules.position import Position
from bgrules.turn import Turn
from bgc.board.virtual.frames import ideal_frame
from companion_helpers import Harness, ROLL_B, ROLL_W
from test_companion_game import opened, at


def _blot_on(board_point):
    """The start position with one of black's 13-point checkers moved to ``board_point``
    (white's numbering) as a blot; white on roll."""
    w = [0, 0, 0, 0, 0, 5, 0, 3, 0, 0, 0, 0, 5, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2]
    b = list(w)
    b[12] -= 1
    b[25 - board_point - 1] += 1
    return Position.from_points(w, b)


def test_taking_the_blot_off_first_is_not_flagged(tmp_path):
    h = opened(tmp_path)
    at(h, _blot_on(5), True, (3, 1))
    h.lift("b", 5)  # the blot in the hand: the hitting checker is still to come
    assert h.events("illegal") == [] and h.leds("illegal") == []
    assert 0 in h.leds("hint")  # black's bar half asks for the blot
    h.put("b", 25)  # on the bar
    assert h.events("illegal") == [] and h.leds("illegal") == []
    h.lift("w", 8)
    assert 5 in h.leds("legal")  # the hitter may land on the blot's point
    assert h.events("illegal") == []
    h.put("w", 5)
    assert h.events("illegal") == [] and h.leds("hint") == []
    h.move("w", 6, 5)
    h.press(ROLL_W)
    assert h.events("illegal") == []
    assert h.events("play")[0]["move"] == "8/5* 6/5"


def test_blot_taken_off_first_and_hit_in_passing(tmp_path):
    h = opened(tmp_path)
    at(h, _blot_on(7), True, (3, 1))
    h.lift("b", 7)
    h.put("b", 25)
    h.move("w", 8, 4)  # 8/7*/4: the checker hits on its way and goes on
    assert h.events("illegal") == []
    h.press(ROLL_W)
    assert h.events("play")[0]["move"] == "8/7*/4"


def test_taking_off_a_blot_no_checker_can_hit_is_flagged(tmp_path):
    h = opened(tmp_path)
    at(h, _blot_on(15), True, (3, 1))  # 9 pips from white's 24: out of reach of 3-1
    h.lift("b", 15)
    h.put("b", 25)
    ev = h.events("illegal")
    assert ev and ev[-1]["at"] == "place"
    assert 15 in h.leds("illegal")


def test_done_with_the_hit_checker_still_to_come_is_refused(tmp_path):
    h = opened(tmp_path)
    at(h, _blot_on(5), True, (3, 1))
    h.lift("b", 5)
    h.put("b", 25)
    assert h.c.hint != "ROLL: end turn"  # the board does not show a whole play
    h.press(ROLL_W)
    assert h.events("play") == []
    assert h.events("illegal")[-1]["at"] == "done"


def _one_outside():
    w = [0] * 24
    w[5] = 4  # 6 point
    w[4] = 3
    w[3] = 3
    w[12] = 1  # one checker still on the 13 point; 4 borne off
    b = [0] * 24
    b[0] = 15
    return Position.from_points(w, b)


def test_bearing_off_with_a_checker_outside_is_refused_with_the_rule(tmp_path):
    h = opened(tmp_path)
    at(h, _one_outside(), True, (6, 5))
    h.lift("w", 6)  # 6/off into the tray, with a checker still on 13
    h.press(ROLL_W)
    ev = h.events("illegal")
    assert ev[-1]["at"] == "done" and ev[-1]["reason"] == "Checker still on 13: no bear-off"
    assert "no bear-off" in h.screen()
    assert h.events("play") == []


def test_done_with_a_checker_still_in_the_hand_says_so(tmp_path):
    h = opened(tmp_path)  # white 3-1
    h.move("w", 8, 5)
    h.lift("w", 6)  # on its way to 5, DONE pressed with the other hand
    h.press(ROLL_W)
    assert h.events("illegal")[-1]["reason"] == "Checker in hand: put it down"
    h.put("w", 5)
    h.press(ROLL_W)
    assert h.events("play")[0]["move"] == "8/5 6/5"


def test_bear_off_from_a_big_stack_without_stack_flags(tmp_path):
    # seven on the ace point: the 6th and 7th stack, and the STACK flag may be missed
    h = opened(tmp_path)
    h.frame = lambda: ideal_frame(h.white, h.black, stack_flags=False)
    w = [0] * 24
    w[0] = 7
    b = [0] * 24
    b[0] = 15
    at(h, Position.from_points(w, b), True, (5, 3))
    h.lift("w", 1)
    h.lift("w", 1)  # five left: all five cells full, "5 or more"
    h.press(ROLL_W)
    assert h.events("illegal") == []
    assert h.events("play")[0]["move"] == "1/off(2)"


def test_a_host_watching_sees_the_which_play_question(tmp_path):
    # white: 6 on 2, 6 on 4, 1 on 5, 2 on 6; 2-1 played 5/4 2/off looks like 5/2
    h = opened(tmp_path)
    pos = Position.from_id("snvaAAB+fg0AAA")
    at(h, pos, True, (2, 1))
    final = [p for p in Turn(pos, 2, 1).plays() if p.notation() == "5/4 2/off"][0].position
    h.set_pos(final)
    h.show()
    h.press(ROLL_W)
    assert h.events("status")[-1]["phase"] == "ask"
    # other checkers moved: back to the turn, and the host is told
    h.move("w", 6, 5)
    assert h.c.phase == "moving"
    assert h.events("status")[-1]["phase"] == "moving"


def test_two_blots_taken_off_first_one_hit_in_passing(tmp_path):
    # black blots on board points 11 and 4; white rolls 2-2: 13/11*/9 6/4*(2)
    w = [0, 0, 0, 0, 0, 5, 0, 3, 0, 0, 0, 0, 5, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2]
    b = list(w)
    b[12] -= 2
    b[13] += 1  # black's 14 = board 11
    b[20] += 1  # black's 21 = board 4
    h = opened(tmp_path)
    at(h, Position.from_points(w, b), True, (2, 2))
    h.lift("b", 11)
    h.put("b", 25)
    h.lift("b", 4)
    h.put("b", 25)
    h.move("w", 13, 9)  # the blot on 11 was hit on the way; the one on 4 is still to come
    assert h.events("illegal") == [] and h.leds("illegal") == []
    h.move("w", 6, 4)
    h.move("w", 6, 4)
    assert h.events("illegal") == []
    h.press(ROLL_W)
    assert h.events("play")[0]["move"] == "13/11*/9 6/4* 6/4"


def test_blot_taken_off_first_then_the_hitter_lifted_while_bearing_off(tmp_path):
    # white 2 on 2, 3 on 4... bearing off with a black blot on board 1; 6-2 played 7/1* 2/off.
    # With the blot on the bar and 7 in the air, 7/off (7/5/off) also explains the frame but
    # leaves nothing to hit with: the checker in the hand is the hitter (seed 217 of the
    # reliability run, the one false flag in 1,000 noisy games).
    h = opened(tmp_path)
    at(h, Position.from_id("e7sRACD+3hEAAA"), True, (6, 2))
    h.lift("b", 1)
    h.put("b", 25)
    h.lift("w", 7)
    assert h.events("illegal") == [] and h.leds("illegal") == []
    assert 1 in h.leds("legal")  # the blot's point is lit for the hitter
    h.put("w", 1)
    h.lift("w", 2)  # 2/off into the tray
    assert h.events("illegal") == []
    h.press(ROLL_W)
    assert h.events("illegal") == []
    assert h.events("play")[0]["move"] == "7/1* 2/off"


def test_blot_on_the_bar_without_a_hit_is_refused_at_done(tmp_path):
    # the same frame, but the lifted checker went into the tray: 7/off (7/5/off) hits nothing,
    # so the blot has no business on the bar and DONE says why
    h = opened(tmp_path)
    at(h, Position.from_id("e7sRACD+3hEAAA"), True, (6, 2))
    h.lift("b", 1)
    h.put("b", 25)
    h.lift("w", 7)
    h.press(ROLL_W)
    assert h.events("play") == []
    ev = h.events("illegal")
    assert ev and ev[-1]["at"] == "done" and ev[-1]["reason"]


def test_baseline_refresh_is_limited_to_cells_the_game_knows_are_empty():
    from bgrules import Position
    from companion.tracker import Tracker

    t = Tracker()
    t.begin(Position.start(), True)
    mask = bytearray(128)
    t.empty_cells(mask)
    occupied = {24, 13, 8, 6, 1, 12, 17, 19}  # white's and black's start points, white's numbering
    for p in range(1, 25):
        cells = mask[5 * (p - 1): 5 * p]
        assert all(cells) == (p not in occupied) and any(cells) == (p not in occupied), p
    assert all(mask[120:128])  # nobody on the bar
    t.begin(Position.start().swapped(), False)  # black on roll: the same board
    mask2 = bytearray(128)
    t.empty_cells(mask2)
    assert mask2 == mask


# --- issue 11: the bear-off's last checker of a point, DONE with a checker in the hand -----------

def _bear_off_position(mover, other):
    """Checkers by the mover's own points (index 0 = its ace point), the rest borne off; the
    opponent's ``other`` likewise."""
    w = [0] * 24
    for i, n in mover.items():
        w[i - 1] = n
    b = [0] * 24
    for i, n in other.items():
        b[i - 1] = n
    return Position.from_points(w, b)



@pytest.mark.parametrize("white, lone, rest, dice, lit, bears_off", [
    (True, 2, {1: 3}, (2, 1), [1], True),  # 2/off or 2/1
    (False, 4, {1: 2}, (6, 5), [], True),  # 4/off only
    (True, 1, {}, (3, 2), [], True),  # the last checker, on the ace point
    (False, 1, {}, (3, 2), [], True),
])
def test_lifting_the_last_checker_of_a_point_in_the_bear_off_shows_where_it_may_go(
        tmp_path, white, lone, rest, dice, lit, bears_off):
    # player-guide: "Lift a checker: its point turns blue and the points where it may legally go
    # turn green (May bear off when the tray is one of them)", for the last checker of a point too
    h = opened(tmp_path)
    mover = dict(rest)
    mover[lone] = 1
    at(h, _bear_off_position(mover, {1: 3, 6: 2}), white, dice)
    board_point = lone if white else 25 - lone
    h.lift("w" if white else "b", board_point)
    assert h.events("illegal") == []
    assert h.led(board_point) == "lifted"
    assert h.leds("legal") == [p if white else 25 - p for p in lit]
    assert ("May bear off" in h.screen()) == bears_off


def test_done_with_a_checker_lifted_from_outside_home_still_in_the_hand_says_so(tmp_path):
    # White, 4-4, a checker lifted from 13 and DONE pressed: not "Point 1 is blocked" (13/off
    # through black's ace point), which no player had in mind, but the checker in the hand
    h = opened(tmp_path)
    at(h, Position.start(), True, (4, 4))
    h.lift("w", 13)
    h.press(ROLL_W)
    assert h.events("illegal")[-1]["reason"] == "Checker in hand: put it down"
    assert h.events("play") == []
    h.put("w", 9)
    h.move("w", 13, 9)
    h.move("w", 6, 2)
    h.move("w", 6, 2)
    h.press(ROLL_W)
    assert h.events("play")[0]["move"] == "13/9(2) 6/2(2)"


# --- issue 11: a checker on top of another on a crowded point (hardware/sensing.md) ------------

def _with_on_top(h, board_point, bottom):
    """The harness frame with the checker on top of one of the five ``bottom`` ("w"/"b")
    checkers of ``board_point``: the cell still reads the bottom colour, weaker (UNDER)."""
    from drivers.classify import UNDER

    f = h.frame()
    cell = 5 * (board_point - 1)
    assert f[cell] & 3 == (1 if bottom == "w" else 2)
    f[cell] |= UNDER
    return f


def test_a_checker_on_an_opponents_five_point_is_flagged_blocked_for_either_colour(tmp_path):
    for white, src, dst in ((False, 1, 6), (True, 24, 19)):  # black 24/19, white 24/19 with 5-2
        h = opened(tmp_path / str(white))
        at(h, Position.start(), white, (5, 2))
        mover = "w" if white else "b"
        h.lift(mover, src)
        assert h.events("illegal") == []
        h.now += 30
        h.c.on_frame(_with_on_top(h, dst, "b" if white else "w"), h.now)
        ev = h.events("illegal")
        assert ev and ev[-1]["reason"] == "Point 19 is blocked" and ev[-1]["board_point"] == dst
        assert h.leds("illegal") == [dst]
        h.press(ROLL_W if white else ROLL_B)
        assert h.events("illegal")[-1]["at"] == "done"
        assert h.events("illegal")[-1]["reason"] == "Point 19 is blocked"
        h.put(mover, src)  # taken off the point and put back: the cell reads strong again
        assert h.leds("illegal") == []


def test_a_cell_that_reads_weak_with_every_checker_accounted_for_is_not_a_checker_on_top(tmp_path):
    # a weakly sensed checker on black's 13 point, flagged UNDER while nothing is missing: white
    # lifting a checker later does not put it there
    h = opened(tmp_path)
    at(h, Position.start(), True, (5, 2))
    frame = h.frame

    def weak():
        f = frame()
        f[5 * 11] |= 16  # board point 12, black's 13 point
        return f

    h.frame = weak
    h.show()
    h.lift("w", 13)
    assert h.events("illegal") == [] and h.leds("illegal") == []
    h.put("w", 8)
    h.move("w", 13, 11)
    h.press(ROLL_W)
    assert h.events("play")[0]["move"] == "13/11 13/8"


def _raw(level, n=128):
    from array import array

    from drivers.classify import DEFAULT_UNIT, MID

    a = array("i", [MID] * n)
    a[0] = MID + int(level * DEFAULT_UNIT)
    return a


def test_classifier_flags_a_lasting_drop_of_a_settled_checker_only():
    from drivers.classify import UNDER, WHITE, Classifier

    cl = Classifier()
    for _ in range(5):
        cl.update(_raw(0.94))
    assert cl.state[0] == WHITE
    for _ in range(cl.under_frames - 1):  # a hand passing 10 mm above: too short to count
        cl.update(_raw(0.74))
    assert cl.state[0] == WHITE
    for _ in range(5):
        cl.update(_raw(0.94))
    for _ in range(cl.under_frames):  # a checker of the other colour put on top: it lasts
        cl.update(_raw(0.69))
    assert cl.state[0] == WHITE | UNDER
    for _ in range(5):  # taken off again
        cl.update(_raw(0.94))
    assert cl.state[0] == WHITE
    for _ in range(100):  # a hand holding its checker 20 mm above, as long as it likes
        cl.update(_raw(0.87))
    assert cl.state[0] == WHITE


def test_classifier_never_flags_a_checker_that_reads_weak_from_the_start():
    from drivers.classify import EMPTY, WHITE, Classifier

    cl = Classifier()
    cl.update(_raw(0.0))
    assert cl.state[0] == EMPTY
    for _ in range(100):
        cl.update(_raw(0.70))
    assert cl.state[0] == WHITE


def test_virtual_board_other_colour_on_top_drops_the_cell_below_the_flag_and_a_hand_5mm_over_it_does_not():
    # the physical model (hardware/sensing.md): a black checker on top of a white one lowers
    # the cell by about a quarter of a unit; a hand holding one 5 mm over the white one (the
    # lowest a player holds a checker still, issue 22) by about a seventh; the classifier's
    # drop threshold lies between the two, at least four times the reading noise from each
    from bgc.board.virtual.board import Board, BLACK, WHITE
    from drivers.classify import DEFAULT_UNIT, Classifier

    drop_pct = Classifier().drop_pct
    for seed in (1, 2, 3):
        b = Board(seed=seed, tremor_mm=0)
        margin = 4 * b.noise_lsb * 16  # 12-bit LSB to read_u16 counts
        for c in range(25, 30):
            b.place(c, WHITE)
        for c in range(25, 30):
            alone = b.expected_counts(c)
            b.place(c, BLACK)
            covered = b.expected_counts(c)
            b.remove(c)
            b.hover(c, 5.0, BLACK)
            hand = b.expected_counts(c)
            b.hand = None
            assert (alone - covered) * 100 > drop_pct * DEFAULT_UNIT + margin * 100, (seed, c)
            assert (alone - hand) * 100 < drop_pct * DEFAULT_UNIT - margin * 100, (seed, c)


def test_a_checker_too_many_is_told_where_not_counted(tmp_path):
    # A checker from the tray put on the board (or a borne-off one put back) is no move: the
    # board says what was done and where, not "White has 16 checkers"
    h = opened(tmp_path)  # white 3-1
    h.put("w", 20)
    ev = h.events("illegal")[-1]
    # a reason is one line on the serial line; only the OLED wraps it, at the space
    assert ev["reason"] == "Extra checker on board: lift it" and ev["board_point"] == 20  # the red LED
    assert "Extra checker on\nboard: lift it" in h.screen()
    assert "16 checkers" not in h.screen()
    h.lift("w", 20)
    assert h.events("ok")
    h.clear()
    h.put("b", 20)  # one of Black's, on Black's own 5 point (White's 20)
    ev = h.events("illegal")[-1]
    assert ev["reason"] == "Extra Black checker: lift it" and ev["board_point"] == 20
    assert "Extra Black\nchecker: lift it" in h.screen()
    h.press(ROLL_W)  # DONE with the checker still there: the same words
    assert h.c.refused and "16 checkers" not in h.c.refused[0] and h.c.refused[0].startswith("Extra Black")
