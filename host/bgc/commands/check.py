"""bgc check: is a final position the result of a legal play of the roll?"""

from bgrules import Position, PositionError, Turn

from ..cli import UserError
from ..engine import add_variant_argument, read_die, read_position, read_variant


def register(sub):
    p = sub.add_parser("check", help="check a play: legal, or illegal with the rule it breaks")
    p.add_argument("position", help="Position ID before the play (player on roll second)")
    p.add_argument("d1")
    p.add_argument("d2")
    p.add_argument("final", help="Position ID after the play, from the same player's side")
    add_variant_argument(p)
    p.set_defaults(func=run)


def run(args):
    rules = read_variant(args.variant)
    start = read_position(args.position)
    d1, d2 = read_die(args.d1), read_die(args.d2)
    try:
        final = Position.from_id(args.final.strip())
    except PositionError as exc:
        if "checkers" in str(exc) or "colours" in str(exc):
            print("illegal: %s" % exc)
            return 1
        raise UserError("bad final Position ID: %s" % exc)
    reason = Turn(start, d1, d2, rules).check(final)
    if reason is None:
        print("legal")
        return 0
    print("illegal: %s" % reason)
    return 1
