"""Old Britain's five-checker limit: a double's steps searched in every order against the one
order (non-increasing sources) that missed plays (docs/performance.md).

    .venv/bin/python scripts/bench/bench_cap_doubles.py [cases]

Stacked positions from tests/test_variant_cap.py's generator, each with a double and a legal
final position; under the UNIX-port MicroPython (bgc.pico.upy) each case is timed: Turn(start, d, d),
turn.check(final) and turn.locate(start), the board's roll, DONE and first lift. Prints the mean
and worst microseconds with ``ordered_doubles`` True (the old search) and False (the new one).
"""
import os
import random
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
for sub in ("tests", "host", "firmware"):
    sys.path.insert(0, os.path.join(ROOT, sub))

from bgc.pico import upy  # noqa: E402
from bgrules import Turn  # noqa: E402
from bgrules.rules import ruleset  # noqa: E402
from test_variant_cap import random_capped_position  # noqa: E402

PROGRAM = r"""
import time
from bgrules import Position, Turn
from bgrules.rules import ruleset
from bgrules.variants.oldbritain import CappedSearch
R = ruleset("oldbritain")
for ordered in (True, False):
    CappedSearch.ordered_doubles = ordered
    total = worst = n = 0
    for line in open("cases.txt"):
        pid, d, fid = line.split()
        d = int(d)
        t = time.ticks_us()
        turn = Turn(Position.from_id(pid), d, d, R)
        turn.check(Position.from_id(fid))
        turn.locate(Position.from_id(pid))
        dt = time.ticks_diff(time.ticks_us(), t)
        total += dt
        n += 1
        worst = max(worst, dt)
    print("ordered_doubles=%s: mean %d us, worst %d us over %d cases" % (ordered, total // n, worst, n))
"""


def main(argv):
    count = int(argv[1]) if len(argv) > 1 else 150
    rules = ruleset("oldbritain")
    rng = random.Random(11)
    lines = []
    while len(lines) < count:
        p = random_capped_position(rng)
        d = rng.randint(1, 6)
        plays = Turn(p, d, d, rules).plays()
        if plays:
            lines.append("%s %d %s\n" % (p.id(), d, plays[-1].position.id()))
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "cases.txt")
        with open(path, "w") as f:
            f.write("".join(lines))
        print(upy.run(PROGRAM, [upy.FIRMWARE_DIR, path]).strip())
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
