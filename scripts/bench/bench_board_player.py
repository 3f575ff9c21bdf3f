"""Figures for docs/board-player.md and docs/performance.md: the board's own player (boardplayer) on
the emulated Pico: its think time per play over a whole match, the evaluator's kernels compared
(viper, native, bytecode), the heap with the player loaded and while it thinks, the weights' flash.

    .venv/bin/python scripts/bench/bench_board_player.py [--length 3] [--seed 1] [--xip] [--image UF2]

The match is played first on the host (CPython, the same firmware code: boardplayer.player against
itself at "expert", seeded dice), each play's position and roll kept with the play chosen; the
emulated Pico (scripts/bench/bench_pico.py's emulator, the firmware as .mpy for armv6m in /lib, or
the frozen image with --image) then chooses each play again as the loop does (a slice of plays per
loop step, the real scan + classify between two, main.py's collections while thinking), timed with
time.ticks_us() on the emulated clock, and must choose the host's play. ``--xip``: the flash cache modelled (each miss 44
cycles), as the weights are read from flash in the image.
"""

import argparse
import os
import random
import statistics
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "firmware"))
sys.path.insert(0, os.path.join(ROOT, "scripts", "bench"))

import bench_pico  # noqa: E402


def host_match(length, seed):
    """[(cells hex, d1, d2, length, score, cube, crawford game, post-Crawford, on roll, final hex)]
    of a match the player plays against itself on the host."""
    from bgrules.match import Match, OPENING, ROLL, DOUBLED, PLAY, GAME_OVER, MATCH_OVER
    from bgrules.position import Position
    from boardplayer.player import Player

    rng = random.Random(seed)
    pl = Player("expert")
    m = Match(length=length)
    out = []
    while m.phase != MATCH_OVER:
        ph = m.phase
        if ph == OPENING:
            m.opening_roll(rng.randint(1, 6), rng.randint(1, 6))
        elif ph == ROLL:
            s = m.on_roll
            if m.may_double(s) and pl.double_decision(m, s)[0]:
                m.double(s)
            else:
                m.roll(rng.randint(1, 6), rng.randint(1, 6), s)
        elif ph == DOUBLED:
            getattr(m, pl.take_decision(m, m.to_act))(m.to_act)
        elif ph == PLAY:
            t = m.turn
            final = pl.choose(m)
            if final is not None:
                out.append((bytes(t.start.cells).hex(), t.d1, t.d2, m.length, list(m.score), m.cube,
                            m.crawford_game, m.post_crawford, m.on_roll, final.hex()))
            m.play(Position(final) if final is not None else m.position)
        elif ph == GAME_OVER:
            m.next_game()
    return out


GUEST = r"""
import gc, time, sys
sys.path.insert(0, "/lib")
import main  # everything the firmware imports at boot, as on a board
gc.collect()
free0 = gc.mem_free()
from bgrules.position import Position
from bgrules.turn import Turn
from boardplayer import player as P
from boardplayer import net as N
from drivers.hall import HallScanner
from drivers.classify import Classifier
pl = P.Player("expert")
sc = HallScanner()
cl = Classifier()
gc.collect()
print("HEAP_LOADED", (free0, gc.mem_free(), N.EMITTER))

class M:
    pass

# Each play thought as the loop thinks it (companion.phase_computer.think): a slice of
# P.SLICE plays per loop step, the loop's own scan + classify between two slices, and main.py's
# collection while thinking (every GC_THINKING_EVALUATIONS evaluations); a collection after the
# play, as main.py makes after the answer that shows it.
times = []
same = 0
n = 0
mid = None
least = gc.mem_free()  # the least free heap while thinking (before each collection, and after the play)
least_after = least  # the least after a collection
longest_slice = longest_step = 0
collections = 0
f = open("/data/turns.txt")
for line in f:
    h, d1, d2, length, s0, s1, cube, cg, pc, on_roll, want = line.split()
    d1, d2, length, cube, on_roll = int(d1), int(d2), int(length), int(cube), int(on_roll)
    score, cg, pc = [int(s0), int(s1)], cg == "1", pc == "1"
    n += 1
    if n == 20 or mid is None:  # a position of the middle game for the kernels (the first, in a short run)
        mid = h
    m = M()
    m.turn = Turn(Position(bytes.fromhex(h)), d1, d2)
    m.length, m.score, m.cube, m.crawford_game, m.post_crawford, m.on_roll = length, score, cube, cg, pc, on_roll
    ev = pl.evaluations
    slices = 0
    gc.collect()
    mark = ev
    measuring = 0  # the harness's gc.mem_free() calls (a walk of the heap's table, 7.8 ms), not counted
    t0 = time.ticks_us()
    if pl.begin(m):
        done = False
        while not done:
            t = time.ticks_us()
            done = pl.think()
            t1 = time.ticks_us()
            slices += 1
            cl.update(sc.scan())
            t2 = time.ticks_us()
            if pl.evaluations - mark >= main.GC_THINKING_EVALUATIONS:
                # the heap at its lowest, just before main.py's collection
                fr = gc.mem_free()
                if fr < least:
                    least = fr
                t3 = time.ticks_us()
                measuring += time.ticks_diff(t3, t2)
                gc.collect()
                collections += 1
                mark = pl.evaluations
                t2 = time.ticks_us() - time.ticks_diff(t3, t2)
            if time.ticks_diff(t1, t) > longest_slice:
                longest_slice = time.ticks_diff(t1, t)
            if time.ticks_diff(t2, t) > longest_step:
                longest_step = time.ticks_diff(t2, t)
    fin = pl.choice
    dt = time.ticks_diff(time.ticks_us(), t0) - measuring
    fr = gc.mem_free()  # before the collection after the play (main.py's, after the answer that shows it)
    if fr < least:
        least = fr
    times.append((dt // 1000, pl.evaluations - ev, slices))
    if fin is not None and fin.hex() == want:
        same += 1
    else:
        print("DIFFERENT", (n, h, d1, d2))
    m = None
    gc.collect()
    fr = gc.mem_free()
    if fr < least_after:
        least_after = fr
f.close()
print("THINK", times)
print("SAME", (same, n))
print("HEAP_LEAST", (least, least_after))
print("STEPS", (longest_slice, longest_step, collections))

print("MID", repr(mid))
"""

