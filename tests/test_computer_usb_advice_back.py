"""Advice and take-back through `bgc play` on a board on USB (issue 30, "Done when"): `bgc vpico
--board` is the board (the real firmware under MicroPython on the virtual board behind a
pseudo-terminal), played from its prompt as a person at the board plays (the buttons' presses,
checkers lifted and put down); `bgc play --port` is the PC with GNU Backgammon. The person asks for
advice (ROLL held in their turn to move) and the hint comes back over the port onto the LEDs and
the OLED; the person plays, takes the play back while the computer's reply is shown (ROLL held),
puts the checkers back as the red points ask, plays the advice, moves the computer's reply as lit
and resigns the 1-point match, which GNU Backgammon accepts. The journal keeps the play and its
take-back; the export, read back by the gnubg program, and the analysis hold the game as finally
played. The walkthrough of docs/player-guide.md ("Take back"), on the USB path."""

import json
import os
import subprocess
import sys
import threading
import time

import pytest

from bgc.logs import analysis, export, journals

needs_engine = pytest.mark.skipif(analysis.engine_version() is None and os.environ.get("BGC_SKIP_GNUBG") == "1",
                                  reason="PyPI gnubg missing and BGC_SKIP_GNUBG=1")
BGC = [sys.executable, "-m", "bgc"]


class Lines:
    """A child's output, line by line, read on a thread."""

    def __init__(self, proc):
        self.proc = proc
        self.lines = []
        self.lock = threading.Lock()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self):
        for line in self.proc.stdout:
            with self.lock:
                self.lines.append(line.rstrip("\n"))

    def mark(self):
        with self.lock:
            return len(self.lines)

    def since(self, mark):
        with self.lock:
            return self.lines[mark:]

    def wait_for(self, mark, text, timeout=60):
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            for line in self.since(mark):
                if text in line:
                    return line
            if self.proc.poll() is not None:
                break
            time.sleep(0.1)
        raise AssertionError("no %r within %d s; said:\n%s" % (text, timeout, "\n".join(self.since(mark))))


class Prompt(Lines):
    """The board's prompt (`bgc vpico --board`): every command is answered with one OLED line
    (docs/virtual-pico.md), so each is sent once the one before is answered."""

    sent = 0

    def answered(self):
        return sum(1 for x in self.since(0) if x.startswith("  OLED:"))

    def do(self, command, timeout=60):
        """Type ``command``; its answer's lines."""
        m = self.mark()
        self.sent += 1
        self.proc.stdin.write(command + "\n")
        self.proc.stdin.flush()
        deadline = time.monotonic() + timeout
        while self.answered() < self.sent:
            assert self.proc.poll() is None, "the board stopped:\n" + "\n".join(self.since(0)[-40:])
            assert time.monotonic() < deadline, "no answer to %r:\n%s" % (command, "\n".join(self.since(m)))
            time.sleep(0.05)
        answer = self.since(m)
        assert not [x for x in answer if x.startswith(("? ", "expectation not met"))], answer
        return answer

    def until(self, mark, text, timeout=60):
        """The first line since ``mark`` holding ``text``, letting the board run (``wait 300``:
        the prompt prints what the PC sent in the meantime) until it comes."""
        deadline = time.monotonic() + timeout
        while True:
            for line in self.since(mark):
                if text in line:
                    return line
            assert time.monotonic() < deadline, "no %r within %d s; said:\n%s" % (
                text, timeout, "\n".join(self.since(mark)))
            self.do("wait 300")

    def event(self, mark, kind, timeout=60, **fields):
        """The first event ``kind`` since ``mark`` with ``fields``, letting the board run until it comes."""
        deadline = time.monotonic() + timeout
        while True:
            for line in self.since(mark):
                if line.startswith("  < "):
                    ev = json.loads(line[4:])
                    if ev.get("ev") == kind and all(ev.get(k) == v for k, v in fields.items()):
                        return ev
            assert time.monotonic() < deadline, "no %s %r within %d s; said:\n%s" % (
                kind, fields, timeout, "\n".join(self.since(mark)))
            self.do("wait 300")

    def press(self, command, text, tries=3):
        """A press whose effect is ``text`` in the board's answer: pressed again, as a person
        would, when the board did not take it (a loaded machine can starve the virtual Pico
        through a 120 ms press)."""
        for attempt in range(tries):
            m = self.mark()
            self.do(command)
            try:
                return self.until(m, text, timeout=3), m
            except AssertionError:
                if attempt == tries - 1:
                    raise


def event(line):
    return json.loads(line.split("< ", 1)[1])


def board_moves(notation, colour):
    """``move`` commands for a play in its mover's notation (no hits here)."""
    out = []
    for step in notation.split():
        assert "*" not in step and "(" not in step, notation
        points = step.split("/")
        for a, b in zip(points, points[1:]):
            out.append("move %s%s %s%s" % (colour, a, colour, b))
    return out


