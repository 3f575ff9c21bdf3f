"""Figures for docs/performance.md: the companion under a real MicroPython (the UNIX port, on this
machine); scripts/bench/bench_pico.py runs the same four turns on the emulated Pico.

    .venv/bin/python scripts/bench/bench_companion.py

Measures, under MicroPython (fastest of three runs): heap allocated by the imports and the boot (an upper bound of the
heap in use after boot: the heap is large enough that no collection runs), the allocation of a whole turn (roll,
lift, placements, DONE), the time from a stable frame that shows a placement to the LED answer
(Companion.on_frame: tracker verdict + LED/OLED effects), and the work at the roll (Turn set-up,
tracker, first verdict). Host times only: Pico times come from the emulated Pico (bench_pico.py).
"""
import json
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "host"))

GUEST = r'''
import gc, time
from frames import ideal_frame  # the bench's stand-in, not counted
a0 = gc.mem_alloc()
from companion.controller import Companion, ROLL_W, ROLL_B, SHORT
from companion.store import Store
from bgrules.position import Position
a_import = gc.mem_alloc() - a0

def us():
    return time.ticks_us()

class Dice:
    def __init__(self): self.r = []
    def roll(self): return self.r.pop(0)
    def first_roll(self): return (3, 1)

frame = bytearray(128)
W = [0] * 26
B = [0] * 26
def board(pos):
    c = pos.cells
    for p in range(1, 25):
        W[p] = c[p]; B[p] = c[26 + 25 - p]
    W[25] = c[25]; B[25] = c[51]
def show():
    return ideal_frame(W, B, out=frame)

dice = Dice()
c = Companion(Store("journal"), dice)
c.boot(show(), 0)
c.new_match({"length": 0}, True)
a_boot = gc.mem_alloc() - a0
out = {"import_bytes": a_import, "boot_bytes": a_boot}

def pts(d):
    out = [0] * 24
    for k in d:
        out[k - 1] = d[k]
    return out

CASES = (("start 6-5", Position.start(), (6, 5), ((24, 18), (18, 13))),
         ("middle game 3-3", Position.from_points(pts({6: 4, 8: 3, 13: 4, 11: 2, 24: 2}), pts({6: 4, 8: 3, 13: 4, 11: 2, 24: 2})),
          (3, 3), ((13, 10), (13, 10), (8, 5), (8, 5))),
         ("bear-off 6-6", Position.from_points(pts({6: 4, 5: 3, 4: 2}), pts({1: 15})), (6, 6),
          ((6, 0), (6, 0), (6, 0), (6, 0))),
         ("on the bar 4-2", Position.from_points(pts({13: 14}), pts({1: 2, 2: 2, 3: 2, 5: 2, 6: 2, 13: 5}), 1),
          (4, 2), ((25, 21), (13, 11))))
res = []
for name, pos, roll, steps in CASES:
    m = c.match
    m.position = pos; m.on_roll = 0; m.to_act = 0; m.phase = "roll"; m.turn = None; m.dice = (0, 0)
    board(pos)
    c._enter("roll")
    c.on_frame(show(), 0)
    dice.r.append(roll)
    a = gc.mem_alloc(); t = us()
    c.on_button(ROLL_W, SHORT, 10)
    t_roll = time.ticks_diff(us(), t)
    worst = 0; total = 0; n = 0
    for src, dst in steps:
        W[src] -= 1
        t = us(); c.on_frame(show(), 20); d = time.ticks_diff(us(), t)   # lifted: destinations
        worst = max(worst, d); total += d; n += 1
        if dst: W[dst] += 1
        t = us(); c.on_frame(show(), 30); d = time.ticks_diff(us(), t)   # placed: verdict
        worst = max(worst, d); total += d; n += 1
    t = us()
    c.on_button(ROLL_W, SHORT, 40)
    t_done = time.ticks_diff(us(), t)
    res.append({"case": name, "roll_us": t_roll, "frame_worst_us": worst, "frame_mean_us": total // n,
                "done_us": t_done, "turn_bytes": gc.mem_alloc() - a, "played": c.msg})
out["cases"] = res
print("RESULT " + repr(out))
'''


def main():
    from bgc.pico import upy

    # Three runs, the fastest time of each: the build machines are shared, and a busy core
    # only ever adds time.
    r = None
    for _ in range(3):
        out = upy.run(GUEST, [os.path.join(ROOT, "firmware"), os.path.join(ROOT, "host", "bgc", "board", "virtual", "frames.py")],
                      heap_kb=4096)
        line = [l for l in out.splitlines() if l.startswith("RESULT ")]
        if not line:
            print(out)
            raise SystemExit("benchmark failed")
        run = eval(line[0][7:])
        if r is None:
            r = run
            continue
        for mine, new in zip(r["cases"], run["cases"]):
            for key in ("roll_us", "frame_worst_us", "frame_mean_us", "done_us"):
                mine[key] = min(mine[key], new[key])
    print("heap allocated by imports: %d B; imports + boot + new match: %d B" % (r["import_bytes"], r["boot_bytes"]))
    print("| case | roll | frame worst | frame mean | DONE | bytes allocated in the turn | play |")
    print("|---|---|---|---|---|---|---|")
    for c in r["cases"]:
        print("| %s | %.2f ms | %.2f ms | %.2f ms | %.2f ms | %d | %s |" % (
            c["case"], c["roll_us"] / 1000, c["frame_worst_us"] / 1000, c["frame_mean_us"] / 1000,
            c["done_us"] / 1000, c["turn_bytes"], c["played"]))
    print(json.dumps(r))


if __name__ == "__main__":
    main()
