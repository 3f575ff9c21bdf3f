"""bgc check: is a final position the result of a legal play of the roll?"""

from bgrules import Position, PositionError, Turn

from ..errors import UserError, shown
from ..rules.engine import POSITION_HINT, add_variant_argument, read_die, read_position, read_variant


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
    start = read_position(args.position, rules, args.waiting)
    d1, d2 = read_die(args.d1), read_die(args.d2)
    try:
        final = Position.from_id(args.final.strip(), rules.opposite, rules.pinning)
        _keep_waiting(start, final)
    except PositionError as exc:
        if _undecodable(exc):
            raise UserError("bad final Position ID %s: %s\n%s" % (shown(args.final, 20), _why(exc), POSITION_HINT)) from None
        # It names a board, but one no play can reach (a checker missing, both colours on a point).
        print("illegal: %s" % exc)
        return 1
    reason = (rules.turn or Turn)(start, d1, d2, rules).check(final)
    if reason is None:
        print("legal")
        return 0
    print("illegal: %s" % reason)
    return 1


def _keep_waiting(start, final):
    # Nobody bears off in a turn that starts with checkers waiting (bgrules/variants/entering.py): the
    # final's missing checkers are still waiting then, fewer the ones entered; the opponent's too.
    from bgrules.position import waiting, OPP

    mover, opp = waiting(start.cells), waiting(start.cells, OPP)
    if mover or opp:
        entered = sum(final.cells[1:26]) - sum(start.cells[1:26])
        final.set_waiting(mover - entered if mover else 0, opp)


def _undecodable(exc):
    """Whether the final ID is no Position ID at all, rather than a board no play can reach."""
    return str(exc).startswith(("not a Position ID", "a Position ID has"))


def _why(exc):
    return str(exc).split(": ", 1)[0]  # the reason without the input it repeats
