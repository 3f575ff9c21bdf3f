"""GNU Backgammon as the board's opponent (bgc.logs.gnubg_player): its plays and cube actions are
GNU Backgammon's own at the level asked. The reference is `bgc analyze` (GNU Backgammon's analysis
of the same match at the same ply, itself checked against the gnubg program in test_analyze.py):
at a level without noise the computer's play in every position of a journaled match is the one the
analysis marks best, and its cube actions are the analysis's right actions."""

import os

import pytest

from bgc.logs import analysis, journals
from bgc.logs.gnubg_player import LEVELS, GnubgPlayer, level_commands, play_text, read_level
from bgrules import Position
from bgrules.matchid import MatchKey
from bgc.rules.notation_read import apply_moves

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FIXTURES = os.path.join(ROOT, "tests", "fixtures")
ENGINE = analysis.engine_version()
needs_engine = pytest.mark.skipif(ENGINE is None and os.environ.get("BGC_SKIP_GNUBG") == "1",
                                  reason="PyPI gnubg missing and BGC_SKIP_GNUBG=1")


def test_the_levels_are_gnu_backgammons_with_its_plies_noise_and_filters():
    # eval.c: aszSettings, aecSettings (plies, noise), aiSettingsMoveFilter (normal, large)
    table = {name: (plies, noise) for name, plies, noise, _ in LEVELS}
    assert table == {"beginner": (0, 0.06), "casual play": (0, 0.05), "intermediate": (0, 0.04),
                     "advanced": (0, 0.015), "expert": (0, 0.0), "world class": (2, 0.0), "supremo": (2, 0.0),
                     "grandmaster": (3, 0.0)}
    wc = level_commands("world class", 1)
    assert "set player 1 chequerplay evaluation plies 2" in wc and "set player 1 movefilter 2 0 0 8 0.160" in wc
    assert "set player 1 movefilter 2 0 0 16 0.320" in level_commands("supremo", 1)
    assert "set player 0 cubedecision evaluation noise 0.060" in level_commands("beginner", 0)
    assert read_level("World-Class") == "world class" and read_level("casual") == "casual play"
    with pytest.raises(ValueError, match="the levels are beginner, casual play"):
        read_level("master")


def test_a_play_is_written_as_the_board_writes_it_hits_marked():
    # White's 6-4 from the start hitting nothing; Black's blot on White's 7 point is hit by 13/7
    assert play_text("4HPwATDgc/ABMA", [(24, 18), (13, 9)]) == "24/18 13/9"
    pos = apply_moves(Position.start(), "13/7").swapped()  # the opponent's blot on its 18 point
    assert play_text(pos.id(), [(24, 18), (18, 14)]) == "24/18*/14"


def positions_of(path, ply):
    """(Match ID with the dice, Position ID, the analysis's best play's resulting Position ID,
    the record) of every play with a choice in the journal at ``path``, analysed at ``ply``."""
    log = journals.load(path)
    result = analysis.analyse(log, ply)
    out = []
    for game in result["games"]:
        for r in game["records"]:
            if r["kind"] != "move" or r.get("candidates", 0) < 2 or "position" not in r:
                continue
            mk = MatchKey(cube=r["cube_value"], cube_owner=r["cube_owner"], on_roll=r["player"], to_act=r["player"],
                          crawford=game["crawford"], dice=tuple(sorted(r["dice"], reverse=True)), length=log.length,
                          score=tuple(game["score"]), jacoby=False)
            out.append((mk, r))
    return log, result, out


def after(position_id, steps):
    return apply_moves(Position.from_id(position_id), " ".join(
        "%s/%s" % ("bar" if f == 25 else f, "off" if t == 0 else t) for f, t in steps)).id()


def check_plays_are_the_analysis_best(level, ply, path, at_least):
    log, result, plays = positions_of(path, ply)
    assert len(plays) >= at_least, len(plays)
    differ, resigned = [], 0
    with GnubgPlayer(level) as gnu:
        for mk, r in plays:
            d = gnu.decide(r["player"], mk.id(), r["position"])
            if d.action == "resign":
                # a game it has lost whatever it plays (eval.c getResignation): it resigns first
                resigned += 1
                continue
            assert d.action == "move", (mk.id(), r["position"], d)
            if after(r["position"], d.steps) != after(r["position"], r["best_steps"]):
                differ.append("%s %s %s: gnubg plays %s, the analysis's best %s" % (
                    mk.id(), r["position"], r["dice"], d.text, r["best"]))
    assert resigned <= 0.05 * len(plays)
    return plays, differ


@needs_engine
def test_expert_plays_the_move_bgc_analyze_marks_best_at_0_ply_in_every_position_of_a_match():
    plays, differ = check_plays_are_the_analysis_best("expert", 0, os.path.join(FIXTURES, "journal_3point_cubes.jnl"), 60)
    assert not differ, differ


@needs_engine
def test_world_class_plays_the_move_bgc_analyze_marks_best_at_2_ply():
    plays, differ = check_plays_are_the_analysis_best("world class", 2, os.path.join(FIXTURES, "journal_3point.jnl"), 40)
    assert not differ, differ


@needs_engine
def test_expert_cube_actions_are_the_right_actions_of_bgc_analyze():
    """Every cube decision of the match: where the analysis says double, the computer on roll
    doubles, where it says no double it rolls; offered a double, it takes where the analysis's
    right action is a take and passes where it is a pass."""
    check_cube_actions("expert", 0)


@needs_engine
def test_world_class_cube_actions_are_the_right_actions_of_bgc_analyze_at_2_ply():
    """The same at world class against the analysis at 2-ply (its cube decisions' ply)."""
    check_cube_actions("world class", 2)


def check_cube_actions(level, ply):
    log, result, _ = positions_of(os.path.join(FIXTURES, "journal_3point_cubes.jnl"), ply)
    checked = {"double": 0, "roll": 0, "take": 0, "drop": 0}
    wrong = []
    with GnubgPlayer(level) as gnu:
        for game in result["games"]:
            for r in game["records"]:
                c = r.get("cube")
                if not c or "right" not in c or "position" not in r or r["kind"] != "move":
                    continue
                p = r["player"]
                mk = MatchKey(cube=r["cube_value"], cube_owner=r["cube_owner"], on_roll=p, to_act=p,
                              crawford=game["crawford"], length=log.length, score=tuple(game["score"]))
                d = gnu.decide(p, mk.id(), r["position"])
                want = "double" if c["right"] in ("double, take", "double, pass") else "roll"
                if d.action == "resign" and c["no_double"] <= -0.999:
                    want = "resign"  # a game lost whatever it rolls: it resigns rather than roll
                checked[d.action] = checked.get(d.action, 0) + 1
                if d.action != want:
                    wrong.append("%s %s: gnubg %s, analysis %s (nd %.3f dt %.3f)" % (
                        mk.id(), r["position"], d.action, c["right"], c["no_double"], c["double_take"]))
                if want == "double":
                    # the opponent's answer to that double
                    mk.doubled, mk.to_act = True, 1 - p
                    answer = gnu.decide(1 - p, mk.id(), r["position"])
                    take = c["right"] == "double, take"
                    checked[answer.action] += 1
                    if answer.action != ("take" if take else "drop"):
                        wrong.append("%s %s: gnubg answers %s, analysis %s" % (mk.id(), r["position"], answer.action, c["right"]))
    assert checked["double"] >= 3 and checked["roll"] >= 20, checked
    assert not wrong, wrong
