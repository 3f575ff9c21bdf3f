"""Issue 33, item 4: `bgc bench --port P` runs the Pico benchmark on a connected board (here
`bgc vpico --board`, a real MicroPython behind a pseudo-terminal) and prints the table of the
emulated runs (scripts/bench/bench_pico.py), and leaves the board's flash as it found it."""
import os
import subprocess
import sys
import time

import pytest

pytestmark = pytest.mark.micropython


def test_bench_on_the_virtual_pico_prints_the_emulated_runs_table(tmp_path):
    link = str(tmp_path / "pico")
    flash = str(tmp_path / "flash")
    board = subprocess.Popen([sys.executable, "-m", "bgc", "vpico", "--board", "--flash", flash, "--link", link],
                             stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    try:
        deadline = time.monotonic() + 120
        while not os.path.exists(link) or not os.path.exists(os.path.join(flash, "main.py")) and not os.path.exists(
                os.path.join(flash, "main.mpy")):
            assert board.poll() is None, board.stdout.read()
            assert time.monotonic() < deadline, "the virtual Pico did not start"
            time.sleep(0.2)
        time.sleep(2)  # the firmware deployed and started
        before = sorted(os.listdir(flash))
        r = subprocess.run([sys.executable, "-m", "bgc", "bench", "--port", link, "--max-turns", "2"],
                           capture_output=True, text=True, timeout=600)
        assert r.returncode == 0, r.stdout + r.stderr
        for line in ("free heap after boot:", "hall scan of 128 cells:", "journal append",
                     "whole 1-point match of standard (2 turns",
                     "frame -> LED answer (Companion.on_frame,", "DONE answer: median",
                     "hall scan + classifier update, every loop step",
                     "the firmware's own least free heap", "loop steps preparing the turn's answers"):
            assert line in r.stdout, (line, r.stdout)
        assert sorted(os.listdir(flash)) == before  # /bench removed: the board's files as they were
    finally:
        board.terminate()
        board.wait(timeout=30)


def test_bench_port_refuses_an_unknown_variant(capsys):
    from bgc import cli

    assert cli.main(["bench", "--port", "/nonexistent", "--variant", "nosuch"]) != 0
    err = capsys.readouterr().err
    assert "unknown variant 'nosuch'" in err and "hint:" in err


class _ScriptedBoard:
    """A board over a serial line, as mpremote's SerialTransport reads it: each step's program gets
    the bytes ``answer(code)`` gives, one at a time (``seconds_a_byte`` apart on a fake clock); bytes
    that run out before the end-of-output mark are a board that went quiet (read_until's timeout)."""
    device_name = "/dev/ttyACM7"

    def __init__(self, answer, clock, seconds_a_byte=0.0):
        self.answer = answer
        self.clock = clock
        self.seconds_a_byte = seconds_a_byte
        self.answering = True
        self.pending = b""

    def exec(self, code):
        from mpremote.transport import TransportError

        if not self.answering:
            raise TransportError("timeout waiting for first EOF reception")
        return b""

    def fs_writefile(self, path, data):
        pass

    def exec_raw_no_follow(self, code):
        self.pending = self.answer(self, code)

    def read_until(self, min_num_bytes, ending, timeout=10, data_consumer=None):
        data = b""
        while self.pending and not data.endswith(ending):
            byte, self.pending = self.pending[:1], self.pending[1:]
            self.clock[0] += self.seconds_a_byte
            if data_consumer:
                data_consumer(byte)
            data += byte
        return data


def _connect_to(monkeypatch, board):
    import contextlib

    from bgc.board import bench_board
    from bgc.pico import device

    monkeypatch.setattr(device, "connect", lambda port, soft_reset=False: contextlib.nullcontext(board))
    monkeypatch.setattr(device, "device_info", lambda transport: {"version_str": "1.27.0"})
    monkeypatch.setattr(bench_board, "_clock", lambda: board.clock[0])


def _fails_and_stops_answering(board, code):
    board.answering = False
    return b"\x04Traceback (most recent call last):\r\nMemoryError: memory allocation failed, allocating 4097 bytes\r\n\x04"


def test_a_failed_step_is_reported_before_a_board_that_no_longer_answers(monkeypatch, capsys):
    from bgc import cli

    _connect_to(monkeypatch, _ScriptedBoard(_fails_and_stops_answering, [0.0]))
    assert cli.main(["bench", "--port", "/dev/ttyACM7", "--max-turns", "1"]) != 0
    err = capsys.readouterr().err
    assert "the board's boot step failed" in err and "MemoryError: memory allocation failed" in err, err
    assert err.index("boot step failed") < err.index("could not remove /bench from the board"), err
    assert "mpremote connect /dev/ttyACM7 rm -r :/bench" in err, err
    assert 'File "/' not in err  # a message, not the host's traceback


def _resets_in_the_match(board, code):
    if "bench_match" not in code:
        return b"\x04\x04"
    # One turn, then the board resets and its main.py talks on (and never ends the step)
    return b"TURN 1\r\n" + b'{"ev": "status", "phase": "setup"}\r\n' * 40


def test_a_board_that_resets_in_the_match_is_reported_not_waited_for(monkeypatch, capsys):
    from bgc import cli

    _connect_to(monkeypatch, _ScriptedBoard(_resets_in_the_match, [0.0], seconds_a_byte=0.5))
    assert cli.main(["bench", "--port", "/dev/ttyACM7", "--max-turns", "2", "--idle-roll", "0", "--idle-step", "0"]) != 0
    err = capsys.readouterr().err
    assert "the board's match step stopped: no turn played in 120 s" in err, err
    assert '"phase": "setup"' in err  # what it printed instead, for the builder to see
    assert 'File "/' not in err


def _goes_quiet_in_the_match(board, code):
    return b"TURN 1\r\n" if "bench_match" in code else b"\x04\x04"


def test_a_board_that_goes_quiet_in_the_match_is_reported_not_waited_for(monkeypatch, capsys):
    from bgc import cli

    _connect_to(monkeypatch, _ScriptedBoard(_goes_quiet_in_the_match, [0.0]))
    assert cli.main(["bench", "--port", "/dev/ttyACM7", "--max-turns", "2", "--idle-roll", "0", "--idle-step", "0"]) != 0
    err = capsys.readouterr().err
    assert "the board's match step stopped: nothing from it in 120 s" in err and "TURN 1" in err, err


def test_the_quiet_limit_grows_with_the_players_waits(monkeypatch, capsys):
    # A turn holds the players' waits (--idle-roll once, --idle-step per checker): a board asked
    # for long ones is given them before it is called stopped.
    from bgc import cli

    _connect_to(monkeypatch, _ScriptedBoard(_goes_quiet_in_the_match, [0.0]))
    assert cli.main(["bench", "--port", "/dev/ttyACM7", "--max-turns", "2", "--idle-roll", "30000",
                     "--idle-step", "5000"]) != 0
    assert "nothing from it in 190 s" in capsys.readouterr().err
