"""bgc demo: a complete game of random legal plays, printed move by move."""

import random

from bgrules import Position, Turn

from ..engine import add_variant_argument, board_lines, read_variant

KINDS = {1: "a single game", 2: "a gammon", 3: "a backgammon"}


def register(sub):
    p = sub.add_parser("demo", help="play a whole game of random legal moves with the rules engine")
    p.add_argument("--seed", type=int, default=None, help="seed for reproducible dice and choices")
    p.add_argument("--quiet", action="store_true", help="only the result")
    add_variant_argument(p)
    p.set_defaults(func=run)


def play_game(rng, rules=None):
    """Yield (turn number, colour, dice, play or None, position after, from the mover's side)."""
    from bgrules import STANDARD

    rules = rules or STANDARD
    names = ("White", "Black")
    while True:
        a, b = rng.randint(1, 6), rng.randint(1, 6)
        if a != b:
            break
    mover = 0 if a > b else 1
    pos = rules.start_position()
    number = 0
    first = True
    while True:
        number += 1
        if not first:
            a, b = rng.randint(1, 6), rng.randint(1, 6)
        first = False
        plays = (rules.turn or Turn)(pos, a, b, rules, (names[mover], names[1 - mover])).plays()
        play = rng.choice(plays) if plays else None
        after = play.position if play else pos
        yield number, names[mover], (a, b), play, after
        if rules.result(pos, after):
            return
        if a == b and rules.doubles == "once_again":
            pos = after  # Catch me, Doublets: the same player rolls again
            continue
        pos = after.swapped()
        mover = 1 - mover


def run(args):
    rng = random.Random(args.seed)
    rules = read_variant(args.variant)
    last = None
    before = None
    for number, colour, dice, play, after in play_game(rng, rules):
        if last is not None:
            before = last[1].swapped()
        last = (colour, after)
        if not args.quiet:
            text = play.notation() if play else "(no legal move)"
            print("%3d. %-5s %d-%d: %-28s %s" % (number, colour, dice[0], dice[1], text, after.id()))
    colour, after = last
    kind = rules.result(before if before is not None else rules.start_position(), after)
    if not args.quiet:
        print()
        names = ("White", "Black")
        print("\n".join(board_lines(after, names.index(colour), names)))
        print()
    names = ("White", "Black")
    if kind < 0:  # the mover lost with the last play (Reverse, No hitting)
        colour, kind = names[1 - names.index(colour)], -kind
    print("%s wins %s (%d point%s)." % (colour, KINDS[kind], kind, "" if kind == 1 else "s"))
    return 0
