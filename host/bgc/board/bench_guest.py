"""The guest programs of the Pico benchmark and their report, shared by scripts/bench/bench_pico.py (an
emulated Pico) and ``bgc bench --port`` (a connected board: a real Pico or ``bgc vpico``), so a
builder's figures from real hardware print as the same table as the emulated ones
(docs/performance.md says how to read them side by side).

The steps share their globals (one interpreter from the first to the last): BOOT (free heap after
boot), IMPORT (everything main.py imports), SCAN (the hall scan and the classifier), JOURNAL (one
play record appended), MATCH (a whole 1-point match through main.App, the players' plan read from
a file). Each prints ``TAG value`` lines (Python literals) that ``results`` reads.
"""

import statistics
import sys


def results(out, tag):
    """The values of every line ``TAG value`` the guest printed (Python literals)."""
    import ast

    return [ast.literal_eval(line[len(tag) + 1:]) for line in out.splitlines() if line.startswith(tag + " ")]


def ms(us):
    return "%.2f ms" % (us / 1000)


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

# A whole 1-point match through main.App. Runs on the emulated Pico (PLAYS given: the file of the
# players' steps, one turn a line, read as the match goes so the plan does not sit in the heap) and,
# to choose those plays, on CPython with the virtual board (PLAYS = None: each turn takes the play
# with the smallest position ID, like the sim tests; in Backwards, of those with the fewest pips
# left). VARIANT: the ruleset's key.
MATCH = r"""
import gc, sys, time
IDLE_ROLL = globals().get("IDLE_ROLL", 0)  # ms the players look at the board after the roll (match_step)
IDLE_STEP = globals().get("IDLE_STEP", 0)  # ms between a placement and the next lift
PROGRESS = globals().get("PROGRESS", False)  # a "TURN n" line as each turn starts (bgc bench --port: the board lives)
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
         "prep": [0, 0, 0], "prep_turn": Times(300), "idle": [0, 0], "lookups": [0, 0, 0, 0],
         "journal": Times(300), "done_own": Times(300), "move": Times(600), "move_after": [Times(300), Times(300)],
         "move_in_answer": 0,
         "min_free": 1 << 30, "min_free_turns": 1 << 30, "min_free_own": 1 << 30, "done_worst": (0,),
         "frame_worst": (0,), "min_at": None, "steps": 0}
on_frame = companion.on_frame
on_button = companion.on_button

SLOW_US = 10000  # issue 33's target for a lift's answer: answers over it are listed (the first 12)
SLOW = []
# Before this answer (no allocation): the turn's questions by a lookup and of the engine, its
# units of preparation, the units at the end of the answer before, and where the preparation of
# the board's position stood: 0 not placed, 1 placed (or not legal), 2 + the next source point
# whose lift was still to prepare, 28 every lift prepared
ASKED = [0, 0, 0, 0, 0]
def _asked():
    pr = getattr(companion.tracker, "prepared", None)
    ASKED[0] = pr.hits if pr is not None else 0
    ASKED[1] = pr.misses if pr is not None else 0
    ASKED[2] = pr.units if pr is not None else 0
    node = None
    if pr is not None:
        if KNOWN != pr.known:  # (a key made only when the board's position changed)
            KNOWN[:] = pr.known
            KEY[0] = bytes(KNOWN)
        node = pr.nodes.get(KEY[0])
    ASKED[4] = 0 if node is None else 1 if len(node) == 1 else 28 if node[1] == 255 else 2 + node[1]
KNOWN = bytearray(52)
KEY = [bytes(52)]
def timed_frame(f, now):
    _asked()
    a = mem_alloc()
    t = ticks_us()
    on_frame(f, now)
    dt = diff(ticks_us(), t)
    if companion.phase in ("moving", "ask"):
        stats["frame"].append(dt)
        if dt > stats["frame_worst"][0]:  # where: the turn, its position and dice (rarely)
            m = companion.match
            stats["frame_worst"] = (dt, turns, m.position_id(), m.dice)
        if dt > SLOW_US and len(SLOW) < 12:  # where, and what answered it (rarely)
            hits, misses, units, units_before, stood = ASKED
            since = diff(t, ANSWERED[0]) // 1000
            _asked()
            SLOW.append((dt, turns + 1, companion.match.position_id(), companion.match.dice,
                         ASKED[0] - hits, ASKED[1] - misses, since, units - units_before, stood))
    pr = getattr(companion.tracker, "prepared", None)
    ASKED[3] = pr.units if pr is not None else 0
    if mem_alloc() < a:
        stats["auto"].append(("on_frame", companion.phase))
    LAST[0] = "frame"
    ANSWERED[0] = ticks_us()
ANSWERED = [0]  # when the last answer ended (ticks_us)
MOVED = [False]  # the journal's tail was moved into its file (companion.tail.flush) in this loop step
def timed_tail():
    # companion.tail.flush wrapped (again when main.py dropped and an append imported it anew):
    # which loop steps move the tail, and whether any is an answer's
    t = sys.modules.get("companion.tail")
    if t is not None and t.flush is not TAIL[0]:
        real = t.flush
        def flush(j, keep):
            moved = real(j, keep)
            if moved:
                MOVED[0] = True
            return moved
        t.flush = TAIL[0] = flush
TAIL = [None]  # the wrapper last put in
JW = [0]  # time in journal writes during the answer being timed
write_record = companion.write_record
def timed_write(record, journal=None, name=None):
    t = ticks_us()
    try:
        return write_record(record, journal, name)
    finally:
        JW[0] += diff(ticks_us(), t)
companion.write_record = timed_write
def timed_button(b, kind, now):
    ph = companion.phase
    a = mem_alloc()
    JW[0] = 0
    t = ticks_us()
    on_button(b, kind, now)
    dt = diff(ticks_us(), t)
    stats["done" if ph == "moving" else "roll"].append(dt)
    if ph == "moving":
        stats["journal"].append(JW[0])  # the journal append inside DONE (a flash erase), apart
        stats["done_own"].append(dt - JW[0])
    if ph == "moving" and dt > stats["done_worst"][0]:
        stats["done_worst"] = (dt, turns, companion.match.position_id(), companion.msg)
    if mem_alloc() < a:
        stats["auto"].append(("on_button", ph))
    LAST[0] = "DONE" if ph == "moving" else "button"
    ANSWERED[0] = ticks_us()
companion.on_frame = timed_frame
companion.on_button = timed_button

def run(n):
    for _ in range(n):
        stats["steps"] += 1
        ph = companion.phase
        nf = len(stats["frame"])
        timed_tail()
        MOVED[0] = False
        answered = ANSWERED[0]
        a = mem_alloc()
        t = ticks_us()
        app.step(time.ticks_ms())
        dt = diff(ticks_us(), t)
        if len(stats["frame"]) > nf:
            stats["loop"].append(dt)  # scan + classify + answer + LEDs written
        if MOVED[0]:
            if ANSWERED[0] != answered:
                stats["move_in_answer"] += 1  # (an answer's own write moved it: a failure before)
            else:
                # the loop step that moved the tail, and how long after the last answer it was done:
                # a person acting sooner than that after DONE (their roll) or a roll (their lift)
                # is answered after the move
                stats["move"].append(dt)
                stats["move_after"][0 if LAST[0] == "DONE" else 1].append(diff(ticks_us(), answered))
        if getattr(app, "prepared_units", 0) != PREP[0]:
            PREP[0] = app.prepared_units
            PREP[1] += dt
            pr = stats["prep"]  # scan + classify + the units of the turn's preparation: count, sum, worst
            pr[0] += 1
            pr[1] += dt
            if dt > pr[2]:
                pr[2] = dt
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
        t = ticks_us()
        app.collect_if_due()
        BOARD_US[0] = dt + diff(ticks_us(), t)
# The board's own time in the last loop step: the step and its collection, without the harness's
# bookkeeping around it (the heap looked at twice: ~16 ms a step on the emulated Pico), which no
# board has
BOARD_US = [0]

PREP = [0, 0]  # the loop steps that prepared so far; their emulated time this turn
def idle(most_ms):
    # The players look at the board (after the roll, between two placements) for ``most_ms`` of
    # the board's time: loop steps that answer nothing, in which the firmware prepares the turn's
    # answers (companion.prepared). They do not wait for it: the lift comes after ``most_ms``
    # whatever is prepared by then. Once the position the board shows is prepared the rest of
    # that time is skipped (its steps would prepare positions further on, or nothing: fewer
    # lookups here than a board would have, never more); no step with a firmware that prepares nothing
    if not getattr(sys.modules.get("companion.controller"), "PREPARES", False):
        return  # (the .mpy deploy prepares nothing: companion.controller.PREPARES)
    k = 0
    spent = 0  # (the board's time: a board runs its loop steps back to back)
    while companion.phase == "moving":
        p = companion.tracker.prepared  # (made by the turn's first idle step)
        if p is not None and p.done():
            break
        if spent >= most_ms * 1000:
            stats["idle"][1] += 1  # the lift came before the board's position was prepared
            break
        run(1)
        spent += BOARD_US[0]
        k += 1
    stats["idle"][0] += k

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
        if player != BOARD:  # (the board's own plays are set down at once)
            idle(IDLE_STEP)

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
stuck = 0  # loop rounds in a row with nothing for the players to do
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
    stuck = stuck + 1 if ph not in ("opening", "ask", "roll", "moving") else 0
    if stuck > 40:  # 200 loop steps: the firmware waits for something this harness does not do
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
        if PROGRESS:
            print("TURN", turns + 1)
        PREP[1] = 0
        idle(IDLE_ROLL)
        move(steps, p)
        stats["prep_turn"].append(PREP[1])
        pr = getattr(companion.tracker, "prepared", None)
        if pr is not None:  # the turn's questions: answered by a lookup, asked of the engine, cut off
            lk = stats["lookups"]
            lk[0] += pr.hits
            lk[1] += pr.misses
            lk[2] += getattr(pr, "cuts", 0)
            lk[3] += getattr(pr, "went_on", 0)
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
           "turns": turns, "phase": companion.phase, "oled": app.oled.present, "sense": tuple(SENSE[1:]),
           "prep": (stats["prep"][0], stats["prep"][1] // max(1, stats["prep"][0]), stats["prep"][2], 0), "prep_turn": summary(stats["prep_turn"]), "idle": stats["idle"],
           "lookups": stats["lookups"], "journal": summary(stats["journal"]), "done_own": summary(stats["done_own"]),
           "move": summary(stats["move"]), "move_after_done": summary(stats["move_after"][0]),
           "move_after_other": summary(stats["move_after"][1]), "move_in_answer": stats["move_in_answer"], "slow": SLOW, "slow_us": SLOW_US}
    stats = None
    print("MATCH", repr(out))
"""

