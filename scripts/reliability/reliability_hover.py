"""A hand held still over the board against a checker set down on an opponent's five-point
(docs/reliability.md, hardware/sensing.md).

Every trial runs the real firmware on the virtual board (the reference build's noise, offsets,
gain spread and drift) in a position reached by random legal play from the start, with the
mover's dice rolled. The hand lifts one of the mover's checkers that a legal play moves, carries
it 30-45 mm up to a cell of a point, comes down at 50-200 mm/s and then:

* **hold**: stays there, trembling (the board's physiological tremor, 0.05-0.3 mm at 8-12 Hz),
  5-15 mm above the top of what stands on that cell and up to 6 mm off its centre, for 2 s.
  Any point, any of its five cells, whatever is on it. Nothing is put down, so any ``illegal``
  event is a false flag.
* **set-down**: the cell is one of an opponent's five-point (every cell taken, so the checker
  lands on top of an opponent's checker: a blocked point); the hand hesitates 0-1 s 5-15 mm over
  it, then lowers the checker onto the stack at 50-300 mm/s and lets go. The board must answer
  with ``illegal`` for that point within 1 s of the checker landing.

    .venv/bin/python scripts/reliability/reliability_hover.py --trials 1000 --jobs 2
    .venv/bin/python scripts/reliability/reliability_hover.py --figures    # the table of hardware/sensing.md
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

HOLD_S = 2.0  # the longest a player is expected to hold a checker still over a point
FLAG_WITHIN_S = 1.0  # a checker set on an opponent's five-point is flagged within this


def random_position(rng, plies):
    """The standard start after ``plies`` random legal plays: (position seen by the player on
    roll, that player: 0 white, 1 black); None when a game ended on the way."""
    from bgrules import STANDARD, Position, Turn

    pos = Position.start(STANDARD.start)
    p = rng.randint(0, 1)
    for _ in range(plies):
        plays = Turn(pos, rng.randint(1, 6), rng.randint(1, 6), STANDARD).plays()
        if plays:
            pos = rng.choice(plays).position
            if pos.cells[0] == 15:
                return None
        pos = pos.swapped()
        p = 1 - p
    return pos, p


def five_points(pos, p):
    """The board points (white's numbering) where the opponent of player ``p`` (0 white, 1
    black; ``pos`` seen by ``p``) has exactly five checkers."""
    from bgrules.position import OPP

    # the opponent's own point q is the mover's 25 - q; white's numbering is the board's
    return [q if p == 1 else 25 - q for q in range(1, 25) if pos.cells[OPP + q] == 5]


def _rolled_sim(seed, rng, want_five):
    """A Sim with the firmware resumed in a random position, the mover's dice rolled; with
    ``want_five`` only positions where the opponent has a point of exactly five. Returns
    (sim, position, player, plays, events)."""
    from bgc.board import sim as S
    from bgrules import STANDARD, Turn

    while True:
        got = random_position(rng, rng.choice((0, 0, 2, 4, 8, 16, 30)))
        if got is None:
            continue
        pos, p = got
        if pos.cells[25] or pos.cells[26 + 25]:
            continue  # a checker on the bar: keep the trials to checkers that leave a point
        if want_five and not five_points(pos, p):
            continue
        sim = S.Sim(seed=seed, setup=None, boot=False)
        events = []
        try:
            sim.resume_at(pos, p)
        except S.SimError:
            sim.close()
            sim.remove_flash()
            continue
        sim.boot()
        sim.serial.listeners.append(events.append)
        sim.run_ms(300)
        sim.press("ROLL_W" if p == 0 else "ROLL_B")
        sim.run_ms(300)
        st = sim.status() or {}
        if st.get("phase") != "moving" or not st.get("dice"):
            sim.close()
            sim.remove_flash()
            continue
        d = st["dice"]
        plays = Turn(pos, d[0], d[1], STANDARD).plays()
        if not plays or any(s[0] == 25 for pl in plays for s in pl.steps):
            sim.close()
            sim.remove_flash()
            continue
        return sim, pos, p, plays, events


def _lift_and_approach(sim, rng, plays, colour, cell, clearance):
    """Lift the first checker of a random legal play, carry it over ``cell`` and come down to
    ``clearance`` mm above what stands there (a few mm off the cell's centre)."""
    from bgc.board.players import board_point

    src = rng.choice(plays).steps[0][0]
    point = board_point(src, colour)
    on_source = sum(sim.board.count(c) for c in range(5 * (point - 1), 5 * point))
    sim.lift(point, colour, height_mm=rng.uniform(30.0, 45.0))
    sim.run_ms(rng.randint(150, 400))
    b = sim.board
    carry = rng.uniform(30.0, 45.0)
    b.hover(cell, carry, speed_mm_s=rng.uniform(300.0, 600.0))
    sim.run_until(lambda s: not s.board.hand_moving(), 3000)
    dx, dy = rng.uniform(-6.0, 6.0), rng.uniform(-6.0, 6.0)
    b.hover(cell, clearance, speed_mm_s=rng.uniform(50.0, 200.0), dx_mm=dx, dy_mm=dy)
    sim.run_until(lambda s: not s.board.hand_moving(), 3000)
    return on_source


def hold_trial(seed):
    """A hand held over a random cell of a random point for 2 s: the ``illegal`` events it drew."""
    from bgc.board import sim as S

    rng = random.Random(seed)
    sim, pos, p, plays, events = _rolled_sim(seed, rng, want_five=rng.random() < 0.5)
    try:
        colour = S.WHITE if p == 0 else S.BLACK
        # half the trials over an opponent's five-point, the rest over any point
        fives = five_points(pos, p)
        if fives and rng.random() < 0.5:
            point = rng.choice(fives)
        else:
            point = rng.randint(1, 24)
        cell = 5 * (point - 1) + rng.randint(0, 4)
        clearance = rng.uniform(5.0, 15.0)
        under = sim.board.stacks[cell][-1][0] if sim.board.stacks[cell] else 0
        before = len(events)
        _lift_and_approach(sim, rng, plays, colour, cell, clearance)
        sim.run_ms(int(HOLD_S * 1000))
        flags = [e for e in events[before:] if e.get("ev") == "illegal"]
        return {"kind": "hold", "seed": seed, "point": point, "cell": cell, "clearance": clearance,
                "over": "empty" if not under else ("own" if under == colour else "opponent"),
                "five": point in fives,
                "tremor_mm": 2 * sim.board.tremor[2][0], "flags": [f.get("reason") for f in flags]}
    finally:
        sim.close()
        sim.remove_flash()


def setdown_trial(seed):
    """A checker set on top of one cell of an opponent's five-point: how long until it is flagged."""
    from bgc.board import sim as S

    rng = random.Random(seed)
    sim, pos, p, plays, events = _rolled_sim(seed, rng, want_five=True)
    try:
        colour = S.WHITE if p == 0 else S.BLACK
        point = rng.choice(five_points(pos, p))
        cell = 5 * (point - 1) + rng.randint(0, 4)
        clearance = rng.uniform(5.0, 15.0)
        on_source = _lift_and_approach(sim, rng, plays, colour, cell, clearance)
        sim.run_ms(rng.randint(0, 1000))
        before = len(events)
        false = [e for e in events if e.get("ev") == "illegal"]
        sim.board.drop(cell, speed_mm_s=rng.uniform(50.0, 300.0))
        sim.run_until(lambda s: not s.board.hand_moving(), 3000)
        landed = sim.board.clock.ms
        got = sim.run_until(lambda s: any(e.get("ev") == "illegal" and e.get("board_point") == point
                                          for e in events[before:]), 3000)
        latency = (sim.board.clock.ms - landed) / 1000.0 if got else None
        reason = [e.get("reason") for e in events[before:] if e.get("ev") == "illegal"]
        # from a point of six or more the lift itself is unseen (a stack cell still reads a
        # stack): no checker is missing, so a weak cell is a weakly sensed one (hardware/sensing.md)
        return {"kind": "setdown", "seed": seed, "point": point, "cell": cell, "clearance": clearance,
                "from_tall": on_source >= 6, "latency": latency, "reason": reason[0] if reason else None,
                "flags": [f.get("reason") for f in false]}
    finally:
        sim.close()
        sim.remove_flash()


def run_trial(kind, seed):
    return (hold_trial if kind == "hold" else setdown_trial)(seed)


def summarize(results):
    holds = [r for r in results if r["kind"] == "hold"]
    tall = [r for r in results if r["kind"] == "setdown" and r["from_tall"]]
    downs = [r for r in results if r["kind"] == "setdown" and not r["from_tall"]]
    lat = sorted(r["latency"] for r in downs if r["latency"] is not None)
    by_over = {}
    for r in holds:
        k = r["over"] + (" (five-point)" if r["five"] else "")
        row = by_over.setdefault(k, [0, 0])
        row[0] += 1
        row[1] += bool(r["flags"])
    return {
        "holds": len(holds), "holds_flagged": sum(1 for r in holds if r["flags"]),
        "hold_by_over": by_over,
        "hold_examples": [r for r in holds if r["flags"]][:8],
        "setdowns": len(downs), "from_tall": len(tall),
        "from_tall_in_time": sum(1 for r in tall if r["latency"] is not None and r["latency"] <= FLAG_WITHIN_S),
        "setdowns_in_time": sum(1 for r in downs if r["latency"] is not None and r["latency"] <= FLAG_WITHIN_S),
        "setdowns_false_before": sum(1 for r in downs if r["flags"]),
        "latency_median": lat[len(lat) // 2] if lat else None, "latency_max": lat[-1] if lat else None,
        "setdown_misses": [r for r in downs if r["latency"] is None or r["latency"] > FLAG_WITHIN_S][:8],
    }


def report(s):
    lines = ["hands held still 5-15 mm over a cell for %.0f s: %d, flagged: %d" % (HOLD_S, s["holds"], s["holds_flagged"])]
    for k, (n, f) in sorted(s["hold_by_over"].items()):
        lines.append("  over %-28s %5d trials, %d flagged" % (k, n, f))
    for r in s["hold_examples"]:
        lines.append("  flagged: seed %d point %d cell %d at %.1f mm over %s: %s" % (
            r["seed"], r["point"], r["cell"], r["clearance"], r["over"], r["flags"]))
    lines.append("checkers set on an opponent's five-point: %d, flagged within %.0f s: %d (false flags before the "
                 "set-down: %d)" % (s["setdowns"], FLAG_WITHIN_S, s["setdowns_in_time"], s["setdowns_false_before"]))
    lines.append("  not counted above: %d lifted from a point of six or more (the lift unseen), %d of them flagged "
                 "in time" % (s["from_tall"], s["from_tall_in_time"]))
    if s["latency_median"] is not None:
        lines.append("  time from landing to the flag: median %.2f s, max %.2f s" % (s["latency_median"], s["latency_max"]))
    for r in s["setdown_misses"]:
        lines.append("  missed: seed %d point %d cell %d: latency %s, reason %s" % (
            r["seed"], r["point"], r["cell"], r["latency"], r["reason"]))
    return "\n".join(lines)


def sensor_figures(boards=119, cells=range(0, 120, 7)):
    """What a cell reads, in units of the nominal one-checker deviation, on ``boards`` boards
    of the model with every point filled with five white checkers: rows of (case, values)."""
    from bgc.board.virtual.board import BLACK, WHITE, Board
    from drivers.classify import DEFAULT_UNIT

    rows = {}

    def add(name, v):
        rows.setdefault(name, []).append(v / float(DEFAULT_UNIT))

    def counts(b, c):
        # Board.expected_counts for one cell without recomputing the other 127
        from bgc.board.virtual.board import LSB_V

        v = b.vq[c] + b.gain[c] * b.sens * b.field_mt(c) + b.drift[c] * LSB_V
        return int(v / LSB_V + 0.5) << 4

    for seed in range(1, boards + 1):
        b = Board(seed=seed, tremor_mm=0, drift_lsb_per_s=0)
        rest = [counts(b, c) for c in range(120)]
        for c in cells:  # the same cells, nothing else on the board
            b.hover(c, 5.0, WHITE)
            add("a checker held 5 mm over a cell of an empty board", counts(b, c) - rest[c])
        b.hand = None
        for c in range(120):
            b.place(c, WHITE)
        for c in cells:  # 18 cells a board, spread over the points
            one = counts(b, c)
            add("one checker", one - rest[c])
            b.place(c, WHITE)
            add("the same colour on top", counts(b, c) - rest[c])
            b.remove(c)
            b.place(c, BLACK)
            add("the other colour on top: change", counts(b, c) - one)
            add("the other colour on top", counts(b, c) - rest[c])
            b.remove(c)
            for h in (5.0, 10.0, 15.0):
                b.hover(c, h, BLACK)
                add("the other colour held %d mm over it: change" % h, counts(b, c) - one)
                b.hand = None
                b._stale = True
            b.remove(c)
            for h in (5.0, 10.0, 15.0):
                b.hover(c, h, WHITE)
                add("a checker held %d mm over a cell emptied, the board full" % h, counts(b, c) - rest[c])
                b.hand = None
                b._stale = True
            b.place(c, WHITE)
            # what 0.3 mm of tremor changes: the hand 5 mm over, then 4.7 mm over
            b.hover(c, 5.0, BLACK)
            hi = counts(b, c)
            b.hover(c, 4.7)
            add("0.3 mm of tremor, the hand 5 mm over the checker", abs(counts(b, c) - hi))
            b.hand = None
            b._stale = True
    return [(k, sorted(v)) for k, v in rows.items()]


def figures_table(rows):
    lines = ["| on the cell (units of 13,600 counts) | min | median | max |", "|---|---|---|---|"]
    for name, v in rows:
        vals = [abs(x) if "change" not in name else x for x in v]
        vals.sort()
        lines.append("| %s | %.3f | %.3f | %.3f |" % (name, vals[0], vals[len(vals) // 2], vals[-1]))
    return "\n".join(lines)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--trials", type=int, default=1000, help="trials of each kind (default 1000)")
    ap.add_argument("--kind", choices=("both", "hold", "setdown"), default="both")
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--figures", action="store_true", help="print the sensor figures of hardware/sensing.md")
    args = ap.parse_args(argv)
    if args.figures:
        print(figures_table(sensor_figures()))
        return 0
    t0 = time.time()
    kinds = ("hold", "setdown") if args.kind == "both" else (args.kind,)
    jobs = [(k, args.seed + i) for i in range(args.trials) for k in kinds]
    if args.jobs > 1:
        with multiprocessing.Pool(args.jobs) as pool:
            results = pool.starmap(run_trial, jobs, chunksize=4)
    else:
        results = [run_trial(*j) for j in jobs]
    s = summarize(results)
    print(report(s))
    print("wall time %.0f s" % (time.time() - t0))
    return 0 if s["holds_flagged"] == 0 and s["setdowns_in_time"] == s["setdowns"] else 1


if __name__ == "__main__":
    sys.exit(main())
