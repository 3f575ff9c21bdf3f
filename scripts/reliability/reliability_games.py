"""Simulated games with the documented sensor noise and human handling: count false illegal
flags (docs/reliability.md).

Each game is a 1-point match of two automated players on the virtual board (the reference build's
noise, offsets, gain spread and drift; hardware/calibration.md) running the real firmware. The
hands slide checkers over the points in between, hesitate low over the destination, wander over
a neighbouring point, put a checker down half-way through a move, and hit either by taking the
blot off first ("blot first") or by putting their checker down first and then taking the blot
off ("checker first"); in Doublets they take towers apart, stack them and lift them off whole
(docs/player-guide.md). Nobody makes a wrong move on purpose but with ``--illegal``, so every
``illegal`` event the firmware sends, but the one for an intended wrong placement, is a false
flag; each one is reported with the handling that preceded it.

    .venv/bin/python scripts/reliability/reliability_games.py --games 1000 [--jobs 2] [--hits both|checker-first|blot-first]
    .venv/bin/python scripts/reliability/reliability_games.py --variant all --games 40 --jobs 2 --illegal 0.1 --wall-minutes 60

``--variant KEY`` plays that ruleset (``bgc variants``; ``all``: every one, ``--games`` each, with
a table per ruleset). Every game is capped at ``--max-minutes`` of virtual play: one that has not
ended by then counts as unfinished (a game that never ends is a finding of its own), and its
false flags up to then count as usual. ``--illegal P``: in that share of turns the hand first puts
a checker on a point where it may not go and takes it on once the point shows red; a wrong
placement the board does not flag within 3 s is a missed flag. ``--wall-minutes M``: start no new
game after M minutes of wall time (the games are dealt seed by seed across the rulesets, so a run
cut short has played every ruleset alike) and report the games played.
"""

import argparse
import collections
import json
import multiprocessing
import os
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "host"))
sys.path.insert(0, os.path.join(ROOT, "firmware"))

SEEABLE = "seeable"
PENDING_FRAMES = 600  # a turn's first placement comes within 3 s of its plan, its flag within 3 s more
HITS = {"both": 0.5, "checker-first": 1.0, "blot-first": 0.0}


