"""Where an answer's time goes on the emulated Pico: bench_pico.py's whole-match harness with the
firmware's main methods timed.

    .venv/bin/python scripts/bench/profile_pico.py --image IMAGE [--variant backwards] [--max-turns 37]

Before the match program runs, the methods named in TIMED (the controller's frame answer and its
parts, the tracker's questions, the prepared table's lookups, the rules engine's searches, the
game screen) are wrapped, each with a ``ticks_us()`` timer on the emulated clock. Printed at the
end: per method its calls, total, mean and worst (inclusive: a method's time holds the timed
methods it calls), and for each frame answer over ``--slow-ms`` and each button answer (DONE, a
roll) over ``--slow-button-ms`` (the first 12 of each) what each method took in it. The timers cost a little each (a call and two clock reads): the answers are slower
than bench_pico.py's, so read the shares, not the digits (docs/performance.md quotes
bench_pico.py's). The flash cache model (--xip) and the device time (--device-time) are on, as in
docs/performance.md's whole matches; only the firmware image is profiled (its tracker, search and
screen are the image's own: companion.prepared.install_image).

Each timer is one more Python call on the Pico's C stack, which MicroPython's rp2 port also uses
for every Python call: in Backwards a search reached the recursion limit with the timers of the
tracker's, the table's and the engine's questions all on (turn 36 of the bench's match);
``--no-engine`` leaves the table's and the engine's methods untimed."""

import argparse
import os
import shutil
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import bench_pico  # noqa: E402
from bench_pico import ROOT, BenchError  # noqa: E402
from bgc.board.bench_guest import choose_plays, match_step  # noqa: E402

# (module, class or None for the module's function, names): the classes are the base ones, so
# the image's subclasses (companion.tracker_fast.FastTracker) are timed where they do not override
TIMED = (
    ("companion.controller", "Companion", ("_moving_frame", "render", "_hint", "say", "emit", "status", "_act",
                                           "write_record", "_enter")),
    ("companion.phase_moving", "MovingPhase", ("_done", "_play")),
    ("bgrules.match", "Match", ("play", "dumps")),
    ("companion.tracker", "Tracker", ("update", "read", "_explain", "_lifted", "_locate", "_in_hand",
                                      "_search_ranged", "_is_complete", "final")),
    ("companion.prepared", "Prepared", ("locate", "destinations", "is_legal")),
    ("bgrules.turn", "Turn", ("locate", "destinations", "is_legal")),
)

GUEST_BEFORE = r"""
from time import ticks_us, ticks_diff
PROF = {}
SLOW_FRAMES = []
SLOW_BUTTONS = []

def _add(label, d):
    e = PROF.get(label)
    if e is None:
        PROF[label] = [d, 1, d]
    else:
        e[0] += d
        e[1] += 1
        if d > e[2]:
            e[2] = d

def _timed(f, label):
    def w(*a):
        t = ticks_us()
        try:
            return f(*a)
        finally:
            _add(label, ticks_diff(ticks_us(), t))
    return w

for _mod, _cls, _names in TIMED:
    _m = __import__(_mod, None, None, ["x"])
    _c = getattr(_m, _cls)
    for _n in _names:
        if hasattr(_c, _n):
            setattr(_c, _n, _timed(getattr(_c, _n), _cls + "." + _n))

import companion.controller as _C

def _answered(label, d, before, slow_us, slow):
    # an answer's time counted, and its parts listed when it took over ``slow_us`` (the first 12)
    _add(label, d)
    if d > slow_us and len(slow) < 12:
        slow.append((d, [(k, v[0] - before.get(k, 0)) for k, v in PROF.items()
                         if v[0] != before.get(k, 0) and k != label]))

# (one wrapper each, with the answers' own arguments: a wrapper taking *args used more of the C
# stack, and Eureka's searches then reached the recursion limit)
_on_frame = _C.Companion.on_frame
_on_button = _C.Companion.on_button

def _frame(self, frame, now):
    before = {k: v[0] for k, v in PROF.items()}
    t = ticks_us()
    _on_frame(self, frame, now)
    _answered("Companion.on_frame", ticks_diff(ticks_us(), t), before, SLOW_US_PROFILE, SLOW_FRAMES)

def _button(self, button, kind, now):
    before = {k: v[0] for k, v in PROF.items()}
    t = ticks_us()
    _on_button(self, button, kind, now)
    _answered("Companion.on_button", ticks_diff(ticks_us(), t), before, SLOW_US_BUTTON, SLOW_BUTTONS)

_C.Companion.on_frame = _frame
_C.Companion.on_button = _button

# the game screen: display.game as companion.display_fast installs it on the image
import companion.display as _D
import companion.display_fast as _DF
_install = _DF.install

def _install_timed():
    _install()
    _D.game = _timed(_D.game, "display.game")

_DF.install = _install_timed
"""

