"""bgc bench: how fast the engine answers the board's three questions, under MicroPython and CPython.

The three answers: at the roll, prepare the turn (how many dice can be played); for a mid-turn
frame, is it the start of a legal play and where may a lifted checker land; at DONE, is the final
position legal and if not why. Times under MicroPython (WebAssembly) predict Pico times: about 50x
(see docs/performance.md and ../shared/pico-costs.md).
"""

import random
import statistics
import time

from bgrules import Position, Turn

from ..errors import UserError, shown
from ..rules.engine import read_die, read_position

HARD = [("aDcQID2kUqkKKg", 1, 1), ("aDcQID2kUqkKKg", 2, 2), ("aDcQID2kUqkKKg", 3, 3)]

MPY_PROGRAM = r"""
import time, gc
from bgrules import Position, Turn
def best(f):
    t_best = 1 << 30
    for _ in range(REPEAT):
        t = time.ticks_us()
        f()
        t = time.ticks_diff(time.ticks_us(), t)
        if t < t_best:
            t_best = t
    return t_best
def fresh(turn):  # a Turn keeps the last legal play it found: a repeat must search again
    turn._last = None
    return turn
for pid, a, b, mid, lifted, good, bad in CASES:
    start = Position.from_id(pid)
    mid = Position.from_id(mid)
    good = Position.from_id(good)
    bad = Position.from_id(bad)
    gc.collect()
    before = gc.mem_alloc()
    turn = Turn(start, a, b)
    turn.locate(mid)
    turn.destinations(mid, lifted)
    turn.check(good)
    turn.check(bad)
    heap = gc.mem_alloc() - before
    r = best(lambda: Turn(start, a, b))
    f = best(lambda: (turn.locate(mid), turn.destinations(mid, lifted)))
    d = max(best(lambda: fresh(turn).check(good)), best(lambda: fresh(turn).check(bad)))
    print("%d %d %d %d" % (r, f, d, heap))
"""


def register(sub):
    p = sub.add_parser("bench", help="measure the engine's answers under MicroPython and CPython")
    p.add_argument("--position", nargs=3, metavar=("POSITION_ID", "D1", "D2"), help="measure one position")
    p.add_argument("--games", type=int, default=150, help="random-game positions for the median (default 150)")
    p.add_argument("--repeat", type=int, default=3, help="best of N timings per answer")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--no-gnubg", action="store_true", help="skip the comparison with GNU Backgammon's generator")
    from ..board import bench_board

    bench_board.register_options(p)
    p.set_defaults(func=run)


def make_case(pid, a, b, rng):
    """The frames of one turn: a mid-turn position after one step, the checker lifted next, a legal
    final position and an illegal one (the play stopped one step short)."""
    start = Position.from_id(pid)
    turn = Turn(start, a, b)
    plays = turn.plays()
    if not plays:
        return (pid, a, b, pid, 25 if start.cells[25] else 6, pid, pid)
    play = plays[rng.randrange(len(plays))]
    mid = start.copy()
    src, dst, hit = play.steps[0]
    _step(mid, src, dst)
    lifted = play.steps[1][0] if len(play.steps) > 1 else src
    if not mid.cells[lifted]:
        lifted = src if mid.cells[src] else dst
    bad = mid if len(play.steps) > 1 else start
    return (pid, a, b, mid.id(), lifted, play.position.id(), bad.id())


def _step(pos, src, dst):
    c = pos.cells
    c[src] -= 1
    if dst:
        o = 26 + 25 - dst
        if c[o] == 1:
            c[o] = 0
            c[51] += 1
        c[dst] += 1
    else:
        c[0] += 1


def cpython_times(cases, repeat):
    rows = []
    for pid, a, b, mid, lifted, good, bad in cases:
        start, mid_p, good_p, bad_p = (Position.from_id(x) for x in (pid, mid, good, bad))
        turn = Turn(start, a, b)

        def best(f):
            t_best = None
            for _ in range(repeat):
                t = time.perf_counter()
                f()
                t = time.perf_counter() - t
                t_best = t if t_best is None or t < t_best else t_best
            return t_best * 1e6

        r = best(lambda: Turn(start, a, b))
        f = best(lambda: (turn.locate(mid_p), turn.destinations(mid_p, lifted)))
        d = max(best(lambda: fresh(turn).check(good_p)), best(lambda: fresh(turn).check(bad_p)))
        rows.append((r, f, d, 0))
    return rows


