"""Bring-up check of one sensor board: which of its 32 cells answer, and on the right channel.

A freshly soldered sensor board (hardware/README.md) can have a sensor missing or dead, a channel
with no sensor behind it, or two sensors on each other's channel. The check: with the board
empty, read every cell (a reading a working sensor cannot give is a FAULT); then walk one magnet
(a checker) over the board's cells in order, rim first, point by point, then its two bar cells.
Each cell the magnet is over must be the cell that reacts: its point's LED lights green; another
cell reacting is named (a swapped or misrouted channel, LED red); no cell reacting within the time
allowed names the cell (a missing sensor or a broken output).

Pure logic fed with frames (``step(raw, now_ms)``), so the same code runs on the Pico
(firmware/bringup.py) and on the virtual board in the tests.
"""
try:
    from micropython import const
except ImportError:  # CPython (tests, host tools)
    def const(x):  # type: ignore[misc]  # same behaviour, looser signature than the stub
        return x

from drivers import pinmap

FAULT_LOW = const(1500)  # calibration.md: a working DRV5055 stays within 0.2-3.1 V
FAULT_HIGH = const(64000)
REACT = const(5440)  # 40 % of the nominal one-checker deviation (13,600 counts): "a checker is here"
HOLD_FRAMES = const(3)


def board_cells(quadrant):
    """The 32 cells of the sensor board under ``quadrant`` (0..3), in walking order: points
    6q+1..6q+6 rim first, then the bar cells on channel 15 of its two multiplexers."""
    first = 6 * quadrant
    cells = [first * 5 + i for i in range(30)]
    for mux in (2 * quadrant, 2 * quadrant + 1):
        cells.append(pinmap.cell_of_slot(mux << 4 | 15))
    return cells


def describe(cell):
    slot = pinmap.slot_of_cell(cell)
    point = pinmap.point_of_cell(cell)
    where = "point %d" % point if 1 <= point <= 24 else "bar %s" % ("white" if point == 25 else "black")
    return "cell %d (%s, mux %d channel %d)" % (cell, where, slot >> 4, slot & 15)


class BringUp:
    def __init__(self, quadrant, timeout_ms=20000):
        self.quadrant = quadrant
        self.cells = board_cells(quadrant)
        self.timeout_ms = timeout_ms
        self.baseline = None
        self.index = 0
        self.problems = []
        self.ok = 0
        self.last = None  # (point, good) of the last cell judged: the LED to light
        self._candidate = -1
        self._held = 0
        self._clearing = False
        self._since = None

    def calibrate(self, frames):
        """Baselines from frames of the empty board; one message per faulty cell of this board."""
        n = len(frames)
        self.baseline = [sum(f[c] for f in frames) // n for c in range(pinmap.N_CELLS)]
        out = []
        for cell in self.cells:
            v = self.baseline[cell]
            if v < FAULT_LOW or v > FAULT_HIGH:
                msg = "FAULT %s reads %d counts with no magnet: no sensor there, or it is not powered, " \
                      "or its output does not reach the channel" % (describe(cell), v)
                self.problems.append(msg)
                out.append(msg)
        return out

    def expected(self):
        return self.cells[self.index] if self.index < len(self.cells) else None

    def done(self):
        return self.index >= len(self.cells)

    def step(self, raw, now_ms):
        """One frame; a message when a cell has been judged, else None."""
        if self.done():
            return None
        if self._since is None:
            self._since = now_ms
        base = self.baseline
        if base is None:
            raise ValueError("calibrate on the empty board first")
        best, best_dev = -1, 0
        for c in range(pinmap.N_CELLS):
            d = raw[c] - base[c]
            if d < 0:
                d = -d
            if d > best_dev:
                best, best_dev = c, d
        if self._clearing:  # wait for the magnet to leave before the next cell
            if best_dev < REACT // 2:
                self._clearing = False
                self._since = now_ms
            return None
        want = self.cells[self.index]
        if best_dev >= REACT:
            if best == self._candidate:
                self._held += 1
            else:
                self._candidate, self._held = best, 1
            if self._held < HOLD_FRAMES:
                return None
            self._candidate, self._held = -1, 0
            self._clearing = True
            self.index += 1
            if best == want:
                self.ok += 1
                self.last = (pinmap.point_of_cell(want), True)
                return "OK %s" % describe(want)
            self.last = (pinmap.point_of_cell(want), False)
            msg = "WRONG over %s the magnet reads on %s: swapped or misrouted channel" % (describe(want), describe(best))
            self.problems.append(msg)
            return msg
        if now_ms - self._since > self.timeout_ms:
            self.index += 1
            self._since = now_ms
            self.last = (pinmap.point_of_cell(want), False)
            msg = "MISSING no cell reacted over %s: sensor missing or dead, or its output open" % describe(want)
            self.problems.append(msg)
            return msg
        return None

    def summary(self):
        return "board %d: %d of %d cells OK, %d problems" % (self.quadrant, self.ok, len(self.cells), len(self.problems))
