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
from bgc.board.computer import play_on_sim
from bgc.logs import export
from bgc.logs import analysis, journals
from bgc.rules import gnubg_ref

needs_engine = pytest.mark.skipif(analysis.engine_version() is None and os.environ.get("BGC_SKIP_GNUBG") == "1",
                                  reason="PyPI gnubg missing and BGC_SKIP_GNUBG=1")


def play_match(side, seed, length, level="expert", **kw):
    sim, comp, hands = play_on_sim(side, seed, length, level, **kw)
    return sim, comp, hands, journals.load(sim.journal_path())


def check_match(sim, comp, hands, log, side):
    assert sim.serial.last("match_end") is not None, (sim.status() or {}).get("phase")
    # every wrong placement of the computer's checkers the sensors can see is flagged; the others
    # are the kinds no board can see (players.wrong_placement: onto a point of five or more, ...)
    mine = [w for w in hands.wrong_placements if w.get("computer")]
    seeable = [w for w in mine if w["kind"] == "seeable"]
    assert seeable and all(w["flagged"] for w in seeable), seeable
    check_plays(sim, comp, hands, log, side)


def check_plays(sim, comp, hands, log, side):
    """No false flag, every play legal by GNU Backgammon's generator, the computer's the engine's."""
    assert hands.stats["false_illegal"] == 0, hands.false_flags
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


@needs_engine
def test_a_money_session_against_the_computer_plays_its_games_with_jacoby_and_beavers(tmp_path):
    """`--length 0`: a money session with the Jacoby rule (GNU Backgammon's default for money) and
    beavers when asked for; it ends after the games asked for. Beavers both ways through the
    board's buttons: the person's double that the computer beavers, the computer's double that the
    person beavers (a long ROLL press) and the computer then answers. Its exports name the
    computer and its level and are read back by the gnubg program, which finds the same session."""
    sim, comp, hands, log = play_match(1, 3, 0, games=4, beavers=1)
    try:
        assert hands.finished and hands.stats["games"] == 4
        # (not check_match's flags of wrong placements: in this session a wrong placement of the
        # computer's 24/13 onto its 23 point follows the turn passing on the lift, the 13 point's
        # five or more reading the same with one more: a gap reported, not this test's subject)
        check_plays(sim, comp, hands, log, 1)
        assert sim.serial.last("match_end") is None and not [e for e in sim.serial.events if e["ev"] == "error"]
        assert log.money and log.settings["jacoby"] is True and log.settings["beavers"] == 1
        assert len(log.games) == 4 and all(g.result for g in log.games)
        # the computer is told the session's rules by the board's `new` event
        assert comp.opponent.jacoby is True and comp.opponent.beavers == 1
        cubes = [(e["p"], e["action"]) for e in sim.serial.events if e["ev"] == "cube"]
        assert (1, "beaver") in cubes and (0, "beaver") in cubes, cubes
        after_person_beaver = [cubes[i + 1] for i, c in enumerate(cubes[:-1]) if c == (0, "beaver")]
        assert after_person_beaver and all(p == 1 and a in ("take", "drop") for p, a in after_person_beaver)
        assert list(log.names) == ["You", "gnubg (expert)"]
        path = sim.journal_path()
        if export.find_gnubg() is None:
            pytest.skip("the gnubg program is not installed: the exports are not read back")
        files = []
        for fmt in ("mat", "sgf"):
            assert cli.main(["export", path, "--format", fmt, "--out", str(tmp_path)]) == 0
            files.append(str(tmp_path / (os.path.basename(path)[:-4] + "." + fmt)))
        for d in export.gnubg_read(files):
            assert export.gnubg_warnings(d["output"]) == [], d["path"]
            info = d["match"]["match-info"]
            want = "gnubg_(expert)" if d["path"].endswith(".mat") else "gnubg (expert)"
            assert [info["X"]["name"], info["O"]["name"]] == ["You", want], d["path"]
            checked, diffs = export.compare(log, d["match"], d["walks"])
            assert diffs == [], diffs[:3]
    finally:
        sim.close()


@needs_engine
def test_the_computer_answers_the_persons_resignations_through_the_board():
    """The person offers to resign (a long CUBE press, then ROLL) when far behind; GNU Backgammon
    refuses a single game it expects to win by more, the board goes back to the turn, and the
    person may offer again in the same position (the PC answers again)."""
    sim, comp, hands, log = play_match(1, 4, 0, games=4, beavers=1)
    try:
        assert hands.finished and hands.stats["games"] == 4 and hands.stats["false_illegal"] == 0
        res = [(e["p"], e["action"]) for e in sim.serial.events if e["ev"] == "resign"]
        offers = [i for i, r in enumerate(res) if r == (0, "offer")]
        assert len(offers) >= 2 and all(res[i + 1][0] == 1 and res[i + 1][1] in ("accept", "reject") for i in offers), res
        answers = [d.action for st, d in comp.opponent.decisions if st.get("phase") == "resign"]
        assert answers == [res[i + 1][1] for i in offers]
    finally:
        sim.close()


def test_money_options_are_refused_where_they_do_not_apply(capsys):
    for argv, words in ((["sim", "--demo", "--length", "3", "--computer", "black", "--beavers", "1"], "beavers are for money play"),
                        (["sim", "--demo", "--length", "0"], "--length must be 1..64"),
                        (["sim", "--demo", "--beavers", "1"], "--beavers and --no-jacoby are a money session's"),
                        (["sim", "--demo", "--length", "0", "--computer", "black", "--beavers", "4"], "--beavers is 0 (none)"),
                        (["play", "--computer", "black", "--length", "3", "--games", "2"], "--games is a money session's"),
                        (["play", "--computer", "black", "--length", "3", "--no-jacoby"], "--no-jacoby is for a money session"),
                        (["play", "--computer", "black", "--length", "5", "--beavers", "1"], "beavers are for money play")):
        status = cli.main(argv)
        err = capsys.readouterr().err
        assert status == 2 and words in err, (argv, err)
