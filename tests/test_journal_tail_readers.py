"""Issue 33 item 3's journal tail (companion.tail): where the loop moves it, and every reader sees
it. Lines still in the tail when the power is cut (a DONE and the next roll, journaled, shown, not
yet moved into the journal by the loop's quiet step) are in the match the board resumes at
power-up, in what `bgc pull` lists and copies, and in what bgc's journal readers (export, replay,
analyze) read from a copy of the board's folder. On the UNIX port's littlefs (the same littlefs v2
as rp2's, 4 KB blocks, rp2's progsize)."""
import ast
import json
import os

import pytest

from bgc.commands import pull
from bgc.logs import journals
from bgc.pico import upy
from bgc.pico.mpunix import NoMicroPython

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FIRMWARE = os.path.join(ROOT, "firmware")
VIRTUAL = os.path.join(ROOT, "host", "bgc", "board", "virtual")
EVENING = os.path.join(ROOT, "scripts", "reliability", "evening_guest.py")  # main.py's hardware stand-ins

# A 3-point match on a RAM littlefs: the opening roll (moved out of the tail by the quiet step
# after it), White's 8/5 6/5 and Black's roll (left in the tail: the power is cut). Then the board
# powered up again on that flash; then the same flash listed by bgc pull's code on the board.
GUEST = 'import os, vfs\nfrom companion import journal as J, tail\nfrom companion.controller import Companion, ROLL_W, CUBE_W, ROLL_B, CUBE_B, SHORT, LONG\nfrom companion.store import Store\nfrom virtual.frames import ideal_frame\n\nclass Flash:  # a RAM flash of 4 KB blocks (the Pico\'s littlefs geometry)\n    def __init__(self, image):\n        self.data = image\n    def readblocks(self, n, buf, off=0):\n        a = n * 4096 + off\n        data = self.data\n        for i in range(len(buf)):\n            buf[i] = data[a + i]\n    def writeblocks(self, n, buf, off=None):\n        a = n * 4096 + (off or 0)\n        if off is None:\n            self.data[a:a + 4096] = b"\\xff" * 4096\n        for i in range(len(buf)):\n            self.data[a + i] &= buf[i]\n    def ioctl(self, op, arg):\n        if op == 4:\n            return len(self.data) // 4096\n        if op == 5:\n            return 4096\n        if op == 6:\n            self.data[arg * 4096:(arg + 1) * 4096] = b"\\xff" * 4096\n        return 0\n\nimage = bytearray(32 * 4096)\nfor i in range(len(image)):\n    image[i] = 255\nvfs.VfsLfs2.mkfs(Flash(image), progsize=256)\nvfs.mount(vfs.VfsLfs2(Flash(image), progsize=256), "/f")\nos.mkdir("/f/journal")\n\nW = [0] * 26\nB = [0] * 26\nfor p, n in ((24, 2), (13, 5), (8, 3), (6, 5)):\n    W[p] = n\nfor p, n in ((1, 2), (12, 5), (17, 3), (19, 5)):\n    B[p] = n\n\nclass Dice:\n    def roll(self):\n        return 3, 1\n    def first_roll(self):\n        return 3, 1\n\nnow = [0]\nc = Companion(Store("/f/journal"), Dice(), buzzer=False)\nc.boot(ideal_frame(W, B), 0)\ndef frame():\n    now[0] += 30\n    c.on_frame(ideal_frame(W, B), now[0])\ndef press(b, kind=SHORT):\n    now[0] += 100\n    c.on_button(b, kind, now[0])\nc.on_line("new length=3", 0)\nframe()\npress(ROLL_W)  # the opening roll: White\'s 3-1\ntail.flush(c.journal, True)  # the loop\'s quiet step after it (main.App.step)\nW[8] -= 1; W[5] += 1; frame()\nW[6] -= 1; W[5] += 1; frame()\npress(ROLL_W)  # DONE: 8/5 6/5\npress(ROLL_B)  # Black rolls\n# the power is cut here: nothing moved the last lines out of the tail\ndef read(name):\n    f = open(name, "rb")\n    try:\n        return f.read()\n    finally:\n        f.close()\npath = c.journal.path\nfolder = path[:-3] + "tail"\nprint("FILES", repr((path[path.rfind("/") + 1:], read(path), [(n, read(folder + "/" + n)) for n in os.listdir(folder)])))\nbefore = (c.phase, c.match.position_id(), c.match.on_roll, list(c.match.dice))\ncut = bytearray(image)  # the flash as the cut left it\nvfs.umount("/f")\nc = None\n\nvfs.mount(vfs.VfsLfs2(Flash(image), progsize=256), "/f")  # power back\nc = Companion(Store("/f/journal"), Dice(), buzzer=False)\nc.boot(ideal_frame(W, B), now[0])\nprint("RESUMED", repr((before, (c.phase, c.match.position_id(), c.match.on_roll, list(c.match.dice)), read(path),\n                       sorted(os.listdir("/f/journal")))))\nvfs.umount("/f")\n\nimage[:] = cut  # the same cut, then the board pulled before its firmware ran (bgc pull\'s listing)\nvfs.mount(vfs.VfsLfs2(Flash(image), progsize=256), "/f")\n'


