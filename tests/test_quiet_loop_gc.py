"""main.App's quiet loop (nothing to answer, nothing moving) collects garbage when the heap runs
low (main.GC_LOW_FREE), so the collector's own collection never strikes inside an answer. Looking
at the free heap walks the collector's whole allocation table (gc.mem_free: ~16 ms a call on the
emulated Pico, more than the rest of an idle loop step, whose time the turn's preparation needs),
so the quiet loop looks only every main.GC_LOW_EVERY steps: checked under MicroPython, with the
collector on, on the virtual board."""

import pytest

LOOP = r"""
import virtual
board = virtual.install(seed=5, drift_lsb_per_s=0)
board.clock.listeners.remove(board._on_time)  # no drift: the physics only when a checker moves
w = [0] * 26
b = [0] * 26
for p, n in ((24, 2), (13, 5), (8, 3), (6, 5)):
    w[p] = n
    b[25 - p] = n
board.set_points(w, b)
import gc
import main

class Serial:
    def read_line(self):
        return None
    def write_line(self, text):
        pass

app = main.build(journal_dir="journal", serial=Serial(), dice=None, buzzer=False)
clock = board.clock

class CountingGc:  # main.py's gc, its looks at the free heap counted
    def __init__(self, real):
        self.real = real
        self.mem_alloc = real.mem_alloc
        self.looks = 0
    def mem_free(self):
        self.looks += 1
        return self.real.mem_free()
    def collect(self):
        self.real.collect()

def steps(n):
    for _ in range(n):
        app.step(clock.ticks_ms())
        clock.advance_ms(10)
        app.collect_if_due()

steps(100)  # boot, the menu shown: quiet from here
main.gc = CountingGc(gc)
app.answered = False
steps(160)
print("LOOKS", main.gc.looks, 160 // main.GC_LOW_EVERY)
# the heap run low while nothing moves: collected within GC_LOW_EVERY quiet steps
before = app.collections
junk = []
while gc.mem_free() >= main.GC_LOW_FREE - 4096:
    for _ in range(64):
        junk.append(bytearray(100))
junk = None
assert gc.mem_free() < main.GC_LOW_FREE
steps(main.GC_LOW_EVERY)
print("COLLECTED", app.collections - before, gc.mem_free() >= main.GC_LOW_FREE)
"""


@pytest.mark.micropython
def test_a_quiet_loop_looks_at_the_free_heap_every_few_steps_and_still_collects_when_it_runs_low():
    import os

    from bgc.pico import libs
    from bgc.pico.upy import run
    import test_sim_micropython as base

    sources = [os.path.join(base.ROOT, "firmware"), os.path.join(base.ROOT, "host", "bgc", "board", "virtual"),
               os.path.join(base.ROOT, "hardware", "geometry.json"), libs.ssd1306_path()]
    out = run(LOOP, sources, heap_kb=base.BOARD_HEAP_KB).splitlines()
    looks = [line.split() for line in out if line.startswith("LOOKS")][0]
    assert 0 < int(looks[1]) <= int(looks[2]), out[-5:]
    collected = [line.split() for line in out if line.startswith("COLLECTED")][0]
    assert collected[1] == "1" and collected[2] == "True", out[-5:]