JOURNAL = r"""
def _journal_bench(n):
    from companion import journal as J, tail
    import os
    tail.flush(J.Journal("/bench.jnl"), False)  # a run cut short left a tail: into its file, then gone
    try:
        os.remove("/bench.jnl")
    except OSError:
        pass
    j = J.Journal("/bench.jnl")
    rec = {"a": "play", "p": 0, "dice": [3, 1], "steps": [[8, 5, 0], [6, 5, 0]], "pos": "4HPwATDgc/ABMA"}
    ts = []
    tf = []
    for _ in range(n):
        t = time.ticks_us()
        j.append(rec)
        t1 = time.ticks_us()
        tail.flush(j, True)  # as the loop's next step that answers nothing does (main.App.step)
        ts.append(time.ticks_diff(t1, t))
        tf.append(time.ticks_diff(time.ticks_us(), t1))
    tail.flush(j, False)
    print("JOURNAL", ts)
    print("JOURNAL_FOLD", tf)
_journal_bench(20)
del _journal_bench
"""


def match_step(journal_dir, plan, variant, idle_roll=1000, idle_step=300, progress=False):
    """The MATCH step's program: its settings, then the match; ``progress``: a "TURN n" line as each
    turn starts."""
    return ("import os\ntry:\n    os.mkdir(%r)\nexcept OSError:\n    pass\nJOURNAL_DIR = %r\nPLAYS = %r\n"
            "VARIANT = %r\nIDLE_ROLL = %d\nIDLE_STEP = %d\nPROGRESS = %r\n" % (
                journal_dir, journal_dir, plan, variant, idle_roll, idle_step, progress) + MATCH)


