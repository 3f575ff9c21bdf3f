"""bgc analyze, checked against GNU Backgammon itself: the gnubg program (Debian's 1.07, the one
scripts/install_test_tools.sh installs) imports the same .mat, analyses it at the same ply with the
same settings, and its gnubg.match(analysis=1, statistics=1) is compared with ours play by play.

Our engine is PyPI gnubg 1.1.0a16 (GNU Backgammon 1.1), whose neural nets are newer (weights 1.01:
GNU Backgammon 1.08 fixed the PIPLOSS input and retrained the contact and crashed nets; the
program's are 1.00). As shipped, `bgc analyze` loads the nets of the GNU Backgammon installed beside
it (here the program's: analysis.choose_nets), and then every play's equity lost agrees within 0.005
on the virtual board's matches but for a play leading to a position where 1.08's PIPLOSS input
differs from 1.07's (analysis.piploss_quirk; at most 1 in 100). In the odd positions of random plays
(money sessions, Nackgammon from the encoder) that happens more often (docs/analysis.md).
"""

import json
import os

import pytest

from bgc import cli
from bgc.logs import analysis, export, journals
from bgc.logs.export_mat import mat_text

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FIXTURES = os.path.join(ROOT, "tests", "fixtures")
GNUBG = export.find_gnubg()
ENGINE = analysis.engine_version()
SKIP = os.environ.get("BGC_SKIP_GNUBG") == "1"
needs_engine = pytest.mark.skipif(ENGINE is None and SKIP, reason="PyPI gnubg missing and BGC_SKIP_GNUBG=1")
needs_both = pytest.mark.skipif((ENGINE is None or GNUBG is None) and SKIP,
                                reason="GNU Backgammon missing and BGC_SKIP_GNUBG=1")


def bgc(capsys, *args):
    status = cli.main(list(args))
    out, err = capsys.readouterr()
    return status, out, err


def synthetic(tmp_path, name, **spec):
    path = tmp_path / name
    path.write_text(journals.encode_records(journals.synthetic_records(**spec)))
    return str(path)


# Matches made on the virtual board (`bgc sim --demo`, the real firmware): a 3-point match with
# a Crawford game (seed 2), and one with wrong doubles, takes, many missed doubles, a Crawford
# and a post-Crawford game (journal_3point_cubes.jnl: `bgc sim --demo --length 3 --seed 5`);
# money sessions with the Jacoby rule and cube actions, and a Nackgammon match, from the
# journal's own encoder with random legal plays (journals.synthetic_records).
def journals_to_compare(tmp_path):
    return [
        os.path.join(FIXTURES, "journal_3point.jnl"),
        os.path.join(FIXTURES, "journal_3point_cubes.jnl"),
        synthetic(tmp_path, "money.jnl", seed=10, length=0, games=3, jacoby=True, p_double=0.1, p_resign=0.0,
                  p_condone=0.0),
        synthetic(tmp_path, "nack.jnl", seed=12, length=3, games=2, p_double=0.1, p_resign=0.0,
                  p_condone=0.0, rules="nackgammon"),
    ]


@pytest.fixture(scope="module")
def installed_nets():
    """The nets `bgc analyze` uses by default must be the gnubg program's for the comparison."""
    nets = analysis.choose_nets() if ENGINE else None
    if nets is None or nets["source"] != "installed":
        pytest.skip("the gnubg program's weights or our engine are missing")
    return nets


def both(path, ply=0):
    log = journals.load(path)
    assert log.problem is None
    ours = analysis.analyse(log, ply)
    ref = analysis.reference_analysis(mat_text(log)[0], analysis.settings_commands(
        ply, jacoby=log.money and bool(log.settings.get("jacoby")), beavers=False))
    return ours, ref


