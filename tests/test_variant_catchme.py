"""Catch me (seed 002, "Catch me"; docs/variants.md): one test per rule that differs from the
standard game, each named after it, against the seed's sentences (not the engine's own output)."""

import pytest

from bgc import cli
from bgc.logs import journals
from bgrules import Position
from bgrules.match import Match, MatchError
from bgrules.position import BAR, OPP
from bgrules.rules import VARIANTS, ruleset

R = ruleset("catchme")


def pos(mine, theirs, my_bar=0, their_bar=0):
    """A position from the points (own numbering) of the mover's and the opponent's checkers."""
    m = [0] * 24
    o = [0] * 24
    for p in mine:
        m[p - 1] += 1
    for p in theirs:
        o[p - 1] += 1
    return Position.from_points(m, o, my_bar, their_bar)


def turn(p, d1, d2):
    return R.turn(p, d1, d2, R)


def finals(t):
    return sorted(tuple(s[:2] for s in pl.steps) for pl in t.plays())


def test_catchme_is_a_playable_variant_with_its_own_turn():
    assert "catchme" in VARIANTS and R.key == "catchme" and R.turn is not None


def test_start_six_checkers_white_24_to_19_black_1_to_6():
    c = R.start_position().cells
    assert [p for p in range(1, 25) if c[p]] == [19, 20, 21, 22, 23, 24]
    # black's own 19..24 are the board's 6..1 (seed: "schwarz 1-6")
    assert [25 - q for q in range(1, 25) if c[OPP + q]] == [6, 5, 4, 3, 2, 1]
    assert R.checkers == 6


@pytest.mark.parametrize("dice", [(2, 3), (5, 4), (2, 2), (5, 5)])
def test_only_a_roll_with_a_1_or_a_6_moves(dice):
    t = turn(R.start_position(), *dice)
    assert t.dice_to_play == 0 and t.plays() == []
    assert t.check(R.start_position()) is None  # nothing to play: the start is the whole turn
    moved = pos([18, 20, 21, 22, 23, 24], range(19, 25))
    assert t.check(moved) == "No 1 or 6: no move"


def test_one_checker_moves_by_the_sum_of_both_dice():
    t = turn(R.start_position(), 6, 3)
    assert finals(t) == [((p, p - 9),) for p in range(19, 25)]
    # the dice are not played separately: two checkers moved is refused
    two = pos([18, 15, 21, 22, 23, 24], range(19, 25))
    assert t.check(two) == "Move one checker"
    wrong = pos([17, 20, 21, 22, 23, 24], range(19, 25))
    assert t.check(wrong) == "6-3 from 19 lands on 10"


def test_a_double_1_or_6_moves_by_its_sum_once():
    assert ((19, 17),) in finals(turn(R.start_position(), 1, 1))  # 2, not four 1s
    assert ((24, 12),) in finals(turn(R.start_position(), 6, 6))


def test_landing_on_an_own_checker_goes_on_to_the_next_point_not_the_movers():
    p = pos([24, 17, 16, 10], [5])
    t = turn(p, 6, 1)  # 24 - 7 = 17 (own), 16 (own): on to 15
    assert ((24, 15),) in finals(t)


def test_a_checker_landed_on_is_caught_for_good_on_the_bar():
    p = pos([24, 10], [8])  # black's 8 is white's 17
    t = turn(p, 6, 1)
    play = [pl for pl in t.plays() if pl.steps[0][0] == 24][0]
    assert play.steps == ((24, 17, 1),)
    c = play.position.cells
    assert c[OPP + 8] == 0 and c[OPP + BAR] == 1
    # the caught checker never comes back: the caught side's turn moves only its points
    back = turn(play.position.swapped(), 6, 1)
    assert all(pl.steps[0][0] != BAR for pl in back.plays())
    # the caught checker left on its point: the rule is named
    left = bytearray(c)
    left[OPP + 8] = 1
    left[OPP + BAR] = 0
    assert t.check(Position(left)) in ("Both colours on point 17", "Caught checker to the bar")


