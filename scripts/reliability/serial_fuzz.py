"""10,000 random serial lines against the companion in the middle of a turn: every malformed or
unknown line must get an error event, nothing may raise, and the game must go on unchanged.

    .venv/bin/python scripts/reliability/serial_fuzz.py [lines] [seed]
"""
import json
import os
import random
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path[:0] = [os.path.join(ROOT, "firmware"), os.path.join(ROOT, "tests")]

from companion import protocol  # noqa: E402
from companion_helpers import Harness, ROLL_W  # noqa: E402
from test_companion_journal_resume import random_line  # noqa: E402


def main():
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 10000
    seed = int(sys.argv[2]) if len(sys.argv) > 2 else 1
    h = Harness(tempfile.mkdtemp(), rolls=[(6, 4)], openings=[(3, 1)])
    h.start_match()
    h.press(ROLL_W)
    h.move("w", 8, 5)
    before = (h.c.phase, h.c.match.match_id(), h.c.name)
    rng = random.Random(seed)
    errors = answered = 0
    for _ in range(n):
        line = random_line(rng)
        h.clear()
        h.line(line)
        out = [json.loads(x) for x in h.c.fx.out]
        if not out:
            raise SystemExit("no answer to %r" % line)
        try:
            protocol.parse(line)
            answered += 1
        except protocol.ProtocolError:
            if out[0]["ev"] != "error":
                raise SystemExit("malformed %r answered with %r" % (line, out[0]))
            errors += 1
    after = (h.c.phase, h.c.match.match_id(), h.c.name)
    if after != before:
        raise SystemExit("the game changed: %r -> %r" % (before, after))
    h.move("w", 6, 5)
    h.press(ROLL_W)
    play = [json.loads(x) for x in h.c.fx.out if '"play"' in x]
    if not play or play[0]["move"] != "8/5 6/5":
        raise SystemExit("the turn could not be finished after the flood")
    print("%d lines: %d error events, %d valid commands answered; the game went on (8/5 6/5)" % (n, errors, answered))


if __name__ == "__main__":
    main()
