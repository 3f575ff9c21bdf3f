"""bgc demo: a complete game of random legal plays, printed move by move."""

import random

from ..rules.engine import add_variant_argument, board_lines, read_variant
from ..board.players import fewest_pips

KINDS = {1: "a single game", 2: "a gammon", 3: "a backgammon"}


def register(sub):
    p = sub.add_parser("demo", help="play a whole game of random legal moves with the rules engine")
    p.add_argument("--seed", type=int, default=None, help="seed for reproducible dice and choices")
    p.add_argument("--quiet", action="store_true", help="only the result")
    add_variant_argument(p)
    p.set_defaults(func=run)


def play_game(rng, rules=None):
    """Yield (turn number, colour, dice, play or None, position after, from the mover's side),
    one item per part of a turn (bgrules.turn_parts: the underside of a double, a chosen double,
    a second roll). The Match rolls, chooses and plays, so every variant's dice rules hold."""
    from bgrules import STANDARD, turn_parts
    from bgrules.match import Match

    m = Match(0, rules=rules or STANDARD)
    names = ("White", "Black")

    def dice():
        return rng.randint(1, 6), rng.randint(1, 6)

    while not m.opening_roll(*dice(), next_dice=dice() if m.rules.open_roll else None):
        pass
    number = 0
    while m.phase not in ("gameover", "matchover"):
        if m.phase == "roll":
            if m.closed_out():
                m.pass_turn()
                continue
            if m.rules.free_choice:
                if turn_parts.chooser(m) == m.on_roll:
                    d1 = rng.randint(2, 6)
                    turn_parts.choose(m, d1, rng.randint(1, d1 - 1), None)
                    continue
            m.roll(*(m.preset_dice() or dice()), next_dice=dice() if m.rules.open_roll else None)
            continue
        if m.phase == "choose":
            d = rng.randint(1, 6)
            turn_parts.choose(m, d, d, None)
            continue
        number += 1
        mover = m.on_roll
        pos = m.position
        plays = m.turn.plays()
        if plays and m.rules.backwards:
            plays = fewest_pips(plays)
        play = rng.choice(plays) if plays else None
        after = play.position if play else pos
        yield number, names[mover], m.dice, play, after
        m.play(after)
        if m.phase == "roll" and ((not plays and m.rules.pinning and m.rules.locked(m.position, m.rules))
                                  or m.repeated):
            # Pin: neither player can ever move again; Fixed roll: the same position a third
            # time (the seed has a rule for neither): the one further from home resigns, as
            # players at the board would end it
            pips = m.pips()
            m.resign(1, 0 if pips[0] >= pips[1] else 1)
            m.accept()
    yield m.result


def run(args):
    rng = random.Random(args.seed)
    rules = read_variant(args.variant)
    last = None
    for item in play_game(rng, rules):
        if len(item) == 4:
            winner, points, kind, how = item
            break
        number, colour, dice, play, after = item
        last = (colour, after)
        if not args.quiet:
            text = play.notation() if play else "(no legal move)"
            print("%3d. %-5s %d-%d: %-28s %s" % (number, colour, dice[0], dice[1], text, after.id()))
    names = ("White", "Black")
    if not args.quiet:
        colour, after = last
        print()
        print("\n".join(board_lines(after, names.index(colour), names)))
        print()
    if how == "draw":
        print("A draw: no points (%s: both mothers pinned)." % rules.name)
        return 0
    by = ""
    if how == "resign":
        by = (" by resignation: the same position came back a third time" if rules.fixed_roll
              else " by resignation: neither player could ever move again")
    print("%s wins %s (%d point%s)%s." % (names[winner], KINDS[kind], points, "" if points == 1 else "s", by))
    return 0
