"""bgc demo: a complete game of random legal plays, printed move by move."""

import random

from bgrules import Position, Turn

from ..engine import board_lines

KINDS = {1: "a single game", 2: "a gammon", 3: "a backgammon"}


def register(sub):
    p = sub.add_parser("demo", help="play a whole game of random legal moves with the rules engine")
    p.add_argument("--seed", type=int, default=None, help="seed for reproducible dice and choices")
    p.add_argument("--quiet", action="store_true", help="only the result")
    p.set_defaults(func=run)


def play_game(rng):
    """Yield (turn number, colour, dice, play or None, position after, from the mover's side)."""
    names = ("White", "Black")
    while True:
        a, b = rng.randint(1, 6), rng.randint(1, 6)
        if a != b:
            break
    mover = 0 if a > b else 1
    pos = Position.start()
    number = 0
    first = True
    while True:
        number += 1
        if not first:
            a, b = rng.randint(1, 6), rng.randint(1, 6)
        first = False
        plays = Turn(pos, a, b, names=(names[mover], names[1 - mover])).plays()
        play = rng.choice(plays) if plays else None
        after = play.position if play else pos
        yield number, names[mover], (a, b), play, after
        result = after.result()
        if result:
            return
        pos = after.swapped()
        mover = 1 - mover


def run(args):
    rng = random.Random(args.seed)
    last = None
    for number, colour, dice, play, after in play_game(rng):
        last = (colour, after)
        if not args.quiet:
            text = play.notation() if play else "(no legal move)"
            print("%3d. %-5s %d-%d: %-28s %s" % (number, colour, dice[0], dice[1], text, after.id()))
    colour, after = last
    kind = after.result()
    if not args.quiet:
        print()
        names = ("White", "Black")
        print("\n".join(board_lines(after, names.index(colour), names)))
        print()
    print("%s wins %s (%d point%s)." % (colour, KINDS[kind], kind, "" if kind == 1 else "s"))
    return 0
