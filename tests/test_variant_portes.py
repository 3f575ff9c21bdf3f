"""Portes, Tavli's first game (docs/variants.md: Wikipedia "Tavli", neromyloscafe.com, bkgm.com's
Condos): "The starting layout and rules are as for Backgammon except that: The player who leads
re-rolls both dice to start the game [...] There is no equivalent of a backgammon and therefore
no triple win. There is no doubling cube." One test per rule, named after it; the moves against
GNU Backgammon's generator; its exports and a whole game at the virtual board."""

import pytest

from bgrules import Position, Turn
from bgrules.match import GAME_OVER, Match, MatchError, ROLL
from bgrules.rules import STANDARD, ruleset

from variant_parts_helpers import at, bgc, check_exports, pos, sim_game

PORTES = ruleset("portes")


def test_portes_starts_from_the_backgammon_layout():
    assert PORTES.start_position() == STANDARD.start_position()


def test_portes_moves_are_backgammons_every_play_equals_gnu_backgammons_generator():
    gnubg_ref = pytest.importorskip("bgc.rules.gnubg_ref")
    pytest.importorskip("gnubg_nn")
    for pid, a, b in gnubg_ref.random_positions(300, seed=7, rules=PORTES):
        ours = sorted({p.position.id() for p in Turn(Position.from_id(pid), a, b, PORTES).plays()})
        assert ours == gnubg_ref.reference_results(pid, a, b), (pid, a, b)


def test_portes_the_opening_only_says_who_starts_who_then_rolls_both_dice():
    # "The player who leads re-rolls both dice to start the game. Thus a doublet is possible on
    # the first move."
    m = Match(3, rules=PORTES)
    assert m.opening_roll(2, 5) is True
    assert m.phase == ROLL and m.on_roll == 1 and m.dice == (0, 0) and m.turn is None
    with pytest.raises(MatchError):
        m.roll(3, 3, 0)  # White did not win the opening
    m.roll(3, 3, 1)
    assert m.turn.dice_to_play == 4  # a doublet on the first move
    # the standard game plays the opening dice
    s = Match(3)
    s.opening_roll(2, 5)
    assert s.dice == (5, 2) and s.turn is not None


def test_portes_the_winner_of_a_game_starts_the_next_without_an_opening_roll():
    # Tavli: "After the first game, the winner of the previous game goes first."
    m = at(PORTES, pos({1: 1}, {6: 2, 13: 13}))
    m.length = 5
    m.roll(2, 1, 0)
    m.play(m.turn.plays()[0].position)
    assert m.phase == GAME_OVER and m.result[0] == 0
    m.next_game()
    assert m.phase == ROLL and m.on_roll == 0 and m.game_started()
    saved = Match.loads(m.dumps())  # a power cut before the winner rolls
    assert saved.phase == ROLL and saved.on_roll == 0
    # Black wins the next: Black starts the third
    m.position = pos({1: 1}, {6: 2, 13: 13}).swapped()
    m.roll(6, 5, 0)
    m.play(m.turn.plays()[0].position)
    m.roll(2, 1, 1)
    m.play(m.turn.plays()[0].position)
    assert m.result[0] == 1
    m.next_game()
    assert m.phase == ROLL and m.on_roll == 1
    assert m.position == PORTES.start_position().swapped()  # from Black's side


def test_portes_no_cube():
    m = at(PORTES, PORTES.start_position())
    assert m.double_refusal(0) == "No cube in Portes"


def test_portes_a_backgammon_counts_two_as_a_gammon_and_three_with_the_setting():
    # "The game may either be won singly, or won double if the loser has yet to bear off a man.
    # There is no equivalent of a backgammon and therefore no triple win."
    start = pos({2: 1}, {24: 15})  # Black's 15 still in White's home board (White's 1 point)
    final = Position(start.cells)
    final.cells[2] = 0
    final.cells[0] = 15
    assert STANDARD.result(start, final) == 3
    assert PORTES.result(start, final) == 2
    assert ruleset("portes:backgammons=1").result(start, final) == 3
    some_off = pos({1: 1}, {1: 14})
    done = Position(some_off.cells)
    done.cells[1] = 0
    done.cells[0] = 15
    assert PORTES.result(some_off, done) == 1


def test_portes_a_setting_that_does_not_exist_is_refused_with_the_settings_named(capsys):
    status, out, err = bgc(capsys, "moves", "--variant", "portes:cube=1", "4HPwATDgc/ABMA", "3", "1")
    assert status == 2 and "portes has no setting among cube" in err and "settings" in err


def test_portes_is_listed_with_its_sources_and_setting(capsys):
    status, out, err = bgc(capsys, "variants")
    block = out.split("\nportes")[1].split("\n\n")[0]
    assert "Wikipedia 'Tavli'" in block and "backgammons=0" in block


def test_portes_exports_write_json_and_text_and_refuse_mat(tmp_path, capsys):
    check_exports(tmp_path, capsys, "portes")


def test_portes_a_whole_match_by_the_automated_players_at_the_virtual_board(capsys):
    records = sim_game(capsys, "portes")
    opening = [r for r in records if r["a"] == "open"][-1]
    first_roll = records[records.index(opening) + 1]
    assert first_roll["a"] == "roll"  # the opening's winner rolled both dice anew
