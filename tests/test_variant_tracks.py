"""Both players moving the same way round the board (seed 002: Long Puff, Long Russian Puff,
Russian Backgammon, Straight): Rules.opposite maps the mover's point p to the opponent's p, so
both enter into one quarter and bear off from one quarter; black's board point is the ruleset's
(companion.tracker.led_of), never 25 - p; Straight starts black from its own layout."""

import pytest

from bgrules import Turn
from bgrules.match import Match
from bgrules.position import OPP
from bgrules.rules import ruleset, STANDARD
from companion.tracker import led_of, own_point
from companion_helpers import Harness, ROLL_W, ROLL_B
from variant_parts_helpers import pos

SAME_WAY = ("longpuff", "longrussianpuff", "russian", "straight")


@pytest.mark.parametrize("key", SAME_WAY)
def test_both_players_number_the_points_alike_so_black_stands_where_white_does(key):
    rules = ruleset(key)
    for p in range(1, 25):
        assert rules.opposite[p] == p
        assert led_of(False, p, rules.opposite) == p == led_of(True, p, rules.opposite)
        assert own_point(False, p, rules.opposite) == p
    # the bar halves keep their LEDs: white's 25, black's 0
    assert led_of(False, 25, rules.opposite) == 0 and own_point(False, 0, rules.opposite) == 25
    # the standard board is the other way round
    assert led_of(False, 6, STANDARD.opposite) == 19


@pytest.mark.parametrize("key", ("longpuff", "longrussianpuff", "russian"))
def test_long_puff_both_enter_into_the_same_quarter(key):
    # "Beide Spieler wuerfeln in das gleiche Viertel ein [...] Herausgewuerfelt werden die
    # Steine von beiden Spielern aus den Feldern 19-24": an opponent's point in the quarter
    # where we enter is its own entry point too, and closes it to us.
    rules = ruleset(key)
    start = pos({}, {22: 2}, wait=(15, 13), check=False)
    out = [str(p) for p in Turn(start, 3, 1, rules).plays()]
    assert out and not any("/22" in s for s in out)
    # in Puff (against each other) the opponent's 22 is our 3: no obstacle to entering on 22
    puff = ruleset("puff")
    assert any("bar/22" in str(p) for p in Turn(start, 3, 1, puff).plays())


@pytest.mark.parametrize("key", ("longpuff", "russian"))
def test_long_puff_a_blot_on_the_shared_quarter_is_hit_by_a_checker_entering_there(key):
    # "Die restlichen Regeln inklusive Blockieren und Werfen gelten wie bei Puff."
    rules = ruleset(key)
    start = pos({}, {22: 1}, wait=(15, 14), check=False)
    plays = {str(p): p.position for p in Turn(start, 3, 1, rules).plays()}
    hit = [k for k in plays if "bar/22*" in k]
    assert hit
    after = plays[hit[0]]
    assert after.cells[OPP + 25] == 1 and after.cells[OPP + 22] == 0


def test_long_puff_both_bear_off_from_the_same_quarter_and_a_checker_there_blocks():
    # both home boards are the same six points: the opponent's two on its 3 close our 3
    rules = ruleset("longpuff")
    start = pos({6: 2, 5: 13}, {3: 2, 1: 13}, check=False)
    plays = Turn(start, 3, 1, rules).plays()
    assert plays and not any(p.position.cells[3] for p in plays)
    # against each other (Puff) their 3 is our 22: our 3 is open
    assert any(p.position.cells[3] for p in Turn(start, 3, 1, ruleset("puff")).plays())
    assert start.problem(opposite=rules.opposite) is None
    clash = pos({3: 1}, {3: 1}, check=False)
    assert clash.problem(opposite=rules.opposite) == "Both colours on point 3"
    assert clash.problem() is None  # against each other, our 3 is their 22