GUEST_AFTER = r"""
for _k in sorted(PROF):
    _e = PROF[_k]
    print("PROFILE %s: %d calls, %d us, mean %d us, worst %d us" % (_k, _e[1], _e[0], _e[0] // _e[1], _e[2]))
for _d, _parts in SLOW_FRAMES:
    print("SLOW_FRAME %d us: %s" % (_d, ", ".join("%s %d" % p for p in sorted(_parts, key=lambda p: -p[1]))))
for _d, _parts in SLOW_BUTTONS:
    print("SLOW_BUTTON %d us: %s" % (_d, ", ".join("%s %d" % p for p in sorted(_parts, key=lambda p: -p[1]))))
"""


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--image", required=True, help="the firmware image (scripts/build/build_image.sh)")
    ap.add_argument("--variant", default="standard")
    ap.add_argument("--max-turns", type=int, default=12, help="the match's first turns (0: all)")
    ap.add_argument("--slow-ms", type=float, default=9.0, help="frame answers listed with their parts")
    ap.add_argument("--slow-button-ms", type=float, default=45.0,
                    help="button answers (DONE, roll...) listed with their parts")
    ap.add_argument("--idle-roll", type=int, default=1000)
    ap.add_argument("--idle-step", type=int, default=300)
    ap.add_argument("--no-engine", action="store_true", help="the table's and the rules engine's methods untimed")
    args = ap.parse_args(argv)
    timed = tuple(t for t in TIMED if not (args.no_engine and t[0] in ("companion.prepared", "bgrules.turn")))
    work = tempfile.mkdtemp(prefix="profile_pico-", dir=bench_pico.CACHE if os.path.isdir(bench_pico.CACHE) else None)
    try:
        tree = bench_pico.compile_tree(os.path.join(work, "lib"),
                                       [os.path.join(ROOT, "host", "bgc", "board", "virtual", "frames.py")],
                                       firmware=False)
        with tempfile.TemporaryDirectory() as tmp:
            plays = choose_plays(tmp, args.variant, args.max_turns)
        if args.max_turns:
            plays = plays[: args.max_turns]
        data = os.path.join(work, "data")
        bench_pico.write_data(data, [], plays)
        guest = ("TIMED = %r\nSLOW_US_PROFILE = %d\nSLOW_US_BUTTON = %d\n" % (
            timed, int(args.slow_ms * 1000), int(args.slow_button_ms * 1000)) + GUEST_BEFORE
                 + match_step("/journal", "/data/plan.txt", args.variant, args.idle_roll, args.idle_step) + GUEST_AFTER)
        out, _ = bench_pico.emulate([("boot", bench_pico.BOOT), ("match", guest)], puts=[(tree, "/lib"), (data, "/data")],
                                    image=args.image, xip=True, device=True)
    except BenchError as exc:
        print("profile_pico: %s" % exc, file=sys.stderr)
        return 1
    finally:
        shutil.rmtree(work, ignore_errors=True)
    match = bench_pico.results(out, "MATCH")[0]
    print("%s, %d turns on the image (%s): frame answers %d, median %.2f ms, worst %.2f ms (with the timers)" % (
        args.variant, match["turns"], os.path.basename(args.image), match["frame"][0], match["frame"][3] / 1000,
        match["frame"][2] / 1000))
    for line in out.splitlines():
        if line.startswith(("PROFILE ", "SLOW_FRAME ", "SLOW_BUTTON ")):
            print(line)
    return 0


if __name__ == "__main__":
    sys.exit(main())
