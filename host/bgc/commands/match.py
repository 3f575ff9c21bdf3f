"""bgc match: what a GNU Backgammon Match ID (and a Position ID with it) says, in words."""

from bgrules.matchid import (
    GAME_DROPPED,
    GAME_NONE,
    GAME_OVER,
    GAME_PLAYING,
    GAME_RESIGNED,
    MatchIdError,
)
from bgrules.matchid_read import decode

from ..errors import UserError, shown
from ..rules.engine import board_lines, read_position

KINDS = ("", "a single game", "a gammon", "a backgammon")
# GNU Backgammon's board letters: O is player 0, X is player 1.


def register(subparsers):
    p = subparsers.add_parser(
        "match",
        help="explain a GNU Backgammon Match ID (and draw a Position ID)",
        description="Print what a GNU Backgammon Match ID means in words; with a Position ID, "
        "also the board as text (seen by the player on roll) with pip counts.",
    )
    p.add_argument("match_id", metavar="MATCH_ID", help="12-character Match ID, e.g. QYkqASAAIAAA")
    p.add_argument("position_id", metavar="POSITION_ID", nargs="?", help="14-character Position ID")
    p.add_argument(
        "--names",
        default="White,Black",
        help="names of player 0 and player 1, comma-separated (default: White,Black)",
    )
    p.set_defaults(func=run)


def run(args):
    names = [n.strip() for n in args.names.split(",")]
    if len(names) != 2 or not all(names):
        raise UserError("--names takes two names separated by a comma\nhint: e.g. --names Anna,Bruno")
    try:
        mk = decode(args.match_id)
    except MatchIdError as exc:
        raise UserError("bad Match ID %s: %s\nhint: a Match ID is 12 characters as GNU Backgammon shows them, "
                        "e.g. QYkqASAAIAAA" % (shown(args.match_id, 20), str(exc).split(": ", 1)[0])) from None
    position = read_position(args.position_id) if args.position_id else None
    print("\n".join(describe(mk, names)))
    if position is not None:
        print()
        print("\n".join(board_lines(position, mk.on_roll, names, mk.cube, mk.cube_owner)))
    return 0


def _points(n):
    return "%d point%s" % (n, "" if n == 1 else "s")


def describe(mk, names):
    """The Match ID's fields as sentences."""
    lines = ["Match ID %s" % mk.id()]
    s0, s1 = mk.score
    if mk.length:
        lines.append("%d-point match, score %s %d, %s %d" % (mk.length, names[0], s0, names[1], s1))
        if mk.crawford:
            lines.append("Crawford game: no doubling")
        elif mk.length - 1 in mk.score and mk.state == GAME_PLAYING:
            # A game under way with a player at N-1 and no Crawford flag is after the Crawford game.
            lines.append("Post-Crawford game (doubling allowed)")
        if max(mk.score) >= mk.length:
            lines.append("Match over: %s wins" % names[0 if s0 >= mk.length else 1])
    else:
        lines.append("Money game, %s %d, %s %d" % (names[0], s0, names[1], s1))
        lines.append("Jacoby rule %s" % ("on" if mk.jacoby else "off"))
    if mk.cube_owner < 0:
        lines.append("Cube: %d, centred" % mk.cube)
    else:
        lines.append("Cube: %d, owned by %s" % (mk.cube, names[mk.cube_owner]))
    roller = names[mk.on_roll]
    actor = names[mk.to_act]
    if mk.state == GAME_NONE:
        lines.append("No game started")
    elif mk.state == GAME_PLAYING:
        lines.append("Game in progress")
    elif mk.state == GAME_OVER:
        lines.append("Game over")
    elif mk.state == GAME_RESIGNED:
        lines.append("Game over: %s resigned %s" % (names[1 - mk.to_act], KINDS[mk.resign] or "a game"))
    elif mk.state == GAME_DROPPED:
        lines.append("Game over: the double was dropped")
    if mk.state in (GAME_NONE, GAME_PLAYING):
        if mk.doubled:
            lines.append("%s doubles to %d; %s to take or drop" % (names[1 - mk.to_act], 2 * mk.cube, actor))
        elif mk.resign:
            lines.append(
                "%s offers to resign %s; %s to accept or reject" % (names[1 - mk.to_act], KINDS[mk.resign], actor)
            )
        if mk.dice[0]:
            lines.append("%s on roll, rolled %d-%d" % (roller, mk.dice[0], mk.dice[1]))
        elif mk.state == GAME_PLAYING:
            lines.append("%s on roll, to double or roll" % roller if not mk.doubled else "%s on roll" % roller)
    return lines


