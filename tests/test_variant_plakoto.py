"""Plakoto, Tavli's second game (docs/variants.md: Wikipedia "Tavli" and "Plakoto",
backgammon-hub.com, fibs.com's "The Board" rules, gamerz.net, bkgm.com's Condos): one test per
rule, named after it; every play of positions from random games against the move generator of
tests/tables_reference.py (written from those texts); the mother and the draw; exports and a
whole game at the virtual board."""

import random

from bgrules import Position, Turn
import pytest

from bgrules.match import GAME_OVER, OPENING, Match, MatchError
from bgrules.position import OPP
from bgrules.rules import DRAW, ruleset

from tables_reference import reference
from variant_parts_helpers import at, check_exports, sim_game

PLAKOTO = ruleset("plakoto")


def pos(mover, opponent, pinned=()):
    """From {point: checkers} of each side in its own numbering; ``pinned``: the mover's points
    whose single checker is pinned (Position.pinned bits)."""
    p = Position.from_points([mover.get(q, 0) for q in range(1, 25)], [opponent.get(q, 0) for q in range(1, 25)],
                             check=False)
    for q in pinned:
        p.pinned |= 1 << q
    return p


def finals(turn):
    return sorted(p.position.id() for p in turn.plays())


def test_plakoto_all_fifteen_start_on_the_opponents_one_point():
    # "These checkers are placed on opponent's one-point" (the own 24 point)
    c = PLAKOTO.start_position().cells
    assert c[24] == 15 and c[OPP + 24] == 15 and sum(c[1:24]) == 0


def test_plakoto_every_play_of_random_games_equals_the_reference():
    rng = random.Random(3)
    checked = pinned_starts = 0
    for game in range(14):
        m = Match(0, rules=PLAKOTO)
        while not m.opening_roll(rng.randint(1, 6), rng.randint(1, 6)):
            pass
        while m.phase not in ("gameover", "matchover"):
            if m.phase == "roll":
                m.roll(rng.randint(1, 6), rng.randint(1, 6))
            t = m.turn
            assert finals(t) == reference("plakoto", t.start, t.d1, t.d2), (t.start.id(), t.start.pinned, t.d1, t.d2)
            checked += 1
            pinned_starts += bool(t.start.pinned)
            plays = t.plays()
            m.play(rng.choice(plays).position if plays else m.position)
            if m.phase == "roll" and not plays and PLAKOTO.locked(m.position, PLAKOTO):
                break
    assert checked > 500 and pinned_starts > 50


def test_plakoto_a_checker_landing_on_a_single_opposing_one_pins_it_nothing_is_hit():
    # White's 13/8 lands on Black's single checker on Black's 17 (White's 8)
    start = pos({13: 1, 24: 14}, {17: 1, 24: 14})
    turn = Turn(start, 5, 5, PLAKOTO)
    final = pos({8: 1, 19: 3, 24: 11}, {17: 1, 24: 14})  # 13/8* and 24/19(3)
    assert turn.check(final) is None
    assert final.cells[OPP + 25] == 0  # nothing on the bar
    assert PLAKOTO.after(start, final).pinned == 1 << 17  # Black's checker on its 17 is pinned


def test_plakoto_a_pinned_checker_may_not_move_and_its_point_is_closed_to_its_side():
    # Black on roll, its checker on its 17 pinned under White's (White's 8)
    start = pos({17: 1, 24: 14}, {8: 1, 24: 14}, pinned=(17,))
    for play in Turn(start, 6, 2, PLAKOTO).plays():
        assert all(src != 17 for src, _, _ in play.steps)
    moved = pos({11: 1, 22: 1, 24: 13}, {8: 1, 24: 14})
    assert Turn(start, 6, 2, PLAKOTO).check(moved) == "Checker on 17 is pinned"
    # 24/17 would land on the pinned point: "a piece pinning an opposing man creates a block"
    assert all(p.position.cells[17] == 1 for p in Turn(start, 4, 3, PLAKOTO).plays())


def test_plakoto_the_standard_dice_a_roll_not_playable_whole_is_played_as_far_as_it_goes():
    # Unlike Pin (roll lost unless whole): as many dice as can be played, else the larger.
    start = pos({24: 15}, {7: 2, 8: 2, 24: 11})  # White's 24/18 and 24/17 shut by Black's points
    turn = Turn(start, 6, 1, PLAKOTO)
    assert turn.dice_to_play == 1
    assert finals(turn) == [pos({23: 1, 24: 14}, {7: 2, 8: 2, 24: 11}).id()]
    assert Turn(start, 6, 1, ruleset("pin")).dice_to_play == 0


