"""Issue 22, a board that plays all evening, under MicroPython (the Pico's interpreter): what one
power-on of many matches must not keep (a variant's code, the reader a failed write loads), a
flash that littlefs reports fuller than it is, a failed write in a long chouette with a
fragmented heap, and a short version of the long-evening run (scripts/reliability/reliability_evening.py,
docs/reliability.md): the firmware's own loop from .mpy on a Pico-sized heap and littlefs volume."""
import os
import sys

import pytest

from bgc.pico import mpunix, upy
from bgc.pico.mpunix import NoMicroPython

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SCRIPTS = os.path.join(ROOT, "scripts", "reliability")
GUEST = os.path.join(SCRIPTS, "evening_guest.py")
VIRTUAL = os.path.join(ROOT, "host", "bgc", "board", "virtual")
FIRMWARE = os.path.join(ROOT, "firmware")

# The companion with main.App's collection, driven with ideal frames and button presses (no
# physics): what a board keeps between matches. evening_guest puts its machine/neopixel stand-ins
# into sys.modules so that main.py imports.
BOARD = r"""
import gc, sys, micropython
import evening_guest
import main
from companion.controller import Companion, ROLL_W, CUBE_W, ROLL_B, CUBE_B, SHORT, LONG
from companion.store import Store
from virtual.frames import ideal_frame

W = [0] * 26
B = [0] * 26
for p, n in ((24, 2), (13, 5), (8, 3), (6, 5)):
    W[p] = n
for p, n in ((1, 2), (12, 5), (17, 3), (19, 5)):
    B[p] = n

class Dice:
    def roll(self):
        return 3, 1
    def first_roll(self):
        return 3, 1

c = Companion(Store(JDIR), Dice(), buzzer=False)
app = main.App(c, None, None, None, None, None, None, None)
now = [0]

def frame():
    now[0] += 30
    c.on_frame(ideal_frame(W, B), now[0])

def press(b, kind=SHORT):
    now[0] += 100
    c.on_button(b, kind, now[0])

def play_match(variant):
    # opened, the board set up, White resigns a single game at the opening: the match is over;
    # ROLL goes back to the new-match menu
    c.on_line("new length=1 variant=%s" % variant, now[0])
    frame()
    press(CUBE_W, LONG)
    press(ROLL_W)
    press(ROLL_B)
    assert c.phase == "matchover", (variant, c.phase, c.msg)
    press(ROLL_W)
    assert c.phase == "setup", c.phase

c.boot(ideal_frame(W, B), 0)
c.fx.out = []
"""

VARIANT_CODE = BOARD + r"""
def measure(tag):
    c.fx.out = []
    app.collect()
    print(tag, gc.mem_free(), " ".join(sorted(n for n in sys.modules if n.startswith("bgrules.variants")
                                               or n in ("bgrules.turn_parts", "bgrules.match_read",
                                                        "bgrules.matchid_read"))))
    micropython.qstr_info()

play_match("standard")
measure("standard")
play_match("backwards")
measure("backwards")
play_match("freechoice")
measure("freechoice")
play_match("standard")
measure("standard2")

# a flash write that fails: the action is undone from the Match's snapshot (bgrules.match_read)
c.on_line("new length=1", now[0])
frame()
press(ROLL_W)  # the opening roll: White 3-1
class Full:
    path = c.journal.path
    def append(self, record):
        raise OSError(28)
good = c.journal
c.journal = Full()
press(CUBE_W, LONG)
press(ROLL_W)  # the resignation offer cannot be journaled
print("refused", c.msg)
c.journal = good
measure("failed")
"""


def _figures(out):
    rows = {}
    qstr = None
    for line in out.splitlines():
        if line.startswith("qstr pool:"):
            qstr = int(line.rsplit("n_total_bytes=", 1)[1])
            rows[last]["qstr"] = qstr
            continue
        w = line.split()
        if w and w[0] in ("standard", "backwards", "freechoice", "standard2", "failed"):
            last = w[0]
            rows[last] = {"free": int(w[1]), "modules": w[2:]}
    return rows


def _run(code, heap_kb):
    code = code.replace("JDIR", repr("journal"))
    try:
        return upy.run(code, sources=[FIRMWARE, VIRTUAL, GUEST], heap_kb=heap_kb)
    except NoMicroPython as exc:
        pytest.skip(str(exc))


