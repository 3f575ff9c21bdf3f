"""Whole matches against GNU Backgammon on the virtual board (`bgc sim --demo --computer`): the
automated hands play the person's side and move the computer's checkers as the LEDs show them,
with wrong placements now and then. Every match ends, no legal placement is flagged, every wrong
placement of the computer's checkers that the sensors can see is flagged (players.wrong_placement
says which they cannot: a checker put on a point of five or more), every play in the journal is legal by GNU
Backgammon's own move generator (PyPI gnubg-nn), and the computer's plays are the ones its engine
chose (bgc.logs.gnubg_player)."""

import os

import pytest

from bgc import cli
from bgc.board import players as P
from bgc.board import sim as simmod
from bgc.board.computer import at_sim, computer_name
from bgc.logs import analysis, journals
from bgc.rules import gnubg_ref

needs_engine = pytest.mark.skipif(analysis.engine_version() is None and os.environ.get("BGC_SKIP_GNUBG") == "1",
                                  reason="PyPI gnubg missing and BGC_SKIP_GNUBG=1")


def play_match(side, seed, length, level="expert"):
    sim = simmod.Sim(seed=seed)
    comp = at_sim(sim, side, level)
    try:
        hands = P.Players(sim, seed=seed, handling=P.Handling(illegal=0.25), computer=side)
        gnu = computer_name(level)
        sim.serial.send({"cmd": "new", "length": length, "names": ["You", gnu] if side else [gnu, "You"]})
        limit = 3600 * 1000 * length
        while not hands.finished and sim.board.clock.ms < limit:
            sim.step()
        return sim, comp, hands, journals.load(sim.journal_path())
    finally:
        comp.close()


def check_match(sim, comp, hands, log, side):
    assert sim.serial.last("match_end") is not None, (sim.status() or {}).get("phase")
    assert hands.stats["false_illegal"] == 0, hands.false_flags
    # every wrong placement of the computer's checkers the sensors can see is flagged; the others
    # are the kinds no board can see (players.wrong_placement: onto a point of five or more, ...)
    mine = [w for w in hands.wrong_placements if w.get("computer")]
    seeable = [w for w in mine if w["kind"] == "seeable"]
    assert seeable and all(w["flagged"] for w in seeable), seeable
    plays = 0
    gnu_moves = [d.text for st, d in comp.opponent.decisions if d.action == "move"]
    journaled = []
    for g in log.games:
        for a in g.actions:
            if a["a"] != "move":
                continue
            plays += 1
            start, final = a["start"], a["final"]
            legal = gnubg_ref.reference_results(start.id(), a["dice"][0], a["dice"][1])
            assert final.id() in legal or (not legal and final == start), (g.number, a["notation"])
            if a["p"] == side:
                journaled.append(a["notation"])
    assert plays > 20
    # the computer's plays as journaled are the engine's, one for one
    assert journaled == gnu_moves[:len(journaled)] and len(gnu_moves) - len(journaled) <= 1


@needs_engine
@pytest.mark.parametrize("side,seed", [(1, 2), (0, 5)])
def test_a_whole_match_against_the_computer_on_the_virtual_board(side, seed):
    sim, comp, hands, log = play_match(side, seed, 3)
    try:
        check_match(sim, comp, hands, log, side)
    finally:
        sim.close()


@needs_engine
def test_bgc_sim_demo_computer_plays_a_match_and_says_so(capsys):
    status = cli.main(["sim", "--demo", "--computer", "black", "--fast", "--quiet", "--seed", "3"])
    out = capsys.readouterr().out
    assert status == 0, out
    assert "Match over:" in out and "0 false illegal flags" in out


def test_bad_computer_arguments_are_one_line_with_a_hint(capsys):
    for argv, words in ((["sim", "--computer", "red"], "--computer is white or black"),
                        (["sim", "--level", "expert"], "--level is the computer's"),
                        (["sim", "--computer", "black", "--level", "master"], "no level 'master'"),
                        (["sim", "--computer", "black", "--variant", "eureka"], "GNU Backgammon plays the standard game"),
                        (["sim", "--teach"], "--teach is the computer's")):
        status = cli.main(argv)
        err = capsys.readouterr().err
        assert status == 2 and words in err, (argv, err)
