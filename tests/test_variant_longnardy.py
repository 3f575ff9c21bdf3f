"""Long Nardy (docs/variants.md: Wikipedia "Long Nardy", vogclub.com, bkgm.com "Narde" as
threemountaingames.com and setupgroup.com give it, the Georgian federation's rules at
geonardi.com): one test per rule, named after it; every play of positions from random games
against the move generator of tests/tables_reference.py (written from those texts); exports and
a whole game at the virtual board."""

import random

import pytest

from bgrules import Position, Turn
from bgrules.match import Match, MatchError, ROLL
from bgrules.position import OPP
from bgrules.rules import ruleset

from tables_reference import reference
from variant_parts_helpers import at, check_exports, sim_game

NARDY = ruleset("longnardy")


def pos(mover, opponent):
    return Position.from_points([mover.get(q, 0) for q in range(1, 25)], [opponent.get(q, 0) for q in range(1, 25)],
                                check=False)


def finals(turn):
    return sorted(p.position.id() for p in turn.plays())


def test_long_nardy_all_fifteen_on_the_head_white_24_black_12():
    # "point 24 is White's head and point 12 is Black's head" (Wikipedia), both anticlockwise
    c = NARDY.start_position().cells
    assert c[24] == 15 and c[OPP + 24] == 15 and NARDY.opposite[24] == 12


def test_long_nardy_every_play_of_random_games_equals_the_reference():
    rng = random.Random(6)
    checked = 0
    for game in range(12):
        m = Match(0, rules=NARDY)
        while not m.opening_roll(rng.randint(1, 6), rng.randint(1, 6)):
            pass
        while m.phase not in ("gameover", "matchover"):
            if m.phase == "roll":
                m.roll(rng.randint(1, 6), rng.randint(1, 6))
            t = m.turn
            assert finals(t) == reference("longnardy", t.start, t.d1, t.d2), (t.start.id(), t.d1, t.d2)
            checked += 1
            plays = t.plays()
            m.play(rng.choice(plays).position if plays else m.position)
    assert checked > 800


def test_long_nardy_one_checker_off_the_head_a_turn():
    # "On a single turn, only one piece can be taken from the head"
    p = pos({24: 14, 19: 1}, {24: 14, 20: 1})
    turn = Turn(p, 3, 2, NARDY)
    assert all(pl.position.cells[24] == 13 or pl.position.cells[24] == 14 for pl in turn.plays())
    two = pos({24: 12, 21: 1, 22: 1, 19: 1}, {24: 14, 20: 1})  # 24/21 24/22
    assert turn.check(two) == "One checker off the head a turn"


@pytest.mark.parametrize("die,plays", [
    (6, ["24/18(2)"]),  # 18/12 is the opponent's head
    (4, ["24/16(2)"]),  # 16/12 too
    (3, ["24/18(2)", "24/21 24/15"]),
    (5, ["24/4"]),  # one checker plays it all: no second off the head
])
def test_long_nardy_the_first_roll_6_6_4_4_3_3_takes_two_off_the_head(die, plays):
    # "The one exception is the first roll of the game in which you may move two checkers off
    # your head: two off the head is forced when a player rolls 3-3, 4-4, or 6-6 for his first
    # roll" (bkgm.com "Narde")
    turn = Turn(NARDY.start_position(), die, die, NARDY)
    assert sorted(p.notation() for p in turn.plays()) == plays


def test_long_nardy_the_second_player_has_the_exception_on_its_first_roll_too():
    black = pos({24: 15}, {24: 14, 18: 1})
    assert sorted(p.notation() for p in Turn(black, 6, 6, NARDY).plays()) == ["24/18(2)"]
    later = pos({24: 14, 10: 1}, {24: 14, 18: 1})
    assert sorted(p.notation() for p in Turn(later, 6, 6, NARDY).plays()) == ["24/18 10/4"]


def test_long_nardy_setting_doubles_names_the_doubles_that_take_two():
    turn = Turn(NARDY.start_position(), 3, 3, ruleset("longnardy:doubles=64"))
    assert sorted(p.notation() for p in turn.plays()) == ["24/15"]


def test_long_nardy_a_single_checker_blocks_nothing_is_hit():
    p = pos({24: 14, 16: 1}, {24: 14, 5: 1})  # Black's single on its 5: White's 17
    finals_ = [pl.position for pl in Turn(p, 1, 2, NARDY).plays()]
    assert finals_ and all(f.cells[17] == 0 and f.cells[OPP + 25] == 0 for f in finals_)


def test_long_nardy_six_in_a_row_only_with_an_opponent_checker_past_them():
    # "It is forbidden to build a blockade of six men in a row unless at least one of the
    # opponent's men is in front of it" (Wikipedia); White's 16-11 is Black's 4-1 and 24-23:
    # no row for Black; White's 10-5 is Black's 22-17
    row = pos({24: 8, 10: 1, 9: 1, 8: 1, 7: 1, 6: 1, 11: 2}, {24: 15})
    full = pos({24: 7, 23: 1, 10: 1, 9: 1, 8: 1, 7: 1, 6: 1, 5: 1, 11: 1}, {24: 15})  # 11/5 24/23
    assert Turn(row, 6, 1, NARDY).check(full) == "6 in a row at 5: none past it"
    one_past = pos({24: 8, 10: 1, 9: 1, 8: 1, 7: 1, 6: 1, 11: 2}, {24: 14, 16: 1})  # Black's 16: White's 4
    full_past = pos({24: 7, 23: 1, 10: 1, 9: 1, 8: 1, 7: 1, 6: 1, 5: 1, 11: 1}, {24: 14, 16: 1})
    assert Turn(one_past, 6, 1, NARDY).check(full_past) is None


def test_long_nardy_no_cube_and_mars_two_points():
    m = at(NARDY, NARDY.start_position())
    with pytest.raises(MatchError):
        m.double(0)
    start = pos({3: 1}, {20: 15})
    final = Position(start.cells)
    final.cells[3] = 0
    final.cells[0] = 15
    assert NARDY.result(start, final) == 2


def test_long_nardy_the_opening_winner_rolls_and_the_last_winner_starts_the_next():
    # "Both players roll one die and the higher number goes first. That player rolls the dice
    # again to begin his turn. After the first game, the winner of the previous game goes
    # first." (threemountaingames.com, bkgm.com "Narde")
    m = Match(3, rules=NARDY)
    assert m.opening_roll(6, 2) and m.phase == ROLL and m.on_roll == 0 and m.turn is None


def test_long_nardy_exports_write_json_and_text_and_refuse_mat(tmp_path, capsys):
    check_exports(tmp_path, capsys, "longnardy")


def test_long_nardy_a_whole_match_by_the_automated_players_at_the_virtual_board(capsys):
    sim_game(capsys, "longnardy")
