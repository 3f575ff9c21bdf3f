"""`bgc play` against a board on USB: `bgc vpico --board --demo --computer black` is the board (the
real firmware on the virtual board behind a pseudo-terminal, its automated hands playing the
person's side and moving the computer's checkers), `bgc play --port` the PC with GNU Backgammon.
The match ends, every play is legal by GNU Backgammon's generator, and the exports name the
computer and its level and are read back by the gnubg program without a warning."""

import contextlib
import os
import subprocess
import sys
import threading

import pytest

from bgc import cli
from bgc.logs import analysis, export, journals
from bgc.rules import gnubg_ref

needs_engine = pytest.mark.skipif(analysis.engine_version() is None and os.environ.get("BGC_SKIP_GNUBG") == "1",
                                  reason="PyPI gnubg missing and BGC_SKIP_GNUBG=1")
BGC = [sys.executable, "-m", "bgc"]
# The hands decide three times as fast as a person (`bgc vpico --pace`): the matches play in real
# time, and at a person's pace these tests took minutes each; what the sensors see of each hand,
# checker and press is a person's.
PACE = 3


@contextlib.contextmanager
def demo_board(tmp_path, seed):
    """`bgc vpico --board --demo --computer black` (its flash and link under ``tmp_path``), waited
    for until its hands wait for `bgc play`, and stopped at the end: yields (link, flash). The
    firmware is deployed onto the empty flash through the port first."""
    link = str(tmp_path / "pico")
    flash = str(tmp_path / "flash")
    board = subprocess.Popen(BGC + ["vpico", "--board", "--demo", "--computer", "black", "--link", link,
                                    "--flash", flash, "--seed", str(seed), "--pace", str(PACE)],
                             stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    try:
        said = []
        for line in board.stdout:
            said.append(line)
            if "the automated players wait for `bgc play" in line:
                break
        assert said and "wait for `bgc play" in said[-1], "".join(said)
        threading.Thread(target=board.stdout.read, daemon=True).start()  # keep its pipe from filling
        yield link, flash
    finally:
        board.terminate()
        try:
            board.wait(timeout=20)
        except subprocess.TimeoutExpired:
            board.kill()


@needs_engine
def test_bgc_play_against_the_virtual_pico_board_plays_a_whole_match_and_exports_it(tmp_path, capsys):
    with demo_board(tmp_path, 3) as (link, flash):
        status = cli.main(["play", "--port", link, "--computer", "black", "--level", "expert", "--length", "1",
                           "--wait", "180", "--teach"])
        out, err = capsys.readouterr()
        assert status == 0, out + err
        assert "GNU Backgammon (expert) plays black" in out and "match over:" in out
        assert "(GNU Backgammon) plays" in out
        # --teach: GNU Backgammon's marks on the hands' plays, sent to the board over the port
        assert "teacher: " in out and "error" not in out.lower()
    path = sorted(os.path.join(flash, "journal", n) for n in os.listdir(os.path.join(flash, "journal"))
                  if n.endswith(".jnl"))[-1]
    log = journals.load(path)
    assert log.problem is None and log.complete
    assert list(log.names) == ["You", "gnubg (expert)"]
    for g in log.games:
        for a in g.actions:
            if a["a"] == "move":
                legal = gnubg_ref.reference_results(a["start"].id(), a["dice"][0], a["dice"][1])
                assert a["final"].id() in legal or (not legal and a["final"] == a["start"]), a["notation"]
    if export.find_gnubg() is None:
        pytest.skip("the gnubg program is not installed: the exports are not read back")
    files = []
    for fmt in ("mat", "sgf"):
        assert cli.main(["export", path, "--format", fmt, "--out", str(tmp_path)]) == 0
        files.append(str(tmp_path / (os.path.basename(path)[:-4] + "." + fmt)))
    capsys.readouterr()
    for d in export.gnubg_read(files):
        assert export.gnubg_warnings(d["output"]) == [], d["path"]
        info = d["match"]["match-info"]
        # .mat names have no spaces: the exporter writes them with underscores (export_mat.mat_name)
        want = "gnubg_(expert)" if d["path"].endswith(".mat") else "gnubg (expert)"
        assert [info["X"]["name"], info["O"]["name"]] == ["You", want], d["path"]
        checked, diffs = export.compare(log, d["match"], d["walks"])
        assert diffs == [], diffs[:3]
