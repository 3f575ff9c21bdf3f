"""Legal plays: one test per rule of the seeds (000_*.txt, 'Regole' and the FAQ), White on roll."""

from bgpos import board, results

from bgrules import Position, Turn, legal_plays


def ids(turn):
    return {p.position.id() for p in turn.plays()}


def test_a_checker_may_not_land_on_a_point_held_by_two_opponents():
    turn = Turn(board({13: 1}, {9: 2}), 4, 4)
    assert all("/9" not in n for n in results(turn))
    assert results(turn) == []  # 13/9 is the only road and it is closed


def test_a_single_opponent_checker_is_hit_and_goes_to_the_bar():
    (play,) = Turn(board({13: 1}, {9: 1, 1: 2}), 4, 4).plays()[:1] or [None]
    plays = Turn(board({13: 1}, {9: 1}), 4, 1).plays()
    hit = [p for p in plays if "*" in p.notation()]
    assert hit, results(Turn(board({13: 1}, {9: 1}), 4, 1))
    assert all(p.position.opponent(25) == 1 for p in hit)
    assert "13/9*/8" in [p.notation() for p in plays]


def test_checkers_on_the_bar_enter_before_any_other_checker_moves():
    turn = Turn(board({13: 14}, {}, white_bar=1), 6, 5)
    for p in turn.plays():
        assert p.steps[0][0] == 25


def test_entry_with_4_6_when_the_6_point_is_closed_must_use_the_4():
    # 000_*.txt: with 4 and 6 a checker enters on the opponent's 4 or 6 point unless it is closed.
    start = Position.start()
    start.cells[24] -= 1
    start.cells[25] += 1  # one White checker on the bar; Red's 6-point (White's 19) holds 5
    plays = Turn(start, 6, 4).plays()
    assert plays
    assert all(p.steps[0][:2] == (25, 21) for p in plays)
    assert "bar/15" in [p.notation() for p in plays]  # enter with the 4, go on with the 6


def test_when_not_all_bar_checkers_can_enter_the_rest_of_the_roll_is_lost():
    # Two on the bar; Red holds White's 19 (Red's 6-point): only the 5 enters, the 6 is lost.
    turn = Turn(board({13: 13}, {19: 2}, white_bar=2), 6, 5)
    assert turn.dice_to_play == 1
    assert results(turn) == ["bar/20"]


def test_both_dice_must_be_played_when_possible():
    turn = Turn(Position.start(), 6, 5)
    assert turn.dice_to_play == 2
    assert all(sum(s[0] - s[1] for s in p.steps) == 11 for p in turn.plays())


def test_when_only_one_die_can_be_played_it_must_be_the_larger():
    # White's only checker on 13: 13/7 (6) then the 5 is blocked at 2; 13/8 (5) then 8/2 is
    # blocked and the 6 cannot be played either; either die alone is playable, not both.
    turn = Turn(board({13: 1, 1: 14}, {2: 2, 7: 0, 8: 0, 3: 2}), 6, 5)
    assert turn.dice_to_play == 1
    assert results(turn) == ["13/7"]


def test_when_only_the_smaller_die_can_be_played_it_is_played():
    turn = Turn(board({13: 1, 1: 14}, {7: 2, 2: 2}), 6, 5)
    assert turn.dice_to_play == 1
    assert results(turn) == ["13/8"]


def test_doubles_play_four_times():
    turn = Turn(Position.start(), 6, 6)
    assert turn.dice_to_play == 4
    assert "24/18(2) 13/7(2)" in results(turn)


def test_doubles_play_as_many_as_possible():
    # White on 13 and 1s: 13/10, 10/7, then 7/4 is blocked: only two 3s can be played.
    turn = Turn(board({13: 1, 1: 14}, {4: 2}), 3, 3)
    assert turn.dice_to_play == 2
    assert results(turn) == ["13/7"]


def test_bear_off_only_when_all_fifteen_are_home():
    turn = Turn(board({7: 1, 6: 2, 2: 2}), 6, 1)
    for play in turn.plays():
        moved_in = False
        for src, dst, hit in play.steps:
            assert dst != 0 or moved_in, play.notation()
            moved_in = moved_in or src == 7
    # 7/1 with the 6 then 1/off (or 7/6 then 6/off: the same position, written once).
    assert "7/off" in results(turn)