# the kernels compared in a boot of their own (the bytecode kernels copy the weights into RAM: no
# room for that beside the firmware)
KERNELS = r"""
import gc, time, sys
sys.path.insert(0, "/lib")
from boardplayer import net as N
from boardplayer.net_weights import WEIGHTS
c = bytes.fromhex(%r)
for emitter in ("viper", "native", "bytecode"):
    k = N._compile(emitter)
    n2 = N.Net(WEIGHTS, k)
    n2.raw(c, 26)
    t0 = time.ticks_us()
    for i in range(20):
        n2.raw(c, 26)
    print("KERNEL", (emitter, time.ticks_diff(time.ticks_us(), t0) // 20))
    n2 = k = None
    gc.collect()
"""


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--length", type=int, default=3)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--xip", action="store_true", help="the flash cache modelled (xip_run.mjs)")
    ap.add_argument("--image", help="the firmware image (.uf2) instead of the stock MicroPython with .mpy files")
    ap.add_argument("--turns", type=int, default=0, help="only the first N plays (0: the whole match)")
    a = ap.parse_args(argv)
    turns = host_match(a.length, a.seed)
    if a.turns:
        turns = turns[:a.turns]
    tree = os.path.join(bench_pico.CACHE, "bench_board_player_mpy")
    data = os.path.join(bench_pico.CACHE, "bench_board_player_data")
    os.makedirs(data, exist_ok=True)
    with open(os.path.join(data, "turns.txt"), "w") as f:
        for h, d1, d2, length, score, cube, cg, pc, on_roll, want in turns:
            f.write("%s %d %d %d %d %d %d %d %d %d %s\n" % (h, d1, d2, length, score[0], score[1], cube, cg, pc,
                                                             on_roll, want))
    puts = [(data, "/data")]
    if not a.image:
        bench_pico.compile_tree(tree)
        puts.append((tree, "/lib"))
    out, emu = bench_pico.emulate([("think", GUEST)], puts=puts, image=a.image, xip=a.xip,
                                  max_emu_s=3000, timeout=7200)
    mid = bench_pico.results(out, "MID")[0]
    out2, _ = bench_pico.emulate([("kernels", KERNELS % mid)], puts=puts, image=a.image, xip=a.xip,
                                 max_emu_s=600, timeout=3600)
    loaded = bench_pico.results(out, "HEAP_LOADED")[0]
    think = bench_pico.results(out, "THINK")[0]
    same = bench_pico.results(out, "SAME")[0]
    least, least_after = bench_pico.results(out, "HEAP_LEAST")[0]
    longest_slice, longest_step, collections = bench_pico.results(out, "STEPS")[0]
    kernels = bench_pico.results(out2, "KERNEL")
    for d in bench_pico.results(out, "DIFFERENT"):
        print("  a different play on the Pico: turn %d, %s %d-%d" % d)
    ms = [t for t, _, _ in think]
    evals = [e for _, e, _ in think]
    slices = [k for _, _, k in think]
    from boardplayer.net_weights import WEIGHTS
    from boardplayer.player import SLICE as P_SLICE

    print("emulated Pico (%s%s), %d-point match, seed %d: %d plays" % (
        "image " + os.path.basename(a.image) if a.image else ".mpy in /lib", ", flash cache modelled" if a.xip else "",
        a.length, a.seed, len(think)))
    worst = max(range(len(think)), key=lambda i: ms[i])
    print("  think time per play (slices of %d plays, a scan + classify between, main.py's collections while "
          "thinking): median %d ms, worst %d ms (turn %d, %d-%d: %d positions evaluated in %d slices); "
          "evaluations median %d" % (P_SLICE, statistics.median(ms), ms[worst], worst + 1, turns[worst][1],
                                      turns[worst][2], evals[worst], slices[worst], statistics.median(evals)))
    print("  longest slice %.2f ms; longest loop step while thinking (slice + scan + classify + a collection) "
          "%.2f ms; %d collections while thinking" % (longest_slice / 1000, longest_step / 1000, collections))
    print("  same play as on the host: %d of %d" % same)
    print("  think times (ms): %s" % sorted(ms))
    print("  heap: %d free after a collection with the firmware imported, %d with the player loaded (%s kernel); "
          "least free while thinking (before a collection) %d, least after a play's collection %d" % (
              loaded[0], loaded[1], loaded[2], least, least_after))
    for name, us in kernels:
        print("  one evaluation, %s: %d us" % (name, us))
    print("  weights: %d bytes" % len(WEIGHTS))
    return 0 if same[0] == same[1] else 1


if __name__ == "__main__":
    sys.exit(main())
