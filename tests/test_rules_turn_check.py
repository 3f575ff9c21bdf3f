"""The board's questions: turn check at DONE, partial plays mid-turn, lifted-checker destinations."""

import pytest
from bgpos import board

from bgrules import Position, Turn
from bgc.rules.notation_read import apply_moves


def after(pos, text):
    return apply_moves(pos, text)


START = Position.start()


def test_a_legal_play_is_legal():
    assert Turn(START, 6, 4).check(after(START, "24/18 13/9")) is None


def test_reason_enter_from_the_bar_first():
    pos = board({13: 5, 6: 9}, {}, white_bar=1)
    assert Turn(pos, 6, 4).check(after(pos, "13/7 13/9")) == "Enter from the bar first"


def test_reason_point_is_blocked():
    # 13/7 with 4-2 through 9 and 11, both closed by Red.
    pos = board({13: 2, 6: 13}, {9: 2, 11: 2, 7: 0})
    final = pos.copy()
    final.cells[13] -= 1
    final.cells[7] += 1
    assert Turn(pos, 4, 2).check(final) == "Point 9 is blocked"


def test_reason_both_dice_must_be_played():
    assert Turn(START, 6, 4).check(after(START, "24/18")) == "Both dice must be played"


def test_reason_the_larger_die_must_be_played():
    pos = board({13: 1, 1: 14}, {2: 2, 3: 2})
    assert Turn(pos, 6, 5).check(after(pos, "13/8")) == "The 6 must be played"


def test_reason_doubles_left_to_play():
    assert Turn(START, 3, 3).check(after(START, "8/5(2)")) == "Play 2 more 3s"


def test_reason_bear_off_with_a_checker_outside():
    pos = board({9: 1, 6: 4, 3: 10})
    final = after(pos, "6/off 3/off")
    assert Turn(pos, 6, 3).check(final) == "Checker still on 9: no bear-off"


def test_reason_bear_off_from_a_lower_point_with_a_higher_checker():
    pos = board({5: 2, 3: 1}, {1: 2})
    final = pos.copy()
    final.cells[3] -= 1
    final.cells[0] += 1
    assert Turn(pos, 6, 4).check(final) == "Checker still on 5: no bear-off"


def test_reason_no_play_gives_this():
    final = after(START, "24/13")  # 11 pips with 6-4
    assert Turn(START, 6, 4).check(final) == "No play of 6-4 gives this"


def test_reason_sixteen_checkers_says_what_was_done():
    # a checker more on the board than the player has (from the tray): say so, not the count
    # (issue 22: "White has 16 checkers" explained nothing)
    final = START.copy()
    final.cells[10] += 1
    assert Turn(START, 6, 4).check(final) == "Extra checker on board: lift it"


def test_reason_names_come_from_the_caller():
    final = START.copy()
    final.cells[26 + 10] += 1  # one of the opponent's
    assert Turn(START, 6, 4, names=("Red", "Blue")).check(final) == "Extra Blue checker: lift it"


def test_reason_hit_checker_goes_to_the_bar():
    pos = board({13: 2, 6: 13}, {9: 1})
    final = after(pos, "13/9*")
    final.cells[26 + 25] -= 1  # the hit checker was taken off the board, not put on the bar
    final.cells[26 + 0] += 1
    assert Turn(pos, 4, 4).check(final) in ("Hit checker goes on the bar", "Black has 14 checkers")


def wrap16(text):
    lines = [""]
    for word in text.split():
        if lines[-1] and len(lines[-1]) + 1 + len(word) > 16:
            lines.append(word)
        else:
            lines[-1] = (lines[-1] + " " + word).strip()
    return lines


def test_every_reason_fits_two_oled_lines():
    pos = board({9: 1, 6: 4, 3: 10})
    reasons = [
        Turn(pos, 6, 3).check(after(pos, "6/off 3/off")),
        Turn(START, 6, 4).check(after(START, "24/13")),
        Turn(START, 6, 4).check(after(START, "24/18")),
        Turn(START, 3, 3).check(after(START, "8/5(2)")),
        Turn(START, 6, 4, names=("White", "Black")).check(Position(bytes(START.cells[:10]) + bytes([1]) + bytes(START.cells[11:]))),
    ]
    for reason in reasons + ["Enter from the bar first", "Point 7 is blocked", "Black's checkers may not move",
                             "Hit checker goes on the bar", "Checkers only move forward", "The 6 must be played"]:
        assert len(wrap16(reason)) <= 2, reason


