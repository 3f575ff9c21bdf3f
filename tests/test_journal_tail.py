"""Issue 33 item 3: no flash erase in an answer. On the Pico's littlefs a line appended to the
journal copies the file's last block into a newly erased 4 KB sector (45 ms typical, 400 ms at
most on the W25Q16JV) in every answer that journals; the line now goes to the journal's tail (a
small file kept in its folder's metadata, companion.tail) and is moved into the journal in a loop
step that answers nothing. Checked on the emulated Pico (rp2040js, the W25Q16JV's erase and
program counted by xip_run.mjs) and, for the power cuts, on the UNIX port's own littlefs (the
same littlefs v2 as rp2's, rp2's progsize) with the flash cut off between any two block writes."""
import ast
import os
import shutil
import sys

import pytest

from bgc.pico import upy
from bgc.pico.mpunix import NoMicroPython

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "scripts", "bench"))

import bench_pico  # noqa: E402

FIRMWARE = os.path.join(ROOT, "firmware")
ERASE_MS = 1000  # an erase made to take a second of the board's clock, so that one shows in any append
APPENDS = 20

# 20 play records appended as a match does, each followed by the loop's next quiet step (main.App:
# companion.tail.flush); each append and each flush timed on the board's clock. (On a firmware
# without the tail, the appends alone.)
APPEND_GUEST = r"""
import os, sys, time
sys.path.insert(0, "/lib")
from companion import journal as J
try:
    from companion import tail
except ImportError:
    tail = None
try:
    os.mkdir("/journal")
except OSError:
    pass
j = J.Journal("/journal/m0001.jnl")
rec = {"a": "play", "p": 0, "dice": [3, 1], "steps": [[8, 5, 0], [6, 5, 0]], "pos": "4HPwATDgc/ABMA"}
appends = []
flushes = []
for i in range(N):
    rec["n"] = i
    t = time.ticks_ms()
    j.append(rec)
    appends.append(time.ticks_diff(time.ticks_ms(), t))
    t = time.ticks_ms()
    if tail is not None:
        tail.flush(j, True)
    flushes.append(time.ticks_diff(time.ticks_ms(), t))
if tail is not None:
    tail.flush(j, False)  # as at Ctrl-C: every line in the file
f = open("/journal/m0001.jnl")
records, problem = J.parse(f.read())
f.close()
print("TIMES", (appends, flushes))
print("READ", ([r["n"] for r in records], problem, sorted(os.listdir("/journal"))))
"""


def _need_emulator():
    if not shutil.which("node") or not shutil.which("npm"):
        pytest.skip("node/npm not installed (sh scripts/install_test_tools.sh)")
    if not os.path.isfile(os.path.join(bench_pico.SHARED_EMU, "xip_run.mjs")) and "BGC_RP2EMU" not in os.environ:
        pytest.skip("no emulated Pico with flash times: ../shared/tools/rp2emu/xip_run.mjs is not present")


def test_no_journal_append_waits_for_a_flash_erase_on_the_emulated_pico(monkeypatch):
    """Rule (issue 33): "never wait for an erase in an answer". Twenty play records appended on the
    Pico's littlefs, the loop's quiet step after each: no append erases (each takes well under
    the second an erase is made to take here), the erases come in the quiet steps, and the
    journal file then holds the twenty records in order, the tail's folder gone."""
    _need_emulator()
    tree = bench_pico.compile_tree(os.path.join(bench_pico.CACHE, "pico_mpy_tail_test"))
    monkeypatch.setattr(bench_pico, "DEVICE_ARGS", ("--flash-erase-ms", str(ERASE_MS), "--flash-page-ms", "0"))
    try:
        out, _ = bench_pico.emulate([("tail", "N = %d\n" % APPENDS + APPEND_GUEST)], flash_in=bench_pico.flash_holding(tree),
                                    xip=True, device=True, max_emu_s=300, timeout=900)
    except bench_pico.BenchError as exc:
        if "no emulator" in str(exc) or "npm" in str(exc):
            pytest.skip(str(exc))
        raise
    appends, flushes = bench_pico.results(out, "TIMES")[0]
    numbers, problem, names = bench_pico.results(out, "READ")[0]
    assert max(appends) < ERASE_MS / 10, "appends that waited for an erase (ms): %s" % appends
    assert sum(flushes) >= ERASE_MS * APPENDS, "the erases were expected in the quiet steps: %s" % flushes
    assert numbers == list(range(APPENDS)) and problem is None, (numbers, problem)
    assert names == ["m0001.jnl"], names