def choose_plays(tmp, variant="standard", max_turns=0):
    """The match's plays, chosen on CPython with the virtual board (the same guest program);
    ``max_turns``: stop choosing there (0: the whole match)."""
    from bgc.board import virtual

    from bgc.board.virtual import frames

    sys.modules["frames"] = frames
    virtual.install()
    try:
        env = {"__name__": "bench_match", "PLAYS": None, "JOURNAL_DIR": tmp, "VARIANT": variant, "MAX_TURNS": max_turns,
               "IDLE_ROLL": 0, "IDLE_STEP": 0}
        import io
        from contextlib import redirect_stdout

        buf = io.StringIO()
        with redirect_stdout(buf):
            exec(compile(MATCH, "match", "exec"), env)
    finally:
        virtual.uninstall()
    return results(buf.getvalue(), "PLAYS")[0]


def print_basics(out):
    """The heap, scan + classify and journal lines of a run's output; the free heap after import."""
    heap_import = results(out, "HEAP_IMPORT")[0]
    print("free heap after boot: %d B; after importing the firmware: %d B" % (results(out, "HEAP_BOOT")[0], heap_import))
    ts, tc, _, _ = results(out, "SCAN")[0]
    print("hall scan of 128 cells: median %s, worst %s; classifier update: median %s, worst %s; together worst %s"
          % (ms(statistics.median(ts)), ms(max(ts)), ms(statistics.median(tc)), ms(max(tc)),
             ms(max(a + b for a, b in zip(ts, tc)))))
    jt = results(out, "JOURNAL")[0]
    jf = results(out, "JOURNAL_FOLD")[0]
    print("journal append (one play record): median %s, worst %s; its tails moved into the file (flush) in the next quiet loop "
          "step: median %s, worst %s" % (ms(statistics.median(jt)), ms(max(jt)), ms(statistics.median(jf)), ms(max(jf))))
    return heap_import


