"""Fevga, Tavli's third game (docs/variants.md: Wikipedia "Fevga", brainking.com "Fevga",
gammonparty.com, bkgm.com's Condos, itavli.i-smartsolutions.com): one test per rule, named after
it; every play of positions from random games against the move generator of
tests/tables_reference.py (written from those texts); the settings; exports and a whole game at
the virtual board."""

import random

import pytest

from bgrules import Position, Turn
from bgrules.match import Match, MatchError
from bgrules.position import OPP
from bgrules.rules import ruleset

from tables_reference import reference
from variant_parts_helpers import at, check_exports, sim_game

FEVGA = ruleset("fevga")


def pos(mover, opponent):
    """From {point: checkers} of each side in its own numbering (the crossed track: a position
    Position.from_points' standard check would refuse)."""
    return Position.from_points([mover.get(q, 0) for q in range(1, 25)], [opponent.get(q, 0) for q in range(1, 25)],
                                check=False)


def finals(turn):
    return sorted(p.position.id() for p in turn.plays())


def test_fevga_all_fifteen_start_in_diagonally_opposite_corners_and_go_the_same_way():
    # "Each player starts with fifteen checkers on the rightmost point of the far side of the
    # board, at diagonally opposite corners from each other"; "Both players move in the same
    # direction, counterclockwise": White's 24 point, Black's 24 point on White's 12.
    c = FEVGA.start_position().cells
    assert c[24] == 15 and c[OPP + 24] == 15 and sum(c[1:24]) == 0
    assert FEVGA.opposite[24] == 12 and FEVGA.opposite[12] == 24  # Black's 24 is the board's 12
    assert FEVGA.opposite[1] == 13  # White's home (1-6) is Black's third quarter (13-18)


def _random_games(rules, games, seed, check):
    rng = random.Random(seed)
    n = 0
    for game in range(games):
        m = Match(0, rules=rules)
        while not m.opening_roll(rng.randint(1, 6), rng.randint(1, 6)):
            pass
        while m.phase not in ("gameover", "matchover"):
            if m.phase == "roll":
                m.roll(rng.randint(1, 6), rng.randint(1, 6))
            t = m.turn
            check(t)
            n += 1
            plays = t.plays()
            m.play(rng.choice(plays).position if plays else m.position)
    return n


def test_fevga_every_play_of_random_games_equals_the_reference():
    def check(t):
        assert finals(t) == reference("fevga", t.start, t.d1, t.d2, row="quarter"), (t.start.id(), t.d1, t.d2)

    assert _random_games(FEVGA, 12, 4, check) > 800


def test_fevga_with_the_settings_every_play_equals_the_reference():
    rules = ruleset("fevga:first=12:row=ahead")

    def check(t):
        ref = reference("fevga", t.start, t.d1, t.d2, first_past=12, row="ahead")
        assert finals(t) == ref, (t.start.id(), t.d1, t.d2)

    assert _random_games(rules, 6, 5, check) > 400


def test_fevga_the_first_checker_must_pass_the_opponents_start_before_a_second_leaves():
    # "A player's first checker must pass the opponent's starting point before he may move any
    # of his other checkers" (brainking.com); the opening 6-6 plays one six only (24/18; 18/12
    # is the opponent's start)
    start = FEVGA.start_position()
    assert finals(Turn(start, 6, 5, FEVGA)) == [pos({13: 1, 24: 14}, {24: 15}).id()]
    six = Turn(start, 6, 6, FEVGA)
    assert six.dice_to_play == 1 and finals(six) == [pos({18: 1, 24: 14}, {24: 15}).id()]
    not_past = pos({16: 1, 24: 14}, {24: 14, 10: 1})  # 2-1 cannot take it past White's 12
    assert all(p.position.cells[24] == 14 for p in Turn(not_past, 2, 1, FEVGA).plays())
    second = pos({14: 1, 23: 1, 24: 13}, {24: 14, 10: 1})  # 16/14 24/23
    assert Turn(not_past, 2, 1, FEVGA).check(second) == "First checker past 12 first"
    # once past (the runner's 3 first: 13/10), a second leaves in the same turn
    runner = pos({13: 1, 24: 14}, {24: 14, 10: 1})
    assert Turn(runner, 3, 1, FEVGA).check(pos({10: 1, 23: 1, 24: 13}, {24: 14, 10: 1})) is None


def test_fevga_setting_first_12_counts_a_checker_in_the_opponents_start_quarter():
    # Condos: "The first thing to do is to place a single checker in the opponent's starting
    # quarter" (the mover's 12-7); on the 12 point itself once the opponent's start is empty
    on_12 = pos({12: 1, 24: 14}, {5: 15})
    head_pair = pos({12: 1, 20: 1, 24: 13}, {5: 15})  # 24/21/20, the runner staying on 12
    assert Turn(on_12, 3, 1, FEVGA).check(head_pair) == "First checker past 12 first"
    assert Turn(on_12, 3, 1, ruleset("fevga:first=12")).check(head_pair) is None