# The flash cut off after a given number of block writes (programs and erases) while a match's
# records are appended, each append followed by a quiet step's flush; then the flash as it was
# left is mounted again and read as the power-up does (companion.booting: the tail moved into the
# journal first). Every record whose append returned must be there once, in order, and nothing
# else but possibly the record whose append was cut.
POWER_GUEST = r"""
import os, vfs
from companion import journal as J, tail

class Cut(Exception):
    pass

class Flash:  # a RAM flash of 4 KB blocks, the power cut after ``budget`` programs and erases
    def __init__(self, image):
        self.data = image
        self.budget = -1
    def readblocks(self, n, buf, off=0):
        # no allocation: littlefs may read from a finaliser, with the heap locked
        a = n * 4096 + off
        data = self.data
        for i in range(len(buf)):
            buf[i] = data[a + i]
    def _spend(self):
        if self.budget == 0:
            raise Cut()
        self.budget -= 1
    def writeblocks(self, n, buf, off=None):
        self._spend()
        a = n * 4096 + (off or 0)
        if off is None:
            self.data[a:a + 4096] = b"\xff" * 4096
        for i in range(len(buf)):  # NOR: programming only clears bits
            self.data[a + i] &= buf[i]
    def ioctl(self, op, arg):
        if op == 4:
            return len(self.data) // 4096
        if op == 5:
            return 4096
        if op == 6:
            self._spend()
            self.data[arg * 4096:(arg + 1) * 4096] = b"\xff" * 4096
            return 0
        return 0

def mount(image):
    bdev = Flash(image)
    vfs.mount(vfs.VfsLfs2(bdev, progsize=256), "/f")
    return bdev

image = bytearray(b"\xff" * (16 * 4096))  # 16 blocks: the folders and the journal fit
vfs.VfsLfs2.mkfs(Flash(image), progsize=256)
mount(image)
os.mkdir("/f/journal")
vfs.umount("/f")
PATH = "/f/journal/m0001.jnl"
results = []
disk = bytearray(len(image))
for budget in range(0, CUTS):
    disk[:] = image
    bdev = mount(disk)
    bdev.budget = budget
    j = J.Journal(PATH)
    done = 0
    cut = False
    try:
        for i in range(RECORDS):
            j.append({"a": "note", "n": i, "text": "x" * (i % 7 * 9)})
            done = i + 1
            tail.flush(j, True)
    except Cut:
        cut = True
    try:
        vfs.umount("/f")
    except (OSError, Cut):
        pass
    bdev.budget = 0  # the power is off: nothing of that session writes any more (finalisers)
    bdev = mount(disk)  # power back: the flash as the cut left it
    tail.flush(J.Journal(PATH), False)
    try:
        f = open(PATH)
        records, problem = J.parse(f.read())
        f.close()
    except OSError:
        records, problem = [], None
    left = [n for n in os.listdir("/f/journal") if n != "m0001.jnl"]
    vfs.umount("/f")
    bdev.budget = 0
    results.append((budget, cut, done, [r["n"] for r in records], problem, left))
print("CUTS", results)
"""


@pytest.mark.micropython
def test_a_power_cut_anywhere_in_appends_and_flushes_keeps_every_record_once():
    """Rule (design principle 5, "journaled, then shown"): once an append returns its record
    survives a power cut, wherever the cut falls: in a line written to the tail, in the copy of
    the tail into the journal, between that copy and the tail's removal, or in the folder made
    anew. At the next power-up every returned record is in the journal once, in order; the one
    being written when the cut came is there whole or not at all; no tail is left."""
    try:
        out = upy.run("CUTS = 400\nRECORDS = 12\n" + POWER_GUEST, sources=[FIRMWARE], heap_kb=400, timeout=900)
    except NoMicroPython as exc:
        pytest.skip(str(exc))
    results = [tuple(r) for r in ast.literal_eval(out.split("CUTS ", 1)[1].strip())]
    assert any(not cut for _, cut, _, _, _, _ in results), "400 block writes were expected to be enough for 12 records"
    assert sum(1 for _, cut, _, _, _, _ in results if cut) > 100, results
    for budget, cut, done, numbers, problem, left in results:
        expected = list(range(done))
        assert problem is None, (budget, problem)
        assert numbers in (expected, expected + [done]), (budget, done, numbers)
        assert left == [], (budget, left)
