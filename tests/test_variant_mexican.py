"""Mexican (seed 002, docs/variants.md): one test per rule that differs from the standard game,
its exports, and a whole match by the automated players at the virtual board."""

import pytest

from bgrules import Position, Turn
from bgrules.match import CHOOSE, MatchError, PLAY, ROLL
from bgrules.rules import STANDARD, ruleset
from bgrules.turn_parts import choose

from variant_parts_helpers import at, check_exports, play_first, pos, sim_game

MEXICAN = ruleset("mexican")


def test_the_smaller_value_first_or_the_whole_roll_is_lost():
    # "Es wird immer zuerst der niedrigere Wert gezogen. Geht das nicht, verfällt der gesamte
    # Wurf." White's checker on the bar: Black holds its 4 point, so the 4 of 5-4 cannot enter.
    p = pos({6: 14}, {4: 2, 6: 13}, 1)
    assert Turn(p, 5, 4, MEXICAN).dice_to_play == 0
    assert Turn(p, 5, 4).dice_to_play >= 1
    hi_first = pos({24: 1, 18: 1, 13: 5, 8: 3, 6: 5}, {24: 2, 13: 5, 8: 3, 6: 5})
    assert Turn(Position.start(), 6, 1, MEXICAN).check(hi_first) == "Play the 1 first"


def test_at_most_five_checkers_on_a_point():
    # "Es dürfen max. 5 Steine auf einer Spitze stehen."
    six_on_6 = pos({24: 1, 23: 1, 13: 5, 8: 2, 6: 6}, {24: 2, 13: 5, 8: 3, 6: 5})  # 24/23 8/6
    assert Turn(Position.start(), 2, 1).check(six_on_6) is None
    assert Turn(Position.start(), 2, 1, MEXICAN).check(six_on_6) == "At most 5 checkers on 6"


def test_a_double_played_in_full_earns_a_new_roll_a_short_one_does_not():
    # "Nach einem (vollständig ausgeführten) Pasch wird erneut gewürfelt."
    m = at(MEXICAN, Position.start())
    m.roll(3, 3, 0)
    play_first(m)
    assert (m.phase, m.on_roll) == (ROLL, 0)
    assert m.double_refusal(0) is not None
    m = at(MEXICAN, pos({13: 1, 6: 14}, {18: 2, 6: 13}))  # no 6 can move
    m.roll(6, 6, 0)
    play_first(m)
    assert (m.phase, m.on_roll) == (ROLL, 1)


def test_a_mexican_1_2_is_not_played_a_chosen_double_then_a_new_roll():
    # "Nach dem Wurf eines „Mexikaners“ (1-2) wird ein beliebiger Pasch gewählt und ausgeführt.
    # Anschließend wird regulär gewürfelt. Die Kombination 1-2 wird nicht gezogen!"
    m = at(MEXICAN, Position.start())
    m.roll(1, 2, 0)
    assert m.phase == CHOOSE and m.turn is None
    with pytest.raises(MatchError):
        m.play(Position.start())
    choose(m, 5, 5, 0)
    assert m.phase == PLAY and m.turn.dice_to_play == 4
    play_first(m)
    assert (m.phase, m.on_roll) == (ROLL, 0)
    m.roll(4, 2, 0)
    play_first(m)
    assert m.on_roll == 1


def test_bear_off_with_exact_values_only():
    # "Das Abtragen erfolgt mit exakt passenden Werten."
    p = pos({3: 1, 2: 14}, {24: 15})
    std = {pl.notation() for pl in Turn(p, 6, 5).plays()}
    mex = Turn(p, 6, 5, MEXICAN)
    assert "3/off 2/off" in std
    assert mex.dice_to_play == 0


def test_no_gammons_no_cube():
    # "Es gibt kein Gammon oder Backgammon. Es gibt keinen Dopplerwürfel."
    start = pos({1: 1}, {19: 15})
    final = Position(start.cells)
    final.cells[1] = 0
    final.cells[0] = 15
    assert STANDARD.result(start, final) == 3
    assert MEXICAN.result(start, final) == 1
    assert at(MEXICAN, Position.start()).double_refusal(0) == "No cube in Mexican"


def test_exports_write_json_and_text_with_the_chosen_doubles(tmp_path, capsys):
    recs, data, text = check_exports(tmp_path, capsys, "mexican")
    chosen = [r for r in recs if r["a"] == "choose"]
    assert chosen
    assert "chooses %d-%d" % tuple(chosen[0]["dice"]) in text
    actions = [a for g in data["games"] for a in g["actions"]]
    assert [a["dice"] for a in actions if a["a"] == "choose"] == [r["dice"] for r in chosen]


def test_a_complete_match_by_the_automated_players_at_the_board(capsys):
    sim_game(capsys, "mexican")
