"""bgc pull and bgc watch against the virtual Pico (a real MicroPython behind a pty that mpremote
and pyserial talk to), with a small main.py that journals nothing but prints status events in a
loop and answers the `status` command, as the companion firmware does (docs/protocol.md)."""

import json
import os
import threading
import time

import pytest

from bgc import cli
from bgc.logs import journals
from bgc.pico.vpico import VirtualPico

# A stand-in for the companion's main loop: events on stdout, commands on stdin; Ctrl-C (what
# mpremote sends) ends it; a marker file counts the starts, so a test sees the restart after pull.
MAIN = """\
import json, sys, time, select
try:
    n = int(open('/starts').read())
except OSError:
    n = 0
f = open('/starts', 'w'); f.write(str(n + 1)); f.close()
STATUS = {"ev": "status", "match": "cAkAAAAAAAAA", "pos": "4HPwATDgc/ABMA", "names": ["Anna", "Bruno"],
          "score": [2, 1], "length": 5, "cube": 2, "owner": 1, "crawford": False, "on_roll": 0,
          "dice": [6, 4], "phase": "play", "pips": [167, 167], "msg": "Anna to play 6-4"}
print(json.dumps({"ev": "boot", "msg": "resumed m0002"}))
poller = select.poll()
poller.register(sys.stdin, select.POLLIN)
k = 0
while True:
    for obj, event in poller.poll(0):
        line = sys.stdin.readline().strip()
        if line in ("status", '{"cmd": "status"}'):
            print(json.dumps(STATUS))
    k += 1
    if k % 5 == 0:
        print(json.dumps({"ev": "roll", "p": k % 2, "dice": [3, 1]}))
        print(json.dumps(STATUS))
    time.sleep_ms(40)
"""


def write_journals(flash, specs):
    d = os.path.join(flash, "journal")
    os.makedirs(d, exist_ok=True)
    texts = {}
    for name, spec in specs.items():
        text = journals.encode_records(journals.synthetic_records(**spec))
        with open(os.path.join(d, name), "w") as f:
            f.write(text)
        texts[name] = text
    return texts


@pytest.fixture
def flash(tmp_path):
    d = tmp_path / "flash"
    d.mkdir()
    (d / "main.py").write_text(MAIN)
    return str(d)


def bgc(capsys, *args):
    status = cli.main(list(args))
    out, err = capsys.readouterr()
    return status, out, err


SPECS = {
    "m0001.jnl": dict(seed=11, length=3),
    "m0002.jnl": dict(seed=12, length=0, games=2, jacoby=True),
    "m0003.jnl": dict(seed=13, length=5, p_condone=0.03),
}


def test_pull_copies_verifies_marks_and_restarts_the_firmware(flash, tmp_path, capsys):
    texts = write_journals(flash, SPECS)
    # The newest journal is a match in progress: its last line was torn by a power cut.
    cut = texts["m0003.jnl"].splitlines(True)
    torn = "".join(cut[:30]) + cut[30][:25]
    with open(os.path.join(flash, "journal", "m0003.jnl"), "w") as f:
        f.write(torn)
    out_dir = tmp_path / "pulled"
    with VirtualPico(flash) as pico:
        status, out, err = bgc(capsys, "pull", "--port", pico.port, "--out", str(out_dir))
        assert status == 1, err  # one journal did not verify
        assert "100%" in err  # the progress bar
        for name in ("m0001.jnl", "m0002.jnl"):
            assert (out_dir / name).read_text() == texts[name]
            assert name in out and "new, verified" in out
        assert (out_dir / "m0003.jnl").read_text() == torn  # kept, to export what is readable
        assert "NOT VERIFIED" in out and "line 31: unreadable" in out
        assert "2 verified, 1 not verified" in out
        # Only the verified, finished matches are marked as exported; nothing was deleted.
        assert open(os.path.join(flash, "journal", "exported")).read().split() == ["m0001.jnl", "m0002.jnl"]
        assert sorted(os.listdir(os.path.join(flash, "journal"))) == ["exported", "m0001.jnl", "m0002.jnl", "m0003.jnl"]
        # The firmware was interrupted for the copy and started again afterwards.
        deadline = time.time() + 10
        while time.time() < deadline and open(os.path.join(flash, "starts")).read() != "2":
            time.sleep(0.1)
        assert open(os.path.join(flash, "starts")).read() == "2"

        # A second pull: unchanged copies, nothing marked twice.
        status, out, err = bgc(capsys, "pull", "--port", pico.port, "--out", str(out_dir))
        assert "unchanged, verified" in out
        assert open(os.path.join(flash, "journal", "exported")).read().split() == ["m0001.jnl", "m0002.jnl"]