def check_agreement(paths, loss_share, every_play=False):
    plays = cubes = 0
    for path in paths:
        ours, ref = both(path)
        c, diffs = analysis.compare(ours, ref)
        if every_play:
            # issue 24: each play's equity lost within 0.005, every cube decision's right action and
            # error; a mark may differ only where the error sits within 0.005 of its threshold. The
            # one exception: a play after which 1.07's PIPLOSS input differs from our engine's
            # (analysis.piploss_quirk: a rule of the inputs, not our outcome), at most 1 in 100
            assert c["loss_within"] + c["loss_apart_piploss"] == c["plays"], (path, c, diffs)
            assert c["loss_apart_piploss"] <= 0.01 * c["plays"], (path, c, diffs)
            assert c["cube_error_within"] == c["cube"], (path, c, diffs)
            assert c["marks_apart_off_threshold"] == 0, (path, c, diffs)
        plays += c["plays"]
        cubes += c["cube"]
        assert c["plays"] > 40 and c["cube"] > 10, (path, c)
        assert c["best_agrees"] >= 0.99 * c["plays"], (path, diffs)
        assert c["cube_right_agrees"] == c["cube"], (path, diffs)
        # a mark may differ where the error sits on a threshold (0.1199 and 0.1201)
        assert c["cube_agrees"] >= 0.97 * c["cube"], (path, diffs)
        # GNU Backgammon 1.1 is not 1.07: a play's equity differs by more than 0.005 now and then,
        # by at most a few hundredths (docs/performance.md)
        assert c["loss_within"] >= loss_share * c["plays"], (path, diffs)
        assert c["max_loss_diff"] < 0.05, (path, c)
    return plays, cubes


@needs_both
def test_as_shipped_bgc_analyze_agrees_with_the_gnubg_program_on_every_play_of_virtual_board_matches(
        tmp_path, installed_nets):
    paths = journals_to_compare(tmp_path)[:2] + [os.path.join(FIXTURES, "journal_7point.jnl")]
    plays, cubes = check_agreement(paths, 0.99, every_play=True)
    assert plays > 550 and cubes > 350


@needs_both
def test_the_agreement_holds_for_money_and_nackgammon_too(tmp_path, installed_nets):
    plays, cubes = check_agreement(journals_to_compare(tmp_path)[2:], 0.9)
    assert plays > 150 and cubes > 60


@needs_both
def test_analyze_says_which_nets_it_loaded_and_uses_the_engines_own_when_asked(capsys, installed_nets):
    """The installed GNU Backgammon's nets by default, the engine's newer ones with --nets engine:
    the two sets give other equities (the reason the default is the installed one)."""
    path = os.path.join(FIXTURES, "journal_3point.jnl")
    runs = {}
    for which in ("auto", "engine"):
        status, out, err = bgc(capsys, "analyze", "--json", "--nets", which, path)
        assert status == 0, err
        runs[which] = json.loads(out)
    assert runs["auto"]["nets"]["file"] == installed_nets["file"] and runs["auto"]["nets"]["version"] == "1.00"
    assert runs["engine"]["nets"]["source"] == "engine" and runs["engine"]["nets"]["version"] == "1.01"
    equities = [[r.get("equity") for g in runs[w]["games"] for r in g["records"] if r["kind"] == "move"]
                for w in ("auto", "engine")]
    assert len(equities[0]) == len(equities[1]) and equities[0] != equities[1]
    status, out, err = bgc(capsys, "analyze", path)
    assert status == 0 and "nets: %s (the installed GNU Backgammon's, weights 1.00)" % installed_nets["file"] in out


@needs_engine
def test_a_file_that_is_not_weights_for_nets_is_one_line_and_exit_2(capsys):
    status, out, err = bgc(capsys, "analyze", "--nets", os.path.join(ROOT, "README.md"),
                           os.path.join(FIXTURES, "journal_3point.jnl"))
    assert status == 2 and out == ""
    assert err.splitlines()[0].endswith("README.md is not a GNU Backgammon weights file with the engine's nets "
                                        "(not a weights file)") and err.count("\n") == 2
    status, out, err = bgc(capsys, "analyze", "--nets", "/no/such/gnubg.wd", os.path.join(FIXTURES, "journal_3point.jnl"))
    assert status == 2 and out == "" and err.startswith("bgc: no such weights file: /no/such/gnubg.wd\nhint: ")


