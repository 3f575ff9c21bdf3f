"""main.App's quiet loop (nothing to answer, nothing moving) collects garbage when the heap runs
low (main.GC_LOW_FREE), so the collector's own collection never strikes inside an answer, and once
the garbage of a quiet stretch (the turn's preparation) reaches main.GC_QUIET_GARBAGE. Looking
at the heap walks the collector's whole allocation table (gc.mem_free: ~16 ms a call on the
emulated Pico, more than the rest of an idle loop step, whose time the turn's preparation needs),
so the quiet loop looks only every main.GC_LOW_EVERY steps: checked under MicroPython, with the
collector on, on the virtual board."""

import functools

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

class CountingGc:  # main.py's gc, its looks at the heap counted (each walks the allocation table)
    def __init__(self, real):
        self.real = real
        self.looks = 0
    def mem_free(self):
        self.looks += 1
        return self.real.mem_free()
    def mem_alloc(self):
        self.looks += 1
        return self.real.mem_alloc()
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
collections = app.collections
steps(160)
print("LOOKS", main.gc.looks - (app.collections - collections), 160 // main.GC_LOW_EVERY)
# the garbage of a quiet stretch (the turn's preparation) piled up far from a low heap: collected
# within GC_LOW_EVERY quiet steps once it reaches GC_QUIET_GARBAGE
app.collect()
before = app.collections
junk = [bytearray(100) for _ in range(main.GC_QUIET_GARBAGE // 100)]
junk = None
print("FAR_FROM_LOW", gc.mem_free() > 2 * main.GC_LOW_FREE)
steps(main.GC_LOW_EVERY)
print("PILED", app.collections - before)
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


@functools.lru_cache(maxsize=None)
def _run_loop():
    import os

    from bgc.pico import libs
    from bgc.pico.upy import run
    import test_sim_micropython as base

    sources = [os.path.join(base.ROOT, "firmware"), os.path.join(base.ROOT, "host", "bgc", "board", "virtual"),
               os.path.join(base.ROOT, "hardware", "geometry.json"), libs.ssd1306_path()]
    return tuple(run(LOOP, sources, heap_kb=base.BOARD_HEAP_KB).splitlines())


@pytest.mark.micropython
def test_a_quiet_loop_looks_at_the_heap_every_few_steps_and_still_collects_when_it_runs_low():
    out = _run_loop()
    looks = [line.split() for line in out if line.startswith("LOOKS")][0]
    assert 0 < int(looks[1]) <= int(looks[2]), out[-5:]
    collected = [line.split() for line in out if line.startswith("COLLECTED")][0]
    assert collected[1] == "1" and collected[2] == "True", out[-5:]


@pytest.mark.micropython
def test_a_quiet_loop_collects_the_garbage_a_turns_preparation_piles_up_before_the_heap_runs_low():
    out = _run_loop()
    assert "FAR_FROM_LOW True" in out, out[-5:]
    assert "PILED 1" in out, out[-5:]