def test_the_track_is_a_circle_over_the_edges():
    p = pos([3, 10], [20])
    assert ((3, 19),) in finals(turn(p, 6, 2))  # 3 - 8 goes over point 1 to 19


def test_the_last_checker_jumps_to_the_next_corner_then_corner_to_corner():
    # corners: 1, 6, 7, 12, 13, 18, 19, 24 (the ends of the quarters)
    p = pos([10], [2, 3])
    assert finals(turn(p, 2, 3)) == [((10, 7),)]  # no 1 or 6: the jump alone
    assert finals(turn(p, 1, 3)) == [((10, 7), (7, 6))]  # a 1: one corner on
    assert finals(turn(p, 6, 3)) == [((10, 7), (7, 1))]  # a 6: two corners on
    assert finals(turn(p, 6, 1)) == [((10, 7), (7, 24))]  # 6 and 1: three, over the edge
    on_corner = pos([7], [2, 3])
    assert turn(on_corner, 2, 3).dice_to_play == 0  # on a corner, no 1 or 6: no move
    # a corner held by the opponent: that checker is caught
    p = pos([10], [25 - 7, 3])
    play = turn(p, 2, 3).plays()[0]
    assert play.steps == ((10, 7, 1),) and play.position.cells[OPP + BAR] == 1


def test_the_player_left_without_checkers_loses_a_single_game_and_there_is_no_cube():
    m = Match(1, rules=R)
    m.position = pos([24, 20], [25 - 17], their_bar=5)
    m.opening_roll(6, 1)  # White plays the 6-1 from here
    final = [pl for pl in m.turn.plays() if pl.steps[0][0] == 24][0].position
    m.play(final)
    assert m.phase == "matchover" and m.winner == 0 and m.result[2] == 1
    assert Match(0, rules=R).double_refusal() in ("No double before opening", "No cube in Catch me")
    m = Match(0, rules=R)
    m.opening_roll(6, 1)
    m.play(m.turn.plays()[0].position)
    assert m.double_refusal() == "No cube in Catch me"


@pytest.mark.parametrize("dice", [(3, 3), (6, 6)])
def test_after_a_double_the_same_player_rolls_again(dice):
    m = Match(0, rules=R)
    m.opening_roll(6, 1)
    m.play(m.turn.plays()[0].position)
    player = m.on_roll
    m.roll(*dice)
    plays = m.turn.plays()
    m.play(plays[0].position if plays else m.position)
    assert m.phase == "roll" and m.on_roll == player
    m.roll(5, 4)  # not a double: the turn passes
    m.play(m.position)
    assert m.on_roll == 1 - player


def test_export_writes_json_and_text_and_refuses_mat_and_sgf(tmp_path, capsys):
    from bgc import cli
    from companion import recovery

    recs = journals.synthetic_records(3, length=1, rules="catchme")
    assert recovery.replay(recs).rules.key == "catchme"
    path = tmp_path / "m0001.jnl"
    path.write_text(journals.encode_records(recs))
    for fmt in ("mat", "sgf"):
        assert cli.main(["export", str(path), "-f", fmt]) == 2
        assert "this match is catchme, which GNU Backgammon does not play" in capsys.readouterr().err
    for fmt in ("json", "text"):
        assert cli.main(["export", str(path), "-f", fmt]) == 0, capsys.readouterr().err


def test_the_simulated_players_hands_play_a_match_with_no_false_flag(capsys):
    # humanlike handling (bgc sim): blots taken off before the hitter lands, checkers carried
    # over the points, wrong placements made and corrected: no legal frame may be flagged
    assert cli.main(["sim", "--demo", "--fast", "--quiet", "--variant", "catchme", "--seed", "2"]) == 0
    out = capsys.readouterr().out
    assert "Match over" in out and " 0 false illegal flags" in out, out