@pytest.fixture(scope="module")
def evening_of_variants():
    # compiled from source, which takes far more heap than the .mpy a Pico runs (the figures
    # compared are differences)
    return _run(VARIANT_CODE, 400)


@pytest.mark.micropython
def test_a_variants_code_goes_when_its_match_is_over_and_the_heap_comes_back(evening_of_variants):
    """A club evening plays one variant after another: after each match (at the new-match menu,
    after main.App's collection) nothing of the variant stays loaded, and the free heap is where
    it was after the first match, within 2 KB once the interned names are counted apart."""
    rows = _figures(evening_of_variants)
    scale = upy.heap_scale()
    base = rows["standard"]
    for tag in ("backwards", "freechoice", "standard2"):
        r = rows[tag]
        assert r["modules"] == [], "%s: still loaded after its match: %s" % (tag, r["modules"])
        drift = base["free"] - r["free"] - (r["qstr"] - base["qstr"])
        assert drift <= 2048 * scale, "%s: %d B less free than after the first match (qstr apart)" % (tag, drift)


@pytest.mark.micropython
def test_the_reader_a_failed_write_loads_goes_at_the_next_collection(evening_of_variants):
    """After an action whose journal write failed is undone (bgrules.match_read rebuilds the
    Match), the reader does not stay in the heap for the rest of the evening."""
    out = evening_of_variants
    assert "refused Flash write failed" in out
    rows = _figures(out)
    assert rows["failed"]["modules"] == [], rows["failed"]["modules"]


# A Pico-sized littlefs volume (352 blocks of 4 KB, rp2's progsize) on the UNIX port's VfsLfs2,
# filled to the brim with another file and old logs, some exported by bgc pull.
FULL_FLASH = BOARD.replace("c = Companion(", "SETUP_FLASH()\nc = Companion(") + r"""
def fill(name, leave=0):
    # other files on the flash, written until the flash refuses one (littlefs drops a file whose
    # write failed: smaller and smaller ones fill what is left), or until ``leave`` bytes are left
    n = 0
    for size in (65536, 4096, 256):
        while True:
            st = os.statvfs("/flash")
            if leave and st[0] * st[3] - size < leave:
                break
            n += 1
            try:
                evening_guest.write_file("/flash/%s.%d" % (name, n), size)
            except OSError:
                break

def journal_lines():
    # the journal's lines, its tail's included (companion.tail: m0001.tail/OFFSET, not yet moved
    # into m0001.jnl: this harness has no quiet loop steps)
    p = c.journal.path
    text = open(p).read()
    try:
        offsets = sorted(int(n) for n in os.listdir(p[:-3] + "tail"))
    except OSError:
        offsets = []
    for n in offsets:
        text += open("%stail/%d" % (p[:-3], n)).read()
    return len(text.split(chr(10)))

def notes():
    out = [l for l in c.fx.out if '"note"' in l]
    c.fx.out = []
    return out

fill("photos")
st = os.statvfs("/flash")
print("littlefs free blocks", st[3], "of", st[2])
from companion import flash_room
print("store free", flash_room.space(c.store)[0])
c.fx.out = []
c.on_line("new length=1 force=1", now[0])  # the last old log, unfinished, was resumed at power-up
print("new", c.name, "|", c.phase, "|", len(notes()))
frame()
fill("photos2")
# the flash is full again: resignations offered and refused, each journaled, until the journal's
# last block is full and a write needs a new one
refused = removed = 0
for i in range(80):
    press(CUBE_W, LONG)
    press(ROLL_W)  # the offer
    if c.msg == "Flash write failed":
        refused += 1
        break
    press(CUBE_B)  # refused
    if c.msg == "Flash write failed":
        refused += 1
        break
    removed += len([n for n in notes() if "removed exported" in n])
    if removed:
        break
print("full", refused, "|", removed, "|", c.phase)
press(CUBE_W, LONG)
press(ROLL_W)
press(ROLL_B)  # accepted: the match is over
press(ROLL_W)
# no log exported any more, about 40 KB left: the next match is told the flash is low
os.remove("/flash/journal/exported")
for n in os.listdir("/flash"):
    if n.startswith("photos2"):
        os.remove("/flash/" + n)
fill("photos3", leave=40 * 1024)
c.on_line("new length=1", now[0])
print("low", c.name, "|", c.msg)
frame()
print("ready", c.phase, "|", c.msg, "|", c.fx.screen[1])
# the flash full to the brim and nothing exported: offers to resign, refused, until one cannot
# be written
fill("photos4")
# (which write finds no room, the offer's or the refusal's, depends on where littlefs keeps the
# lines: the file, or its tail's folder, companion.tail)
for i in range(200):
    press(CUBE_W, LONG)
    before = (c.phase, journal_lines(), "offer")
    press(ROLL_W)
    if c.msg == "Flash write failed":
        break
    before = (c.phase, journal_lines(), "refusal")
    press(CUBE_B)
    if c.msg == "Flash write failed":
        break
print("refused", c.phase, "|", c.msg, "|", c.match.dice[0], "|", journal_lines() - before[1], "|", before[0], "|",
      before[2])
"""

