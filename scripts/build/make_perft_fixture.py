"""Regenerate tests/fixtures/perft.json: GNU Backgammon's counts of distinct legal plays.

Usage: .venv/bin/python scripts/build/make_perft_fixture.py
The counts come from GNU Backgammon's generator (gnubg-nn), not from our engine.
"""

import json
import os
import sys

from bgc.rules.gnubg_ref import random_positions, reference_results

DOCUMENTED = [
    ("4HPwATDgc/ABMA", "the standard start"),
    ("aDcQID2kUqkKKg", "1,777 plays with 1-1 (GNU Backgammon's count, quoted in the issue)"),
]


def main():
    rows = []
    positions = [(pid, why) for pid, why in DOCUMENTED]
    positions += [(pid, "random game position, seed 7") for pid, _, _ in random_positions(30, seed=7)]
    for pid, why in positions:
        counts = {}
        for a in range(1, 7):
            for b in range(1, a + 1):
                counts["%d-%d" % (a, b)] = len(reference_results(pid, a, b))
        rows.append({"position": pid, "what": why, "plays": counts})
    path = os.path.join(os.path.dirname(__file__), "..", "..", "tests", "fixtures", "perft.json")
    with open(path, "w") as f:
        json.dump(rows, f, indent=1)
    print("wrote %d positions to %s" % (len(rows), path), file=sys.stderr)


if __name__ == "__main__":
    main()
