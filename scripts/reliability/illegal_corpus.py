"""A corpus of illegal plays, one per rule, each made by hand on the virtual board with the real
firmware: every one must be flagged (red LED at once, or DONE refused) with the rule's reason
(docs/reliability.md).

The corpus is found, not hand-written: positions come from seeded random games; each candidate is
a physical handling (a checker moved the wrong distance, backwards, past a closed point, a play
stopped early, ...) and the rules engine (bgrules.check_play) names the rule it breaks. The first
candidate found for each rule becomes a scenario (docs/sim.md format): resume the position, force
the dice, move the checkers by hand, press DONE, and expect the firmware's ``illegal`` event with
the engine's reason.

    .venv/bin/python scripts/reliability/illegal_corpus.py [--show] [--seed N]
"""

import argparse
import os
import random
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "host"))
sys.path.insert(0, os.path.join(ROOT, "firmware"))

# The rules (rules-engine.md, the reasons Turn.check gives), as patterns of the reason.
RULES = [
    ("moves forward only", "Checkers only move forward"),
    ("both dice must be played", "Both dice must be played"),
    ("the larger die must be played", "The "),
    ("all four moves of a double", "Play "),
    ("enter from the bar first", "Enter from the bar first"),
    ("a closed point is blocked", "is blocked"),
    ("no bear-off with a checker outside", "no bear-off"),
    ("no move when none is possible", "No move is possible"),
    ("the opponent's checkers stay", "may not move"),
    ("a hit checker goes on the bar", "Hit checker goes on the bar"),
    ("the dice decide the distance", "No play of"),
    ("fifteen checkers a side", "Extra "),  # "Extra checker on board: lift it", "Extra Black checker: ..."
]


def random_positions(rng, n):
    """Up to ``n`` positions from seeded random games (a generator: the search stops early)."""
    from bgrules import Position, Turn

    made = 0
    while made < n:
        pos = Position.start()
        for _ in range(rng.randint(0, 60)):
            plays = Turn(pos, rng.randint(1, 6), rng.randint(1, 6)).plays()
            if plays:
                pos = rng.choice(plays).position
            if pos.result():
                break
            pos = pos.swapped()
        if not pos.result():
            made += 1
            yield pos


def _move(pos, a, b):
    """pos with one mover checker from a to b (0 = off); None if impossible physically."""
    p = pos.copy()
    c = p.cells
    if not c[a]:
        return None
    if b and b != 25 and c[26 + 25 - b]:
        return None  # never put a checker among the other colour's
    c[a] -= 1
    if b == 0:
        c[0] += 1
    else:
        c[b] += 1
    return p


def candidates(pos, d1, d2, rng):
    """(moves, final) handlings: moves are (from, to) in the mover's numbering (0 = off,
    "extra" = a 16th checker put on a point, ("opp", a, b) = the opponent's checker moved)."""
    from bgrules import Turn

    turn = Turn(pos, d1, d2)
    plays = turn.plays()
    out = []
    for play in plays[:6]:
        if len(play.steps) >= 2 and not any(h for _, _, h in play.steps):
            a, b, _ = play.steps[0]
            out.append(([(a, b)], _move(pos, a, b)))  # stopped early
            if len(play.steps) == 4:
                p1 = _move(pos, a, b)
                a2, b2, _ = play.steps[1]
                if p1 is not None:
                    out.append(([(a, b), (a2, b2)], _move(p1, a2, b2)))
    for a in range(1, 26):
        if not pos.cells[a]:
            continue
        for b in range(0, 25):
            if b == a:
                continue
            f = _move(pos, a, b)
            if f is not None:
                out.append(([(a, b)], f))
    # a checker of the opponent moved
    for q in range(1, 25):
        if pos.cells[26 + q] and q > 1 and not pos.cells[25 - (q - 1)]:
            p = pos.copy()
            p.cells[26 + q] -= 1
            p.cells[26 + q - 1] += 1
            out.append(([("opp", q, q - 1)], p))
            break
    # a blot hit and taken off the board, not put on the bar
    for play in plays:
        hits = [s for s in play.steps if s[2]]
        if hits and len(play.steps) <= 2:
            p = play.position.copy()
            p.cells[26 + 25] -= 1
            p.cells[26] += 1  # off the board: by conservation the sensors count it as gone
            out.append(([s[:2] for s in play.steps] + [("gone", hits[0][1])], p))
            break
    # a 16th checker put on the board
    for b in range(1, 25):
        if not pos.cells[26 + 25 - b]:
            p = pos.copy()
            p.cells[b] += 1
            out.append(([("extra", b)], p))
            break
    rng.shuffle(out)
    return out


