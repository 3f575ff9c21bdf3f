"""One board's rules questions timed on the emulated Pico: what a lift on that board asks the engine
when the prepared table has no answer (issue 33's slow lifts, docs/performance.md).

    .venv/bin/python scripts/bench/question_pico.py --image IMAGE --variant backwards --id Nw0OByB0+5ACAQ --dice 4-3 --play "4/1*"

The turn starts from the position ID (the player on roll's view, as the journal writes it) with
the dice; ``--play`` first moves checkers (the mid-turn board the questions are about, moves as
"13/8 24/18*"). Asked of the rules engine (bgrules.turn.Turn), on the emulated clock with the flash
cache modelled, each five times (the first with the cache cold; the best and that first shown):

* ``locate`` of the board: does it begin a legal play, with what dice left;
* for each point holding a checker of the player on roll: ``locate`` of the board with that checker
  read as borne off (a checker lifted unseen may have gone off), and ``destinations``, where it may
  go from there.

With ``--image`` the firmware is the image's, its searches as machine code as main.App installs
them (companion.prepared.install_image); without, the stock MicroPython runs the .mpy deploy."""

import argparse
import os
import re
import shutil
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import bench_pico  # noqa: E402
from bench_pico import ROOT, BenchError  # noqa: E402

GUEST = r"""
from time import ticks_us, ticks_diff
from bgrules import Position, Turn
from bgrules.rules import ruleset
if IMAGE:
    from companion import prepared, search_fast
    prepared.install()
    search_fast.install()
R = ruleset(VARIANT)
T = (R.turn or Turn)(Position.from_id(START, R.opposite), D1, D2, R)
board = bytearray(BOARD)

def timed(name, ask):
    first = best = None
    for _ in range(5):
        t = ticks_us()
        answer = ask()
        d = ticks_diff(ticks_us(), t)
        if first is None:
            first = d
        if best is None or d < best:
            best = d
    print("QUESTION %s|%d|%d|%r" % (name, best, first, answer))

timed("locate(board)", lambda: T.locate(board))
options = T.locate(board)
for p in range(25, 0, -1):
    if board[p]:
        off = bytearray(board)
        off[p] -= 1
        off[0] += 1
        timed("locate(%d read as off)" % p, lambda: T.locate(off))
        timed("destinations(board, %d)" % p, lambda: T.destinations(board, p, options))
"""


def board_of(variant, position_id, play):
    """The turn's start position and the board after ``play`` (bgc's notation reader), as bytes."""
    for path in (os.path.join(ROOT, "firmware"), os.path.join(ROOT, "host")):
        if path not in sys.path:
            sys.path.insert(0, path)
    from bgrules import Position
    from bgrules.rules import ruleset
    from bgc.rules.notation_read import apply_moves

    rules = ruleset(variant)
    start = Position.from_id(position_id, rules.opposite)
    board = apply_moves(start, play, rules.opposite) if play else start
    return bytes(board.cells)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--image", help="the firmware image (scripts/build/build_image.sh); default: the .mpy deploy")
    ap.add_argument("--variant", default="standard")
    ap.add_argument("--id", required=True, help="the turn's start, a position ID (the player on roll's view)")
    ap.add_argument("--dice", required=True, help="e.g. 4-3")
    ap.add_argument("--play", default="", help='moves made before the questions, e.g. "4/1*"')
    args = ap.parse_args(argv)
    m = re.fullmatch(r"([1-6])-([1-6])", args.dice)
    if not m:
        print("question_pico: --dice is two dice as 4-3, got %r" % args.dice, file=sys.stderr)
        return 2
    try:
        board = board_of(args.variant, args.id, args.play)
    except (ValueError, KeyError) as exc:
        print("question_pico: %s" % exc, file=sys.stderr)
        return 2
    guest = "IMAGE = %r\nVARIANT = %r\nSTART = %r\nD1 = %s\nD2 = %s\nBOARD = %r\n" % (
        bool(args.image), args.variant, args.id, m.group(1), m.group(2), board) + GUEST
    work = tempfile.mkdtemp(prefix="question_pico-", dir=bench_pico.CACHE if os.path.isdir(bench_pico.CACHE) else None)
    try:
        puts = []
        if not args.image:
            puts = [(bench_pico.compile_tree(os.path.join(work, "lib")), "/lib")]
            guest = "import sys\nsys.path.insert(0, '/lib')\n" + guest
        out, _ = bench_pico.emulate([("questions", guest)], puts=puts, image=args.image, xip=True)
    except BenchError as exc:
        print("question_pico: %s" % exc, file=sys.stderr)
        return 1
    finally:
        shutil.rmtree(work, ignore_errors=True)
    print("%s, %s, %s%s, on %s (flash cache modelled): best of 5 / first, emulated us" % (
        args.variant, args.id, args.dice, " after " + args.play if args.play else "",
        os.path.basename(args.image) if args.image else "the .mpy deploy"))
    for line in out.splitlines():
        if line.startswith("QUESTION "):
            name, best, first, answer = line[len("QUESTION "):].split("|", 3)
            print("  %-28s %7s %7s  %s" % (name, best, first, answer))
    return 0


if __name__ == "__main__":
    sys.exit(main())