@needs_both
def test_player_totals_are_the_gnubg_programs_statistics(installed_nets):
    """Errors, marks, cube errors, close decisions and luck per player, as the program counts them."""
    ours, ref = both(os.path.join(FIXTURES, "journal_3point_cubes.jnl"))
    info = ref["match"]["match-info"]
    side = {info["X"]["name"]: "X", info["O"]["name"]: "O"}
    for p, tot in enumerate(ours["players"]):
        stats = [g["stats"][side[ours["names"][p]]] for g in ref["match"]["games"]]
        moves = sum(s["moves"]["unforced-moves"] for s in stats)
        assert tot["unforced"] == moves
        assert tot["plays"] == sum(s["moves"]["total-moves"] for s in stats)
        for mark in ("doubtful", "bad", "very bad"):
            assert abs(tot["marks"][mark] - sum(s["moves"]["marked"][mark] for s in stats)) <= 1
        assert tot["play_error"] == pytest.approx(sum(s["moves"]["error-skill"] for s in stats), abs=0.06)
        assert tot["cube_decisions"] == sum(s["cube"]["total-cube"] for s in stats)
        assert tot["close_cube_decisions"] == sum(s["cube"]["close-cube"] for s in stats)
        assert tot["missed_doubles"] == sum(s["cube"]["missed-double-below-cp"] + s["cube"]["missed-double-above-cp"]
                                            for s in stats)
        assert tot["wrong_doubles"] == sum(s["cube"]["wrong-double-below-dp"] + s["cube"]["wrong-double-above-tg"]
                                           for s in stats)
        assert tot["wrong_takes"] == sum(s["cube"]["wrong-take"] for s in stats)
        assert tot["wrong_passes"] == sum(s["cube"]["wrong-drop"] for s in stats)
        # (its "error-skill" for the cube is per decision: add up the kinds)
        kinds = ("missed-double-below-cp", "missed-double-above-cp", "wrong-double-below-dp", "wrong-double-above-tg",
                 "wrong-take", "wrong-drop")
        cube_error = sum(s["cube"]["err-%s-skill" % k] for s in stats for k in kinds)
        assert tot["cube_error"] == pytest.approx(cube_error, abs=0.005)
        assert tot["luck"] == pytest.approx(sum(s["dice"]["luck"] for s in stats), abs=0.05)


@needs_engine
def test_analyze_prints_plays_cube_decisions_and_players(capsys, monkeypatch):
    monkeypatch.setenv("COLUMNS", "200")
    status, out, err = bgc(capsys, "analyze", os.path.join(FIXTURES, "journal_3point_cubes.jnl"))
    assert status == 0, err
    assert "3-point match, White vs Black" in out and "0-ply" in out
    assert "very bad" in out and "missed doubles" in out and "double, take" in out
    assert "overall error rate" in out and "luck" in out


@needs_engine
def test_analyze_json_holds_every_play_and_cube_decision(capsys):
    path = os.path.join(FIXTURES, "journal_3point_cubes.jnl")
    status, out, err = bgc(capsys, "analyze", "--json", path)
    assert status == 0, err
    data = json.loads(out)
    plays = [r for g in data["games"] for r in g["records"] if r["kind"] == "move"]
    assert len(plays) == sum(len(g.moves) for g in journals.load(path).games)
    assert data["thresholds"] == {"doubtful": 0.03, "bad": 0.06, "very bad": 0.12, "very lucky": 0.6,
                                  "lucky": 0.3, "unlucky": 0.3, "very unlucky": 0.6}
    # The marks are GNU Backgammon's own (its SGF); they follow the equity lost at its thresholds
    # (but for the rounding of a loss right at one: the SGF holds six decimals).
    marked = [r for r in plays if "loss" in r and min(abs(r["loss"] - t) for t in (0.03, 0.06, 0.12)) > 1e-5]
    assert len(marked) > 100 and sum(1 for r in marked if r["mark"]) > 20
    assert all(analysis.mark_of(r["loss"], data["thresholds"]) == r["mark"] for r in marked)
    # our per-player sums give the overall error rate GNU Backgammon prints for the match
    printed = data["gnubg_statistics"]["overall"]["error_rate"]
    for p in range(2):
        assert data["players"][p]["error_rate"] == pytest.approx(-float(printed[p].split()[0]), abs=0.1)
    crawford = [g for g in data["games"] if g["crawford"]]
    assert crawford and not any("cube" in r for g in crawford for r in g["records"])  # no cube in the Crawford game
    answered = [r["cube"] for g in data["games"] for r in g["records"] if r["kind"] in ("double", "take")]
    assert len(answered) == 4 and all(c["right"] in ("double, take", "no double, take") for c in answered)


