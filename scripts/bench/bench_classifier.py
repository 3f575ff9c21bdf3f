"""Classifier error rate over a long game-like run on the virtual board (default 100,000 frames).

    .venv/bin/python scripts/bench/bench_classifier.py [frames] [seed]
"""
import os
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "host"))
sys.path.insert(0, os.path.join(ROOT, "firmware"))

from bgc.board.virtual import soak  # noqa: E402


def main(argv):
    frames = int(argv[1]) if len(argv) > 1 else 100000
    seed = int(argv[2]) if len(argv) > 2 else 1
    t = time.perf_counter()
    r = soak.run(frames=frames, seed=seed)
    dt = time.perf_counter() - t
    print("frames:            %d (seed %d, %.1f virtual minutes)" % (frames, seed, frames * 0.01 / 60))
    print("settled cell-frames checked: %d" % r["cells_checked"])
    print("wrong stable cells (colour/empty): %d  rate %.2e" % (r["cell_errors"], r["cell_errors"] / max(1, r["cells_checked"])))
    print("wrong stack level (1 vs 2+):       %d  rate %.2e" % (r["stack_errors"], r["stack_errors"] / max(1, r["cells_checked"])))
    for e in r["examples"]:
        print("  frame %d cell %d: %d checker(s), state %d, raw %d, baseline %d" % e)
    print("host time: %.1f s (CPython)" % dt)
    return 0 if r["cell_errors"] == 0 else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))
