"""Figures for docs/board-player.md and docs/performance.md: the board's own player (boardplayer) on
the emulated Pico: its think time per play over a whole match, the evaluator's kernels compared
(viper, native, bytecode), the heap with the player loaded and while it thinks, the weights' flash.

    .venv/bin/python scripts/bench/bench_board_player.py [--length 3] [--seed 1] [--xip] [--image UF2]

The match is played first on the host (CPython, the same firmware code: boardplayer.player against
itself at "expert", seeded dice), each play's position and roll kept with the play chosen; the
emulated Pico (scripts/bench/bench_pico.py's emulator, the firmware as .mpy for armv6m in /lib, or
the frozen image with --image) then chooses each play again, timed with time.ticks_us() on the
emulated clock, and must choose the host's play. ``--xip``: the flash cache modelled (each miss 44
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
pl = P.Player("expert")
gc.collect()
print("HEAP_LOADED", (free0, gc.mem_free(), N.EMITTER))

class M:
    pass

times = []
same = 0
n = 0
mid = None
least = gc.mem_free()
f = open("/data/turns.txt")
for line in f:
    h, d1, d2, length, s0, s1, cube, cg, pc, on_roll, want = line.split()
    d1, d2, length, cube, on_roll = int(d1), int(d2), int(length), int(cube), int(on_roll)
    score, cg, pc = [int(s0), int(s1)], cg == "1", pc == "1"
    n += 1
    if n == 20:
        mid = h
    m = M()
    m.turn = Turn(Position(bytes.fromhex(h)), d1, d2)
    m.length, m.score, m.cube, m.crawford_game, m.post_crawford, m.on_roll = length, score, cube, cg, pc, on_roll
    ev = pl.evaluations
    t0 = time.ticks_us()
    fin = pl.choose(m)
    dt = time.ticks_diff(time.ticks_us(), t0)
    times.append((dt // 1000, pl.evaluations - ev))
    if fin is not None and fin.hex() == want:
        same += 1
    else:
        print("DIFFERENT", (n, h, d1, d2))
    m = None
    gc.collect()
    fr = gc.mem_free()
    if fr < least:
        least = fr
f.close()
print("THINK", times)
print("SAME", (same, n))
print("HEAP_LEAST", least)

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
    least = bench_pico.results(out, "HEAP_LEAST")[0]
    kernels = bench_pico.results(out2, "KERNEL")
    for d in bench_pico.results(out, "DIFFERENT"):
        print("  a different play on the Pico: turn %d, %s %d-%d" % d)
    ms = [t for t, _ in think]
    evals = [e for _, e in think]
    from boardplayer.net_weights import WEIGHTS

    print("emulated Pico (%s%s), %d-point match, seed %d: %d plays" % (
        "image " + os.path.basename(a.image) if a.image else ".mpy in /lib", ", flash cache modelled" if a.xip else "",
        a.length, a.seed, len(think)))
    print("  think time per play: median %d ms, worst %d ms (%d positions evaluated at most; median %d)" % (
        statistics.median(ms), max(ms), max(evals), statistics.median(evals)))
    print("  same play as on the host: %d of %d" % same)
    print("  think times (ms): %s" % sorted(ms))
    print("  heap (after a collection): %d free with the firmware imported, %d with the player loaded (%s kernel), "
          "least after a play %d" % (
        loaded[0], loaded[1], loaded[2], least))
    for name, us in kernels:
        print("  one evaluation, %s: %d us" % (name, us))
    print("  weights: %d bytes" % len(WEIGHTS))
    return 0 if same[0] == same[1] else 1


if __name__ == "__main__":
    sys.exit(main())
