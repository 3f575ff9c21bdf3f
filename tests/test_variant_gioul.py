"""Turkish Gioul (seed 002, docs/variants.md): one test per rule that differs from the standard
game, its exports, and a whole match by the automated players at the virtual board."""

import pytest

from bgrules import Position, Turn
from bgrules.match import MatchError, PLAY, ROLL
from bgrules.rules import ruleset

from variant_parts_helpers import at, check_exports, play_first, pos, sim_game

GIOUL = ruleset("gioul")


def test_start_on_the_first_point_of_the_opponents_home_board():
    # "Die beiden Spieler beginnen auf den ersten Spitzen der gegnerischen Heimfelder" (all 15:
    # assumed, the picture is lost).
    c = GIOUL.start_position().cells
    assert c[24] == 15 and c[26 + 24] == 15 and sum(c[1:24]) == 0


def test_a_single_checker_blocks_and_nothing_is_hit():
    # "Es wird nicht geschlagen, bereits ein einzelner Stein sperrt diese Spitze für den Gegner."
    p = pos({24: 14, 13: 1}, {24: 14, 5: 1})  # Black's single checker on White's 20 point
    standard = Turn(p, 4, 1).plays()
    assert any(pl.position.cells[26 + 25] for pl in standard)  # the standard game hits it
    turn = Turn(p, 4, 1, GIOUL)
    finals = [pl.position for pl in turn.plays()]
    assert finals and all(f.cells[20] == 0 and f.cells[26 + 25] == 0 for f in finals)
    hit = [pl.position for pl in standard if pl.position.cells[26 + 25]][0]
    assert turn.check(hit) is not None


def test_rising_doubles_pass_to_the_opponent_and_back_to_the_normal_turn():
    # "Sobald der Spieler den Zug nicht umsetzen kann, übernimmt der Gegner an der nächsten
    # Position [...] Anschließend führt der Gegner wie gewohnt seinen Zug durch."
    white = pos({24: 15}, {5: 1, 8: 1, 24: 13})  # Black's singles shut White's 20 and 17
    m = at(GIOUL, white)
    m.roll(3, 3, 0)
    after = Position(white.cells)
    after.cells[24] = 11
    after.cells[21] = 4
    m.play(after)
    assert (m.on_roll, m.dice, m.turn.dice_to_play) == (0, (4, 4), 0)
    m.play(after)
    assert (m.on_roll, m.dice, m.phase) == (1, (5, 5), PLAY)
    play_first(m)
    assert (m.on_roll, m.dice) == (1, (6, 6))
    play_first(m)
    assert (m.on_roll, m.phase, m.part) == (1, ROLL, None)


def test_rising_double_of_six_is_only_four_sixes():
    m = at(GIOUL, GIOUL.start_position())
    m.roll(6, 6, 0)
    play_first(m)
    assert m.on_roll == 1 and m.phase == ROLL


def test_no_cube():
    # "Es wird ohne Verdoppler gespielt."
    m = at(GIOUL, GIOUL.start_position())
    assert m.double_refusal(0) == "No cube in Turkish Gioul"
    with pytest.raises(MatchError):
        m.double(0)


def test_two_points_when_the_loser_has_borne_off_none_never_three():
    # "Der einfache Sieg zählt 1 Punkt, hat der Gegner noch gar keinen Stein abgetragen, zählt der
    # Sieg 2 Punkte." Black's checkers still in White's home board would be a backgammon in the
    # standard game.
    start = pos({2: 1}, {24: 15})
    final = Position(start.cells)
    final.cells[2] = 0
    final.cells[0] = 15
    from bgrules.rules import STANDARD

    assert STANDARD.result(start, final) == 3
    assert GIOUL.result(start, final) == 2
    some_off = pos({2: 1}, {24: 5})
    final = Position(some_off.cells)
    final.cells[2] = 0
    final.cells[0] = 15
    assert GIOUL.result(some_off, final) == 1


def test_exports_write_json_and_text_and_refuse_mat(tmp_path, capsys):
    check_exports(tmp_path, capsys, "gioul")


def test_a_complete_match_by_the_automated_players_at_the_board(capsys):
    records = sim_game(capsys, "gioul")
    assert any(r["a"] == "play" for r in records)
