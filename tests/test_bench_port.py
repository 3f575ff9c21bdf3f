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


class _BoardThatStopsAnswering:
    """A board whose first step fails, and which then no longer answers (a crashed firmware)."""
    device_name = "/dev/ttyACM7"

    def __init__(self):
        self.answering = True

    def exec(self, code):
        from mpremote.transport import TransportError

        if not self.answering:
            raise TransportError("timeout waiting for first EOF reception")
        return b""

    def fs_writefile(self, path, data):
        pass

    def exec_raw(self, code, timeout=None):
        self.answering = False
        return b"", b"Traceback (most recent call last):\r\nMemoryError: memory allocation failed, allocating 4097 bytes\r\n"


def test_a_failed_step_is_reported_before_a_board_that_no_longer_answers(monkeypatch, capsys):
    import contextlib

    from bgc import cli
    from bgc.pico import device

    board = _BoardThatStopsAnswering()
    monkeypatch.setattr(device, "connect", lambda port, soft_reset=False: contextlib.nullcontext(board))
    monkeypatch.setattr(device, "device_info", lambda transport: {"version_str": "1.27.0"})
    assert cli.main(["bench", "--port", "/dev/ttyACM7", "--max-turns", "1"]) != 0
    err = capsys.readouterr().err
    assert "the board's boot step failed" in err and "MemoryError: memory allocation failed" in err, err
    assert err.index("boot step failed") < err.index("could not remove /bench from the board"), err
    assert "mpremote connect /dev/ttyACM7 rm -r :/bench" in err, err
    assert 'File "/' not in err  # a message, not the host's traceback