@pytest.fixture(scope="module")
def cut_board():
    code = GUEST + pull._LIST % {"dir": "/f/journal", "exported": "/f/journal/exported", "chunk": pull.CHUNK}
    try:
        out = upy.run(code, sources=[FIRMWARE, VIRTUAL], heap_kb=600)
    except NoMicroPython as exc:
        pytest.skip(str(exc))
    files = ast.literal_eval(out.split("FILES ", 1)[1].split("\n", 1)[0])
    resumed = ast.literal_eval(out.split("RESUMED ", 1)[1].split("\n", 1)[0])
    listing = out.strip().splitlines()[-1]
    name, data, tails = files
    # the case checked: the play and the roll were in the tail, not in the journal file
    assert tails and b'"play"' in b"".join(t for _, t in tails) and b'"play"' not in data, files
    return files, resumed, listing


def test_power_up_with_lines_in_the_tail_resumes_at_the_last_action(cut_board):
    """Rule (design principle 5, "journaled, then shown"; docs/formats.md, the journal's tail): an
    action shown to the players survives a power cut. Power-up resumes Black's turn with the 3-1
    rolled, after White's 8/5 6/5, both only in the tail at the cut; the tail is moved into the
    journal and its folder is gone."""
    _, (before, after, journal, folder), _ = cut_board
    assert after == before == ("moving", after[1], 1, [3, 1])
    assert journal.count(b"\n") == 4 and b'"a": "roll"' in journal.split(b"\n")[3]
    assert folder == ["m0001.jnl"]


def test_bgc_pull_copies_the_lines_still_in_a_tail(cut_board):
    """Rule: `bgc pull` copies every journaled action. On a board cut off before its loop moved
    the tail (its firmware not yet started), the listing bgc pull takes sizes and checks each
    journal with its tail's lines moved into it on the board, by the firmware's own code."""
    _, (_, _, journal, _), listing = cut_board
    got = json.loads(listing)
    assert got["files"] == [["m0001.jnl", len(journal), pull.chunk_crcs(journal)]]
    assert got["unmoved"] == []


def test_bgc_reads_a_copied_folder_with_its_tail(cut_board, tmp_path):
    """Rule: bgc's journal readers (export, replay, analyze: bgc.logs.journals) read every line
    of a copy of the board's folder taken with lines still in a tail (m0001.tail/OFFSET beside
    m0001.jnl): the same records as the journal the board makes of them at power-up."""
    (name, data, tails), (_, _, journal, _), _ = cut_board
    (tmp_path / name).write_bytes(data)
    (tmp_path / "m0001.tail").mkdir()
    for offset, text in tails:
        (tmp_path / "m0001.tail" / offset).write_bytes(text)
    path = str(tmp_path / name)
    assert journals.read_data(path) == journal
    log = journals.load(path)
    assert log.problem is None and log.records == 4
    assert [(a["a"], a["notation"]) for a in log.games[0].actions] == [("move", "8/5 6/5")]