SETUP_FLASH = r"""
import os, vfs
from companion import journal as J

def SETUP_FLASH():
    f = open("flash.img", "wb")
    block = bytearray(b"\xff" * 4096)
    for i in range(352):
        f.write(block)
    f.close()
    bdev = evening_guest.FileFlash("flash.img")
    vfs.VfsLfs2.mkfs(bdev, progsize=256)
    vfs.mount(vfs.VfsLfs2(bdev, progsize=256), "/flash")
    os.mkdir("/flash/journal")
    head = J.encode(J.settings_record())
    for i in range(1, 36):
        f = open("/flash/journal/m%04d.jnl" % i, "w")
        f.write(head)
        f.write(J.encode({"a": "note", "text": "x" * 900}) * 8)
        f.close()
    f = open("/flash/journal/exported", "w")
    for i in range(1, 31):
        f.write("m%04d.jnl\n" % i)
    f.close()
"""


@pytest.fixture(scope="module")
def full_flash():
    code = SETUP_FLASH + FULL_FLASH.replace("JDIR", repr("/flash/journal"))
    try:
        return upy.run(code, sources=[FIRMWARE, VIRTUAL, GUEST], heap_kb=400)
    except NoMicroPython as exc:
        pytest.skip(str(exc))


@pytest.mark.micropython
def test_flash_write_failed_when_nothing_is_left_to_remove_leaves_the_match_as_it_was(full_flash):
    """A full flash and no exported log: an offer to resign or its refusal, whichever write finds
    no room, is refused with "Flash write failed", the match stays where it was before that
    action (the opening roll still to come), and the journal holds every action done before it
    and nothing of the refused one."""
    phase, msg, die, extra, phase_before, action = _line(full_flash, "refused")
    assert action in ("offer", "refusal"), full_flash
    assert phase == phase_before and msg == "Flash write failed" and die == "0" and extra == "0", full_flash
    assert phase == ("opening" if action == "offer" else "resign"), full_flash


def _line(out, key):
    return [line for line in out.splitlines() if line.startswith(key + " ")][0][len(key) + 1:].split(" | ")


@pytest.mark.micropython
def test_a_flash_littlefs_counts_over_full_reads_as_full_and_exported_logs_make_room(full_flash):
    """Near full, littlefs counts more blocks in use than the volume has: the store reads that
    as no room (0), not as "cannot tell", and the new match removes exported logs and starts."""
    out = full_flash
    assert int(_line(out, "store free")[0]) == 0, out
    name, phase, removed = _line(out, "new")
    assert name == "m0036.jnl" and phase == "opening" and int(removed) > 0, out


@pytest.mark.micropython
def test_a_full_flash_never_refuses_an_action_while_an_exported_log_is_there(full_flash):
    """The flash fills in the middle of a match: the write that finds no room removes an exported
    log (the host has it) and goes through; the players never see "Flash write failed"."""
    refused, removed, phase = _line(full_flash, "full")
    assert int(refused) == 0 and int(removed) == 1 and phase == "opening", full_flash


@pytest.mark.micropython
def test_flash_low_is_shown_before_the_last_tenth_goes(full_flash):
    """About 40 KB (3 %) left and no exported log to remove: the new match says so at once, and
    again where "Board ready" would be once the checkers are set out."""
    name, msg = _line(full_flash, "low")
    assert name == "m0037.jnl" and msg.startswith("Flash low"), full_flash
    phase, msg, line = _line(full_flash, "ready")
    # once the board is set up, "Flash low" stays in place of "Board ready"
    assert phase == "opening" and "Flash low" in msg, full_flash