def play_game(seed, hits="both", max_frames=300000, variant="standard", illegal=0.0):
    from bgc.board import players as P
    from bgc.board import sim as S
    from bgrules.rules import ruleset

    t0 = time.perf_counter()
    s = S.Sim(seed=seed, rules=ruleset(variant))
    try:
        pl = P.Players(s, seed=seed, handling=P.Handling(illegal=illegal, mixed_hit=HITS[hits]), cube=False)
        s.run_ms(50)
        s.serial.send("new length=1" if variant == "standard" else "new length=1 variant=" + variant)
        frames = 0
        while not pl.finished and frames < max_frames:
            s.step()
            frames += 1
        # a game cut at max_frames may stop before a wrong placement's 3 s are up: not counted
        placed = [w for w in pl.wrong_placements if w["flagged"] or pl.finished or w["frame"] < s.frames - PENDING_FRAMES]
        flags = []
        for f in pl.false_flags:
            flags.append({"variant": variant, "seed": seed, "at": f["at"], "reason": f["reason"], "pos": f["pos"], "dice": f["dice"],
                          "play": f["play"], "cause": classify(f), "recent": f["recent"][-4:]})
        return {"variant": variant, "seed": seed, "finished": pl.finished, "frames": frames, "turns": pl.stats["turns"],
                "moves": pl.stats["checker_moves"], "flags": flags, "asks": pl.stats["asks"],
                "wrong": len(placed),
                "missed": [dict(w, variant=variant, seed=seed) for w in placed if not w["flagged"]],
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
    from bgrules.rules import VARIANTS

    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=1000, help="games (per ruleset with --variant all)")
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--hits", choices=sorted(HITS), default="both",
                    help="how hands hit a blot (default both, half and half)")
    ap.add_argument("--variant", default="standard", choices=("all",) + VARIANTS,
                    help="the ruleset (bgc variants); all: every one in turn")
    ap.add_argument("--max-minutes", type=float, default=50.0,
                    help="virtual minutes of play after which a game counts as unfinished (default 50)")
    ap.add_argument("--illegal", type=float, default=0.0,
                    help="share of turns with a wrong placement first, corrected once flagged (default 0)")
    ap.add_argument("--wall-minutes", type=float, default=None,
                    help="start no new game after this many minutes of wall time")
    ap.add_argument("--json", metavar="FILE", help="also write every game's figures to FILE (JSON)")
    ap.add_argument("--resume", metavar="FILE",
                    help="go on with a run cut at its wall budget: FILE is its --json; the games in it are "
                         "not played again and count in the figures")
    args = ap.parse_args(argv)
    t0 = time.time()
    variants = VARIANTS if args.variant == "all" else (args.variant,)
    max_frames = int(args.max_minutes * 6000)
    # seed by seed across the rulesets: a run cut short has played every ruleset alike
    jobs = [(args.seed + i, args.hits, max_frames, v, args.illegal) for i in range(args.games) for v in variants]
    deadline = None if args.wall_minutes is None else t0 + 60.0 * args.wall_minutes
    results = []
    if args.resume:
        try:
            with open(args.resume) as f:
                results = json.load(f)["games"]
        except (OSError, ValueError, KeyError) as exc:
            sys.exit("reliability_games: cannot resume from %s: %s" % (args.resume, exc))
        played = set((r["variant"], r["seed"]) for r in results)
        jobs = [j for j in jobs if (j[3], j[0]) not in played]
    total = len(results) + len(jobs)
    if args.jobs > 1:
        with multiprocessing.Pool(args.jobs) as pool:
            pending = collections.deque()
            queue = collections.deque(jobs)
            # at most one game waiting per worker, so that the wall budget stops the run promptly
            while queue or pending:
                while queue and len(pending) < args.jobs and (deadline is None or time.time() < deadline):
                    pending.append(pool.apply_async(play_game, queue.popleft()))
                if not pending:
                    break
                for res in list(pending):
                    if res.ready():
                        pending.remove(res)
                        results.append(res.get())
                        _progress(results[-1], len(results), total)
                time.sleep(0.2)
    else:
        for x in jobs:
            if deadline is not None and time.time() >= deadline:
                break
            results.append(play_game(*x))
            _progress(results[-1], len(results), total)
    summary = summarize(results)
    summary["seconds"] = round(time.time() - t0, 1)
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"args": vars(args), "summary": summary, "games": results}, f, indent=1)
    print(report(summary, args.hits))
    if len(variants) > 1:
        print()
        print(variant_table(results))
    return 0 if summary["false_flags"] == 0 and summary["unfinished"] == 0 else 1


def _progress(r, done, total):
    """One line per game on stderr, so that a long run's figures so far are never lost."""
    sys.stderr.write("%d/%d %s seed %d: %s, %d turns, %d false flags%s\n" % (
        done, total, r["variant"], r["seed"], "finished" if r["finished"] else "NOT FINISHED", r["turns"],
        len(r["flags"]), "".join("; %s at %s (%s)" % (f["reason"], f["pos"], f["dice"]) for f in r["flags"][:3])))
    sys.stderr.flush()