@needs_both
def test_analyze_sgf_opens_in_gnu_backgammon_with_analysis_and_comments(tmp_path, capsys):
    path = os.path.join(FIXTURES, "journal_3point.jnl")
    sgf = str(tmp_path / "m.sgf")
    status, out, err = bgc(capsys, "analyze", path, "--sgf", sgf)
    assert status == 0, err
    text = open(sgf).read()
    games = analysis.parse_sgf(text)
    nodes = [n for g in games for n in g[1:] if {"B", "W"} & {p[0] for p in n}]
    assert all(any(p[0] == "C" for p in n) for n in nodes)  # a comment on every play and cube action
    assert sum(1 for n in nodes if any(p[0] == "A" for p in n)) > 100  # GNU Backgammon's analysis kept
    data = export.gnubg_read([sgf])[0]  # the gnubg program reads it back: the same match
    checked, diffs = export.compare(journals.load(path), data["match"], data["walks"])
    assert diffs == [] and checked["moves"] > 100


@needs_engine
def test_variants_without_a_net_get_one_line_and_exit_2(tmp_path, capsys):
    for rules in ("hypergammon", "nohitting"):
        path = synthetic(tmp_path, "%s.jnl" % rules, seed=3, length=1, games=1, rules=rules)
        status, out, err = bgc(capsys, "analyze", path)
        assert status == 2 and out == ""
        assert "no analysis for this game: %s has no GNU Backgammon net" % rules in err
        assert err.count("\n") == 2 and "hint: GNU Backgammon analyses standard and nackgammon only" in err


@needs_engine
def test_a_damaged_journal_is_analysed_up_to_the_damage(tmp_path, capsys):
    lines = open(os.path.join(FIXTURES, "journal_3point.jnl")).read().splitlines(True)
    lines[150] = lines[150].replace('"p": 0', '"p": 1', 1) if '"p": 0' in lines[150] else \
        lines[150].replace('"p": 1', '"p": 0', 1)
    path = tmp_path / "m0007.jnl"
    path.write_text("".join(lines))
    status, out, err = bgc(capsys, "analyze", "--json", str(path))
    assert status == 1
    assert "the journal is damaged: the replay stops at line 151" in err and "analysed the 150 records" in err
    data = json.loads(out)
    plays = sum(1 for g in data["games"] for r in g["records"] if r["kind"] == "move")
    assert 0 < plays < 147


@needs_engine
def test_a_match_in_progress_is_analysed_so_far(tmp_path, capsys):
    lines = open(os.path.join(FIXTURES, "journal_3point.jnl")).read().splitlines(True)
    path = tmp_path / "m0008.jnl"
    path.write_text("".join(lines[:120]))
    status, out, err = bgc(capsys, "analyze", str(path))
    assert status == 0
    assert "the match is in progress: analysed the plays made so far" in err
    assert "Players" in out


