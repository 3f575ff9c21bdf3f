"""GNU Backgammon's own move generator (PyPI gnubg-nn) as a reference for tests and benchmarks."""


def reference_results(position_id, d1, d2):
    """The sorted distinct Position IDs GNU Backgammon reaches with d1-d2 (mover's view)."""
    import gnubg_nn

    board = gnubg_nn.board_from_position_id(position_id)
    out = set()
    for key in gnubg_nn.moves(board, d1, d2):
        b = gnubg_nn.board_from_position_key(key)
        out.add(gnubg_nn.position_id([list(b[0]), list(b[1])]))
    return sorted(out)


def random_positions(count, seed=1, rules=None):
    """Positions from random games played with our engine (mover's view), with a roll each; of
    the standard game, or of ``rules`` (a bgrules Rules)."""
    import random

    from bgrules import Position, Turn, STANDARD

    rules = rules or STANDARD

    rng = random.Random(seed)
    out = []
    while len(out) < count:
        pos = rules.start_position()
        while len(out) < count:
            a, b = rng.randint(1, 6), rng.randint(1, 6)
            out.append((pos.id(), a, b))
            plays = Turn(pos, a, b, rules).plays()
            if plays:
                pos = rng.choice(plays).position
            if pos.result():
                break
            pos = pos.swapped()
    return out
