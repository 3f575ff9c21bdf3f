"""Power cuts at random instants across simulated matches (docs/reliability.md).

Two automated players play 1-point matches on the virtual board with the real firmware; at random
instants the power fails, either between two loop iterations or in the middle of a flash write
(after a random number of bytes of it). For every cut:

  * every action completed before the cut survives: the journal read at the next boot starts
    with exactly the records that were complete when the power failed;
  * the match resumes: the boot says so, and the firmware's status (Match ID, Position ID) is
    the replay of that journal;
and every match is then played to its end, its journal replaying to the result the firmware
announced.

    .venv/bin/python scripts/reliability/reliability_powercut.py --cuts 1000 [--per-match 10] [--jobs 2]
"""

import argparse
import multiprocessing
import os
import random
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "host"))
sys.path.insert(0, os.path.join(ROOT, "firmware"))


def run_match(seed, cuts, max_frames=400000):
    """One 1-point match with ``cuts`` power cuts at random frames. Returns a result dict."""
    from bgc.board import players as P
    from bgc.board import sim as S
    from companion import recovery

    rng = random.Random(seed * 7919 + 1)
    s = S.Sim(seed=seed)
    out = {"seed": seed, "cuts": 0, "torn": 0, "lost": [], "not_resumed": [], "finished": False,
           "replay_ok": False, "frames": 0}
    try:
        pl = P.Players(s, seed=seed, handling=P.Handling(illegal=0.1))
        s.run_ms(50)
        s.serial.send("new length=1")
        # A 1-point match lasts ~5,000-15,000 frames: spread the cut instants over the first 8,000.
        instants = sorted(rng.sample(range(100, 8000), cuts))
        frame = 0
        while not pl.finished and frame < max_frames:
            if instants and frame >= instants[0]:
                instants.pop(0)
                _cut(s, rng, out)
            s.step()
            frame += 1
        out["frames"] = frame
        out["finished"] = pl.finished
        for _ in instants:  # the match ended before these instants: cut in the game-over screen
            _cut(s, rng, out)
        end = s.serial.last("match_end")
        records, problem = s.journal_records()
        if end is not None and problem is None:
            m = recovery.replay(records)
            out["replay_ok"] = m.phase == "matchover" and m.winner == end["winner"] and list(m.score) == end["score"]
            if not out["replay_ok"]:
                out["not_resumed"].append({"seed": seed, "replay": [m.phase, m.winner, list(m.score)], "announced": end,
                                           "tail": records[-4:]})
        else:
            out["not_resumed"].append({"seed": seed, "match_end": end, "journal_problem": problem})
        out["false_illegal"] = pl.stats["false_illegal"]
        out["replans"] = pl.stats["replans"]
        return out
    finally:
        s.close()
        s.remove_flash()


def _records(s):
    records, _ = s.journal_records()
    return records


def _cut(s, rng, out):
    before = _records(s)
    n_events = len(s.serial.events)
    mid_write = rng.random() < 0.5
    struck = False
    if mid_write:
        # The power fails inside the firmware's next flash write, after a random number of bytes
        # of it, if a write comes within 3 s; otherwise between two loop iterations.
        s.arm_powercut(rng.randint(0, 80))
        cuts0 = s.powercuts
        for _ in range(300):
            before = _records(s)  # complete records just before each step
            s.step()
            if s.powercuts != cuts0:
                struck = True
                break
        if not struck:
            s._cut_budget = None
            before = _records(s)
    if not struck:
        s.powercut(off_ms=rng.randint(50, 2000))
    else:
        out["torn"] += 1
    out["cuts"] += 1
    s.step()  # the first loop iteration after power-up boots: journal read, resume, boot event
    after, problem = s.journal_records()
    # Completed actions survive: what was complete before is still there, in order. (The boot
    # may add a note record after them, about the dropped line.)
    if after[:len(before)] != before:
        out["lost"].append({"before": len(before), "after": len(after)})
    boot = None
    for ev in s.serial.events[n_events:]:
        if ev.get("ev") == "boot":
            boot = ev
    st = s.status()
    from companion import recovery

    m = recovery.replay(after) if after else None
    if m is not None and m.phase != "matchover":
        ok = boot is not None and boot.get("resumed") and st is not None and \
            st.get("match") == m.match_id() and st.get("pos") == m.position_id()
        if not ok:
            out["not_resumed"].append({"boot": boot, "status_match": st and st.get("match"),
                                       "journal_match": m.match_id()})


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--cuts", type=int, default=1000, help="power cuts in all (default 1000)")
    ap.add_argument("--per-match", type=int, default=10, help="cuts per simulated match (default 10)")
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args(argv)
    matches = (args.cuts + args.per_match - 1) // args.per_match
    plan = []
    left = args.cuts
    for i in range(matches):
        k = min(args.per_match, left)
        left -= k
        plan.append((args.seed + i, k))
    t0 = time.time()
    if args.jobs > 1:
        with multiprocessing.Pool(args.jobs) as pool:
            results = pool.starmap(run_match, plan)
    else:
        results = [run_match(*p) for p in plan]
    summary = summarize(results)
    summary["seconds"] = round(time.time() - t0, 1)
    print(report(summary))
    return 0 if summary["ok"] else 1


def summarize(results):
    cuts = sum(r["cuts"] for r in results)
    torn = sum(r["torn"] for r in results)
    lost = sum(len(r["lost"]) for r in results)
    not_resumed = sum(len(r["not_resumed"]) for r in results)
    unfinished = sum(1 for r in results if not r["finished"])
    bad_replay = sum(1 for r in results if not r["replay_ok"])
    not_resumed -= bad_replay  # counted above with their details
    return {"matches": len(results), "cuts": cuts, "torn": torn, "lost": lost, "not_resumed": not_resumed,
            "unfinished": unfinished, "bad_replay": bad_replay,
            "examples": [x for r in results for x in (r["lost"] + r["not_resumed"])][:5],
            "replans": sum(r.get("replans", 0) for r in results),
            "ok": lost == 0 and not_resumed == 0 and unfinished == 0 and bad_replay == 0}


def report(s):
    lines = ["power cuts: %d in %d simulated 1-point matches (%d inside a flash write, torn line)" % (
        s["cuts"], s["matches"], s["torn"]),
        "completed actions lost: %d" % s["lost"],
        "cuts after which the match did not resume where the journal says: %d" % s["not_resumed"],
        "matches not finished after the cuts: %d; journals not replaying to the announced result: %d" % (
            s["unfinished"], s["bad_replay"])]
    lines.append("hand plans dropped after a cut (the board was not as the hand expected): %d" % s["replans"])
    if "seconds" in s:
        lines.append("time: %.1f s" % s["seconds"])
    for e in s["examples"]:
        lines.append("  example: %r" % (e,))
    lines.append("PASS" if s["ok"] else "FAIL")
    return "\n".join(lines)


if __name__ == "__main__":
    sys.exit(main())
