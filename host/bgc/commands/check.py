"""bgc check: is a final position the result of a legal play of the roll?"""

from bgrules import Position, PositionError, Turn
from bgrules.position import BAR, OPP

from ..errors import UserError, shown
from ..rules.engine import add_variant_argument, position_hint, read_die, read_position, read_variant, unplayed_roll


def register(sub):
    p = sub.add_parser("check", help="check a play: legal, or illegal with the rule it breaks")
    p.add_argument("position", help="Position ID before the play (player on roll second)")
    p.add_argument("d1")
    p.add_argument("d2")
    p.add_argument("final", help="Position ID after the play, from the same player's side")
    add_variant_argument(p)
    p.set_defaults(func=run)


def run(args):
    rules = read_variant(args.variant, one_game=True)
    start = read_position(args.position, rules, args.waiting)
    d1, d2 = read_die(args.d1), read_die(args.d2)
    try:
        final = Position.from_id(args.final.strip(), rules.opposite, rules.pinning)
        _keep_waiting(start, final)
    except PositionError as exc:
        if _undecodable(exc):
            raise UserError("bad final Position ID %s: %s\n%s" % (shown(args.final, 20), _why(exc), position_hint(rules))) from None
        # It names a board, but one no play can reach (a checker missing, both colours on a point).
        print("illegal: %s" % exc)
        return 1
    reason = unplayed_roll(rules, d1, d2)
    if reason:
        print("illegal: %s" % reason)
        return 1
    reason = (rules.turn or Turn)(start, d1, d2, rules).check(final)
    if reason is None:
        print("legal" + _ends(rules, start, final))
        return 0
    print("illegal: %s" % reason)
    return 1


def _ends(rules, start, final):
    """What a legal play does to the game when it ends it: won, or lost by the player who
    played it (No hitting: "Wer seinen Gegner schlägt, verliert"; Reverse: the first out)."""
    r = rules.result(start, final)
    if not r:
        return ""
    kind = ("", "a single game", "a gammon", "a backgammon")[min(abs(r), 3)]
    if r > 0:
        return ": the player on roll wins %s" % kind
    if rules.hit_loses and final.cells[OPP + BAR] > start.cells[OPP + BAR]:
        return ": a hit, so the player on roll loses %s (%s: whoever hits loses)" % (kind, rules.name)
    if rules.last_out_wins:
        return ": the last checker off, so the player on roll loses %s (%s: whoever bears off first loses)" % (kind, rules.name)
    return ": the player on roll loses %s" % kind


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
