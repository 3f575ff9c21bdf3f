"""Bad input for every bgc verb (issue 11, items 6 and 7; docs/user-guide-host.md, "When something
goes wrong"): a missing, unreadable, undecodable or wrong-type file, a bad number, an absent, busy
or wrong port, a full disk, a folder where a file is expected. Each one is answered with exit
status 2 and one `bgc:` line saying what happened followed by its `hint:` line, never a
traceback, never a file left half-written (or a stray NAME.part), and never the user's whole
input echoed back.

The table runs in-process (bgc.cli.main with capsys); a few cases run `python -m bgc` in a
subprocess to show that no traceback reaches the terminal.
"""

import contextlib
import json
import os
import re
import pty
import stat
import subprocess
import sys

import pytest
import serial

from bgc import cli
from bgc.pico import device
from bgc.logs import journals

START = "4HPwATDgc/ABMA"
HUGE = "A" * 200000  # a runaway paste: no error may repeat it whole
PROGRESS = re.compile(r"^\[[#-]{24}\] +\d+% ")  # bgc.pico.device.progress, one line per step off a terminal


def bgc(capsys, argv, stdin=None, monkeypatch=None):
    if stdin is not None:
        import io

        monkeypatch.setattr(sys, "stdin", io.StringIO(stdin))
    status = cli.main(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


def assert_user_error(status, out, err):
    """Exit 2; on stderr one `bgc:` line and one `hint:` line, both short; no traceback."""
    assert "Traceback" not in err and "Traceback" not in out
    lines = [line for line in err.splitlines() if not PROGRESS.match(line)]
    assert status == 2, (status, err[:500])
    assert len(lines) == 2, err[:1000]
    assert lines[0].startswith("bgc: ") and lines[1].startswith("hint: "), err[:1000]
    assert len(lines[0]) <= 250 and len(lines[1]) <= 620, err[:1000]
    assert len(out) < 2000


def tree(root):
    found = set()
    for base, dirs, names in os.walk(root):
        for n in dirs + names:
            found.add(os.path.relpath(os.path.join(base, n), root))
    return found


@pytest.fixture
def inputs(tmp_path):
    """Files of every wrong kind, by name, under tmp_path/in."""
    d = tmp_path / "in"
    d.mkdir()
    (d / "folder").mkdir()
    (d / "undecodable.txt").write_bytes(b"lift 6\n\xff\xfe\x80 place 5\n")
    (d / "empty").write_bytes(b"")
    (d / "text").write_text("just some text\n")
    (d / "no_board.json").write_text(json.dumps({"cells": [], "leds": []}))
    (d / "list.json").write_text("[1, 2, 3]")
    (d / "bad_cell.json").write_text(json.dumps({"board": {"width": 1}, "cells": [{"x": 1}], "leds": []}))
    (d / "m0001.jnl").write_text(journals.encode_records(journals.synthetic_records(seed=3, length=1)))
    (d / "firmware").mkdir()
    (d / "firmware" / "main.py").write_text("print('hi')\n")
    paths = {p.name: str(p) for p in d.iterdir()}
    paths["missing"] = str(d / "missing")
    paths["under_a_file"] = str(d / "text" / "x")  # a path through a regular file: ENOTDIR
    paths["missing_folder_file"] = str(d / "nofolder" / "out.svg")
    paths["proc"] = "/proc/bgc-no-such/x"  # nothing may be created under /proc
    paths["new_folder"] = str(tmp_path / "new" / "out")  # an output folder the command would make
    (d / "empty_logs").mkdir()
    (d / "empty_logs" / "m0001.jnl").write_bytes(b"")
    paths["empty_logs"] = str(d / "empty_logs")
    return paths


@pytest.fixture
def busy_port():
    """A pseudo-terminal another program holds open exclusively, as Thonny would a Pico."""
    master, slave = pty.openpty()
    path = os.ttyname(slave)
    held = serial.Serial(path, exclusive=True)
    yield path
    held.close()
    os.close(master)
    os.close(slave)


# (name, argv with {placeholders} from the inputs fixture, text the bgc: line must hold)
TABLE = [
    # bench
    ("bench --games 0", ["bench", "--games", "0"], "--games must be"),
    ("bench --games -5", ["bench", "--games", "-5"], "--games must be"),
    ("bench --repeat 0", ["bench", "--repeat", "0"], "--repeat must be"),
    ("bench --games not a number", ["bench", "--games", "many"], "invalid int value"),
    ("bench --games huge", ["bench", "--games", "9" * 4000], "--games must be"),
    ("bench --repeat huge text", ["bench", "--repeat", HUGE], "invalid int value"),
    ("bench --position bad ID", ["bench", "--position", "nonsense", "6", "4"], "bad Position ID"),
    ("bench --position die 7", ["bench", "--position", START, "7", "1"], "a die is a number from 1 to 6"),
    # check
    ("check bad start ID", ["check", "xyz", "6", "4", START], "bad Position ID"),
    ("check die 0", ["check", START, "0", "4", START], "a die is a number from 1 to 6"),
    ("check die not a number", ["check", START, "six", "4", START], "a die is a number from 1 to 6"),
    ("check final not a Position ID", ["check", START, "6", "4", "//////////////"], "bad final Position ID"),
    ("check final of bad base64", ["check", START, "6", "4", "!!!!!!!!!!!!!!"], "bad final Position ID"),
    ("check huge final", ["check", START, "6", "4", HUGE], "bad final Position ID"),
    ("check huge start", ["check", HUGE, "6", "4", START], "bad Position ID"),
    ("check huge die", ["check", START, "9" * 5000, "4", START], "a die is a number"),
    # demo
    ("demo --seed not a number", ["demo", "--seed", "x"], "invalid int value"),
    # deploy
    ("deploy --firmware missing", ["deploy", "--firmware", "{missing}"], "does not exist"),
    ("deploy --firmware a file", ["deploy", "--firmware", "{text}"], "is not a folder"),
    ("deploy --firmware without main.py", ["deploy", "--firmware", "{folder}"], "has no main.py"),
    ("deploy --port absent", ["deploy", "--firmware", "{firmware}", "--port", "{missing}"], "does not exist"),
    ("deploy --port not a serial port", ["deploy", "--firmware", "{firmware}", "--port", "/dev/null"],
     "is not a serial port"),
    ("deploy --port busy", ["deploy", "--firmware", "{firmware}", "--port", "{busy}"], "is busy"),
    # flash
    ("flash a missing image", ["flash", "{missing}", "--no-wait"], "cannot read the image"),
    ("flash a folder as the image", ["flash", "{folder}", "--no-wait"], "not a regular file"),
    ("flash a device that never ends", ["flash", "/dev/zero", "--no-wait"], "not a regular file"),
    ("flash a text file", ["flash", "{text}", "--no-wait"], "is not a UF2 image"),
    ("flash an empty file", ["flash", "{empty}", "--no-wait"], "is not a UF2 image"),
    # devices
    ("devices --port absent", ["devices", "--port", "{missing}"], "does not exist"),
    ("devices --port not a serial port", ["devices", "--port", "/dev/null"], "is not a serial port"),
    ("devices --port a regular file", ["devices", "--port", "{text}"], "is not a serial port"),
    ("devices --port busy", ["devices", "--port", "{busy}"], "is busy"),
    # draw-board
    ("draw-board -o into a missing folder", ["draw-board", "-o", "{missing_folder_file}"], "does not exist"),
    ("draw-board -o onto a folder", ["draw-board", "-o", "{folder}"], "it is a directory"),
    ("draw-board -o under a file", ["draw-board", "-o", "{under_a_file}"], "cannot write"),
    ("draw-board --geometry missing", ["draw-board", "--geometry", "{missing}", "-o", "{missing_folder_file}"],
     "cannot read geometry"),
    ("draw-board --geometry a folder", ["draw-board", "--geometry", "{folder}"], "cannot read geometry"),
    ("draw-board --geometry a device that never ends", ["draw-board", "--geometry", "/dev/zero"],
     "not a regular file"),
    ("draw-board --geometry undecodable", ["draw-board", "--geometry", "{undecodable.txt}"], "cannot read geometry"),
    ("draw-board --geometry not JSON", ["draw-board", "--geometry", "{text}"], "cannot read geometry"),
    ("draw-board --geometry lacking board", ["draw-board", "--geometry", "{no_board.json}"], "'board'"),
    ("draw-board --geometry a list", ["draw-board", "--geometry", "{list.json}"], "not a geometry"),
    ("draw-board --geometry cell without x", ["draw-board", "--geometry", "{bad_cell.json}"], "no number"),
    # analyze
    ("analyze nothing", ["analyze"], "no journal given"),
    ("analyze journals and --port", ["analyze", "{m0001.jnl}", "--port", "{missing}"], "not both"),
    ("analyze --port absent", ["analyze", "--port", "{missing}"], "does not exist"),
    ("analyze missing journal", ["analyze", "{missing}"], "no such journal"),
    ("analyze folder without journals", ["analyze", "{folder}"], "no journal files"),
    ("analyze a device that never ends", ["analyze", "/dev/zero"], "not a regular file"),
    ("analyze an empty file", ["analyze", "{empty}"], "nothing to analyse"),
    ("analyze --ply 5", ["analyze", "{m0001.jnl}", "--ply", "5"], "invalid choice"),
    ("analyze --sgf of two journals", ["analyze", "{m0001.jnl}", "{m0001.jnl}", "--sgf", "{missing}"],
     "--sgf writes one match"),
    ("analyze --sgf into a missing folder", ["analyze", "{m0001.jnl}", "--sgf", "{missing_folder_file}"],
     "does not exist"),
    # export
    ("export missing journal", ["export", "{missing}"], "no such journal"),
    ("export folder without journals", ["export", "{folder}"], "no journal files"),
    ("export --date month 13", ["export", "{m0001.jnl}", "-o", "{missing}", "--date", "2025-13-45"], "--date"),
    ("export --date with a quote", ["export", "{m0001.jnl}", "-o", "{missing}", "--date", '2025.01.01"]'], "--date"),
    ("export --date huge", ["export", "{m0001.jnl}", "-o", "{missing}", "--date", HUGE], "--date"),
    ("export --check -f json", ["export", "{m0001.jnl}", "-o", "{missing}", "--check", "-f", "json"], "--check"),
    ("export -o onto a folder's file", ["export", "{m0001.jnl}", "-o", "{under_a_file}"], "cannot"),
    ("export -o into a missing folder", ["export", "{m0001.jnl}", "-o", "{missing_folder_file}"], "does not exist"),
    ("export a device that never ends", ["export", "/dev/zero"], "not a regular file"),
    ("export -f unknown", ["export", "{m0001.jnl}", "-f", "pdf"], "invalid choice"),
    ("export -o a new folder, nothing to export", ["export", "{empty_logs}", "-o", "{new_folder}"],
     "nothing to export"),
    # match
    ("match bad Match ID", ["match", "nonsense"], "Match ID"),
    ("match huge Match ID", ["match", HUGE], "Match ID"),
    ("match bad Position ID", ["match", "QYkqASAAIAAA", "nonsense"], "Position ID"),
    ("match huge Position ID", ["match", "QYkqASAAIAAA", HUGE], "Position ID"),
    ("match --names one name", ["match", "QYkqASAAIAAA", "--names", "Anna"], "--names"),
    # moves
    ("moves bad Position ID", ["moves", "nonsense", "6", "4"], "bad Position ID"),
    ("moves die 7", ["moves", START, "7", "1"], "a die is a number from 1 to 6"),
    ("moves one die", ["moves", START, "6"], "usage"),
    # pull
    ("pull --out a regular file", ["pull", "--out", "{text}", "--port", "{missing}"], "not a folder"),
    ("pull --out where nothing can be made", ["pull", "--out", "{proc}", "--port", "{missing}"], "--out"),
    ("pull --port absent", ["pull", "--out", "{folder}", "--port", "{missing}"], "does not exist"),
    ("pull --out a new folder, --port absent", ["pull", "--out", "{new_folder}", "--port", "{missing}"],
     "does not exist"),
    ("pull --port not a serial port", ["pull", "--out", "{folder}", "--port", "/dev/null"], "is not a serial port"),
    ("pull --port busy", ["pull", "--out", "{folder}", "--port", "{busy}"], "is busy"),
    # replay
    ("replay missing journal", ["replay", "{missing}"], "cannot read"),
    ("replay a folder", ["replay", "{folder}"], "it is a folder"),
    ("replay a device that never ends", ["replay", "/dev/zero"], "not a regular file"),
    ("replay an empty file", ["replay", "{empty}"], "holds no match"),
    ("replay undecodable bytes", ["replay", "{undecodable.txt}"], "holds no match"),
    # sim
    ("sim --demo --flash under /proc", ["sim", "--demo", "--flash", "{proc}"], "--flash"),
    ("sim --flash a regular file", ["sim", "--flash", "{text}"], "not a folder"),
    ("sim --script undecodable", ["sim", "--script", "{undecodable.txt}"], "not UTF-8"),
    ("sim --script missing", ["sim", "--script", "{missing}"], "cannot read the script"),
    ("sim --script a folder", ["sim", "--script", "{folder}"], "it is a folder"),
    ("sim --script a device that never ends", ["sim", "--script", "/dev/zero"], "not a regular file"),
    ("sim --length 0", ["sim", "--demo", "--length", "0"], "--length"),
    ("sim --delay -1", ["sim", "--demo", "--delay", "-1"], "--delay"),
    ("sim --length huge", ["sim", "--demo", "--length", "9" * 4000], "--length"),
    ("sim --flash a new folder, unknown variant", ["sim", "--demo", "--flash", "{new_folder}", "--variant", "nosuch"],
     "unknown variant"),
    # vpico
    ("vpico --flash under /proc", ["vpico", "--flash", "{proc}"], "as the flash directory"),
    ("vpico --flash a regular file", ["vpico", "--flash", "{text}"], "is not a directory"),
    ("vpico --link under /proc", ["vpico", "--link", "{proc}"], "cannot make the link"),
    ("vpico --link a regular file", ["vpico", "--link", "{text}"], "not a symlink"),
    ("vpico --pace without players", ["vpico", "--board", "--pace", "3"], "--pace is the automated players'"),
    ("vpico --pace 0", ["vpico", "--board", "--demo", "--pace", "0"], "--pace must be 1..20"),
    ("vpico --pace nan", ["vpico", "--board", "--demo", "--pace", "nan"], "--pace must be 1..20"),
    ("vpico --flash a new folder, --link under /proc", ["vpico", "--flash", "{new_folder}", "--link", "{proc}"],
     "cannot make the link"),
    # watch
    ("variants unknown option", ["variants", "--nope"], "unrecognized arguments"),
    ("moves --variant unknown", ["moves", START, "6", "4", "--variant", "nosuch"], "unknown variant"),
    ("moves --variant huge", ["moves", START, "6", "4", "--variant", HUGE], "unknown variant"),
    ("check --variant unknown", ["check", START, "6", "4", START, "--variant", "nosuch"], "unknown variant"),
    ("demo --variant unknown", ["demo", "--variant", "nosuch"], "unknown variant"),
    ("sim --variant unknown", ["sim", "--demo", "--variant", "nosuch"], "unknown variant"),
    ("sim --web-port out of range", ["sim", "--demo", "--web", "--web-port", "99999"], "--web-port"),
    ("chouette without an action", ["chouette"], "ACTION"),
    ("chouette --port absent", ["chouette", "--port", "{missing}", "ledger"], "does not exist"),
    ("chouette --port not a serial port", ["chouette", "--port", "/dev/null", "ledger"], "is not a serial port"),
    ("chouette --port busy", ["chouette", "--port", "{busy}", "ledger"], "is busy"),
    ("play --computer red", ["play", "--computer", "red", "--port", "{missing}"], "--computer is white or black"),
    ("play --level master", ["play", "--computer", "black", "--level", "master", "--port", "{missing}"],
     "no level 'master'"),
    ("play --length 99", ["play", "--computer", "black", "--length", "99", "--port", "{missing}"], "--length must be"),
    ("play --port absent", ["play", "--computer", "black", "--port", "{missing}"], "does not exist"),
    ("play --port not a serial port", ["play", "--computer", "black", "--port", "/dev/null"], "is not a serial port"),
    ("play without --computer", ["play", "--port", "{missing}"], "--computer"),
    ("setup bad Position ID", ["setup", "4PPgAyDgc/ABMX", "--port", "{missing}"], "bad Position ID"),
    ("setup bad Match ID", ["setup", START, "cAmzACAAGAAx", "--port", "{missing}"], "bad Match ID"),
    ("setup Match ID of a game over", ["setup", START, "8ASgACAAIAAE", "--port", "{missing}"], "no game under way"),
    ("setup --length against the Match ID", ["setup", START, "cAmzACAAGAAE", "--length", "3", "--port", "{missing}"],
     "--length 3"),
    ("setup --computer red", ["setup", START, "--computer", "red", "--port", "{missing}"], "--computer is white or black"),
    ("setup --names one", ["setup", START, "--names", "Ann", "--port", "{missing}"], "--names"),
    ("setup --port absent", ["setup", START, "--port", "{missing}"], "does not exist"),
    ("setup --port not a serial port", ["setup", START, "--port", "/dev/null"], "is not a serial port"),
    ("watch --port absent", ["watch", "--port", "{missing}"], "does not exist"),
    ("watch --port not a serial port", ["watch", "--port", "/dev/null"], "is not a serial port"),
    ("watch --port busy", ["watch", "--port", "{busy}"], "is busy"),
    ("watch --count 0", ["watch", "--port", "{missing}", "--count", "0"], "--count"),
    ("watch --wait -1", ["watch", "--port", "{missing}", "--wait", "-1"], "--wait"),
    ("relay --broker with a password", ["relay", "--port", "{missing}", "--broker", "mqtt://t:pw@127.0.0.1",
                                        "--board", "t"], "--broker holds a password"),
    ("relay --port absent", ["relay", "--port", "{missing}", "--broker", "mqtt://t@127.0.0.1:1", "--board", "t"],
     "does not exist"),
    ("relay --board not a name", ["relay", "--port", "{missing}", "--broker", "mqtt://t@127.0.0.1", "--board", "a/b"],
     "is not a name"),
    ("club --broker not mqtt", ["club", "--broker", "http://viewer@127.0.0.1"], "is not a broker address"),
    ("club --password-file absent", ["club", "--broker", "mqtt://viewer@127.0.0.1", "--password-file", "{missing}"],
     "cannot read the password file"),
    ("remote --opponent itself", ["remote", "--port", "{missing}", "--broker", "mqtt://a@127.0.0.1", "--board", "a",
                                  "--opponent", "a"], "is this board itself"),
    ("remote --length 99", ["remote", "--port", "{missing}", "--broker", "mqtt://a@127.0.0.1", "--board", "a",
                            "--opponent", "b", "--length", "99"], "--length must be"),
    ("broker without an action", ["broker"], "needs an action"),
    ("broker init --boards none", ["broker", "init", "{missing}", "--boards", ","], "names no board"),
    ("broker init --match bad", ["broker", "init", "{missing}", "--boards", "a,b", "--match", "ab"],
     "is not two board names"),
]


def test_every_verb_is_in_the_table():
    verbs = {name.split()[0] for name, _, _ in TABLE}
    parser = cli.build_parser()
    registered = set(parser._subparsers._group_actions[0].choices)
    assert registered <= verbs, registered - verbs


@pytest.mark.parametrize("name,argv,says", TABLE, ids=[t[0] for t in TABLE])
def test_bad_input_is_one_line_with_a_hint(name, argv, says, inputs, tmp_path, capsys, request, monkeypatch):
    paths = dict(inputs)
    if any("{busy}" in a for a in argv):
        paths["busy"] = request.getfixturevalue("busy_port")
    argv = [paths[a[1:-1]] if a.startswith("{") and a.endswith("}") else a for a in argv]
    monkeypatch.chdir(tmp_path)
    before = tree(tmp_path)
    status, out, err = bgc(capsys, argv)
    assert_user_error(status, out, err)
    assert says in err.splitlines()[0], err
    assert HUGE[:1000] not in err + out
    # Nothing written: no output file, no NAME.part, no folder made on the way (nor an output
    # folder made before the command failed).
    assert tree(tmp_path) == before


def test_moves_batch_never_echoes_a_huge_line_back(capsys, monkeypatch):
    lines = [HUGE, "%s 6 %s" % (START, "7" * 100000), "%s 6 %s" % (START, "7" * 4000),
             "%s %s 1" % (HUGE[:5000], "6"), "a b c d " * 20000]
    status, out, err = bgc(capsys, ["moves", "--batch"], stdin="\n".join(lines) + "\n", monkeypatch=monkeypatch)
    answers = out.splitlines()
    assert status == 0 and len(answers) == len(lines)
    for answer in answers:
        assert answer.startswith("error: ") and len(answer) < 200, answer[:300]


def test_check_still_calls_an_impossible_board_illegal(capsys):
    # The final ID decodes, but names a board with both colours on one point: an illegal play
    # (exit 1), not a bad ID.
    from bgrules import Position
    from bgrules.position import OPP

    pos = Position.start()
    pos.cells[OPP + 13] -= 1
    pos.cells[OPP + 19] += 1  # the opponent's 19 is the mover's 6, where White has five
    status, out, err = bgc(capsys, ["check", START, "6", "4", pos.id()])
    assert status == 1 and out.startswith("illegal: ") and "Both colours on point 6" in out, (out, err)


def test_export_date_is_written_as_gnubg_writes_it(inputs, tmp_path, capsys):
    out = tmp_path / "out.mat"
    status, _, err = bgc(capsys, ["export", inputs["m0001.jnl"], "-o", str(out), "--date", "2025-06-30"])
    assert status == 0, err
    assert '; [EventDate "2025.06.30"]' in out.read_text()


def test_export_to_a_device_writes_it_in_place_and_keeps_the_node(inputs, tmp_path, capsys):
    """Run as root, the old export renamed OUT.part over a device node and left a regular file."""
    node = tmp_path / "full"
    try:
        os.mknod(str(node), stat.S_IFCHR | 0o666, os.makedev(1, 7))  # /dev/full's numbers
    except (PermissionError, OSError):
        pytest.skip("cannot make a device node here (not root)")
    status, out, err = bgc(capsys, ["export", inputs["m0001.jnl"], "-o", str(node)])
    assert stat.S_ISCHR(os.stat(str(node)).st_mode), "the device node was replaced"
    assert_user_error(status, out, err)
    assert not (tmp_path / "full.part").exists()


def test_export_to_dev_full_through_a_link_reports_the_full_disk(inputs, tmp_path, capsys):
    link = tmp_path / "m0001.mat"
    link.symlink_to("/dev/full")
    status, out, err = bgc(capsys, ["export", inputs["m0001.jnl"], "-o", str(link)])
    assert_user_error(status, out, err)
    assert "No space left on device" in err and "free some space" in err
    assert os.path.islink(str(link)) and sorted(os.listdir(str(tmp_path))) == ["in", "m0001.mat"]


def test_export_stdout_device_is_written_in_place(inputs, tmp_path, capsys):
    """A pipe or terminal named as the output is written into, not replaced."""
    fifo = tmp_path / "pipe"
    os.mkfifo(str(fifo))
    import threading

    got = []
    reader = threading.Thread(target=lambda: got.append(open(str(fifo), "rb").read()), daemon=True)
    reader.start()
    status, _, err = bgc(capsys, ["export", inputs["m0001.jnl"], "-o", str(fifo)])
    reader.join(10)
    assert status == 0, err
    assert got and got[0].startswith(b'; [Player 1 "Anna"]')
    assert stat.S_ISFIFO(os.stat(str(fifo)).st_mode)


# --- pull onto a full disk, with a stand-in for the Pico's transport ------------------------------

class FakePico:
    """Answers pull's listing and reads the way mpremote's transport does, for given journals."""

    def __init__(self, journals_bytes):
        self.files = journals_bytes
        self.restarted = False
        self.executed = []

        class _Serial:
            def write(inner, data):
                if data == b"\x04":
                    self.restarted = True

        self.serial = _Serial()

    def exec(self, code):
        import binascii

        self.executed.append(code)
        if "r = {\"files\"" in code:
            rows = [[n, len(b), [binascii.crc32(b[i:i + 1024]) for i in range(0, len(b), 1024)]]
                    for n, b in sorted(self.files.items())]
            return (json.dumps({"files": rows, "exported": []}) + "\n").encode()
        return b""

    def fs_readfile(self, path, chunk_size=1024, progress_callback=None):
        data = self.files[path.rsplit("/", 1)[1]]
        if progress_callback:
            progress_callback(len(data), len(data))
        return data

    def exit_raw_repl(self):
        pass


@pytest.fixture
def fake_pico(monkeypatch):
    text = journals.encode_records(journals.synthetic_records(seed=7, length=3)).encode()
    pico = FakePico({"m0001.jnl": text, "m0002.jnl": text})

    @contextlib.contextmanager
    def connect(port=None, **kw):
        yield pico

    monkeypatch.setattr(device, "connect", connect)
    return pico


def test_pull_onto_a_full_disk_says_so_and_keeps_the_pico_running(fake_pico, tmp_path, capsys):
    out = tmp_path / "journals"
    out.mkdir()
    (out / "m0001.jnl").symlink_to("/dev/full")
    status, stdout, err = bgc(capsys, ["pull", "--out", str(out)])
    assert_user_error(status, stdout, err)
    assert "No space left on device" in err
    assert sorted(os.listdir(str(out))) == ["m0001.jnl"]  # no .part, nothing else
    assert fake_pico.restarted  # the game goes on
    assert not any("remove" in code or "exported" in code and "'a'" in code for code in fake_pico.executed)


def test_pull_to_a_folder_holding_a_folder_of_the_journal_name(fake_pico, tmp_path, capsys):
    out = tmp_path / "journals"
    (out / "m0001.jnl").mkdir(parents=True)
    status, stdout, err = bgc(capsys, ["pull", "--out", str(out)])
    assert_user_error(status, stdout, err)
    assert "is a directory" in err


# --- subprocess: what reaches a terminal ----------------------------------------------------------

FSIZE_RUNNER = r"""
import contextlib, resource, signal, sys
signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
from bgc import cli
from bgc.pico import device
from bgc.logs import journals
sys.path.insert(0, sys.argv[1])
import test_cli_bad_input as t
if sys.argv[2] == "pull":
    text = journals.encode_records(journals.synthetic_records(seed=7, length=3)).encode()
    pico = t.FakePico({"m0001.jnl": text})
    device.connect = contextlib.contextmanager(lambda port=None, **kw: (yield pico))
# The disk is full after 2 kB: every file larger than that fails part-way (EFBIG).
resource.setrlimit(resource.RLIMIT_FSIZE, (2048, 2048))
sys.exit(cli.main(sys.argv[3:]))
"""


def run_bgc(args, cwd):
    return subprocess.run([sys.executable, "-m", "bgc"] + args, capture_output=True, text=True, cwd=cwd,
                          timeout=120)


def assert_terminal_error(proc):
    assert "Traceback" not in proc.stderr, proc.stderr
    assert_user_error(proc.returncode, proc.stdout, proc.stderr)


@pytest.mark.parametrize("verb", ["pull", "export"])
def test_a_disk_that_fills_up_mid_write_leaves_no_part_file(verb, inputs, tmp_path):
    out = tmp_path / "out"
    out.mkdir()
    if verb == "pull":
        args = ["pull", "--out", str(out), "--no-restart"]
    else:
        args = ["export", inputs["m0001.jnl"], "-f", "json", "-o", str(out / "m.json")]
    proc = subprocess.run([sys.executable, "-c", FSIZE_RUNNER, os.path.dirname(__file__), verb] + args,
                          capture_output=True, text=True, cwd=str(tmp_path), timeout=120)
    assert_terminal_error(proc)
    assert os.listdir(str(out)) == []


def test_no_traceback_reaches_the_terminal(inputs, tmp_path):
    cases = [
        (["sim", "--script", inputs["undecodable.txt"]], "not UTF-8"),
        (["draw-board", "-o", inputs["folder"]], "it is a directory"),
        (["bench", "--games", "0"], "--games"),
        (["export", inputs["missing"]], "no such journal"),
        (["vpico", "--link", inputs["proc"]], "cannot make the link"),
    ]
    for args, says in cases:
        proc = run_bgc(args, str(tmp_path))
        assert_terminal_error(proc)
        assert says in proc.stderr


# --- replay --boards: the cube as it is ------------------------------------------------------------

def test_replay_boards_draw_the_cube_after_a_take(tmp_path, capsys):
    for seed in range(1, 60):
        recs = journals.synthetic_records(seed, length=0, games=2, p_double=0.3, p_resign=0, p_condone=0)
        if any(r["a"] == "take" for r in recs):
            break
    else:
        raise AssertionError("no take generated")
    path = tmp_path / "m0001.jnl"
    path.write_text(journals.encode_records(recs))
    status, out, err = bgc(capsys, ["replay", "--boards", str(path)])
    assert status == 0, err
    log = journals.load(str(path))
    game = next(g for g in log.games if any(a["a"] == "take" for a in g.actions))
    i = next(i for i, a in enumerate(game.actions) if a["a"] == "take")
    double, take = game.actions[i - 1], game.actions[i]
    assert double["a"] == "double"
    # The first board drawn after the take: the cube at the doubled value, with the taker.
    after = out.split(journals.action_text(log, take), 1)[1]
    board = after.split("Position ID", 1)[0]
    assert "Cube %d with %s" % (double["cube"], log.names[take["p"]]) in board, board
    assert "(Cube: 1)" not in board


@pytest.mark.parametrize("args", [["demo", "--seed", "1"], ["moves", START, "6", "4"]])
def test_standard_output_onto_a_full_disk_is_one_line(args, tmp_path):
    with open("/dev/full", "w") as full:
        proc = subprocess.run([sys.executable, "-m", "bgc"] + args, stdout=full, stderr=subprocess.PIPE,
                              text=True, cwd=str(tmp_path), timeout=120)
    assert_user_error(proc.returncode, "", proc.stderr)
    assert "No space left on device" in proc.stderr