def fresh(turn):
    """``turn`` without the last legal play it keeps (Turn._last): a repeated check searches again."""
    turn._last = None
    return turn


def micropython_times(cases, repeat):
    from ..pico import upy

    code = "REPEAT = %d\nCASES = %r\n" % (repeat, cases) + MPY_PROGRAM
    # A heap large enough that no collection falls inside a case: the allocation figure is then
    # what the answers allocate (the heap the cases' literal takes is no Pico's concern).
    out = upy.run(code, heap_kb=4096).split("\n")
    return [tuple(int(x) for x in line.split()) for line in out if line.strip()]


def gnubg_ratio(cases):
    """Plays per second: our `moves --batch` line function against GNU Backgammon's generator."""
    try:
        from ..rules.gnubg_ref import reference_results
    except ImportError:
        return None
    from .moves import batch_line

    lines = ["%s %d %d" % (pid, a, b) for pid, a, b, *_ in cases]
    t = time.perf_counter()
    ours = sum(len(batch_line(line).split()) for line in lines)
    t_ours = time.perf_counter() - t
    t = time.perf_counter()
    theirs = sum(len(reference_results(pid, a, b)) for pid, a, b, *_ in cases)
    t_theirs = time.perf_counter() - t
    return ours / t_ours, theirs / t_theirs, ours == theirs


def _summary(label, rows, hard_rows):
    med = [statistics.median(r[i] for r in rows) for i in range(3)]
    worst = [max(r[i] for r in rows + hard_rows) for i in range(3)]
    print("%-11s median: roll %.3f ms  frame %.3f ms  done %.3f ms" % (label, med[0] / 1000, med[1] / 1000, med[2] / 1000))
    print("%-11s worst:  roll %.3f ms  frame %.3f ms  done %.3f ms" % (label, worst[0] / 1000, worst[1] / 1000, worst[2] / 1000))
    return med, worst


def _check_arguments(args):
    for name, value, top in (("--games", args.games, 100000), ("--repeat", args.repeat, 1000)):
        if not 1 <= value <= top:
            raise UserError("%s must be a number from 1 to %d, got %s\nhint: the defaults (--games 150 "
                            "--repeat 3) take about a minute" % (name, top, shown(value, 10)))


def run(args):
    if args.port:
        from ..board import bench_board

        return bench_board.run(args)
    _check_arguments(args)
    rng = random.Random(args.seed)
    if args.position:
        pid = read_position(args.position[0]).id()
        cases = [make_case(pid, read_die(args.position[1]), read_die(args.position[2]), rng)]
        hard = []
    else:
        from ..rules.gnubg_ref import random_positions

        cases = [make_case(pid, a, b, rng) for pid, a, b in random_positions(args.games, seed=args.seed)]
        hard = [make_case(pid, a, b, rng) for pid, a, b in HARD]
    print("positions: %d from random games, %d hard ones" % (len(cases), len(hard)))
    cpy = cpython_times(cases + hard, args.repeat)
    _summary("CPython", cpy[: len(cases)], cpy[len(cases) :])
    mpy = micropython_times(cases + hard, args.repeat)
    med, worst = _summary("MicroPython", mpy[: len(cases)], mpy[len(cases) :])
    heap = max(r[3] for r in mpy)
    print("Pico: scripts/bench/bench_pico.py measures these answers on an emulated Pico")
    if not args.no_gnubg and not args.position:
        ratio = gnubg_ratio(cases + hard)
        if ratio:
            print("moves --batch: %.0f plays/s; GNU Backgammon's generator: %.0f plays/s (ratio %.2f), same plays: %s"
                  % (ratio[0], ratio[1], ratio[0] / ratio[1], ratio[2]))
    print("roll_ms=%.3f frame_ms=%.3f done_ms=%.3f peak_heap_kb=%.1f" % (worst[0] / 1000, worst[1] / 1000, worst[2] / 1000, heap / 1024))
    return 0