def find_corpus(seed=1, tries=1500):
    from bgrules import check_play

    from bgrules import Position

    rng = random.Random(seed)
    found = {}
    # Random games almost never leave only one die playable: that rule gets a crafted position
    # (a lone checker on 13, 6-5: either die alone, not both; the 6 must be played).
    crafted = [(Position.from_id("4OcDADZ43wcEAA"), 6, 5)]
    def positions():
        for p in crafted:
            yield p
        for p in random_positions(rng, tries):
            yield p, rng.randint(1, 6), rng.randint(1, 6)

    for pos, d1, d2 in positions():
        for moves, final in candidates(pos, d1, d2, rng):
            if final is None:
                continue
            reason = check_play(pos, d1, d2, final)
            if not reason:
                continue
            for name, pattern in RULES:
                if name not in found and pattern in reason and _visible(pos, moves, final, name):
                    found[name] = (pos, d1, d2, moves, reason)
        if len(found) == len(RULES):
            break
    return found


def _visible(pos, moves, final, name):
    """The sensors can see what was done: no point the play touches ends with more than five
    checkers (a 6th stacks and is not counted), and only the bear-off rule bears off (a checker
    that leaves the board is, to the sensors, just as well a checker in a hand)."""
    for m in moves:
        if m[0] == "opp":
            if final.cells[26 + m[2]] > 5 or pos.cells[26 + m[1]] > 5:
                return False
            continue
        if m[0] in ("gone", "extra"):
            continue
        a, b = m
        if b == 0 and name != "no bear-off with a checker outside":
            return False
        for p in (a, b):
            if 1 <= p <= 24 and (final.cells[p] > 5 or pos.cells[p] > 5):
                return False
    return True


def script(pos, d1, d2, moves, reason):
    """The scenario that makes this illegal play by hand (white moves; board numbering = white's)."""
    lines = ["# %s" % reason.replace("\n", " "), "resume %s white" % pos.id(), "expect status phase=roll on_roll=0",
             "dice %d %d" % (d1, d2), "press white roll", "expect status phase=moving"]
    for m in moves:
        if m[0] == "opp":
            _, q, r = m
            lines.append("lift %d black" % (25 - q))
            lines.append("place %d" % (25 - r))
        elif m[0] == "gone":
            lines.append("lift %d black" % m[1])  # the hit blot, taken off the board altogether
            lines.append("place off")
        elif m[0] == "extra":
            lines.append("add %d white" % m[1])
        else:
            a, b = m
            lines.append("move %s %s" % ("bar" if a == 25 else a, "off" if b == 0 else b))
    lines.append("wait 300")
    lines.append("press white done")
    # a reason of two screen lines cannot be written in a script's value: the run compares the
    # event's reason itself (run_corpus)
    lines.append('expect event illegal p=0 reason="%s"' % reason if "\n" not in reason else "expect event illegal p=0")
    return "\n".join(lines) + "\n"


def run_corpus(seed=1, show=False, out=sys.stdout):
    from bgc.board import scenario
    from bgc.board import sim as S

    corpus = find_corpus(seed)
    results = []
    for name, _pattern in RULES:
        if name not in corpus:
            results.append((name, None, "no example found in the random positions"))
            continue
        pos, d1, d2, moves, reason = corpus[name]
        text = script(pos, d1, d2, moves, reason)
        if show:
            out.write("--- %s\n%s" % (name, text))
        s = S.Sim(seed=seed, boot=False)
        try:
            scenario.run_text(text, s, source=name)
            ev = None
            for e in s.serial.events:
                if e.get("ev") == "illegal" and e.get("reason") == reason:
                    ev = e
                    break
            results.append((name, reason, "flagged at %s" % (ev or {}).get("at")))
        except scenario.ExpectationFailed as exc:
            got = [e.get("reason") for e in s.serial.events if e.get("ev") == "illegal"]
            results.append((name, reason, "NOT FLAGGED with that reason (firmware said: %s)" % (
                "; ".join(got) or "nothing")))
        finally:
            s.close()
            s.remove_flash()
    return results


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--show", action="store_true", help="print each scenario")
    args = ap.parse_args(argv)
    results = run_corpus(args.seed, args.show)
    ok = 0
    for name, reason, verdict in results:
        good = verdict.startswith("flagged")
        ok += good
        print("%-36s %-32s %s" % (name, reason or "-", verdict))
    print("%d of %d rules flagged with their reason" % (ok, len(results)))
    return 0 if ok == len(results) else 1


if __name__ == "__main__":
    sys.exit(main())