def variant_table(results):
    """One row per ruleset: games, turns, checkers moved, false flags, unfinished games."""
    rows = collections.OrderedDict()
    for r in results:
        row = rows.setdefault(r["variant"], {"games": 0, "turns": 0, "moves": 0, "frames": 0, "flags": 0,
                                             "flag_seeds": [], "unfinished": [], "cpu": 0.0, "wrong": 0,
                                             "missed": 0, "missed_seeds": [], "unseeable": 0})
        row["games"] += 1
        row["turns"] += r["turns"]
        row["moves"] += r["moves"]
        row["frames"] += r["frames"]
        row["flags"] += len(r["flags"])
        row["cpu"] += r["seconds"]
        row["wrong"] += r.get("wrong", 0)
        seeable = [m for m in r["missed"] if m["kind"] == SEEABLE]
        row["missed"] += len(seeable)
        row["unseeable"] += len(r["missed"]) - len(seeable)
        if seeable:
            row["missed_seeds"].append(r["seed"])
        if r["flags"]:
            row["flag_seeds"].append(r["seed"])
        if not r["finished"]:
            row["unfinished"].append(r["seed"])
    lines = ["| ruleset | games | turns | checkers moved | min of play | false flags (seeds) | false flags/game "
             "| wrong placements | not seeable | missed flags (seeds) | unfinished (seeds) | CPU/game |",
             "|---|---|---|---|---|---|---|---|---|---|---|---|"]
    for v, row in rows.items():
        lines.append("| %s | %d | %d | %d | %.0f | %d%s | %.3f | %d | %d | %d%s | %d%s | %.1f s |" % (
            v, row["games"], row["turns"], row["moves"], row["frames"] / 6000.0, row["flags"],
            " (%s)" % ", ".join(map(str, row["flag_seeds"])) if row["flag_seeds"] else "",
            row["flags"] / max(1, row["games"]), row["wrong"], row["unseeable"], row["missed"],
            " (%s)" % ", ".join(map(str, row["missed_seeds"])) if row["missed_seeds"] else "",
            len(row["unfinished"]), " (%s)" % ", ".join(map(str, row["unfinished"])) if row["unfinished"] else "",
            row["cpu"] / max(1, row["games"])))
    return "\n".join(lines)


def summarize(results):
    flags = [f for r in results for f in r["flags"]]
    causes = collections.Counter(f["cause"] for f in flags)
    missed = [m for r in results for m in r["missed"]]
    return {"games": len(results), "unfinished": sum(1 for r in results if not r["finished"]),
            "turns": sum(r["turns"] for r in results), "moves": sum(r["moves"] for r in results),
            "frames": sum(r["frames"] for r in results), "asks": sum(r["asks"] for r in results),
            "false_flags": len(flags), "games_with_flags": sum(1 for r in results if r["flags"]),
            "wrong": sum(r.get("wrong", 0) for r in results), "missed": len(missed),
            "missed_kinds": dict(collections.Counter(m["kind"] for m in missed)),
            "missed_seeable": [m for m in missed if m["kind"] == SEEABLE],
            "causes": dict(causes), "examples": flags[:12],
            "cpu_per_game": sum(r["seconds"] for r in results) / max(1, len(results))}


def report(s, hits="both"):
    lines = ["games: %d (1-point matches, hits: %s), %d turns, %d checkers moved by hand, %d frames "
             "(%.0f min of play)" % (s["games"], hits, s["turns"], s["moves"], s["frames"], s["frames"] / 6000.0),
             "false illegal flags: %d, in %d games" % (s["false_flags"], s["games_with_flags"])]
    for cause, n in sorted(s["causes"].items(), key=lambda kv: -kv[1]):
        lines.append("  %5d  %s" % (n, cause))
    if s["wrong"]:
        lines.append("wrong placements: %d, not flagged within 3 s: %d" % (s["wrong"], s["missed"]))
        for kind, n in sorted(s["missed_kinds"].items(), key=lambda kv: -kv[1]):
            lines.append("  %5d  %s" % (n, kind))
    lines.append("which-play questions (ask): %d; games not finished: %d" % (s["asks"], s["unfinished"]))
    lines.append("CPU per game: %.1f s%s" % (s["cpu_per_game"], "; wall %.0f s" % s["seconds"] if "seconds" in s else ""))
    for m in s["missed_seeable"][:12]:
        lines.append("  missed: %s seed %d %s dice %s: %d/%d -> %d/%d (%d there)" % (
            m["variant"], m["seed"], m["pos"], m.get("dice"), m["src"], m["own_on_src"], m["wrong"],
            m["board_point"], m["own_on_wrong"]))
    for e in s["examples"]:
        lines.append("  example: %s seed %d %s dice %s play %s: %s (%s) after %s" % (
            e["variant"], e["seed"], e["pos"], e["dice"], e["play"], e["reason"], e["at"], e["recent"]))
    return "\n".join(lines)


if __name__ == "__main__":
    sys.exit(main())
