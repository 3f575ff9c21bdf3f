"""Every behaviour a player relies on, as a scenario on the real firmware and the virtual board
(tests/scenarios/*.bgs, format in docs/sim.md), plus the CLI's exit status and messages."""

import glob
import os
import subprocess
import sys

import pytest

from bgc.board import scenario, sim as simmod
from bgc.cli import main as bgc_main

HERE = os.path.dirname(os.path.abspath(__file__))
SCENARIOS = sorted(glob.glob(os.path.join(HERE, "scenarios", "*.bgs")))


def test_there_is_a_scenario_per_behaviour():
    names = {os.path.basename(p)[:-4] for p in SCENARIOS}
    assert {"lift_lights_destinations", "illegal_placement", "blocked_point", "hover_slide_not_judged",
            "done_incomplete", "condone", "no_legal_move", "closed_out", "hit_to_bar", "bear_off", "cube_take",
            "cube_drop", "resign", "game_end", "powercut_mid_turn",
            # issue 11: crowded points, the bear-off's last checker, DONE with a checker in the hand
            "crowded_point_blocked", "crowded_point_blocked_white", "crowded_point_own", "hover_over_crowded_point",
            "bear_off_last_checker", "bear_off_last_checker_black", "bear_off_last_checker_ace",
            "done_checker_in_hand", "setup_wrong_point", "opening_tie", "which_one", "which_one_cube"} <= names


@pytest.mark.parametrize("path", SCENARIOS, ids=lambda p: os.path.basename(p))
def test_scenario(path, tmp_path):
    with open(path) as f:
        text = f.read()
    s = simmod.Sim(flash_dir=str(tmp_path / "flash"), seed=11, boot=False)
    try:
        scenario.run_text(text, s, source=os.path.basename(path))
    finally:
        s.close()


def test_script_cli_exit_status_and_first_unmet_expectation(tmp_path, capsys):
    bad = tmp_path / "bad.bgs"
    bad.write_text("setup start\nsend new length=1\nexpect status phase=opening\ndice 6 4\npress white roll\n"
                   "lift 24\nplace 21\ntimeout 500\nexpect led 21 LEGAL\nexpect led 21 ILLEGAL\n")
    assert bgc_main(["sim", "--script", str(bad)]) == 1
    err = capsys.readouterr().err
    assert "bad.bgs:9: expectation not met: expect led 21 LEGAL" in err
    assert "shows red, not green" in err
    good = tmp_path / "good.bgs"
    good.write_text("setup start\nsend new length=1\nexpect status phase=opening\n")
    assert bgc_main(["sim", "--script", str(good)]) == 0
    assert "every expectation met" in capsys.readouterr().out


def test_script_cli_parse_error_and_missing_file(tmp_path, capsys):
    bad = tmp_path / "typo.bgs"
    bad.write_text("setup start\nlfit 24\n")
    assert bgc_main(["sim", "--script", str(bad)]) == 2
    assert "bgc: typo.bgs:2: unknown action 'lfit'" in capsys.readouterr().err
    assert bgc_main(["sim", "--script", str(tmp_path / "none.bgs")]) == 2
    assert "cannot read the script" in capsys.readouterr().err


def test_interactive_prompt_reads_stdin_without_a_tty(tmp_path):
    commands = "send new length=1\ndice 6 4\npress white roll\nlift 24\nshow\nexpect led 24 LIFTED\nfly\nquit\n"
    r = subprocess.run([sys.executable, "-m", "bgc", "sim", "--flash", str(tmp_path / "f")], input=commands,
                       capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr
    assert '"ev": "new"' in r.stdout and '"opening": true' in r.stdout
    assert "green LEDs (may go): point 14, point 18, point 20" in r.stdout  # 24 with 6-4: 24/18, 24/20, 24/14
    assert "hand: a White checker" in r.stdout
    assert "? unknown action 'fly'" in r.stdout
    assert "Journal: %s" % os.path.join(str(tmp_path / "f"), "journal", "m0001.jnl") in r.stdout


def test_black_points_of_a_script_follow_the_variant_board(tmp_path):
    # b1..b24 are black's own numbers: in Straight black moves the same way as white, so its 19
    # is the board's 19 (in the standard game the board's 6).
    from bgrules.rules import ruleset

    text = """setup start
send new length=1 variant=straight
expect status phase=opening
dice 4 6
press black roll
expect status phase=moving on_roll=1 dice=[6,4]
lift b19
expect led b19 LIFTED
expect lit LEGAL b9 b15
place b15
lift b17
place b11
expect no event illegal
press black done
expect journal play "19/15 17/11"
"""
    s = simmod.Sim(flash_dir=str(tmp_path / "flash"), seed=11, boot=False, rules=ruleset("straight"))
    try:
        scenario.run_text(text, s, source="straight.bgs")
    finally:
        s.close()
    assert scenario.parse("lift b19")[0].args[0] == 6  # parsed alone: the standard board's point
