"""Nackgammon and Hypergammon against GNU Backgammon's own move generator (gnubg-nn).

GNU Backgammon plays both (``set variation nackgammon`` / ``hypergammon3``) with the standard
move rules; only the start and, for Hypergammon, the number of checkers differ. Every play our
engine lists for positions of random games of each variant must be exactly the set GNU
Backgammon's generator reaches.
"""

import pytest

from bgrules import Position, Turn
from bgrules.rules import ruleset

gnubg_ref = pytest.importorskip("bgc.rules.gnubg_ref")
pytest.importorskip("gnubg_nn")


@pytest.mark.parametrize("key,count", [("nackgammon", 300), ("hypergammon", 400)])
def test_every_play_matches_gnu_backgammon_in_random_games_of(key, count):
    rules = ruleset(key)
    for pid, a, b in gnubg_ref.random_positions(count, seed=5, rules=rules):
        ours = sorted({p.position.id() for p in Turn(Position.from_id(pid), a, b, rules).plays()})
        assert ours == gnubg_ref.reference_results(pid, a, b), (key, pid, a, b)


def test_hypergammon_start_is_gnu_backgammons_hypergammon3_start():
    # GNU Backgammon's hypergammon3 start: one checker on each of the opponent's 1, 2, 3 points.
    import gnubg_nn

    start = ruleset("hypergammon").start_position()
    board = gnubg_nn.board_from_position_id(start.id())
    assert [list(side) for side in board] == [[0] * 21 + [1, 1, 1, 0]] * 2


def test_nackgammon_start_is_nick_balls_layout():
    # Nackgammon: 2 on the 24 point, 2 on the 23 point, 4 mid, 3 on the 8, 4 on the 6.
    start = ruleset("nackgammon").start_position()
    assert [start.mover(p) for p in (6, 8, 13, 23, 24)] == [4, 3, 4, 2, 2]
    assert sum(start.mover(p) for p in range(1, 26)) == 15
