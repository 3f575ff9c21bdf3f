"""The computer's error rate at a level, measured the way GNU Backgammon rates a player
(docs/reliability.md, "The computer's level"): matches against the computer on the virtual board
(the automated hands play the person's side and move its checkers as lit), each match's journal
analysed by `bgc analyze` (GNU Backgammon's analysis), and the computer's equity lost per unforced
play and close or actual cube decision (mEMG, GNU Backgammon's "error rate") summed over the
matches. The band it is checked against is GNU Backgammon's rating of the level's name (its
manual's "Overall rating" table: Beginner 26-35 mEMG, ...; bgc.logs.gnubg_player.RATINGS).

    nice .venv/bin/python scripts/reliability/computer_level.py [--level beginner] [--matches 20] \
        [--length 3] [--ply 0] [--seed 1] [--person LEVEL] [--keep DIR] [--json FILE]

The person's side is played by the automated hands' rough chooser (bgc.board.players.choose_play,
a pip-count cube), or with ``--person LEVEL`` by GNU Backgammon at that level (an opponent of a
known strength; the hands still move the checkers). ``--keep DIR`` keeps each match's journal
there, for analysing again (another ply, the gnubg program).

The analysis at 0-ply (the default) measures what the level's noise costs against the same
evaluator without it (the level's own 0-ply net); at 2-ply it is GNU Backgammon's default
analysis, slower by some forty times. The computer plays White and Black in turn.
"""

import argparse
import json
import math
import os
import shutil
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "host"))
sys.path.insert(0, os.path.join(ROOT, "firmware"))

from bgc.board.computer import play_on_sim  # noqa: E402
from bgc.logs import analysis, journals  # noqa: E402
from bgc.logs.gnubg_player import GnubgPlayer, level_band, rating, read_level  # noqa: E402


def measure(level, matches, length, ply=0, seed=1, progress=None, person=None, keep=None):
    """The computer's totals over ``matches`` matches at ``level``: a dict with the per-match rows
    ("side", "seed", "decisions", "error" in EMG, "rate" in mEMG) and the totals. ``person``: the
    level GNU Backgammon plays the person's side at (None: the hands' chooser); ``keep``: a
    directory to copy each match's journal into."""
    rows = []
    with GnubgPlayer(level) as gnu, (GnubgPlayer(person) if person else _Nothing()) as opponent:
        for i in range(matches):
            side = i % 2
            sim, comp, hands = play_on_sim(side, seed + i, length, level, illegal=0.0, player=gnu,
                                           person=opponent if person else None)
            try:
                if sim.serial.last("match_end") is None:
                    raise RuntimeError("match %d (seed %d) did not end" % (i + 1, seed + i))
                log = journals.load(sim.journal_path())
                if keep:
                    os.makedirs(keep, exist_ok=True)
                    shutil.copy(sim.journal_path(), os.path.join(keep, "seed%02d-%s.jnl" % (seed + i, "wb"[side])))
            finally:
                sim.close()
            both = analysis.analyse(log, ply)["players"]
            t = both[side]
            n = t["unforced"] + t["close_cube_decisions"]
            err = t["play_error"] + t["cube_error"]
            rows.append({"side": side, "seed": seed + i, "decisions": n, "unforced": t["unforced"],
                         "cube_decisions": t["close_cube_decisions"], "error": err,
                         "rate": 1000.0 * err / n if n else 0.0, "games": len(log.games),
                         # the person's side: the hands' rough chooser or GNU Backgammon at ``person``
                         "opponent_rate": both[1 - side]["error_rate"]})
            if progress:
                progress(rows[-1])
    n = sum(r["decisions"] for r in rows)
    rate = 1000.0 * sum(r["error"] for r in rows) / n if n else 0.0
    rates = [r["rate"] for r in rows]
    mean = sum(rates) / len(rates)
    sd = math.sqrt(sum((x - mean) ** 2 for x in rates) / (len(rates) - 1)) if len(rates) > 1 else 0.0
    return {"level": read_level(level), "person": read_level(person) if person else "the hands' chooser",
            "matches": matches, "length": length, "ply": ply, "decisions": n,
            "rate": rate, "match_rate_mean": mean, "match_rate_sd": sd, "rating": rating(rate),
            "band": level_band(level), "rows": rows}


class _Nothing:
    def __enter__(self):
        return None

    def __exit__(self, *exc):
        return False


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--level", default="beginner")
    ap.add_argument("--matches", type=int, default=20)
    ap.add_argument("--length", type=int, default=3)
    ap.add_argument("--ply", type=int, default=0, choices=(0, 1, 2))
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--person", metavar="LEVEL", help="GNU Backgammon plays the person's side at this level")
    ap.add_argument("--keep", metavar="DIR", help="keep each match's journal in DIR")
    ap.add_argument("--json", metavar="FILE", help="also write the figures as JSON")
    args = ap.parse_args()
    t0, c0 = time.time(), time.process_time()

    def progress(r):
        print("match seed %d, computer %s: %d games, %d decisions, %.1f mEMG (the person: %.1f)" % (
            r["seed"], "White Black".split()[r["side"]], r["games"], r["decisions"], r["rate"], r["opponent_rate"]),
            flush=True)

    res = measure(args.level, args.matches, args.length, args.ply, args.seed, progress, args.person, args.keep)
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
