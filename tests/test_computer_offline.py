"""When the PC goes away (issue 30, item 6): `bgc vpico --board --demo --computer black` is the
board (the real firmware on the virtual board, its automated hands playing the person's side and
moving the computer's checkers); `bgc play` is killed in the middle of the match. The board, waiting
for the computer's decision, says "Computer offline" within the timeout (companion.phase_computer
OFFLINE_MS); `bgc play` started again reads the match from the board's journal and the match ends
normally; the journal holds the whole match once (one journal, replayed to its end, every play
legal by GNU Backgammon's generator) and its export is read back by the gnubg program. A 1-point
match: the board's hands play in real time, and each point more cost the suite a minute or two."""

import json
import os
import signal
import subprocess
import time

import pytest

from bgc import cli
from bgc.logs import export, journals
from bgc.rules import gnubg_ref
from test_computer_play import BGC, demo_board, needs_engine


def board_status(link, until, timeout=60):
    """Status events of the board at ``link`` (asked once a second) until ``until(status)``."""
    import serial

    s = serial.Serial(link, 115200, timeout=0.2)
    buf = b""
    deadline = time.monotonic() + timeout
    asked = 0
    try:
        while time.monotonic() < deadline:
            if time.monotonic() - asked > 1:
                s.write(b'{"cmd": "status"}\n')
                asked = time.monotonic()
            buf += s.read(4096)
            *lines, buf = buf.split(b"\n")
            for line in lines:
                try:
                    ev = json.loads(line)
                except ValueError:
                    continue
                if ev.get("ev") == "status" and until(ev):
                    return ev
    finally:
        s.close()
    return None


@needs_engine
def test_the_board_says_computer_offline_and_the_match_goes_on_when_bgc_play_is_back(tmp_path, capsys):
    host = None
    with demo_board(tmp_path, 5) as (link, flash):
        try:
            host = subprocess.Popen(BGC + ["play", "--port", link, "--computer", "black", "--length", "1"],
                                    stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                    text=True)
            plays = 0
            printed = []
            for line in host.stdout:
                printed.append(line)
                if "(GNU Backgammon) plays" in line:
                    plays += 1
                    if plays == 3:
                        break
            assert plays == 3, "".join(printed)
            host.send_signal(signal.SIGKILL)  # the PC goes away: no goodbye on the line
            host.wait(timeout=20)
            gone = time.monotonic()
            st = board_status(link, lambda ev: ev.get("offline"), timeout=90)
            assert st is not None, "the board never said the computer is offline"
            assert st["msg"] == "Computer offline" and st["computer"] == 1
            # it waits for the computer's decision, and said so no sooner than the timeout
            assert st["phase"] in ("roll", "moving", "doubled", "resign")
            assert time.monotonic() - gone >= 5.0
            status = cli.main(["play", "--port", link, "--computer", "black", "--wait", "180"])
            out, err = capsys.readouterr()
            assert status == 0, out + err
            assert "reading it from the board's journal" in out and "gnubg (expert)" in out
            assert "GNU Backgammon (expert) plays black: the match goes on" in out and "match over:" in out
        finally:
            if host is not None and host.poll() is None:
                host.kill()
    names = sorted(n for n in os.listdir(os.path.join(flash, "journal")) if n.endswith(".jnl"))
    assert names == ["m0001.jnl"], names  # one match, one journal: nothing started twice
    path = os.path.join(flash, "journal", names[0])
    log = journals.load(path)
    assert log.problem is None and log.complete and max(log.score()) >= 1
    assert list(log.names) == ["You", "gnubg (expert)"]
    for g in log.games:
        for a in g.actions:
            if a["a"] == "move":
                legal = gnubg_ref.reference_results(a["start"].id(), a["dice"][0], a["dice"][1])
                assert a["final"].id() in legal or (not legal and a["final"] == a["start"]), a["notation"]
    if export.find_gnubg() is None:
        pytest.skip("the gnubg program is not installed: the export is not read back")
    assert cli.main(["export", path, "--format", "sgf", "--out", str(tmp_path)]) == 0
    capsys.readouterr()
    d = export.gnubg_read([str(tmp_path / "m0001.sgf")])[0]
    assert export.gnubg_warnings(d["output"]) == []
    checked, diffs = export.compare(log, d["match"], d["walks"])
    assert diffs == [] and checked["moves"] == sum(len(g.moves) for g in log.games)