def test_same_way_a_loser_with_a_checker_still_in_the_start_quarter_loses_a_backgammon():
    # assumed (docs/variants.md): backgammon when a loser's checker is still in the last
    # quarter of its own track (the winner's home board in the standard game)
    rules = ruleset("longpuff")
    final = pos({}, {20: 1, 3: 14}, check=False)
    final.cells[0] = 15
    assert rules.result(final, final) == 3
    final2 = pos({}, {3: 15}, check=False)
    final2.cells[0] = 15
    assert rules.result(final2, final2) == 2


def test_straight_starts_from_the_standard_set_up_black_moving_round_the_same_way():
    # "Beide Spieler spielen in die gleiche Richtung, ausgehend von der Originalstartaufstellung
    # [...] Auch schwarz zieht ueber die 24 hinaus": on the board the checkers stand exactly as
    # in the standard game; in its own numbering black then has 2 on 1, 5 on 12, 3 on 17, 5 on 19.
    rules = ruleset("straight")
    start = rules.start_position()
    std = STANDARD.start_position()
    def board(position, opposite):
        white = {p: position.cells[p] for p in range(1, 25) if position.cells[p]}
        black = {led_of(False, p, opposite): position.cells[OPP + p] for p in range(1, 25) if position.cells[OPP + p]}
        return white, black

    assert board(start, rules.opposite) == board(std, STANDARD.opposite)
    black = {p: start.cells[OPP + p] for p in range(1, 25) if start.cells[OPP + p]}
    assert black == {1: 2, 12: 5, 17: 3, 19: 5}
    assert start.pips() == (167, 208)  # black's way is longer: "ist fuer den schwarzen Spieler schwieriger"
    # black opens 6-5: from its 19 (board 19) toward board 1, as white moves
    m = Match(1, rules=rules)
    m.opening_roll(5, 6)
    assert m.on_roll == 1
    out = [str(p) for p in m.turn.plays()]
    assert "19/14 17/11" in out and "12/1" in out  # (its 13 and 8 are white's points: closed)


def test_straight_on_the_board_black_moves_the_way_white_does(tmp_path):
    h = Harness(tmp_path, openings=[(1, 6)])
    h.line("new length=3 variant=straight")
    h.show()  # the standard set-up is the start
    assert h.c.phase == "opening", h.screen()
    h.press(ROLL_W)  # black wins the opening with 6-1
    assert h.c.match.on_roll == 1
    h.clear()
    h.move("b", 17, 11)
    h.move("b", 19, 18)
    assert not h.events("illegal"), h.events()
    h.press(ROLL_B)  # DONE
    assert h.events("play") and h.events("play")[-1]["move"] == "19/18 17/11"
    # the same hands in the standard game move black backwards: flagged
    h2 = Harness(tmp_path / "std", openings=[(1, 6)])
    h2.line("new length=3")
    h2.show()
    h2.press(ROLL_W)
    h2.clear()
    h2.move("b", 17, 11)
    assert h2.events("illegal")


def test_bgc_moves_reads_a_same_way_position_id_through_the_ruleset(capsys):
    # Straight's start has white on its 24 and black on its 1: the same board point the same way
    # round; against each other the ID would be refused as both colours on one point.
    from bgc import cli

    sid = ruleset("straight").start_position().id()
    assert cli.main(["moves", "--variant", "straight", sid, "6", "1"]) == 0
    assert "legal play" in capsys.readouterr().out
    assert cli.main(["moves", sid, "6", "1"]) == 2
    assert "Both colours on point" in capsys.readouterr().err


def test_the_web_view_draws_black_on_the_variants_track():
    from bgc.web.hub import counts_from_status

    sid = ruleset("straight").start_position().id()
    white, black = counts_from_status({"pos": sid, "on_roll": 0}, "straight")
    std_white, std_black = counts_from_status({"pos": STANDARD.start_position().id(), "on_roll": 0})
    assert (white, black) == (std_white, std_black)  # the set-up is the standard one on the board
