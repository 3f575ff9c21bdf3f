"""Simulated games with the documented sensor noise and human handling: count false illegal
flags (docs/reliability.md).

Each game is a 1-point match of two automated players on the virtual board (the reference build's
noise, offsets, gain spread and drift; hardware/calibration.md) running the real firmware. The
hands slide checkers over the points in between, hesitate low over the destination, wander over
a neighbouring point, put a checker down half-way through a move, and hit either by taking the
blot off first ("blot first") or by putting their checker down first and then taking the blot
off ("checker first"). Nobody makes a wrong move on purpose, so every ``illegal`` event the
firmware sends is a false flag; each one is reported with the handling that preceded it.

    .venv/bin/python scripts/reliability_games.py --games 1000 [--jobs 2] [--hits both|checker-first|blot-first]
"""

import argparse
import collections
import multiprocessing
import os
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "host"))
sys.path.insert(0, os.path.join(ROOT, "firmware"))

HITS = {"both": 0.5, "checker-first": 1.0, "blot-first": 0.0}


def play_game(seed, hits="both", max_frames=300000):
    from bgc.board import players as P
    from bgc.board import sim as S

    t0 = time.perf_counter()
    s = S.Sim(seed=seed)
    try:
        pl = P.Players(s, seed=seed, handling=P.Handling(illegal=0.0, mixed_hit=HITS[hits]), cube=False)
        s.run_ms(50)
        s.serial.send("new length=1")
        frames = 0
        while not pl.finished and frames < max_frames:
            s.step()
            frames += 1
        flags = []
        for f in pl.false_flags:
            flags.append({"seed": seed, "at": f["at"], "reason": f["reason"], "pos": f["pos"], "dice": f["dice"],
                          "play": f["play"], "cause": classify(f), "recent": f["recent"][-4:]})
        return {"seed": seed, "finished": pl.finished, "frames": frames, "turns": pl.stats["turns"],
                "moves": pl.stats["checker_moves"], "flags": flags, "asks": pl.stats["asks"],
                "seconds": time.perf_counter() - t0}
    finally:
        s.close()
        s.remove_flash()


def classify(flag):
    """What the hands were doing when the firmware raised a false flag."""
    if flag["at"] == "done":
        return "DONE refused: " + flag["reason"]
    opp = "-1)" if flag["p"] == 0 else "1)"
    for r in reversed(flag["recent"][-4:]):
        if "place('bar',)" in r or (" lift(" in r and r.endswith(", " + opp)):
            return "hit, blot taken off first"
    return "other"


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=1000)
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--hits", choices=sorted(HITS), default="both",
                    help="how hands hit a blot (default both, half and half)")
    args = ap.parse_args(argv)
    t0 = time.time()
    seeds = [(args.seed + i, args.hits) for i in range(args.games)]
    if args.jobs > 1:
        with multiprocessing.Pool(args.jobs) as pool:
            results = pool.starmap(play_game, seeds, chunksize=4)
    else:
        results = [play_game(*x) for x in seeds]
    summary = summarize(results)
    summary["seconds"] = round(time.time() - t0, 1)
    print(report(summary, args.hits))
    return 0 if summary["false_flags"] == 0 and summary["unfinished"] == 0 else 1


def summarize(results):
    flags = [f for r in results for f in r["flags"]]
    causes = collections.Counter(f["cause"] for f in flags)
    return {"games": len(results), "unfinished": sum(1 for r in results if not r["finished"]),
            "turns": sum(r["turns"] for r in results), "moves": sum(r["moves"] for r in results),
            "frames": sum(r["frames"] for r in results), "asks": sum(r["asks"] for r in results),
            "false_flags": len(flags), "games_with_flags": sum(1 for r in results if r["flags"]),
            "causes": dict(causes), "examples": flags[:6],
            "cpu_per_game": sum(r["seconds"] for r in results) / max(1, len(results))}


def report(s, hits="both"):
    lines = ["games: %d (1-point matches, hits: %s), %d turns, %d checkers moved by hand, %d frames "
             "(%.0f min of play)" % (s["games"], hits, s["turns"], s["moves"], s["frames"], s["frames"] / 6000.0),
             "false illegal flags: %d, in %d games" % (s["false_flags"], s["games_with_flags"])]
    for cause, n in sorted(s["causes"].items(), key=lambda kv: -kv[1]):
        lines.append("  %5d  %s" % (n, cause))
    lines.append("which-play questions (ask): %d; games not finished: %d" % (s["asks"], s["unfinished"]))
    lines.append("CPU per game: %.1f s%s" % (s["cpu_per_game"], "; wall %.0f s" % s["seconds"] if "seconds" in s else ""))
    for e in s["examples"]:
        lines.append("  example: seed %d %s dice %s play %s: %s (%s) after %s" % (
            e["seed"], e["pos"], e["dice"], e["play"], e["reason"], e["at"], e["recent"]))
    return "\n".join(lines)


if __name__ == "__main__":
    sys.exit(main())
