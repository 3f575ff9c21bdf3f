"""main.build() on the virtual board (CPython), and a short game of the controller under
MicroPython 1.27 (bgc.pico.upy), with the heap it allocates."""
import json
import os

import pytest

from companion_helpers import ForcedDice

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


class Serial:
    def __init__(self):
        self.inbox = []
        self.sent = []

    def read_line(self):
        return self.inbox.pop(0) if self.inbox else None

    def write_line(self, text):
        self.sent.append(json.loads(text))

    def events(self, ev):
        return [e for e in self.sent if e["ev"] == ev]


@pytest.fixture
def board():
    from bgc.board import virtual

    b = virtual.install(seed=3)
    yield b
    virtual.uninstall()


def test_main_build_and_steps_on_the_virtual_board(board, tmp_path):
    import importlib
    import sys

    from bgc.board import virtual

    start_w = [0] * 26
    start_b = [0] * 26
    for p, n in ((24, 2), (13, 5), (8, 3), (6, 5)):
        start_w[p] = n
        start_b[25 - p] = n
    board.set_points(start_w, start_b)
    sys.modules.pop("main", None)
    main = importlib.import_module("main")
    serial = Serial()
    app = main.build(journal_dir=str(tmp_path / "journal"), serial=serial,
                     dice=ForcedDice(rolls=[(6, 5)], openings=[(4, 2)]))

    def run(ms):
        for _ in range(ms // 10):
            board.clock.advance_ms(10)
            app.step(board.clock.ticks_ms())

    run(200)
    assert serial.events("boot")[0]["resumed"] is False
    serial.inbox.append("new length=3 names=Ann,Bob")
    serial.inbox.append("hello")  # unknown: an error line, the game goes on
    run(300)
    assert serial.events("new")[0]["settings"]["names"] == ["Ann", "Bob"]
    assert "unknown command" in serial.events("error")[0]["error"]
    assert app.companion.phase == "opening"
    board.button("ROLL_W", True)
    run(100)
    board.button("ROLL_W", False)
    run(200)
    assert serial.events("roll")[0]["dice"] == [4, 2]
    assert app.companion.phase == "moving"
    # issue 33: the players look at the board for a second; the quiet loop steps prepare the
    # turn's answers (companion.prepared), so the lift below is answered by a lookup
    run(1000)
    prepared = app.companion.tracker.prepared
    assert prepared is not None and prepared.done() and app.prepared_units > 0
    # white lifts a checker from its 8 point: its destinations light up (4-2: 6, 4, 2)
    board.lift(7 * 5 + 2)
    run(300)
    assert prepared.hits > 0 and prepared.misses == 0, (prepared.hits, prepared.misses)
    from drivers.leds import LEGAL, LIFTED

    def lit(colour):
        b = 64
        want = tuple(c * b // 255 for c in colour)
        return [i + 1 for i in range(24) if tuple(board.leds[i]) == want]

    assert lit(LIFTED) == [8]
    assert lit(LEGAL) == [2, 4, 6]
    # a hand hovering over other points is never judged
    board.hover(11 * 5, 20.0)
    run(200)
    assert serial.events("illegal") == []
    board.drop(3 * 5 + 1)  # 8/4
    board.lift(5 * 5 + 4)
    board.drop(3 * 5 + 2)  # 6/4
    run(300)
    assert serial.events("illegal") == []
    board.button("ROLL_W", True)
    run(100)
    board.button("ROLL_W", False)
    run(200)
    assert serial.events("play")[0]["move"] == "8/4 6/4"
    assert app.companion.tracker.prepared is None  # the table went with the turn
    assert "Bob" in "".join(app.companion.fx.screen)
    text = open(tmp_path / "journal" / "m0001.jnl").read()
    assert '"move": "8/4 6/4"' in text


UPY_GAME = r'''
import gc
from companion.controller import Companion, ROLL_W, ROLL_B, SHORT
from companion.store import Store
from frames import ideal_frame

class Dice:
    def __init__(self): self.r = [(6, 5), (3, 3)]
    def roll(self): return self.r.pop(0)
    def first_roll(self): return (3, 1)

white = [0] * 26; black = [0] * 26
for p, n in ((24, 2), (13, 5), (8, 3), (6, 5)):
    white[p] = n; black[25 - p] = n

frame = bytearray(128)
def show():
    return ideal_frame(white, black, out=frame)

t = [0]
def mv(side, a, b):
    side[a] -= 1; side[b] += 1
    t[0] += 30
    c.on_frame(show(), t[0])

gc.collect()
base = gc.mem_alloc()
c = Companion(Store("journal"), Dice())
c.boot(show(), 0)
gc.collect()
boot = gc.mem_alloc() - base
c.new_match({"length": 3}, True)
c.on_button(ROLL_W, SHORT, 100)
mv(white, 8, 5); mv(white, 6, 5)
c.on_button(ROLL_W, SHORT, 200)
c.on_button(ROLL_B, SHORT, 300)
mv(black, 1, 7)
mv(black, 12, 17)
c.on_button(ROLL_B, SHORT, 400)
gc.collect()
for line in c.fx.out:
    print(line)
print("HEAP", boot, gc.mem_alloc() - base, gc.mem_free())
print("JOURNAL", open("journal/m0001.jnl").read().count(chr(10)))
'''


def test_short_game_under_micropython():
    from bgc.pico import upy

    frames = os.path.join(ROOT, "host", "bgc", "board", "virtual", "frames.py")
    out = upy.run(UPY_GAME, [os.path.join(ROOT, "firmware"), frames])
    lines = [l for l in out.splitlines() if l.startswith("{")]
    evs = [json.loads(l) for l in lines]
    plays = [e["move"] for e in evs if e["ev"] == "play"]
    assert plays == ["8/5 6/5", "24/18 13/8"]
    assert [e["dice"] for e in evs if e["ev"] == "roll"] == [[3, 1], [6, 5]]
    # The whole game ran in a Pico-sized heap with the collector on; what the companion keeps
    # alive (after a collection) leaves most of that heap free.
    heap = [l for l in out.splitlines() if l.startswith("HEAP")][0].split()
    if upy.heap_scale() == 1:  # 32-bit objects: the figures are a Pico's
        assert int(heap[2]) < 24 * 1024, heap
    # The journal on the guest's flash holds the two plays (written through the real os).
    assert int(out.split("JOURNAL ")[1].split()[0]) >= 4


UPY_NEW_LINE = r'''
import gc, sys
from companion.controller import Companion
from companion.store import Store

class Dice:
    def roll(self): return 3, 1
    def first_roll(self): return 3, 1

def collect(starting=None):  # as main.App.collect: the once-only modules dropped, then a collection
    for name in ("booting", "recovery", "phase_setup"):
        sys.modules.pop("companion." + name, None)
    gc.collect()
    print("COLLECTED", "companion.recovery" in sys.modules)

c = Companion(Store("journal"), Dice(), buzzer=False)
c.boot(bytearray(128), 0)
collect()
c.collect = collect  # main.py wires its collection in so
free = gc.mem_free()
c.on_line("new length=1", 10)
print("TAKEN", free - gc.mem_free())
for line in c.fx.out:
    print(line)
print("JOURNAL", open("journal/m0001.jnl").read().count(chr(10)))
'''


def test_new_line_answer_sheds_the_journal_reader_before_the_rest_under_micropython():
    """Issue 10: at least 120,000 B free in play on a Pico. The serial ``new`` line's answer
    imports the serial commands, the menu and the journal reader at once; the controller asks
    main.py for a collection once the match is built, so the reader and the import garbage are
    gone before the journal, the events and the board add theirs (docs/performance.md)."""
    from bgc.pico import upy

    out = upy.run(UPY_NEW_LINE, [os.path.join(ROOT, "firmware")])
    # the match started as before: its settings journaled, the new and status events sent
    evs = [json.loads(l) for l in out.splitlines() if l.startswith("{")]
    new = [e for e in evs if e["ev"] == "new"]
    assert len(new) == 1 and new[0]["settings"]["length"] == 1
    assert evs[-1]["ev"] == "status" and evs[-1]["phase"] == "board"
    assert int(out.split("JOURNAL ")[1].split()[0]) == 1
    # the collection came inside the answer, after the reader (imported to build the match) was used
    assert out.count("COLLECTED False") == 2, out
    taken = int(out.split("TAKEN ")[1].split()[0])
    if upy.heap_scale() == 1:  # 32-bit objects: a Pico's figures (from source: compile garbage included)
        # 19.4 KB without the mid-answer collection, 13.4 KB with it
        assert taken < 16 * 1024, taken