def test_partial_play_after_one_step_has_the_other_die_left():
    turn = Turn(START, 6, 4)
    assert turn.locate(after(START, "24/18")) == [b"\x04"]
    assert turn.locate(after(START, "13/9")) == [b"\x06"]
    assert turn.locate(START) == [b"\x06\x04"]


def test_a_play_of_two_dice_is_located_by_one_way_of_reaching_it():
    """The board's answer to the second checker put down: the dice still to play (none: the
    play is complete). 24/18 13/8 of 6-5 is reached two ways, the 6 first or the 5 first; with
    nothing borne off the pips moved (11) tell both dice were used whichever way, so the first
    way found gives the answer and the search stops there (on the Pico each way searched is
    milliseconds: the prepared answers cut most such searches off, docs/performance.md). The
    answer is GNU Backgammon's: the play is one of its plays of 6-5."""
    gnubg_ref = pytest.importorskip("bgc.rules.gnubg_ref")
    pytest.importorskip("gnubg_nn")
    end = after(START, "24/18 13/8")
    assert end.id() in gnubg_ref.reference_results(START.id(), 6, 5)
    turn = Turn(START, 6, 5)
    hits = []
    real = Turn._found

    def counted(self, *args):
        ok = real(self, *args)
        hits.append(ok)
        return ok

    Turn._found = counted
    try:
        assert turn.locate(end) == [b""]
        assert turn.locate(after(START, "13/8")) == [b"\x06"]
    finally:
        Turn._found = real
    assert hits.count(True) == 2, "the search reached the board's positions %d times" % hits.count(True)


def test_partial_play_that_no_legal_play_begins_with_is_refused():
    turn = Turn(START, 6, 4)
    assert turn.locate(after(START, "24/13")) == []
    assert turn.locate(after(START, "24/21")) == []  # no 3 in 6-4


def test_partial_play_must_leave_the_rest_playable():
    # FAQ position: 6/off with the 6 leaves the 4 unplayable, so it does not begin a legal play.
    pos = board({6: 1, 5: 1}, {1: 2})
    turn = Turn(pos, 6, 4)
    assert turn.locate(after(pos, "6/off")) == []
    assert turn.locate(after(pos, "6/2")) == [b"\x06"]


def test_destinations_of_a_lifted_checker():
    turn = Turn(START, 6, 4)
    assert turn.destinations(START, 24) == [14, 18, 20]
    assert turn.destinations(START, 6) == [2]  # 6/0 is not a point; 6/2 with the 4


def test_destinations_include_stepping_back():
    turn = Turn(START, 6, 4)
    mid = after(START, "24/18")
    assert 24 in turn.destinations(mid, 18)
    assert 14 in turn.destinations(mid, 18)


def test_destinations_of_a_doubles_checker():
    turn = Turn(START, 3, 3)
    assert turn.destinations(START, 13) == [4, 7, 10]  # 13/1 would land on Red's 24-point


def test_destinations_from_the_bar_when_entry_is_forced():
    pos = START.copy()
    pos.cells[24] -= 1
    pos.cells[25] += 1
    assert Turn(pos, 6, 4).destinations(pos, 25) == [15, 21]
    assert Turn(pos, 6, 4).destinations(pos, 13) == []


@pytest.mark.parametrize(
    "white,red,kind",
    [
        ({}, {10: 3}, 1),
        ({}, {}, 1),
    ],
)
def test_game_end_single(white, red, kind):
    pos = board(white, red)
    assert pos.result() in (1, -1)


def test_game_end_gammon_when_loser_bore_off_none():
    pos = Position.from_points([0] * 24, [0] * 12 + [15] + [0] * 11)
    assert pos.result() == 2


def test_game_end_backgammon_with_a_loser_on_the_bar():
    pos = Position.from_points([0] * 24, [0] * 12 + [14] + [0] * 11, opponent_bar=1)
    assert pos.result() == 3


def test_game_end_backgammon_with_a_loser_in_the_winners_home_board():
    opp = [0] * 24
    opp[12] = 14
    opp[20] = 1  # opponent's 21-point = the winner's 4-point
    assert Position.from_points([0] * 24, opp).result() == 3


def test_game_goes_on_while_both_have_checkers():
    assert START.result() == 0


def test_play_to_names_the_play_that_gives_a_final_position():
    turn = Turn(START, 6, 4)
    for play in turn.plays():
        named = turn.play_to(play.position)
        assert named is not None and named.position == play.position
        assert apply_moves(START, named.notation()) == play.position
    assert turn.play_to(after(START, "24/13")) is None
