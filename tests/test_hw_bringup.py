"""The bring-up check of a sensor board (firmware/drivers/bringup.py) on the virtual board: a
good board passes every cell, a dead sensor and two swapped channels are named. Boards are built
from geometry.json with the faults put into their wiring, as a soldering slip would."""
import copy
import os
import sys

import pytest

from bgc.board import virtual
from bgc.board.virtual.board import BLACK, WHITE, Board, load_geometry

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "firmware"))


@pytest.fixture
def make_board():
    def make(geometry=None):
        return virtual.install(geometry=geometry, seed=3)

    yield make
    virtual.uninstall()


def walk(board, quadrant, frames=6):
    """Calibrate on the empty board, then put a checker on each of the board's cells in turn."""
    from drivers.bringup import BringUp
    from drivers.hall import HallScanner

    scanner = HallScanner()
    check = BringUp(quadrant, timeout_ms=2000)
    board.clear()
    messages = check.calibrate([list(scanner.scan()) for _ in range(8)])
    while not check.done():
        cell = check.expected()
        board.place(cell, WHITE if cell % 2 else BLACK)
        for _ in range(frames):
            board.clock.advance_ms(10)
            msg = check.step(scanner.scan(), board.clock.ticks_ms())
            if msg:
                messages.append(msg)
                break
        board.remove(cell)
        while check.expected() == cell:  # nothing reacted: the check times out on this cell
            board.clock.advance_ms(100)
            msg = check.step(scanner.scan(), board.clock.ticks_ms())
            if msg:
                messages.append(msg)
        for _ in range(2):
            board.clock.advance_ms(10)
            check.step(scanner.scan(), board.clock.ticks_ms())
    return check, messages


@pytest.mark.parametrize("quadrant", [0, 3])
def test_a_good_board_passes_every_cell(make_board, quadrant):
    check, messages = walk(make_board(), quadrant)
    assert check.problems == []
    assert check.ok == 32 and len(messages) == 32
    assert check.summary() == "board %d: 32 of 32 cells OK, 0 problems" % quadrant


class MissingSensor(Board):
    """A board with no sensor on one channel: the common line's 100 kOhm pulls it to 0 V."""

    missing_cell = 37  # point 8, cell 2

    def update(self):
        super().update()
        self._codes[self.slot_of_cell[self.missing_cell]] = 0


def test_a_missing_sensor_is_named_as_a_fault_and_as_missing():
    board = virtual.install(board=MissingSensor(seed=3))
    try:
        check, messages = walk(board, 1)
    finally:
        virtual.uninstall()
    assert [m.split(" reads")[0] for m in messages if m.startswith("FAULT")] == [
        "FAULT cell 37 (point 8, mux 2 channel 7)"]
    assert any(m.startswith("MISSING no cell reacted over cell 37 ") for m in messages)
    assert check.ok == 31


def test_two_swapped_channels_are_named(make_board):
    geo = copy.deepcopy(load_geometry())
    a, b = geo["cells"][95], geo["cells"][96]  # point 20 cells 0 and 1 (quadrant 3)
    (a["mux"], a["channel"]), (b["mux"], b["channel"]) = (b["mux"], b["channel"]), (a["mux"], a["channel"])
    check, messages = walk(make_board(geo), 3)
    wrong = [m for m in messages if m.startswith("WRONG")]
    assert wrong == [
        "WRONG over cell 95 (point 20, mux 6 channel 5) the magnet reads on cell 96 (point 20, mux 6 channel 6): "
        "swapped or misrouted channel",
        "WRONG over cell 96 (point 20, mux 6 channel 6) the magnet reads on cell 95 (point 20, mux 6 channel 5): "
        "swapped or misrouted channel"]
    assert check.ok == 30