def _play(m, d1, d2, final):
    m.roll(d1, d2, m.on_roll)
    assert m.turn.check(final) is None, m.turn.check(final)
    m.play(final)


def test_plakoto_pinning_the_mother_wins_two_when_the_pinner_has_left_its_own_start():
    # "The last piece to leave the starting quadrate is called the "mother" piece. If you manage
    # to block your opponent's "mother" piece, the game is over and your opponent loses 2 points.
    # This can only happen if you already move your "mother" piece" (backgammon-hub.com)
    m = at(PLAKOTO, pos({2: 1, 6: 14}, {24: 1, 10: 14}))
    _play(m, 4, 1, pos({1: 1, 2: 1, 6: 13}, {24: 1, 10: 14}))  # 2/1 pins Black's mother, 6/2
    assert m.phase == GAME_OVER and m.result[:3] == (0, 2, 2)


def test_plakoto_with_checkers_still_on_the_own_start_the_game_goes_on():
    # fibs.com: "he immediately loses the game unless the other player still has checkers left
    # on his home point. He then still have the chance of capturing the other player's home point"
    m = at(PLAKOTO, pos({2: 1, 24: 3, 6: 11}, {24: 1, 10: 14}))
    _play(m, 1, 1, pos({1: 1, 24: 3, 6: 8, 5: 3}, {24: 1, 10: 14}))  # 2/1 pins the mother, 6/5(3)
    assert m.phase == "roll" and m.on_roll == 1
    # White's last checker leaving its start while Black's mother stays pinned wins then
    gone = pos({1: 1, 6: 14}, {24: 1, 10: 14})
    assert PLAKOTO.result(gone, gone) == 2


def test_plakoto_pinning_back_the_pinners_mother_is_a_draw_no_points_and_an_opening_roll_next():
    # "If both mothers get blocked, the game is over in a tie" (backgammon-hub.com); "If both
    # 'mothers' are trapped the game is a tie" (gamerz.net)
    black = pos({2: 1, 24: 1, 6: 13}, {1: 1, 24: 1, 6: 13}, pinned=(24,))  # Black's mother pinned
    m = at(PLAKOTO, black, on_roll=1)
    m.length = 3
    _play(m, 1, 1, pos({1: 1, 24: 1, 6: 10, 5: 3}, {1: 1, 24: 1, 6: 13}))  # 2/1 pins White's mother
    assert m.phase == GAME_OVER and m.result[1:] == (0, 0, "draw") and m.score == [0, 0]
    m.next_game()
    assert m.phase == OPENING  # no winner to start the next game
    both = pos({1: 1, 24: 1, 6: 13}, {1: 1, 24: 1, 6: 13})
    assert PLAKOTO.result(both, both) == DRAW


def test_plakoto_mother_setting_loses_at_once_and_none():
    pinner_home = pos({1: 1, 24: 3, 6: 11}, {24: 1, 10: 14})  # Black's mother pinned, White still at home
    assert PLAKOTO.result(pinner_home, pinner_home) == 0
    assert ruleset("plakoto:mother=loses").result(pinner_home, pinner_home) == 2  # bkgm.com, Condos
    gone = pos({1: 1, 6: 14}, {24: 1, 10: 14})
    assert ruleset("plakoto:mother=none").result(gone, gone) == 0


def test_plakoto_no_cube_and_two_points_at_most():
    m = at(PLAKOTO, PLAKOTO.start_position())
    assert m.double_refusal(0) == "No cube in Plakoto"
    with pytest.raises(MatchError):
        m.double(0)
    start = pos({3: 1}, {24: 2, 5: 13})  # Black bore off none, two still on White's 1 point
    final = Position(start.cells)
    final.cells[3] = 0
    final.cells[0] = 15
    assert PLAKOTO.result(start, final) == 2


def test_plakoto_exports_write_json_and_text_and_refuse_mat(tmp_path, capsys):
    check_exports(tmp_path, capsys, "plakoto")


def test_plakoto_a_whole_match_by_the_automated_players_at_the_virtual_board(capsys):
    sim_game(capsys, "plakoto")