def test_nothing_to_analyse_and_a_missing_engine_say_so_in_one_line(tmp_path, capsys, monkeypatch):
    settings_only = open(os.path.join(FIXTURES, "journal_3point.jnl")).readline()
    (tmp_path / "m0001.jnl").write_text(settings_only)
    if ENGINE is not None:
        status, out, err = bgc(capsys, "analyze", str(tmp_path / "m0001.jnl"))
        assert status == 2 and "nothing to analyse: no play was made" in err and "hint:" in err
    monkeypatch.setattr(analysis, "engine_version", lambda: None)
    status, out, err = bgc(capsys, "analyze", os.path.join(FIXTURES, "journal_3point.jnl"))
    assert status == 2 and out == ""
    assert err.splitlines() == ["bgc: the analysis needs GNU Backgammon's engine (PyPI gnubg), which is not installed",
                                "hint: pip install 'bgcompanion[analysis]' (or pip install gnubg)"]
    status, out, err = bgc(capsys, "analyze", str(tmp_path / "missing.jnl"))
    assert status == 2 and "no such journal" in err


def test_cube_action_is_gnu_backgammons_rule():
    # no double, double/take (the doubler's equities; double/pass is +1)
    assert analysis.cube_action(0.3, 0.2) == ("no double, take", 0.3)
    assert analysis.cube_action(0.5, 0.7) == ("double, take", 0.7)
    assert analysis.cube_action(0.8, 1.3) == ("double, pass", 1.0)
    assert analysis.cube_action(1.1, 1.4) == ("too good to double", 1.1)


def test_sgf_moves_read_as_gnu_backgammon_writes_them():
    # sgf.c: White's points 'a'.. from its 1-point, Black's 'x'.. ; 'y' the bar, 'z' off
    assert analysis.move_text(analysis._sgf_move("lqqs", 1)) == "13/8 8/6"
    assert analysis.move_text(analysis._sgf_move("mhhf", 0)) == "13/8 8/6"
    assert analysis.move_text(analysis._sgf_move("yscz", 0)) == "bar/19 3/off"


# The board's main loop for the virtual Pico: counts its starts, so that the test sees the
# firmware started again after the copy (mpremote's Ctrl-C interrupts it).
BOARD_MAIN = """\
import time
try:
    n = int(open('/starts').read())
except OSError:
    n = 0
f = open('/starts', 'w'); f.write(str(n + 1)); f.close()
while True:
    time.sleep_ms(50)
"""


@needs_engine
def test_port_analyses_the_match_in_progress_on_the_board_and_the_game_goes_on(tmp_path, capsys):
    from bgc.pico.vpico import VirtualPico

    flash = tmp_path / "flash"
    (flash / "journal").mkdir(parents=True)
    (flash / "main.py").write_text(BOARD_MAIN)
    lines = open(os.path.join(FIXTURES, "journal_3point.jnl")).read().splitlines(True)
    (flash / "journal" / "m0001.jnl").write_text(open(os.path.join(FIXTURES, "journal_1point.jnl")).read())
    (flash / "journal" / "m0002.jnl").write_text("".join(lines[:120]))  # the match being played
    with VirtualPico(str(flash)) as pico:
        status, out, err = bgc(capsys, "analyze", "--json", "--port", pico.port)
        assert status == 0, err
        assert "analysing m0002.jnl from the board" in err and "the match is in progress" in err
        data = json.loads(out)
        assert data["length"] == 3 and sum(len(g["records"]) for g in data["games"]) > 40
        import time

        deadline = time.time() + 10
        while time.time() < deadline and (flash / "starts").read_text() != "2":
            time.sleep(0.1)
        assert (flash / "starts").read_text() == "2"
    status, out, err = bgc(capsys, "analyze", "--port", "/dev/null")
    assert status == 2 and "is not a serial port" in err


@needs_engine
def test_the_progress_follows_the_engine_game_by_game():
    """The progress bar's steps: the engine reports each game as it finishes it (in order, one
    report per game of the match), before the analysis of the match returns."""
    log = journals.load(os.path.join(FIXTURES, "journal_3point_cubes.jnl"))
    reports = []
    result = analysis.analyse(log, 0, progress=reports.append)
    assert reports == list(range(len(log.games))) == list(range(len(result["games"])))
