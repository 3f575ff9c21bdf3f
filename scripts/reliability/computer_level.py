"""The computer's error rate at a level, measured the way GNU Backgammon rates a player
(docs/reliability.md, "The computer's level"): matches against the computer on the virtual board
(the automated hands play the person's side and move its checkers as lit), each match's journal
analysed by `bgc analyze` (GNU Backgammon's analysis), and the computer's equity lost per unforced
play and close or actual cube decision (mEMG, GNU Backgammon's "error rate") summed over the
matches. The band it is checked against is GNU Backgammon's rating of the level's name (its
manual's "Overall rating" table: Beginner 26-35 mEMG, ...; bgc.logs.gnubg_player.RATINGS).

    nice .venv/bin/python scripts/reliability/computer_level.py [--level beginner] [--matches 20] \
        [--length 3] [--ply 0] [--seed 1] [--json FILE]

The analysis at 0-ply (the default) measures what the level's noise costs against the same
evaluator without it (the level's own 0-ply net); at 2-ply it is GNU Backgammon's default
analysis, slower by some forty times. The computer plays White and Black in turn.
"""

import argparse
import json
import math
import os
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "host"))
sys.path.insert(0, os.path.join(ROOT, "firmware"))

from bgc.board.computer import play_on_sim  # noqa: E402
from bgc.logs import analysis, journals  # noqa: E402
from bgc.logs.gnubg_player import GnubgPlayer, level_band, rating, read_level  # noqa: E402


def measure(level, matches, length, ply=0, seed=1, progress=None):
    """The computer's totals over ``matches`` matches at ``level``: a dict with the per-match rows
    ("side", "seed", "decisions", "error" in EMG, "rate" in mEMG) and the totals."""
    rows = []
    with GnubgPlayer(level) as gnu:
        for i in range(matches):
            side = i % 2
            sim, comp, hands = play_on_sim(side, seed + i, length, level, illegal=0.0, player=gnu)
            try:
                if sim.serial.last("match_end") is None:
                    raise RuntimeError("match %d (seed %d) did not end" % (i + 1, seed + i))
                log = journals.load(sim.journal_path())
            finally:
                sim.close()
            both = analysis.analyse(log, ply)["players"]
            t = both[side]
            n = t["unforced"] + t["close_cube_decisions"]
            err = t["play_error"] + t["cube_error"]
            rows.append({"side": side, "seed": seed + i, "decisions": n, "unforced": t["unforced"],
                         "cube_decisions": t["close_cube_decisions"], "error": err,
                         "rate": 1000.0 * err / n if n else 0.0, "games": len(log.games),
                         # the automated hands' (bgc.board.players.choose_play, a rough chooser)
                         "opponent_rate": both[1 - side]["error_rate"]})
            if progress:
                progress(rows[-1])
    n = sum(r["decisions"] for r in rows)
    rate = 1000.0 * sum(r["error"] for r in rows) / n if n else 0.0
    rates = [r["rate"] for r in rows]
    mean = sum(rates) / len(rates)
    sd = math.sqrt(sum((x - mean) ** 2 for x in rates) / (len(rates) - 1)) if len(rates) > 1 else 0.0
    return {"level": read_level(level), "matches": matches, "length": length, "ply": ply, "decisions": n,
            "rate": rate, "match_rate_mean": mean, "match_rate_sd": sd, "rating": rating(rate),
            "band": level_band(level), "rows": rows}


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--level", default="beginner")
    ap.add_argument("--matches", type=int, default=20)
    ap.add_argument("--length", type=int, default=3)
    ap.add_argument("--ply", type=int, default=0, choices=(0, 1, 2))
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--json", metavar="FILE", help="also write the figures as JSON")
    args = ap.parse_args()
    t0, c0 = time.time(), time.process_time()

    def progress(r):
        print("match seed %d, computer %s: %d games, %d decisions, %.1f mEMG (the hands: %.1f)" % (
            r["seed"], "White Black".split()[r["side"]], r["games"], r["decisions"], r["rate"], r["opponent_rate"]),
            flush=True)

    res = measure(args.level, args.matches, args.length, args.ply, args.seed, progress)
    band = res["band"]
    print("\n%s, %d %d-point matches, analysed at %d-ply: %d decisions, error rate %.1f mEMG (GNU Backgammon's "
          "rating: %s); per match %.1f +- %.1f mEMG" % (res["level"], args.matches, args.length, args.ply,
                                                        res["decisions"], res["rate"], res["rating"],
                                                        res["match_rate_mean"], res["match_rate_sd"]))
    if band:
        inside = band[0] <= res["rate"] < band[1]
        print("band of the rating named %r: %g-%g mEMG: %s" % (res["level"], band[0], band[1], "inside" if inside else "OUTSIDE"))
    print("wall %.0f s, this process's CPU %.0f s (the engine's child processes apart)" % (
        time.time() - t0, time.process_time() - c0))
    if args.json:
        with open(args.json, "w") as f:
            json.dump(res, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
