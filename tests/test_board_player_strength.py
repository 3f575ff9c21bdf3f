"""The board's own player's strength as GNU Backgammon measures it (scripts/bench/strength_board_player.py,
the short version; docs/board-player.md has the long run's figures): its plays analysed by GNU
Backgammon at 0-ply lose little equity at its strongest level, and its levels are weaker in order."""

import os
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "scripts", "bench"))


def _rate(tmp_path, level, games, seed):
    from bgc.logs import analysis, journals
    from strength_board_player import play_session

    path = str(tmp_path / ("%s.jnl" % level))
    play_session(path, games, level, seed)
    tot = analysis.analyse(journals.load(path), ply=0)["players"]
    unforced = sum(t["unforced"] for t in tot)
    return 1000 * sum(t["play_error"] for t in tot) / unforced, unforced


def test_its_plays_lose_little_equity_by_gnu_backgammons_0ply_analysis_and_its_levels_are_in_order(tmp_path):
    pytest.importorskip("gnubg")
    expert, n = _rate(tmp_path, "expert", 6, 2)
    assert n >= 150
    # the goal: better than GNU Backgammon's "Intermediate" band, under 18 mEMG per unforced
    # play (the long run, docs/board-player.md: 10.0 over 2,308 unforced plays)
    assert expert < 18
    club, _ = _rate(tmp_path, "club", 6, 2)
    beginner, _ = _rate(tmp_path, "beginner", 6, 2)
    assert expert < club < beginner