def test_pull_delete_after_removes_only_verified_copies(flash, tmp_path, capsys):
    texts = write_journals(flash, SPECS)
    # Garble one byte in the middle of m0002: its copy cannot verify, so it must stay on the Pico.
    bad = texts["m0002.jnl"].replace('"roll"', '"rolL"', 1)
    with open(os.path.join(flash, "journal", "m0002.jnl"), "w") as f:
        f.write(bad)
    with VirtualPico(flash) as pico:
        status, out, err = bgc(capsys, "pull", "--port", pico.port, "--out", str(tmp_path / "p"), "--delete-after")
    assert status == 1
    left = sorted(os.listdir(os.path.join(flash, "journal")))
    # m0001 (verified) is gone; m0002 (garbled) stays; m0003 is finished and verified: gone too.
    assert left == ["exported", "m0002.jnl"]
    assert "deleted from the Pico: m0001.jnl, m0003.jnl" in out
    assert open(os.path.join(flash, "journal", "exported")).read().split() == []
    assert (tmp_path / "p" / "m0001.jnl").read_text() == texts["m0001.jnl"]


def test_pull_then_export_round_trip(flash, tmp_path, capsys):
    texts = write_journals(flash, {"m0001.jnl": SPECS["m0001.jnl"]})
    with VirtualPico(flash) as pico:
        status, out, err = bgc(capsys, "pull", "--port", pico.port, "--out", str(tmp_path / "p"))
        assert status == 0, out + err
    status, out, err = bgc(capsys, "export", str(tmp_path / "p"), "--format", "text", "-o", str(tmp_path / "x"))
    assert status == 0, err
    text = (tmp_path / "x" / "m0001.txt").read_text()
    log = journals.replay_text(texts["m0001.jnl"])
    assert "Score: Anna %d, Bruno %d" % tuple(log.score()) in text


def test_pull_without_journals_says_so(flash, tmp_path, capsys):
    with VirtualPico(flash) as pico:
        status, out, err = bgc(capsys, "pull", "--port", pico.port, "--out", str(tmp_path / "p"))
    assert status == 0
    assert "no /journal directory" in out


def test_pull_errors_have_hints(tmp_path, capsys, monkeypatch):
    monkeypatch.setattr("serial.tools.list_ports.comports", lambda: [])
    status, out, err = bgc(capsys, "pull", "--out", str(tmp_path / "p"))
    assert status == 2 and "no Raspberry Pi Pico" in err and "hint:" in err
    status, out, err = bgc(capsys, "pull", "--port", str(tmp_path / "ttyACM9"), "--out", str(tmp_path / "p"))
    assert status == 2 and "does not exist" in err and "hint:" in err
    status, out, err = bgc(capsys, "watch", "--port", str(tmp_path / "ttyACM9"))
    assert status == 2 and "does not exist" in err and "hint:" in err


def test_pull_from_a_device_that_is_not_micropython(tmp_path, capsys):
    import pty

    master, slave = pty.openpty()
    name = os.ttyname(slave)
    stop = threading.Event()

    def chatter():  # a serial device that only prints sensor values
        while not stop.is_set():
            try:
                os.write(master, b"adc=512\r\n")
            except OSError:
                return
            time.sleep(0.05)

    t = threading.Thread(target=chatter, daemon=True)
    t.start()
    try:
        status, out, err = bgc(capsys, "pull", "--port", name, "--out", str(tmp_path / "p"))
    finally:
        stop.set()
        os.close(master)
        os.close(slave)
    assert status == 2
    assert "does not answer as MicroPython" in err and "hint:" in err


def test_watch_shows_board_dice_cube_score_and_last_message(flash, capsys):
    with VirtualPico(flash) as pico:
        status, out, err = bgc(capsys, "watch", "--port", pico.port, "--count", "3", "--wait", "10")
    assert status == 0, err
    assert "Anna 2 - 1 Bruno   match to 5" in out
    assert "dice 6-4" in out and "cube 2 (Bruno)" in out and "pips 167-167" in out
    assert "+13-14-15-16-17-18------19-20-21-22-23-24-+" in out  # the board
    assert "last: " in out


def test_watch_once(flash, capsys):
    with VirtualPico(flash) as pico:
        status, out, err = bgc(capsys, "watch", "--port", pico.port, "--once", "--wait", "10")
    assert status == 0, err
    assert out.count("Anna 2 - 1 Bruno") == 1


def test_watch_survives_unplugging_the_board(flash, tmp_path, capsys):
    link = str(tmp_path / "pico")
    result = {}
    first = VirtualPico(flash, link=link)
    first.start()

    def replug():
        time.sleep(1.5)
        first.stop()  # unplugged: the port disappears
        time.sleep(1.0)
        second = VirtualPico(flash, link=link)  # plugged back in
        second.start()
        result["second"] = second

    t = threading.Thread(target=replug)
    t.start()
    try:
        status, out, err = bgc(capsys, "watch", "--port", link, "--count", "40", "--wait", "20")
    finally:
        t.join()
        if "second" in result:
            result["second"].stop()
    assert status == 0, err
    assert "board unplugged: waiting for it to come back" in out
    assert "board back on %s" % link in out
    after = out.split("board back on")[1]
    assert "Anna 2 - 1 Bruno" in after  # the game is shown again after the reconnection


def test_watch_gives_up_when_the_board_stays_away(flash, tmp_path, capsys):
    link = str(tmp_path / "pico")
    pico = VirtualPico(flash, link=link)
    pico.start()
    threading.Timer(1.0, pico.stop).start()
    status, out, err = bgc(capsys, "watch", "--port", link, "--count", "1000", "--wait", "1.5")
    assert status == 1
    assert "board unplugged" in out and "did not come back" in err
