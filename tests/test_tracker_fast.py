"""The image's tracker (companion.tracker_fast.FastTracker: its frame reading compiled by
MicroPython's viper emitter) reads every frame as the bytecode tracker does: the same counts per
place, the same ranged and mixed points, weak cells, covers and faults, frame after frame, and
puts missing checkers back where the last legal position had them as it does, on
CPython (the source as plain functions) and under a real MicroPython (the viper machine code)."""

import pytest

from firmware_script import run_on_cpython, run_on_micropython, seeded_random

# Frames of random cells: mostly empty; white (1), black (2), "two or more" (STACK, 4), weak
# (UNDER, 16: a checker of the other colour on top), faulty (8), a weak empty reading (16);
# ``known`` and the covers as a game leaves them; both boards' numberings (backgammon's, and
# Fevga's, where the heads sit in opposite corners).
SCRIPT = seeded_random(20261129) + r"""
from companion.tracker import Tracker
import companion.tracker_fast as tracker_fast
from companion.tracker_fast import FastTracker
from bgrules.rules import ruleset


CELLS = (1, 2, 1, 2, 5, 6, 17, 18, 8, 16, 3)
PLAIN = (1, 2, 1, 2, 5, 6, 8, 3)  # no weak cell (most frames of a game)
OPPOSITES = [ruleset(key).opposite for key in ("standard", "fevga")]
differ = 0
weak_frames = 0
for case in range(CASES):
    a = Tracker()
    b = FastTracker()
    mw = rnd(2) == 0
    opp = OPPOSITES[rnd(2)]
    for t in (a, b):
        t.mover_white = mw
        t.opp = opp
    sparse = 2 + 6 * rnd(2)  # (a few known checkers: the frames often show none missing)
    for i in range(52):
        k = rnd(7) if rnd(sparse) == 0 else 0
        a.known[i] = b.known[i] = k
    covers = rnd(2)
    weak_before = rnd(2)
    for p in range(25):
        if covers:
            a.cover[p] = b.cover[p] = rnd(3) if rnd(4) == 0 else 0
        if weak_before:
            a.under_ok[p] = b.under_ok[p] = rnd(40) if rnd(4) == 0 else 0
    frame = bytearray(128)
    for _ in range(3):  # frames in a row: the covers and weak cells carry over
        dense = 2 + rnd(6)
        kinds = CELLS if rnd(2) else PLAIN
        for i in range(128):
            frame[i] = kinds[rnd(len(kinds))] if rnd(dense) == 0 else 0
        a.read(frame)
        b.read(frame)
        if a.under != bytes(25):
            weak_frames += 1
        if (a.seen != b.seen or a.lo != b.lo or a.rng != b.rng or a.mixed != b.mixed or a.under != b.under
                or a.faults != b.faults or a.cover != b.cover or a.under_ok != b.under_ok
                or a._on(a.seen, 0) != b._on(b.seen, 0) or a._on(a.seen, 26) != b._on(b.seen, 26)):
            differ += 1
        # the checkers missing from a frame put back where ``known`` had them (a lift's answer)
        deficit = rnd(5)
        a.wait0 = b.wait0 = rnd(2) * rnd(16)
        if a._on(a.seen, 0) + deficit > 15:
            a.wait0 = b.wait0 = 1 + rnd(15)  # (more than a side's checkers: only where they wait)
        into = bytearray(52)
        if (a._returned(a.seen, deficit) != b._returned(b.seen, deficit)
                or a._returned(a.seen, deficit, bytearray(52)) != b._returned(b.seen, deficit, into)
                or into != a._returned(a.seen, deficit)):
            differ += 1
print("tracker_fast", tracker_fast.EMITTER, CASES, differ, weak_frames)
"""


def _result(out):
    line = [x for x in out.splitlines() if x.startswith("tracker_fast ")][-1]
    _, emitter, cases, differ, weak = line.split()
    return emitter, int(cases), int(differ), int(weak)


def test_the_fast_tracker_reads_every_frame_as_the_tracker_does(tmp_path):
    emitter, cases, differ, weak = _result(run_on_cpython("CASES = 3000\n" + SCRIPT, tmp_path))
    assert emitter == "python" and cases == 3000
    assert 1000 < weak < 8000  # the weak-cell pass is exercised, and its shortcut
    assert differ == 0


@pytest.mark.micropython
def test_the_fast_tracker_as_viper_machine_code_reads_every_frame_as_the_tracker_does():
    emitter, cases, differ, weak = _result(run_on_micropython("CASES = 600\n" + SCRIPT))
    assert emitter == "viper" and cases == 600  # the UNIX port's emitter compiled it
    assert 200 < weak < 1600
    assert differ == 0
