"""The image's Position ID packer (companion.ids_fast: viper machine code in place of
Position.key's loop) writes GNU Backgammon's Position IDs: the start position's, and the same IDs
as the bytecode packing for positions of every kind (checkers borne off, on the bar, waiting
beside the board), on CPython and as viper under a real MicroPython. Match IDs (bgrules.matchid:
the fields packed as one number) are checked against the manual's examples and decoded back,
field by field, for keys of every kind (tests/test_match_id.py has the hypothesis round trip)."""

import pytest

from firmware_script import run_on_cpython, run_on_micropython, seeded_random

SCRIPT = seeded_random(20261129) + r"""
from bgrules.matchid import MatchKey
from bgrules.matchid_read import decode
from bgrules.position import Position
from companion import ids_fast


def random_position():
    cells = bytearray(52)
    for side in (0, 26):
        left = 15 - rnd(16) if rnd(3) == 0 else 15  # the rest borne off (or waiting)
        while left:
            p = 25 if rnd(12) == 0 else 1 + rnd(24)
            cells[side + p] += 1
            left -= 1
        cells[side] = 15 - sum(cells[side + 1:side + 26])
    return Position(cells)

def random_key():
    d1 = rnd(7)
    length = rnd(2) * rnd(65)
    top = length + 1 if length else 32768
    return MatchKey(cube=1 << rnd(16), cube_owner=rnd(3) - 1, on_roll=rnd(2), crawford=rnd(2) if length else 0,
                    state=rnd(5), to_act=rnd(2), doubled=rnd(2), resign=rnd(4),
                    dice=(d1, 1 + rnd(d1)) if d1 else (0, 0), length=length,
                    score=(rnd(top), rnd(top)), jacoby=rnd(2))

def ids():
    state[0] = 20261129  # the same cases each time
    return ([random_position().id() for _ in range(CASES)], [random_key().id() for _ in range(CASES)],
            Position.start().id(), decode("QYkqASAAIAAA").id(), decode("cInlAAAAAAAE").id())

plain = ids()
ids_fast.install()
fast = ids()
state[0] = 7
back = 0
for _ in range(CASES):
    k = random_key()
    back += decode(k.id()) == k
print("ids_fast", ids_fast.EMITTER, CASES, sum(1 for a, b in zip(plain[0], fast[0]) if a != b),
      sum(1 for a, b in zip(plain[1], fast[1]) if a != b), fast[2], fast[3], fast[4],
      len(set(fast[0])), len(set(fast[1])), back)
"""


def _result(out):
    line = [x for x in out.splitlines() if x.startswith("ids_fast ")][-1].split()
    return line[1], [int(v) for v in line[2:5]], line[5:8], [int(v) for v in line[8:]]


def _check(emitter, cases, differ, gnubg, distinct, want_emitter, want_cases):
    assert emitter == want_emitter and cases == want_cases
    assert differ == [0, 0]  # the same Position IDs (and Match IDs: the packer leaves them alone)
    # GNU Backgammon's start position and the two Match IDs of its manual
    assert gnubg == ["4HPwATDgc/ABMA", "QYkqASAAIAAA", "cInlAAAAAAAE"]
    assert distinct[0] > want_cases * 0.95 and distinct[1] > want_cases * 0.95  # varied cases
    assert distinct[2] == want_cases  # every Match ID decodes to the fields it was made of


def test_the_fast_packers_write_gnubgs_ids(tmp_path):
    emitter, (cases, *differ), gnubg, distinct = _result(run_on_cpython("CASES = 3000\n" + SCRIPT, tmp_path))
    _check(emitter, cases, differ, gnubg, distinct, "python", 3000)


@pytest.mark.micropython
def test_the_fast_packers_as_viper_machine_code_write_gnubgs_ids():
    emitter, (cases, *differ), gnubg, distinct = _result(run_on_micropython("CASES = 200\n" + SCRIPT))
    _check(emitter, cases, differ, gnubg, distinct, "viper", 200)