def test_fevga_a_single_checker_holds_a_point_and_nothing_is_hit():
    # "There is no hitting in this game. One checker by itself controls a point"
    p = pos({11: 1, 24: 14}, {24: 14, 19: 1})  # Black's single checker on its 19: White's 7
    finals_ = [pl.position for pl in Turn(p, 4, 3, FEVGA).plays()]
    assert finals_ and all(f.cells[7] == 0 and f.cells[OPP + 25] == 0 for f in finals_)


def test_fevga_never_all_six_points_of_the_own_start_quarter_at_once():
    # "A player is not allowed to occupy all six points of his starting quarter (1-6) at the same
    # time" (brainking.com; the mover's 24-19 here)
    p = pos({24: 9, 23: 1, 22: 1, 21: 1, 20: 2, 5: 1}, {24: 15})
    turn = Turn(p, 1, 2, FEVGA)
    full = pos({24: 9, 23: 1, 22: 1, 21: 1, 20: 1, 19: 1, 3: 1}, {24: 15})  # 20/19 5/3
    assert turn.check(full) == "Not all of 19-24 at once"
    assert all(not all(pl.position.cells[q] for q in range(19, 25)) for pl in turn.plays())


def test_fevga_setting_row_ahead_allows_the_quarter_but_no_six_in_a_row_with_none_past():
    p = pos({24: 9, 23: 1, 22: 1, 21: 1, 20: 2, 5: 1}, {24: 15})
    full = pos({24: 9, 23: 1, 22: 1, 21: 1, 20: 1, 19: 1, 3: 1}, {24: 15})
    # White's 24-19 is Black's 12-7: Black's fifteen on its 24 are all behind them
    assert Turn(p, 1, 2, ruleset("fevga:row=ahead")).check(full) == "6 in a row at 19: none past it"
    ahead = pos({24: 9, 23: 1, 22: 1, 21: 1, 20: 2, 5: 1}, {24: 14, 4: 1})
    full_ahead = pos({24: 9, 23: 1, 22: 1, 21: 1, 20: 1, 19: 1, 3: 1}, {24: 14, 4: 1})
    assert Turn(ahead, 1, 2, ruleset("fevga:row=ahead")).check(full_ahead) is None


def test_fevga_no_cube_and_two_points_at_most():
    m = at(FEVGA, FEVGA.start_position())
    with pytest.raises(MatchError):
        m.double(0)
    start = pos({3: 1}, {20: 15})  # Black bore off none, still in its start quarter
    final = Position(start.cells)
    final.cells[3] = 0
    final.cells[0] = 15
    assert FEVGA.result(start, final) == 2


def test_fevga_an_unknown_setting_value_is_refused():
    with pytest.raises(ValueError):
        ruleset("fevga:first=10")
    with pytest.raises(ValueError):
        ruleset("fevga:row=everywhere")


def test_fevga_exports_write_json_and_text_and_refuse_mat(tmp_path, capsys):
    check_exports(tmp_path, capsys, "fevga")


def test_fevga_a_whole_match_by_the_automated_players_at_the_virtual_board(capsys):
    sim_game(capsys, "fevga")


def test_fevga_a_doubles_partial_play_is_located_by_one_way_of_reaching_it():
    """The board's answer to a checker put down in a double: the dice still to play. The running
    games' search tries a double's steps in every order (a step may depend on the ones before:
    the head rule), so three one-pip steps from three points reach the board's position in 3! = 6
    orders, and four in 24: Fevga's 1-1 of docs/performance.md took 102 ms on the Pico where the
    frame answer's target is 40 ms. Every way moves the same pips, so the first way found gives
    the answer; the answer is the reference generator's (the plays that begin so)."""
    start = Position.from_id("AQc1BD+AAr4nOA", FEVGA.opposite)
    turn = Turn(start, 1, 1, FEVGA)
    ref = reference("fevga", start, 1, 1, row="quarter")
    assert turn.dice_to_play == 4
    steps = ((24, 23), (19, 18), (17, 16))  # three checkers from three points, a pip each
    part = start.copy()
    for src, dst in steps:
        part.cells[src] -= 1
        part.cells[dst] += 1
    # the reference: some legal play of the roll begins with these three steps
    assert any(_begins_with(final, part) for final in ref)
    hits = []
    real = Turn._found

    def counted(self, *args):
        ok = real(self, *args)
        hits.append(ok)
        return ok

    Turn._found = counted
    try:
        assert turn.locate(part) == [bytes((1,))]
    finally:
        Turn._found = real
    assert hits.count(True) == 1, "the search reached the board's position %d times" % hits.count(True)


def _begins_with(final, part):
    """Whether the play to ``final`` (a Position ID) can begin at ``part`` with one step more of 1:
    one checker of ``part`` a pip further on."""
    end = Position.from_id(final, FEVGA.opposite).cells
    c = part.cells
    diff = [c[q] - end[q] for q in range(1, 25)]
    return sorted(d for d in diff if d) == [-1, 1]
