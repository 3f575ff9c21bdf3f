"""A complete game under MicroPython (the Pico's interpreter): the firmware's main.build/App.step
on the virtual board, two scripted players moving checkers cell by cell and pressing the buttons,
to the end of a 1-point match; the journal it writes replays (on CPython) to the same result."""

import os

import pytest

from bgc.pico import libs, upy

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
# The guest's heap holds the virtual board's physical model as well as the firmware.
BOARD_HEAP_KB = 1024

GAME = r"""
import virtual
board = virtual.install(seed=5, drift_lsb_per_s=0)
# No drift: the physics need recomputing only when a checker moves (every float allocates under
# MicroPython; the game runs in minutes instead of an hour).
board.clock.listeners.remove(board._on_time)
w = [0] * 26
b = [0] * 26
for p, n in ((24, 2), (13, 5), (8, 3), (6, 5)):
    w[p] = n
for p, n in ((1, 2), (12, 5), (17, 3), (19, 5)):
    b[p] = n
board.set_points(w, b)
import main
from bgrules import Position, Turn

class Serial:
    def __init__(self):
        self.events = []
    def read_line(self):
        if self.events is not None and not self.sent:
            self.sent = True
            return "new length=1"
        return None
    def write_line(self, text):
        self.events.append(text)
Serial.sent = False

class Dice:  # an LCG: the same dice under both interpreters
    s = 20240601
    def die(self):
        Dice.s = (Dice.s * 1103515245 + 12345) & 0x7FFFFFFF
        return (Dice.s >> 16) % 6 + 1
    def roll(self):
        return self.die(), self.die()
    def first_roll(self):
        return self.die(), self.die()

ser = Serial()
app = main.build(journal_dir="journal", serial=ser, dice=Dice(), buzzer=False)
clock = board.clock

import gc
COLLECTIONS = 0
_alloc = [gc.mem_alloc()]

def run(frames):
    global COLLECTIONS
    for _ in range(frames):
        app.step(clock.ticks_ms())
        clock.advance_ms(10)
    a = gc.mem_alloc()
    if a < _alloc[0]:  # the heap shrank: the collector ran
        COLLECTIONS += 1
    _alloc[0] = a

def press(name):
    board.button(name, True)
    run(8)
    board.button(name, False)
    run(6)

def status():
    import json
    for line in reversed(ser.events):
        e = json.loads(line)
        if e["ev"] == "status":
            return e
    return None

def cells_of(point, colour):
    if point == 25:
        base = 120 if colour == virtual.WHITE else 124
        return [base + k for k in range(4)]
    return [5 * (point - 1) + k for k in range(5)]

def board_point(p, colour):
    if p == 25:
        return 25
    return p if colour == virtual.WHITE else 25 - p

def take(point, colour):
    best = None
    for c in cells_of(point, colour):
        if board.count(c) and board.colour(c) == colour and (best is None or board.count(c) >= board.count(best)):
            best = c
    board.lift(best)

def put(point, colour):
    cs = cells_of(point, colour)
    best = cs[0]
    for c in cs:
        if board.count(c) < board.count(best):
            best = c
    board.drop(best)

run(5)
played = None
turns = 0
illegal = 0
for _ in range(4000):
    st = status()
    ph = st["phase"] if st else None
    if ph in ("matchover", None) and st and ph == "matchover":
        break
    if ph == "opening":
        press("ROLL_W")
    elif ph == "roll":
        press("ROLL_W" if st["on_roll"] == 0 else "ROLL_B")
    elif ph == "moving" and (st["game"], st["pos"], st["dice"]) == played:
        press("ROLL_W" if st["on_roll"] == 0 else "ROLL_B")  # DONE again (not answered yet)
        run(20)
    elif ph == "moving":
        played = (st["game"], st["pos"], st["dice"])
        p = st["on_roll"]
        colour = virtual.WHITE if p == 0 else virtual.BLACK
        other = -colour
        turn = Turn(Position.from_id(st["pos"]), st["dice"][0], st["dice"][1])
        plays = turn.plays()
        if plays:
            best = plays[0]
            for pl in plays:
                if pl.position.id() < best.position.id():
                    best = pl
            for a, b, hit in best.steps:
                take(board_point(a, colour), colour)
                run(5)
                if b == 0:
                    board.hand = None  # borne off: into the tray, out of the sensors' reach
                    board._stale = True
                else:
                    put(board_point(b, colour), colour)
                run(5)
                if hit:  # the hitting checker is down; now the blot goes to the bar
                    take(board_point(b, colour), other)
                    put(25, other)
                    run(5)
        turns += 1
        if turns % 10 == 0:
            print("turn", turns, clock.ms)
        press("ROLL_W" if p == 0 else "ROLL_B")
        run(3)
    elif ph == "ask":
        press("ROLL_W" if st["on_roll"] == 0 else "ROLL_B")
    else:
        run(5)
for line in ser.events:
    if '"illegal"' in line:
        illegal += 1
    if '"match_end"' in line or '"game_end"' in line:
        print(line)
import gc
gc.collect()
print("turns", turns, "illegal", illegal, "collections", COLLECTIONS, "free", gc.mem_free())
print("JOURNAL")
print(open("journal/m0001.jnl").read())
"""


@pytest.mark.micropython
def test_complete_game_under_micropython():
    sources = [os.path.join(ROOT, "firmware"), os.path.join(ROOT, "host", "bgc", "board", "virtual"),
               os.path.join(ROOT, "hardware", "geometry.json"), libs.ssd1306_path()]
    out = upy.run(GAME, sources, heap_kb=BOARD_HEAP_KB)
    head, journal_text = out.split("JOURNAL\n", 1)
    assert '"match_end"' in head, head[-2000:]
    assert "illegal 0" in head
    # The collector ran during the game (the heap is bounded) and the game went on.
    assert int(head.split("collections ")[1].split()[0]) > 0
    turns = int(head.split("turns ")[1].split()[0])
    assert turns > 10
    from companion import journal as J
    from companion import recovery

    records, problem = J.parse(journal_text)
    assert problem is None
    m = recovery.replay(records)
    assert m.phase == "matchover" and max(m.score) == 1
    end = [r for r in records if r["a"] == "end"]
    assert len(end) == 1 and end[0]["winner"] == m.winner