def test_a_hit_checker_must_come_home_before_bearing_off_again():
    turn = Turn(board({6: 5, 5: 5, 4: 4}, {}, white_bar=1), 6, 5)
    assert turn.plays()
    assert all("off" not in n for n in results(turn))


def test_a_larger_die_bears_off_from_the_highest_point_only():
    turn = Turn(board({3: 1, 2: 1}), 6, 5)
    assert results(turn) == ["3/off 2/off"]
    turn = Turn(board({5: 1, 3: 1}, {1: 2}), 6, 1)
    assert "3/off" not in " ".join(results(turn)).split() or "5/off" in " ".join(results(turn))


def test_faq_white_4_3_must_bear_off_from_4_and_3():
    # FAQ: "Il Bianco ha ottenuto 4 e 3 ... obbligato a portare fuori una pedina dal punto 3 ed
    # un'altra dal punto 4". Red holds White's 1-point so 4/1 is closed.
    turn = Turn(board({4: 1, 3: 1, 6: 0}, {1: 2}), 4, 3)
    assert results(turn) == ["4/off 3/off"]


def test_faq_white_4_2_may_bear_off_one_or_two():
    # FAQ: White may bear off two checkers, or play 4/2 and 2/off to avoid leaving a blot.
    turn = Turn(board({4: 1, 2: 2}), 4, 2)
    got = results(turn)
    assert "4/off 2/off" in got
    after = Turn(board({4: 1, 2: 2}), 4, 2).plays()
    # 4/2 then 2/off with the 4: one checker off, two left on the 2-point (no blot).
    assert any(p.position.mover(0) == 13 and p.position.mover(2) == 2 for p in after)


def test_faq_6_bears_off_from_the_5_point_and_the_4_cannot_be_played():
    # FAQ: White must use the 6 to bear off from the 5-point; the 4 cannot bear off from the
    # 3-point (checkers on 5) and 5/1 is closed by Red's two checkers on White's 1-point.
    turn = Turn(board({5: 2, 3: 1}, {1: 2}), 6, 4)
    assert turn.dice_to_play == 1
    assert results(turn) == ["5/off"]


def test_faq_6_may_not_bear_off_from_the_6_point_when_6_2_5_off_plays_both():
    # FAQ: the only way to play both dice is 6/2 (the 4) then 5/off (the 6).
    turn = Turn(board({6: 1, 5: 1}, {1: 2}), 6, 4)
    assert turn.dice_to_play == 2
    assert results(turn) == ["6/2 5/off"]


def test_no_legal_move_loses_the_turn_without_error():
    # Closed out: White on the bar, Red holds all of White's 19..24.
    pos = board({6: 14}, {19: 2, 20: 2, 21: 2, 22: 2, 23: 2, 24: 2}, white_bar=1)
    turn = Turn(pos, 6, 5)
    assert turn.plays() == []
    assert turn.check(pos) is None


def test_notation_follows_gnu_backgammon():
    got = results(Turn(Position.start(), 3, 1))
    assert "8/5 6/5" in got and "24/20" in got and "13/9" in got
    assert "bar/22 6/5" in results(Turn(board({6: 14}, {}, white_bar=1), 3, 1))
    assert "8/5(2) 6/3(2)" in results(Turn(Position.start(), 3, 3))


def test_legal_plays_helper_matches_turn():
    assert {p.position for p in legal_plays(Position.start(), 2, 1)} == {p.position for p in Turn(Position.start(), 2, 1).plays()}


def test_notation_keeps_a_hit_where_it_happened_when_two_checkers_enter_on_one_point():
    # 6-6 from DwUagTlmm4CIZA: two checkers enter on 19 (hitting there), one goes on to 13.
    pos = Position.from_id("DwUagTlmm4CIZA")
    from bgrules import format_steps
    from bgc.rules.notation_read import apply_moves

    text = format_steps(((25, 19, 1), (25, 19, 0), (19, 13, 1), (15, 9, 1)))
    assert "bar/19*/13" not in text
    for play in Turn(pos, 6, 6).plays():
        assert apply_moves(pos, play.notation()) == play.position, play.notation()