# littlefs over-full on a Pico-sized volume: the journal's 35 logs, then other files until the
# flash refuses one. statvfs then reports block_count - used in unsigned 32-bit arithmetic.
OVERFULL = r"""
import os, vfs
import evening_guest
from companion.store import Store
from companion import flash_room

f = open("flash.img", "wb")
block = bytearray(b"\xff" * 4096)
for i in range(352):
    f.write(block)
f.close()
bdev = evening_guest.FileFlash("flash.img")
vfs.VfsLfs2.mkfs(bdev, progsize=256)
vfs.mount(vfs.VfsLfs2(bdev, progsize=256), "/flash")
os.mkdir("/flash/journal")
for i in range(1, 36):
    evening_guest.write_file("/flash/journal/m%04d.jnl" % i, 7300)
n = 0
for size in (65536, 4096, 256):
    while True:
        n += 1
        try:
            evening_guest.write_file("/flash/f%d" % n, size)
        except OSError:
            break
st = os.statvfs("/flash")
store = Store("/flash/journal")
print("raw", st[3], st[2])
print("store", flash_room.space(store)[0], flash_room.low(store), flash_room.low_mark(store))
"""


@pytest.mark.micropython
@pytest.mark.parametrize("bits", [32, 64])
def test_an_over_full_littlefs_is_0_free_on_either_word_size(bits):
    """littlefs counting more blocks in use than the volume has reads as 0 free bytes (the flash
    is full and low), on a 32-bit port like the Pico, where statvfs's unsigned difference reads
    as a negative count, and on a 64-bit port, where it reads as about 4.3 billion free blocks."""
    try:
        argv = mpunix.find_word_size(bits == 32)
    except NoMicroPython as exc:
        pytest.skip(str(exc))
    out = upy.run(OVERFULL, sources=[FIRMWARE, GUEST], heap_kb=400, interpreter_argv=argv)
    raw_free, blocks = (int(w) for w in _line(out, "raw")[0].split())
    # the condition itself: statvfs's free count outside 0..blocks
    assert blocks == 352 and (raw_free > blocks if bits == 64 else raw_free < 0), out
    free, low, low_mark = _line(out, "store")[0].split()
    assert (int(free), low, int(low_mark)) == (0, "True", 352 * 4096 // 10), out


CHOUETTE_FRAGMENTED = BOARD + r"""
import os
from companion import journal as J
c.on_line("chouette names=Anna,Bruno,Carla", now[0])
path = c.journal.path
# a long evening's journal (about 36 KB: what hours of a chouette write)
f = open(path, "a")
for i in range(40):
    f.write(J.encode({"a": "note", "text": "x" * 850}))
f.close()
print("journal", os.stat(path)[6])

class Full(J.Journal):  # the flash refuses the next write
    def append(self, record):
        raise OSError(28)

c.journal = Full(path)
# a heap after hours of play: free memory in pieces of 3 KB at most
gc.collect()
blocks = []
try:
    while True:
        blocks.append(bytearray(3000))
except MemoryError:
    pass
for i in range(0, len(blocks), 2):
    blocks[i] = None
gc.collect()
micropython.mem_info()
press(ROLL_W)  # Anna rolls for her seat: the write fails, the evening is read back as it was
print("after", c.phase, "|", c.msg, "|", c.chouette.to_roll(), "|", len(c.chouette.players))
"""


@pytest.mark.micropython
def test_a_failed_write_in_a_long_chouette_reads_the_journal_back_line_by_line():
    """The chouette undoes an action whose write failed by reading its journal back: a line at a
    time, so a journal larger than any free block of a fragmented heap is no MemoryError."""
    code = CHOUETTE_FRAGMENTED.replace("JDIR", repr("journal"))
    try:
        out = upy.run(code, sources=[FIRMWARE, VIRTUAL, GUEST], heap_kb=400)
    except NoMicroPython as exc:
        pytest.skip(str(exc))
    size = int(out.split("journal ")[1].split()[0])
    largest = int(out.split("max free sz: ")[1].split()[0]) * (16 if upy.heap_scale() == 1 else 32)
    assert size > 2 * largest, out  # the journal does not fit in the largest free block
    phase, msg, to_roll, members = out.split("after ")[1].strip().split(" | ")
    assert phase == "seating" and msg == "Flash write failed" and to_roll == "Anna" and members == "3", out


def _evening_run():
    """scripts/reliability/reliability_evening.py as a module (skips without the 32-bit MicroPython)."""
    sys.path.insert(0, SCRIPTS)
    try:
        import reliability_evening as R
    finally:
        sys.path.remove(SCRIPTS)
    try:
        from bgc.pico.mpunix import find_micropython

        if not find_micropython(True)[1]:
            pytest.skip("needs the 32-bit MicroPython of ../shared/tools (Pico-sized objects)")
    except NoMicroPython as exc:
        pytest.skip(str(exc))
    return R


@pytest.mark.micropython
def test_the_evenings_players_read_what_the_firmware_shows_on_the_boards_oled():
    """The long-evening run's players read the OLED of the virtual board, as in bgc sim: the
    firmware in the MicroPython guest sends its screens up the pipe, and they must be drawn on
    that panel. Left blank, a "Which play?" (six checkers on a point of five cells: 6-1 played
    5/off 1/off or 5/4/off) was answered with ROLL, unread: the board took the first play shown,
    counted a checker the hand had borne off, and refused a later legal bear-off with "Checker
    in hand: put it down" (8 false flags in the 40-match run, docs/reliability.md)."""
    from bgc.board.sim import oled_rows

    R = _evening_run()
    ev = R.Evening(1, 240, 1, plan=["standard"], quiet=True, fill=False)
    try:
        sim = ev.sim
        sim.run_ms(300)  # power-up: the menu
        sim.serial.send("new length=1 force=1")
        assert sim.run_until(lambda s: (s.status() or {}).get("phase") == "opening", 5000)
        sim.app.guest.flush()
        shown = [r.rstrip() for r in ev.guest.screen]
        assert any(shown), ev.guest.screen
        assert oled_rows(sim.board) == shown + [""] * (8 - len(shown))
    finally:
        ev.close()


@pytest.mark.micropython
def test_a_short_evening_from_mpy_on_a_pico_heap_and_littlefs_holds_the_targets():
    """scripts/reliability/reliability_evening.py in short: two variant matches in one power-on, the
    firmware's own loop from .mpy on the 32-bit MicroPython with a 240 KB heap and a Pico-sized
    littlefs volume full of old logs; the flash is filled to its last blocks in the middle of the
    second match. The heap after the second match is within 2 KB of the first's (interned names
    apart), the largest free block stays over 10 KB, no write is refused while an exported log is
    on the flash (one is removed instead), and Flash low is never missed."""
    R = _evening_run()
    ev = R.Evening(2, 240, 7, plan=["hypergammon", "eureka"], quiet=True)
    try:
        rep = ev.run()
    finally:
        ev.close()
    assert rep["finished"] == 2, rep
    assert R.targets(rep) == [], rep
    assert rep["exported_removed_when_full"] >= 1 and rep["refusals"] == 0, rep
    assert rep["largest_free_block_min"] >= 10 * 1024 and rep["collections"] > 10, rep


def test_the_evenings_plan_plays_every_ruleset_doublets_too_and_two_chouettes():
    """The long evening's default plan (issue 22: "every variant and a chouette"): every one of
    the 27 rulesets of `bgc variants`, Doublets' towers included, and two chouettes."""
    sys.path.insert(0, SCRIPTS)
    try:
        import reliability_evening as R
    finally:
        sys.path.remove(SCRIPTS)
    from bgrules.rules import VARIANTS

    plan = R.evening_plan(R.EVENING_MATCHES)
    assert set(VARIANTS) <= set(plan) and plan.count("chouette") == 2, plan


@pytest.mark.micropython
def test_a_doublets_match_in_one_power_on_keeps_the_heap_and_ends():
    """Doublets in the long evening: the towers taken apart, stacked and lifted off whole by the
    hands, on the firmware's own loop from .mpy with a Pico's heap; the match ends, nothing is
    left loaded after it beyond 2 KB, no false flag."""
    R = _evening_run()
    ev = R.Evening(2, 240, 1, plan=["standard", "doublets"], quiet=True, fill=False)
    try:
        rep = ev.run()
    finally:
        ev.close()
    assert rep["finished"] == 2 and rep["false_flags"] == 0, rep
    assert R.targets(rep) == [], rep