# main.App's loop steps on the same RAM littlefs, nothing touched on the board between the answers:
# where the loop moves the tail (docs/performance.md, "Where the move runs").
SCHEDULE_GUEST = 'import os, sys, vfs\nimport evening_guest  # machine and neopixel stand-ins, so that main.py imports\nimport main\nfrom companion.controller import Companion, ROLL_W, ROLL_B, SHORT\nfrom companion.store import Store\nfrom virtual.frames import ideal_frame\n\nclass Flash:  # a RAM flash of 4 KB blocks (the Pico\'s littlefs geometry)\n    def __init__(self, image):\n        self.data = image\n    def readblocks(self, n, buf, off=0):\n        a = n * 4096 + off\n        data = self.data\n        for i in range(len(buf)):\n            buf[i] = data[a + i]\n    def writeblocks(self, n, buf, off=None):\n        a = n * 4096 + (off or 0)\n        if off is None:\n            self.data[a:a + 4096] = b"\\xff" * 4096\n        for i in range(len(buf)):\n            self.data[a + i] &= buf[i]\n    def ioctl(self, op, arg):\n        if op == 4:\n            return len(self.data) // 4096\n        if op == 5:\n            return 4096\n        if op == 6:\n            self.data[arg * 4096:(arg + 1) * 4096] = b"\\xff" * 4096\n        return 0\n\nimage = bytearray(32 * 4096)\nfor i in range(len(image)):\n    image[i] = 255\nvfs.VfsLfs2.mkfs(Flash(image), progsize=256)\nvfs.mount(vfs.VfsLfs2(Flash(image), progsize=256), "/f")\nos.mkdir("/f/journal")\n\nW = [0] * 26\nB = [0] * 26\nfor p, n in ((24, 2), (13, 5), (8, 3), (6, 5)):\n    W[p] = n\nfor p, n in ((1, 2), (12, 5), (17, 3), (19, 5)):\n    B[p] = n\n\nclass Dice:\n    def roll(self):\n        return 3, 1\n    def first_roll(self):\n        return 3, 1\n\nclass Still:  # the scanner and classifier of a board nobody touches: every step is quiet\n    state = None\n    def scan(self):\n        return None\n    def update(self, raw):\n        return False\n    def settled(self):\n        return True\n    def refresh_baseline(self, raw, empty):\n        pass\n\nclass Hands:  # buttons: nothing pressed in a loop step (presses go to the companion directly)\n    def poll(self, now):\n        return 0\n\nclass Leds:\n    def set(self, i, c):\n        pass\n    def show(self):\n        pass\n\nclass Screen:  # rows drawn, some sent in the steps after (drivers.oled.Oled\'s dirty pages)\n    dirty = 0\n    rest = 0  # the rows a new screen leaves to the next steps\n    def lines(self, rows, inverse_row=-1, pages=8):\n        self.dirty = self.rest\n    def flush(self, pages):  # one row a step here\n        self.dirty &= self.dirty - 1\n\nnow = [0]\nc = Companion(Store("/f/journal"), Dice(), buzzer=False)\nstill = Still()\nscreen = Screen()\napp = main.App(c, still, still, Hands(), Leds(), screen, None, None)\nc.boot(ideal_frame(W, B), 0)\nstill.state = c.frame\napp.booted = True\n\ndef steps(n):\n    for _ in range(n):\n        now[0] += 10\n        app.step(now[0])\n\ndef tail():  # the lines waiting in the journal\'s tail\n    path = c.journal.path\n    try:\n        names = os.listdir(path[:-3] + "tail")\n    except OSError:\n        return 0\n    n = 0\n    for name in names:\n        f = open(path[:-3] + "tail/" + name)\n        n += f.read().count("\\n")\n        f.close()\n    return n\n\ndef frame():\n    now[0] += 30\n    c.on_frame(ideal_frame(W, B), now[0])\n\ndef press(b):\n    now[0] += 100\n    c.on_button(b, SHORT, now[0])\n\nseen = []\nc.on_line("new length=3", now[0])\nframe()\nsteps(5)  # the new match\'s journal: its first lines in its file, the tail\'s folder made\npress(ROLL_W)  # the opening roll: White\'s 3-1\nsteps(30)  # the players look at the board: these steps prepare, the roll\'s line waits\nseen.append(("after the roll", c.phase, tail()))\nW[8] -= 1; W[5] += 1; frame()\nW[6] -= 1; W[5] += 1; frame()\npress(ROLL_W)  # DONE (its screen drawn in the next step)\nseen.append(("DONE answered", c.phase, tail()))\nscreen.rest = 6  # DONE\'s screen leaves two rows to the steps after: the move waits for the last\nsteps(2)\nseen.append(("screen", c.phase, tail()))\nsteps(1)  # (the last row sent, then the move)\nscreen.rest = 0\nseen.append(("after DONE", c.phase, tail()))\npress(ROLL_B)\nsteps(30)\nseen.append(("after Black\'s roll", c.phase, tail()))\nprint("SEEN", repr(seen))\n'


def test_the_tail_is_moved_after_done_never_between_a_roll_and_its_done():
    """Rule (issue 33 item 3 and item 1): "never wait for an erase in an answer", and the quiet steps
    between the roll and the first lift prepare the turn's answers. The loop's move of the tail
    (1-3 flash erases, up to 200 ms) comes in the first quiet step after DONE once the screen's last
    rows are sent; after a roll the roll's line waits in the tail through 30 quiet steps."""
    try:
        out = upy.run(SCHEDULE_GUEST, sources=[FIRMWARE, VIRTUAL, EVENING], heap_kb=600)
    except NoMicroPython as exc:
        pytest.skip(str(exc))
    seen = ast.literal_eval(out.split("SEEN ", 1)[1].strip())
    assert seen == [("after the roll", "moving", 1), ("DONE answered", "roll", 2), ("screen", "roll", 2),
                    ("after DONE", "roll", 0), ("after Black's roll", "moving", 1)], seen
