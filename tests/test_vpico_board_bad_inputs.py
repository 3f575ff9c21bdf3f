"""`bgc vpico --board --demo --web`: the automated players play on the board behind the port and the
page shows it; and the verbs against it when something is wrong: garbage on the serial line, a
port another program holds, a second board on the same link, the board's process gone. Each is one
`bgc:` line with a hint (or, for the firmware, an error event), and the board plays on where it
can. (Garbage at the board's prompt: tests/test_vpico_board_walkthrough.py.)"""

import json
import os
import re
import signal
import subprocess
import sys
import time
import urllib.request

import pytest
import serial

from test_vpico_board_walkthrough import Board


def bgc(*args, cwd=None):
    r = subprocess.run([sys.executable, "-m", "bgc", *args], capture_output=True, text=True, timeout=60, cwd=cwd)
    return r.returncode, r.stdout, r.stderr


def one_error_line(err):
    lines = err.strip().splitlines()
    assert "Traceback" not in err, err
    assert lines and lines[0].startswith("bgc: "), err
    assert len(lines) <= 2 and (len(lines) == 1 or lines[1].startswith("hint: ")), err
    return lines[0]


@pytest.fixture(scope="module")
def board(tmp_path_factory):
    d = tmp_path_factory.mktemp("vboard")
    link = str(d / "pico")
    b = Board([sys.executable, "-m", "bgc", "vpico", "--board", "--demo", "--web", "--web-port", "0",
               "--flash", str(d / "flash"), "--link", link], str(d))
    b.link = link
    try:
        b.wait_for(["soft reset: main.py is running ...", "live view: http://..."])
        yield b
    finally:
        if b.proc.poll() is None:
            b.proc.kill()
            b.proc.wait()


def test_the_demo_players_play_and_the_page_and_bgc_watch_follow(board):
    deadline = time.monotonic() + 60
    while not [x for x in board.lines if re.match(r"(White|Black) \d-\d: \S", x)]:  # "White 4-3: 13/6"
        assert time.monotonic() < deadline and board.proc.poll() is None, "\n".join(board.lines)
        time.sleep(0.1)
    url = [x.split("live view: ", 1)[1].split()[0] for x in board.lines if "live view: " in x][0]
    while True:
        state = json.loads(urllib.request.urlopen(url.rstrip("/") + "/state", timeout=10).read())
        if state.get("status") and state.get("moves"):
            break  # the page has the board's status and the plays, from the serial events
        assert time.monotonic() < deadline, state
        time.sleep(0.2)
    status, out, err = bgc("watch", "--port", board.link, "--raw", "--count", "3")
    assert status == 0, err
    events = [json.loads(x) for x in out.splitlines()]
    assert len(events) == 3 and all("ev" in e for e in events), out


def test_garbage_on_the_serial_line_is_refused_and_the_board_plays_on(board):
    with serial.Serial(board.link, 115200, timeout=0.2) as s:
        s.write(b"\xff\xfe garbage {{{\n")
        deadline = time.monotonic() + 10
        buf = b""
        errors = []
        while not errors and time.monotonic() < deadline:
            buf += s.read(4096)
            for raw in buf.split(b"\n"):
                try:
                    ev = json.loads(raw.decode("utf-8", "replace"))
                except ValueError:
                    continue
                if isinstance(ev, dict) and ev.get("ev") == "error":
                    errors.append(ev)
    assert errors, buf  # the firmware answers the line with an error event (docs/protocol.md)
    status, out, err = bgc("watch", "--port", board.link, "--once")
    assert status == 0, err
    assert "White" in out and "Black" in out


def test_a_port_in_use_is_one_line(board, tmp_path):
    with serial.Serial(board.link, 115200, timeout=0.2, exclusive=True):
        status, out, err = bgc("chouette", "--port", board.link, "ledger")
        assert status == 2
        assert "is busy: another program has it open" in one_error_line(err)
    # a second board on the same link would take the name from under the first one
    status, out, err = bgc("vpico", "--board", "--flash", str(tmp_path / "f2"), "--link", board.link)
    assert status == 2
    assert "is in use: it points at /dev/pts/" in one_error_line(err)
    assert os.path.realpath(board.link).startswith("/dev/pts/")  # still the first board's


def test_the_board_gone_is_one_line(board, tmp_path):
    # (the last test of this module: it ends the board)
    board.proc.send_signal(signal.SIGKILL)  # no clean-up: the link is left behind, pointing nowhere
    board.proc.wait(timeout=10)
    assert os.path.islink(board.link)
    # The pty it points at is gone with the process; the kernel may hand its number to another
    # program's new pty within seconds on a busy machine, so the link is pointed at a pty number
    # that is surely gone, which is what the user has in hand.
    os.unlink(board.link)
    os.symlink("/dev/pts/999999", board.link)
    # (deploy opens the port as pull does, through bgc.pico.device.connect)
    for verb in (["watch", "--once"], ["chouette", "ledger"], ["pull", "--out", "j"]):
        status, out, err = bgc(verb[0], "--port", board.link, *verb[1:], cwd=str(tmp_path))
        assert status == 2, (verb, err)
        assert "which is gone: the virtual Pico behind it has stopped" in one_error_line(err), (verb, err)
        # a verb that failed leaves nothing behind (pull's --out folder is not made)
        assert os.listdir(str(tmp_path)) == [], (verb, os.listdir(str(tmp_path)))