def print_match(st, heap_import, variant):
    """The whole match's lines (the MATCH step's result)."""
    print("whole 1-point match of %s (%d turns, ended in phase %s, OLED present: %s):"
          % (variant, st["turns"], st["phase"], st["oled"]))
    n, mean, worst, med = st["frame"]
    fw = st.get("frame_worst") or (0,)
    where = " (turn %d, position %s, dice %d-%d)" % (fw[1] + 1, fw[2], fw[3][0], fw[3][1]) if len(fw) == 4 else ""
    print("  frame -> LED answer (Companion.on_frame, %d frames in play): median %s, mean %s, worst %s%s"
          % (n, ms(med), ms(mean), ms(worst), where))
    for slow in st.get("slow", ()):
        dt, turn, pos, dice, hits, misses = slow[:6]
        print("    over %s: %s in turn %d (position %s, dice %d-%d): %d questions by lookup, %d asked of the engine"
              % (ms(st["slow_us"]), ms(dt), turn, pos, dice[0], dice[1], hits, misses))
        if len(slow) > 6:
            since, units, stood = slow[6:]
            stood = ("not in the table", "not legal, or its search cut off")[stood] if stood < 2 else (
                "every lift prepared" if stood == 28 else "its lifts prepared up to point %d's" % (stood - 2))
            print("      %d ms and %d units of preparation after the answer before; the board's position then: %s"
                  % (since, units, stood))
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
    if "prep" in st:
        n, mean, worst, med = st["prep"]
        print("  loop steps preparing the turn's answers (scan + classify + its units): %d, mean %s, worst %s"
              % (n, ms(mean), ms(worst)))
        n, mean, worst, med = st["prep_turn"]
        print("  their time per turn (in the steps the players looked at the board): median %s, worst %s;"
              " idle loop steps: %d, lifts that came before the board's position was prepared: %d"
              % (ms(med), ms(worst), st["idle"][0], st["idle"][1]))
    if "lookups" in st:
        lk = st["lookups"]
        print("  the tracker's rules questions in play: %d answered by a lookup, %d asked of the engine"
              " (not prepared yet, or never: the fallback); preparation searches given up (cut off):"
              " %d; units that went on with a search cut off before: %d" % (lk[0], lk[1], lk[2], lk[3] if len(lk) > 3 else 0))
        n, _, worst, med = st["done_own"]
        _, _, jworst, jmed = st["journal"]
        print("  DONE answer without its journal append: median %s, worst %s; the append inside DONE:"
              " median %s, worst %s" % (ms(med), ms(worst), ms(jmed), ms(jworst)))
    if "move" in st:
        n, mean, worst, med = st["move"]
        print("  loop steps moving the journal's tail into its file (companion.tail, no answer in them): %d,"
              " median %s, mean %s, worst %s; tails moved inside an answer: %d" % (n, ms(med), ms(mean), ms(worst),
                                                                                st["move_in_answer"]))
        for key, what in (("move_after_done", "DONE (the next player's roll)"),
                          ("move_after_other", "a roll or another answer (the first lift)")):
            n, mean, worst, med = st[key]
            print("  the move done after %s: %d times, median %s, worst %s after that answer ended"
                  % (what, n, ms(med), ms(worst)))
