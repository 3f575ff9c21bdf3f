"""The board's DONE question (Turn.is_legal, Turn.check) against GNU Backgammon's own generator on
near misses: the final positions one checker step away from a legal play, which the tracker asks
about at DONE when it tries the other counts of a stack the sensors cannot count. The engine
refuses most of them by their pip count before searching (Turn._may_reach), so this checks that
the refusal never turns away a play GNU Backgammon allows, nor lets through one it does not."""

import random

import pytest

from bgrules import Position, Turn

gnubg_nn = pytest.importorskip("gnubg_nn")


def gnubg_results(pid, a, b):
    board = gnubg_nn.board_from_position_id(pid)
    out = set()
    for key in gnubg_nn.moves(board, a, b):
        after = gnubg_nn.board_from_position_key(key)
        out.add(gnubg_nn.position_id([list(after[0]), list(after[1])]))
    return out


def near_misses(cells):
    """Positions with one of the mover's checkers one pip further or nearer, or borne off."""
    for i in range(1, 26):
        if not cells[i]:
            continue
        for j in (i - 1, i + 1, 0):
            if j == i or j > 25 or (j == 25 and i != 24):
                continue
            c = bytearray(cells)
            c[i] -= 1
            c[j] += 1
            yield c


def gnubg_game_positions(count, seed):
    """Positions of games GNU Backgammon plays against itself with seeded dice, and a roll each."""
    rng = random.Random(seed)
    out = []
    pos = Position.start()
    while len(out) < count:
        a, b = rng.randint(1, 6), rng.randint(1, 6)
        out.append((pos.id(), a, b))
        moves, key = gnubg_nn.bestmove(gnubg_nn.board_from_position_id(pos.id()), a, b, b=1)
        if moves:
            after = gnubg_nn.board_from_position_key(key)
            pos = Position.from_id(gnubg_nn.position_id([list(after[0]), list(after[1])]))
        pos = Position.start() if pos.result() else pos.swapped()
    return out


def test_legal_plays_and_their_near_misses_are_judged_as_gnu_backgammon_does():
    judged = refused = 0
    for pid, a, b in gnubg_game_positions(60, seed=4):
        legal = gnubg_results(pid, a, b)
        turn = Turn(Position.from_id(pid), a, b)
        for rid in legal:
            final = Position.from_id(rid)
            assert turn.is_legal(final.cells), (pid, a, b, rid)
            assert b"" in turn.locate(final.cells), (pid, a, b, rid)  # the whole play is on the board
            for c in near_misses(final.cells):
                near = Position(c)
                verdict = turn.check(near)
                assert (verdict is None) == (near.id() in legal), (pid, a, b, near.id(), verdict)
                judged += 1
                refused += verdict is not None
    assert judged > 2500 and refused > judged // 2  # the near misses are mostly illegal, as they should be
