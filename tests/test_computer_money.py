"""`bgc play --length 0 --games 2` against a board on USB (as tests/test_computer_play.py: `bgc vpico
--board --demo --computer black` is the board, its automated hands playing the person's side): a
money session ends after its games, with the Jacoby rule. A module of its own: its ~2-4 min and
test_computer_play's match each take one worker (pytest's --dist loadscope keeps a module on one)."""

import os

from bgc import cli
from bgc.logs import journals
from test_computer_play import demo_board, needs_engine


@needs_engine
def test_bgc_play_a_money_session_ends_after_its_games_with_the_jacoby_rule(tmp_path, capsys):
    """`bgc play --length 0 --games 2`: a money session on the board, the Jacoby rule on (GNU
    Backgammon's money default), beavers off; the PC stops after the second game and says the
    score; the journal holds the two games with those rules."""
    with demo_board(tmp_path, 5) as (link, flash):
        status = cli.main(["play", "--port", link, "--computer", "black", "--length", "0", "--games", "2",
                           "--wait", "180"])
        out, err = capsys.readouterr()
        assert status == 0, out + err
        assert "new money session of 2 games, Jacoby" in out
        assert "the money session's 2 games are played: You " in out
    path = sorted(os.path.join(flash, "journal", n) for n in os.listdir(os.path.join(flash, "journal"))
                  if n.endswith(".jnl"))[-1]
    log = journals.load(path)
    assert log.problem is None and log.money
    assert log.settings["jacoby"] is True and log.settings["beavers"] == 0
    assert len([g for g in log.games if g.result]) == 2
    assert list(log.names) == ["You", "gnubg (expert)"]
