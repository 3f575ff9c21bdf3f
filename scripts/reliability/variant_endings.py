"""Does every game of every variant end? (issue 22, "Games that never end"; docs/variants.md)

    .venv/bin/python scripts/reliability/variant_endings.py [--seeds 20] [--board] [--variants k1,k2] [--limit 3000]

The demo: `bgc demo --variant KEY --seed S` for each seed (random legal plays by the rules
engine's Match), a game counted as endless after ``--limit`` plays or passes. ``--board``: also
`bgc sim --demo --fast --quiet --variant KEY --seed S`, the firmware on the virtual board played
by the humanlike automated players (its own limit: an hour of play on the board). Prints, per
variant, the games that ended, the longest in plays, and the host time; exit 1 if any did not end.
(On the board, Doublets' hands take towers apart, stack them and lift them off whole.)
"""
import argparse
import os
import random
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "host"))
sys.path.insert(0, os.path.join(ROOT, "firmware"))

from bgc.commands.demo import play_game  # noqa: E402
from bgrules.match import Match  # noqa: E402
from bgrules.rules import VARIANTS, ruleset  # noqa: E402


class Endless(Exception):
    pass


def demo_game(rules, seed, limit):
    """Plays of `bgc demo`'s game, or None when it has not ended after ``limit`` plays or passes."""
    passes = [0]
    real = Match.pass_turn

    def counted(m, player=None):
        passes[0] += 1
        if passes[0] >= limit:
            raise Endless()
        return real(m, player)

    Match.pass_turn = counted
    try:
        plays = 0
        for item in play_game(random.Random(seed), rules):
            if len(item) == 4:
                return plays
            plays += 1
            if plays >= limit:
                return None
    except Endless:
        return None
    finally:
        Match.pass_turn = real
    return None


def board_game(key, seed):
    """(ended, turns) of `bgc sim --demo` for one seed."""
    cmd = [sys.executable, "-m", "bgc", "sim", "--demo", "--fast", "--quiet", "--variant", key, "--seed", str(seed)]
    r = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True)
    turns = 0
    for line in r.stdout.splitlines():
        if line.endswith("false illegal flags") and line.split()[0].isdigit():
            turns = int(line.split()[0])
    return r.returncode == 0 and "Match over" in r.stdout, turns


def main(argv):
    ap = argparse.ArgumentParser()
    ap.add_argument("--seeds", type=int, default=20)
    ap.add_argument("--board", action="store_true")
    ap.add_argument("--variants", default=",".join(VARIANTS))
    ap.add_argument("--limit", type=int, default=3000)
    args = ap.parse_args(argv)
    bad = 0
    print("%-16s %-6s %8s %10s %8s" % ("variant", "where", "ended", "longest", "host s"))
    for key in args.variants.split(","):
        rules = ruleset(key)
        t = time.perf_counter()
        lengths = [demo_game(rules, seed, args.limit) for seed in range(args.seeds)]
        ended = [n for n in lengths if n is not None]
        bad += len(lengths) - len(ended)
        print("%-16s %-6s %5d/%-3d %10d %8.1f" % (key, "demo", len(ended), len(lengths), max(ended or [0]),
                                                time.perf_counter() - t))
        sys.stdout.flush()
        if args.board:
            t = time.perf_counter()
            runs = [board_game(key, seed) for seed in range(args.seeds)]
            ok = [turns for done, turns in runs if done]
            bad += len(runs) - len(ok)
            print("%-16s %-6s %5d/%-3d %10d %8.1f" % (key, "board", len(ok), len(runs), max(ok or [0]),
                                                    time.perf_counter() - t))
            sys.stdout.flush()
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
