"""The board's three questions timed per variant on the emulated Pico (docs/performance.md).

    .venv/bin/python scripts/bench/bench_variants.py [--positions 30] [--rp2emu DIR] [VARIANT ...]

For each variant: positions from random games of that variant (CPython, seeded), each with a
roll, a legal play, a mid-turn frame (after the first step) and the checker lifted next. On the
RP2040 emulator (../shared/tools/rp2emu: the real RPI_PICO MicroPython firmware; set up in
build/rp2emu as bench_pico.py does, with node and npm), bgrules is copied to /lib and each answer is timed (best of 3): *roll* =
Turn(start, d1, d2, rules) (rules.turn for a variant with its own turn class); *frame* = the slower
of turn.locate(mid) + turn.destinations(mid, lifted) and turn.locate(start) (the board unchanged
since the roll: in Backwards a checker can come back to where it was); *done* =
the slower of turn.check on the legal final position and on the play stopped a step short. Heap:
bytes allocated for the three answers of one turn (gc.mem_alloc), after one untimed pass that
loads what a variant imports on first use. Prints the median and worst
per variant, in emulated milliseconds (lower bounds: the emulator does not model flash waits).
"""

import argparse
import os
import random
import shutil
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "firmware"))

from bgrules import Position, Turn  # noqa: E402
from bgrules.position import OPP, waiting  # noqa: E402
from bgrules.rules import VARIANTS, ruleset  # noqa: E402

PICO_PROGRAM = r"""
import time, gc
from bgrules import Position, Turn
from bgrules.rules import ruleset
rules = ruleset(KEY)
T = rules.turn or Turn  # Catch me, Doublets: their own turn class
def pos(p):  # (Position ID, mover's and opponent's checkers waiting off the board)
    return Position.from_id(p[0], rules.opposite, rules.pinning).set_waiting(p[1], p[2])
def best(f):
    t_best = 1 << 30
    for _ in range(3):
        t = time.ticks_us()
        f()
        t = time.ticks_diff(time.ticks_us(), t)
        if t < t_best:
            t_best = t
    return t_best
def fresh(turn):  # a Turn keeps the last legal play it found: a repeat must search again
    turn._last = None
    return turn
gc.collect()
print("free", gc.mem_free())
# One untimed pass over the first case: the modules a variant loads on first use (the words for a
# refused play, a variant's dice parts) are then in, as after a board's first turns; the heap
# figure is what a turn allocates, not a module's one-time load.
import bgrules.turn_why, bgrules.turn_parts  # (a case may not happen to need them)
pid, a, b, mid, lifted, good, bad = CASES[0]
turn = T(pos(pid), a, b, rules)
turn.locate(pos(mid))
turn.destinations(pos(mid), lifted)
turn.check(pos(good))
turn.check(pos(bad))
turn = None
gc.collect()
for pid, a, b, mid, lifted, good, bad in CASES:
    start, mid, good, bad = pos(pid), pos(mid), pos(good), pos(bad)  # Pin: both colours on a point
    gc.collect()
    before = gc.mem_alloc()
    turn = T(start, a, b, rules)
    turn.locate(mid)
    turn.destinations(mid, lifted)
    turn.check(good)
    turn.check(bad)
    heap = gc.mem_alloc() - before
    r = best(lambda: T(start, a, b, rules))
    f = best(lambda: (turn.locate(mid), turn.destinations(mid, lifted)))
    f = max(f, best(lambda: turn.locate(start)))  # the board unchanged since the roll
    d = max(best(lambda: fresh(turn).check(good)), best(lambda: fresh(turn).check(bad)))
    print("case %d %d %d %d" % (r, f, d, heap))
"""


def _ref(pos):
    """What the emulated board needs to rebuild ``pos``: its ID and the waiting checkers (which
    the ID counts as borne off)."""
    return (pos.id(), waiting(pos.cells), waiting(pos.cells, OPP))


