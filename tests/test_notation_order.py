"""One written order for a play's moves, whatever order its steps were found in, the same on
CPython and on the Pico's MicroPython (whose sort is not stable): the journal of a match played on
the board and its replay on the PC name every play alike.

The order is the players' and GNU Backgammon's: moves from the highest point first, then the
highest destination first (6/3 before 6/off); of two moves between the same points the longer
word first, so a hit before the plain move: '24/20* 24/20'."""

import itertools

import pytest

from bgc.pico import upy
from bgrules.notation import format_steps

# plays whose moves share their (from, to): the hit and the plain move, a hit on the way, doubles
PLAYS = [
    ((24, 20, 0), (24, 20, 1)),
    ((24, 20, 1), (24, 20, 0), (13, 9, 0), (13, 9, 0)),
    ((24, 22, 1), (22, 20, 0), (24, 20, 0)),
    ((8, 5, 0), (8, 5, 1), (6, 3, 0), (6, 3, 1)),
    ((25, 22, 1), (25, 22, 0), (13, 10, 0)),
    ((6, 0, 0), (6, 0, 0), (5, 0, 0), (6, 3, 1)),
]

WANT = [
    "24/20* 24/20",
    "24/20* 24/20 13/9(2)",
    "24/22*/20 24/20",
    "8/5* 8/5 6/3* 6/3",
    "bar/22* bar/22 13/10",
    "6/3* 6/off(2) 5/off",
]


def playable(perm):
    """Whether the steps can be played in this order: a checker leaves a point only once one is
    there (22/20 after the 24/22 that brought it)."""
    count = {}
    for src, dst, _hit in perm:
        count[src] = count.get(src, 0) + 1
        count[dst] = count.get(dst, 0) - 1
    here = {p: max(n, 0) for p, n in count.items()}
    for src, dst, _hit in perm:
        if not here[src]:
            return False
        here[src] -= 1
        here[dst] += 1
    return True


def every_order():
    return [(i, perm) for i, play in enumerate(PLAYS) for perm in itertools.permutations(play) if playable(perm)]


def test_a_play_is_written_the_same_whatever_order_its_steps_come_in():
    for i, perm in every_order():
        assert format_steps(perm) == WANT[i], perm


@pytest.mark.micropython
def test_micropython_writes_every_play_as_cpython_does(tmp_path):
    cases = every_order()
    data = tmp_path / "steps.txt"
    data.write_text("".join(" ".join("%d,%d,%d" % s for s in perm) + "\n" for _i, perm in cases))
    program = (
        "from bgrules.notation import format_steps\n"
        "for line in open('steps.txt'):\n"
        "    print(format_steps(tuple(tuple(int(x) for x in w.split(',')) for w in line.split())))\n"
    )
    got = upy.run(program, [upy.FIRMWARE_DIR, str(data)]).strip().split("\n")
    assert got == [WANT[i] for i, _perm in cases]
