"""Figures for docs/performance.md: how long GNU Backgammon as the board's opponent
(bgc.logs.gnubg_player) takes to answer, per level: its play for a roll (a position and dice of a
journaled match) and its decision before a roll (double, or roll: at a level that does not double
it also plays a roll of its own, which the board throws away). Median and worst over the positions,
the child process already started (its start, loading the nets, is timed once apart).

    .venv/bin/python scripts/bench/bench_computer.py [--levels expert "world class"] [--positions 40] [JOURNAL]

Default journal: tests/fixtures/journal_7point.jnl (a 7-point match on the virtual board).
"""

import argparse
import os
import statistics
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from bgc.logs import journals  # noqa: E402
from bgc.logs.gnubg_player import GnubgPlayer, level_names  # noqa: E402
from bgrules.matchid import MatchKey  # noqa: E402


def positions(path, count):
    """(player, Match ID with dice, Match ID before the roll, Position ID) of ``count`` plays of
    the journal, spread over the match, with the cube as it stood and the game's score."""
    log = journals.load(path)
    out = []
    for g in log.games:
        cube, owner = g.start_cube, -1
        for a in g.actions:
            if a["a"] == "take":
                cube, owner = cube * 2, a["p"]
            if a["a"] != "move" or not a.get("dice"):
                continue
            p = a["p"]
            common = dict(cube=cube, cube_owner=owner, on_roll=p, to_act=p, length=log.length,
                          score=tuple(g.score), crawford=g.crawford)
            d = tuple(sorted(a["dice"], reverse=True))
            out.append((p, MatchKey(dice=d, **common).id(), MatchKey(**common).id(), a["start"].id()))
    step = max(1, len(out) // count)
    return out[::step][:count]


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("journal", nargs="?", default=os.path.join(ROOT, "tests", "fixtures", "journal_7point.jnl"))
    ap.add_argument("--levels", nargs="*", default=level_names())
    ap.add_argument("--positions", type=int, default=40)
    args = ap.parse_args()
    pos = positions(args.journal, args.positions)
    print("%d positions of %s; %d cores" % (len(pos), os.path.relpath(args.journal), os.cpu_count()))
    print("| level | start (nets loaded) | play: median | play: worst | before the roll: median | worst |")
    print("|---|---|---|---|---|---|")
    for level in args.levels:
        t = time.perf_counter()
        with GnubgPlayer(level) as gnu:
            start = time.perf_counter() - t
            plays, cubes = [], []
            for p, with_dice, before, position in pos:
                t = time.perf_counter()
                gnu.decide(p, with_dice, position)
                plays.append(time.perf_counter() - t)
                t = time.perf_counter()
                gnu.decide(p, before, position)
                cubes.append(time.perf_counter() - t)
        print("| %s | %.2f s | %.3f s | %.3f s | %.3f s | %.3f s |" % (
            level, start, statistics.median(plays), max(plays), statistics.median(cubes), max(cubes)), flush=True)


if __name__ == "__main__":
    main()