@needs_engine
def test_advice_and_take_back_through_bgc_play_on_the_usb_board(tmp_path):
    link = str(tmp_path / "pico")
    flash = str(tmp_path / "flash")
    proc = subprocess.Popen(BGC + ["vpico", "--board", "--link", link, "--flash", flash, "--seed", "1"],
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                            bufsize=1)
    board = Prompt(proc)
    host = None
    try:
        board.wait_for(0, "Type help for the commands", timeout=240)
        # the PC: GNU Backgammon plays Black, PyPI gnubg's own nets (the same numbers everywhere)
        host = subprocess.Popen(BGC + ["play", "--port", link, "--computer", "black", "--level", "expert",
                                       "--length", "1", "--nets", "engine", "--wait", "120"],
                                stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        pc = Lines(host)
        board.event(0, "new", timeout=120)  # bgc play started the match over the port
        # GNU Backgammon wins the opening roll with 6-1: its play comes over the port and is lit
        board.do("dice 1 6")
        _, m = board.press("press white roll", '"ev": "roll"')
        line = board.until(m, "GNU's play on the LEDs")
        assert line.strip() == "GNU's play on the LEDs: to move point 12, point 17; to point 18"
        for cmd in board_moves("13/7 8/7", "b"):
            board.do(cmd)
        board.event(m, "play", p=1)
        # the person's 5-2, played 8/3 6/4; GNU Backgammon's reply comes and is shown
        board.do("dice 5 2")
        board.press("press white roll", '"ev": "roll"')
        board.do("move 8 3")
        board.do("move 6 4")
        board.do("dice 4 2")  # the computer's roll (the board rolls it when the PC says `gnu roll`)
        _, m = board.press("press white roll", '"ev": "play"')
        reply = board.event(m, "gnu")
        assert reply["p"] == 1 and reply["move"]
        # ROLL held while its reply is shown: the person's play and the reply are taken back; the
        # red points are the checkers to put back
        back, m = board.press("press white roll long", '"ev": "back"')
        assert event(back)["p"] == 0
        fix = board.event(m, "board", reason="back")
        assert fix["ok"] is False and sorted(fix["wrong"]) == [3, 4, 6, 8] and fix["msg"] == "You: 1 missing on 8"
        assert "Take back" in board.until(m, "OLED:")
        board.do("move 3 8")
        m = board.mark()
        board.do("move 4 6")
        assert board.event(m, "board", reason="back", ok=True)
        # advice: ROLL held in the turn to move; the PC's hint is lit and said
        _, m = board.press("press white roll long", '"ev": "advice"')
        hint = board.until(m, "GNU's hint on the LEDs")
        assert hint.strip() == "GNU's hint on the LEDs: to move point 13, point 24; to point 8, point 22"
        assert "Hint 24/22 13/8" in board.until(m, "Hint ")
        assert pc.wait_for(0, "advice: ").strip() == "advice: 24/22 13/8"
        board.do("move 24 22")
        board.do("move 13 8")
        board.do("dice 3 1")
        _, m = board.press("press white roll", '"ev": "play"')
        reply = board.event(m, "gnu")
        for cmd in board_moves(reply["move"], "b"):
            board.do(cmd)
        board.event(m, "play", p=1)
        # the person resigns the 1-point match (CUBE held, ROLL offers a single game); GNU accepts
        board.press("press white cube long", "Resign single?")
        _, m = board.press("press white roll", '"ev": "resign"')
        board.event(m, "match_end")
        host.wait(timeout=60)
        said = "\n".join(pc.since(0))
        assert host.returncode == 0, said
        assert "match over:" in said
    finally:
        if host is not None and host.poll() is None:
            host.kill()
        try:
            proc.stdin.close()
        except OSError:
            pass
        proc.terminate()
        try:
            proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            proc.kill()
    path = os.path.join(flash, "journal", "m0001.jnl")
    log = journals.load(path)
    assert log.problem is None and log.complete
    # the journal keeps the play taken back, and its take-back (docs/formats.md, `back`)
    game = log.games[0]
    assert len(game.back_lines) == 1
    assert [[a["notation"] for a in went if a["a"] == "move"] for went in game.taken_back] == [["8/3 6/4"]]
    played = [a["notation"] for a in game.actions if a["a"] == "move"]
    assert played == ["13/7 8/7", "24/22 13/8", reply["move"]]  # the game as finally played
    # GNU Backgammon's analysis of the journal: the same three plays, the one taken back not among them
    data = analysis.analyse(log, 0)
    analysed = [r for r in data["games"][0]["records"] if r["kind"] == "move"]
    assert [(r["player"], sorted(r["played"].split())) for r in analysed] == [
        (p, sorted(n.split())) for p, n in zip((1, 0, 1), played)]
    if export.find_gnubg() is None:
        pytest.skip("the gnubg program is not installed: the export is not read back")
    sgf = str(tmp_path / "m0001.sgf")
    subprocess.run(BGC + ["export", path, "--format", "sgf", "--out", str(tmp_path)], check=True,
                   capture_output=True)
    d = export.gnubg_read([sgf])[0]
    assert export.gnubg_warnings(d["output"]) == []
    checked, diffs = export.compare(log, d["match"], d["walks"])
    assert diffs == [] and checked["moves"] == 3
