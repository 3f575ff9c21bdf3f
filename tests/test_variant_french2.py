"""French Backgammon 2 (seed 002), the 17th-century Tourne-case: three checkers a side on the own
half, entered, no shared point but the home point, no passing, the home point reached exactly, a
double played once, hitting "opposite"; the start (picture lost) is the documented one
(docs/variants.md, "French Backgammon 2"). One test per rule that differs, named after it."""

import json

import pytest

from bgc import cli
from bgc.logs import journals
from bgrules import Position, Turn
from bgrules.match import MATCH_OVER, Match, MatchError
from bgrules.position import BAR, OPP
from bgrules.rules import ruleset
from companion import recovery

F2 = ruleset("french2")


def pos(mover, opponent, mover_bar=0, opponent_bar=0):
    """Checkers by own point number: {point: count}; the others of 15 count as borne off."""
    m = [0] * 24
    o = [0] * 24
    for p, n in mover.items():
        m[p - 1] = n
    for p, n in opponent.items():
        o[p - 1] = n
    return Position.from_points(m, o, mover_bar, opponent_bar)


def plays(position, d1, d2):
    return sorted(p.notation() for p in Turn(position, d1, d2, F2).plays())


def bgc(capsys, *args):
    status = cli.main(list(args))
    out, err = capsys.readouterr()
    return status, out, err


def test_french2_start_three_checkers_each_waiting_off_the_board():
    # Tourne-case: "Each player places their three checkers outside the board, on their own
    # side"; they wait on the bar (the other twelve stay in the tray).
    start = F2.start_position()
    assert start == pos({}, {}, 3, 3)
    assert start.cells[0] == start.cells[OPP] == 12


def test_french2_checkers_are_entered_onto_the_own_half_die_d_on_point_13_minus_d():
    start = F2.start_position()
    assert plays(start, 6, 4) == ["bar/3", "bar/9 bar/7"]  # 4 then 6 in order, or one checker 10
    for d in range(1, 7):
        turn = Turn(start, d, d, F2)
        assert all(dst == 13 - d for play in turn.plays() for src, dst, _ in play.steps[:1])


def test_french2_no_point_is_shared_but_the_home_point():
    # A checker on 8: another may not enter on 8 (5) nor land there.
    p = pos({8: 1}, {}, 2, 3)
    assert "bar/8" not in " ".join(plays(p, 5, 1))
    home = pos({1: 1, 3: 1}, {}, 0, 3)
    assert Turn(home, 2, 1, F2).check(pos({1: 2}, {}, 0, 3)) is None  # 3/1: onto the 1 point


def test_french2_checkers_keep_their_order_no_passing():
    # Leader on 6, follower on 9: the follower may go to 7 or 8, never past 6.
    p = pos({6: 1, 9: 1}, {}, 1, 3)
    for play in Turn(p, 4, 3, F2).plays():
        for src, dst, _ in play.steps:
            if src == 9:
                assert dst > 6
    assert Turn(p, 4, 3, F2).check(pos({5: 1, 6: 1}, {}, 1, 3)) is not None  # 9/5 past 6


def test_french2_a_double_is_played_once_its_value_as_one_die():
    # DE "Bei einem Pasch wird der Wert nur einmal (1x) gezogen"; FR "En cas de doublet, on
    # n'utilise la valeur qu'une seule fois"; IT "In caso di una pariglia, il numero va giocato una
    # sola volta": one checker enters with the 3 (on 10), no second step
    start = F2.start_position()
    turn = Turn(start, 3, 3, F2)
    assert not turn.double and turn.dice_to_play == 1
    assert plays(start, 3, 3) == ["bar/10"]


def test_french2_the_home_point_is_reached_exactly():
    p = pos({2: 1, 1: 2}, {}, 0, 3)
    assert Turn(p, 6, 5, F2).dice_to_play == 0  # 2 cannot move 5 or 6: no bear-off, no overshoot
    assert plays(p, 1, 6) == ["2/1"]


def test_french2_landing_hits_the_checker_across_the_board_which_goes_back_to_the_bar():
    # Black's checker on its 8 point stands across from White's 8 point: bar/12 (the 1 enters
    # first), then 10/8* sends it back to Black's bar.
    p = pos({10: 1}, {8: 1}, 2, 2)
    turn = Turn(p, 2, 1, F2)
    after = pos({8: 1, 12: 1}, {}, 1, 3)
    assert turn.check(after) is None
    assert sum(hit for _, _, hit in turn.play_to(after).steps) == 1
    # the standard game would not hit there: the blot is on another point
    assert pos({10: 1}, {8: 1}).problem() is None


def test_french2_the_home_points_are_exempt_from_hitting():
    p = pos({3: 1}, {1: 1, 5: 1}, 2, 1)
    turn = Turn(p, 2, 1, F2)
    after = pos({1: 1, 12: 1}, {1: 1, 5: 1}, 1, 1)  # 3/1 and bar/12: Black's 1 point stays
    assert turn.check(after) is None


def test_french2_a_checker_that_can_enter_enters_before_another_moves():
    # Assumed (docs/variants.md): a hit checker "must enter before other moves" when it can.
    p = pos({7: 1}, {}, 1, 3)
    assert all(play.steps[0][0] == BAR or any(s == BAR for s, _, _ in play.steps)
               for play in Turn(p, 5, 2, F2).plays())
    assert Turn(p, 5, 2, F2).check(pos({2: 1}, {}, 1, 3)) is not None  # 7/2 leaving it out


def test_french2_all_three_on_the_home_point_wins_a_single_game_no_cube():
    m = Match(1, rules=F2)
    m.opening_roll(2, 1)
    assert m.double_refusal() is not None
    m.position = pos({1: 2, 2: 1}, {4: 3})
    m._rolled(1, 1)
    m.play(pos({1: 3}, {4: 3}))
    assert m.phase == MATCH_OVER and m.result[:3] == (0, 1, 1)


def test_french2_journal_replays_and_exports_json_and_text_but_not_mat_or_sgf(tmp_path, capsys):
    recs = journals.synthetic_records(3, length=1, rules="french2", p_condone=0)
    m = recovery.replay(recs)
    assert m.rules is F2 and m.phase == MATCH_OVER
    path = tmp_path / "m0001.jnl"
    path.write_text(journals.encode_records(recs))
    for fmt in ("mat", "sgf"):
        status, out, err = bgc(capsys, "export", str(path), "-f", fmt)
        assert status == 2 and "this match is french2, which GNU Backgammon does not play" in err
    for fmt in ("json", "text"):
        status, out, err = bgc(capsys, "export", str(path), "-f", fmt)
        assert status == 0, err


def test_french2_is_listed_with_its_assumptions(capsys):
    status, out, err = bgc(capsys, "variants", "--json")
    rows = {json.loads(line)["key"]: json.loads(line) for line in out.splitlines()}
    assert rows["french2"]["playable"] and "Tourne-case" in rows["french2"]["assumed"]
