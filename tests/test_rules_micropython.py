"""The same engine under a real MicroPython interpreter gives the same answers as under CPython."""

import pytest

from bgc.pico import upy
from bgc.rules.gnubg_ref import random_positions
from bgrules import Position, Turn
from bgc.rules.notation_read import apply_moves
from firmware_script import compile_with_mpy_cross

pytestmark = pytest.mark.micropython

# The cases travel in a data file read line by line, so the engine runs in a Pico-sized heap
# with the collector on (a literal of 2,000 cases would not fit, and is not what a Pico holds).
PROGRAM = r"""
from bgrules import Position, Turn
for line in open("cases.txt"):
    f = line.split()
    if f[0] == "roll":
        print(Turn(Position.from_id(f[1]), int(f[2]), int(f[3])).dice_to_play)
    elif f[0] == "plays":
        turn = Turn(Position.from_id(f[1]), int(f[2]), int(f[3]))
        ids = sorted(p.position.id() for p in turn.plays())
        print("%d:%s" % (turn.dice_to_play, ",".join(ids)))
    else:
        pid, a, b, final = f[1], int(f[2]), int(f[3]), f[4]
        turn = Turn(Position.from_id(pid), a, b)
        fin = Position.from_id(final)
        print("%s|%s|%s" % (turn.check(fin), turn.locate(fin), turn.destinations(Position.from_id(pid), 13)))
"""


def cpython_answers(cases, checks):
    out = []
    for pid, a, b in cases:
        turn = Turn(Position.from_id(pid), a, b)
        ids = sorted(p.position.id() for p in turn.plays())
        out.append("%d:%s" % (turn.dice_to_play, ",".join(ids)))
    for pid, a, b, final in checks:
        turn = Turn(Position.from_id(pid), a, b)
        f = Position.from_id(final)
        out.append("%s|%s|%s" % (turn.check(f), turn.locate(f), turn.destinations(Position.from_id(pid), 13)))
    return out


def test_engine_under_micropython_matches_cpython_on_random_positions_and_seed_examples(tmp_path):
    cases = random_positions(2000, seed=5)
    cases += [("aDcQID2kUqkKKg", 1, 1), ("4HPwATDgc/ABMA", 4, 3)]
    start = Position.start()
    checks = [
        (start.id(), 6, 4, apply_moves(start, "24/18 13/9").id()),
        (start.id(), 6, 4, apply_moves(start, "24/18").id()),
        (start.id(), 6, 4, apply_moves(start, "24/13").id()),
        (start.id(), 3, 3, apply_moves(start, "8/5(2)").id()),
        (start.id(), 6, 1, apply_moves(start, "13/7 8/7").id()),
    ]
    want = cpython_answers(cases, checks)
    # What the board asks (how many dice the roll plays; is this final position legal, which
    # play gives it, where may the checker on 13 go) in a Pico-sized heap...
    data = tmp_path / "cases.txt"
    data.write_text("".join("roll %s %d %d\n" % c for c in cases) + "".join("check %s %d %d %s\n" % c for c in checks))
    got = upy.run(PROGRAM, [upy.FIRMWARE_DIR, str(data)]).strip().split("\n")
    assert got == [w.split(":")[0] for w in want[: len(cases)]] + want[len(cases):]
    # ...and every play of every roll, which only the host lists (Turn.plays(); some rolls have
    # ~2,000 plays, design principle 4), in a larger heap.
    data.write_text("".join("plays %s %d %d\n" % c for c in cases))
    got = upy.run(PROGRAM, [upy.FIRMWARE_DIR, str(data)], heap_kb=4096).strip().split("\n")
    assert got == want[: len(cases)]


def test_engine_reports_its_interpreter():
    assert upy.run("import sys\nprint(sys.implementation.name)").strip() == "micropython"


def test_every_firmware_file_compiles_with_mpy_cross(tmp_path):
    import glob
    import os

    from bgc import FIRMWARE_DIR

    files = sorted(glob.glob(os.path.join(FIRMWARE_DIR, "**", "*.py"), recursive=True))
    assert any(f.endswith(os.path.join("bgrules", "turn.py")) for f in files)
    for f in files:
        # plain (any port's .mpy) and -march=armv6m as bgc deploy compiles
        for march in ([], ["-march=armv6m"]):
            compile_with_mpy_cross(f, tmp_path, march)
