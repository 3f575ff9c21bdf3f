"""Double against free choice (seed 002, docs/variants.md): one test per rule that differs from
the standard game, its exports, and a whole match by the automated players at the board."""

import pytest

from bgrules import Position
from bgrules.match import Match, MatchError, PLAY, ROLL
from bgrules.rules import ruleset
from bgrules.turn_parts import choose, chooser

from variant_parts_helpers import at, check_exports, play_first, sim_game

FREE = ruleset("freechoice")


def test_the_chooser_picks_any_roll_but_a_double_instead_of_rolling():
    # "wenn ein Spieler statt zu würfeln, jede beliebige Würfelkombination frei wählen und ziehen
    # darf – mit Ausnahme von Pasch-Würfen."
    m = at(FREE, Position.start(), on_roll=0)
    assert chooser(m) == 0
    with pytest.raises(MatchError, match="choose the dice"):
        m.roll(3, 1, 0)
    with pytest.raises(MatchError, match="any roll but a double"):
        choose(m, 6, 6, 0)
    choose(m, 3, 1, 0)
    assert m.phase == PLAY and m.dice == (3, 1)
    play_first(m)
    assert (m.phase, m.on_roll) == (ROLL, 1)


def test_the_other_player_rolls_and_plays_twice_doubles_as_usual():
    # "Der andere Spieler darf im Gegenzug 2x regulär nacheinander würfeln und ziehen. Auch ein
    # Pasch wird normal gespielt, ggf. auch 2x."
    m = at(FREE, Position.start(), on_roll=1)
    with pytest.raises(MatchError):
        choose(m, 6, 5, 1)
    m.roll(5, 5, 1)
    assert m.turn.dice_to_play == 4
    play_first(m)
    assert (m.phase, m.on_roll) == (ROLL, 1)
    assert m.double_refusal(1) == "Roll again first"  # no cube between the two rolls
    m.roll(2, 2, 1)
    play_first(m)
    assert (m.phase, m.on_roll) == (ROLL, 0)


def test_the_chooser_alternates_by_game_and_may_double_before_choosing():
    m = Match(3, rules=FREE)
    assert chooser(m) == 0
    m.game = 2
    assert chooser(m) == 1
    m = at(FREE, Position.start(), on_roll=0)
    assert m.may_double(0)


def test_the_opening_roll_is_the_rollers_first_of_two():
    m = Match(0, rules=FREE)
    m.opening_roll(2, 5)  # Black, the roller in game 1, opens
    assert (m.on_roll, m.dice) == (1, (5, 2))
    play_first(m)
    assert (m.phase, m.on_roll) == (ROLL, 1)
    m.roll(4, 3, 1)
    play_first(m)
    assert m.on_roll == 0
    m = Match(0, rules=FREE)
    m.opening_roll(5, 2)  # White, the chooser, opens with the dice as rolled
    play_first(m)
    assert (m.phase, m.on_roll) == (ROLL, 1)


def test_exports_write_json_and_text(tmp_path, capsys):
    recs, data, text = check_exports(tmp_path, capsys, "freechoice")
    assert any(r["a"] == "choose" for r in recs)


def test_a_complete_match_by_the_automated_players_at_the_board(capsys):
    sim_game(capsys, "freechoice")