def cases(rules, count, seed):
    rng = random.Random(seed)
    turn_class = rules.turn or Turn
    out = []
    for _game in range(500):
        pos = rules.start_position()
        for _ in range(400):
            a, b = rng.randint(1, 6), rng.randint(1, 6)
            turn = turn_class(pos, a, b, rules)
            plays = turn.plays()
            if len(plays) > 1 and len(plays[0].steps) > 1:
                play = rng.choice(plays)
                mid = after_steps(pos, play.steps[:1], rules)
                lifted = play.steps[1][0]
                out.append((_ref(pos), a, b, _ref(mid), lifted, _ref(play.position), _ref(mid)))
            elif rules.turn and plays:  # Catch me: a play is often one checker's single step
                play = rng.choice(plays)
                lifted = play.steps[0][0]
                out.append((_ref(pos), a, b, _ref(pos), lifted, _ref(play.position), _ref(pos)))
            if len(out) == count:
                return out
            before = pos
            if plays:
                pos = rng.choice(plays).position
            if rules.result(before, pos):
                break
            # Pin: the next view carries whose checker is pinned (not in the Position ID)
            pos = rules.after(before, pos) if rules.pinning else pos.swapped()
    return out


def after_steps(pos, steps, rules):
    """The position after ``steps`` (src, dst, hit) of the mover (tests/test_prepared_answers.py too)."""
    from bgrules.position import BAR, OPP

    c = bytearray(pos.cells)
    for src, dst, hit in steps:
        if src != BAR or c[BAR]:
            c[src] -= 1  # (else a waiting checker enters: it was counted off the board)
        if dst:
            if hit:
                c[OPP + (rules.across or rules.opposite)[dst]] -= 1
                c[OPP + BAR] += 1
            c[dst] += 1
        else:
            c[0] += 1
    return Position(c)


def run_pico(key, case_list, emu_dir):
    with tempfile.TemporaryDirectory(prefix="bench-variants-") as tmp:
        lib = os.path.join(tmp, "bgrules")
        shutil.copytree(os.path.join(ROOT, "firmware", "bgrules"), lib,
                        ignore=shutil.ignore_patterns("__pycache__"))
        prog = os.path.join(tmp, "bench.py")
        with open(prog, "w") as f:
            f.write("KEY = %r\nCASES = %r\n" % (key, case_list) + PICO_PROGRAM)
        run = subprocess.run(["node", os.path.join(emu_dir, "run.mjs"), "--put", lib + ":/lib/bgrules",
                              "--run", prog], capture_output=True, text=True, timeout=3600)
    rows = []
    free = None
    for line in run.stdout.splitlines():
        if line.startswith("case "):
            rows.append([int(x) for x in line.split()[1:]])
        elif line.startswith("free "):
            free = int(line.split()[1])
    if not rows:
        raise SystemExit("rp2emu gave no figures:\n" + run.stdout[-2000:] + run.stderr[-2000:])
    return rows, free


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("variants", nargs="*", default=None)
    ap.add_argument("--positions", type=int, default=30)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--rp2emu", default=None,
                    help="an rp2emu directory with its npm packages (default: bench_pico's copy in build/rp2emu)")
    args = ap.parse_args()
    if args.rp2emu is None:
        from bench_pico import BenchError, find_emulator

        try:
            args.rp2emu = find_emulator()
        except BenchError as e:
            raise SystemExit("bench_variants: %s" % e)
    keys = args.variants or list(VARIANTS)
    print("variant      roll ms med/worst  frame ms med/worst  done ms med/worst  heap KB worst  free KB after import")
    for key in keys:
        rules = ruleset(key)
        rows, free = run_pico(key, cases(rules, args.positions, args.seed), args.rp2emu)

        def stat(i):
            vals = sorted(r[i] for r in rows)
            return vals[len(vals) // 2] / 1000.0, vals[-1] / 1000.0

        r, f, d = stat(0), stat(1), stat(2)
        heap = max(row[3] for row in rows) / 1024.0
        print("%-12s %6.1f / %6.1f    %6.1f / %6.1f     %6.1f / %6.1f    %6.1f         %s" % (
            key, r[0], r[1], f[0], f[1], d[0], d[1], heap, "%.0f" % (free / 1024.0) if free else "?"))
        sys.stdout.flush()


if __name__ == "__main__":
    main()
