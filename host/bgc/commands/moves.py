"""bgc moves: the legal plays of a roll, as notation and resulting Position IDs."""

import sys

from bgrules import Position, PositionError, Turn

from ..errors import SHOWN, UserError, shown
from ..rules.engine import add_variant_argument, read_die, read_position, read_variant, read_waiting, unplayed_roll


def register(sub):
    p = sub.add_parser("moves", help="list the legal plays of a position and roll")
    p.add_argument("position", nargs="?", help="GNU Backgammon Position ID (player on roll second)")
    p.add_argument("dice", nargs="*", help="the two dice, e.g. 6 4")
    p.add_argument(
        "--batch",
        action="store_true",
        help="read lines 'POSITION_ID D1 D2 [M,O]' from standard input (M,O: that line's waiting "
        "checkers, else --waiting's); write the sorted resulting IDs",
    )
    add_variant_argument(p)
    p.set_defaults(func=run)


def batch_line(line, rules=None, waiting=None):
    """One answer line for one input line of --batch: 'POSITION_ID D1 D2', or with a fourth word
    'M,O' the checkers of that position still waiting (Puff, Acey Deucey...)."""
    words = line.split()
    if len(words) not in (3, 4):
        return "error: expected 'POSITION_ID D1 D2' or 'POSITION_ID D1 D2 M,O', got %s" % shown(line.strip())
    if len(words) == 4:
        try:
            waiting = read_waiting(words[3])
        except UserError:
            return "error: waiting checkers are two counts 0-15 like 13,15, got %s" % shown(words[3], 10)
    try:
        pos = read_position(words[0], rules, waiting)
    except UserError as exc:
        first = str(exc).split("\n", 1)[0]
        return "error: %s" % (first if len(words[0]) <= SHOWN else "a Position ID has 14 characters: %s"
                              % shown(words[0]))
    try:
        d1, d2 = read_die(words[1]), read_die(words[2])
    except UserError:
        return "error: dice must be numbers 1 to 6, got %s %s" % (shown(words[1], 10), shown(words[2], 10))
    reason = unplayed_roll(rules, d1, d2)
    if reason:
        return "error: %s" % reason
    if rules is not None:
        return " ".join(sorted(p.position.id() for p in (rules.turn or Turn)(pos, d1, d2, rules).plays()))
    return " ".join(sorted(p.position.id() for p in Turn(pos, d1, d2).plays()))


def run(args):
    rules = read_variant(args.variant, one_game=True)
    if args.batch:
        waiting = args.waiting and read_waiting(args.waiting)
        out = sys.stdout
        for line in sys.stdin:
            if not line.strip():
                out.write("\n")
                continue
            out.write(batch_line(line, rules, waiting) + "\n")
        return 0
    if not args.position or len(args.dice) != 2:
        raise UserError("usage: bgc moves POSITION_ID D1 D2 (or bgc moves --batch)\nhint: e.g. bgc moves %s 6 4"
                        % "4HPwATDgc/ABMA")
    pos = read_position(args.position, rules, args.waiting)
    d1, d2 = read_die(args.dice[0]), read_die(args.dice[1])
    reason = unplayed_roll(rules, d1, d2)
    if reason:
        print("No play: %s." % reason)
        return 0
    plays = (rules.turn or Turn)(pos, d1, d2, rules).plays()
    if not plays:
        print("No legal move: the turn is lost.")
        return 0
    plays.sort(key=lambda p: p.notation())
    width = max(len(p.notation()) for p in plays)
    for p in plays:
        print("%-*s  %s" % (width, p.notation(), p.position.id()))
    print("%d legal play%s" % (len(plays), "" if len(plays) == 1 else "s"))
    return 0
