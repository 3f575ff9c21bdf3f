"""Turns raw hall readings into per-cell states: empty, white, black, stacked, fault.

Each cell has its own baseline (sensor resting outputs differ by several percent) and its own
"unit", the deviation one checker causes. A reading's sign gives the colour (white magnets face
south down and raise the output, black ones lower it); its size against the unit gives the level:
under ``empty_pct`` % of a unit is empty, over ``stack_pct`` % is two or more checkers. A cell's
stable state changes only after the same instant state was seen ``stable_frames`` frames in a row.

Calibration file (little-endian, documented in hardware/calibration.md):
    0  4s  magic b"BGC1"
    4  B   version (2; a version 1 file is read for its baselines and units, its thresholds
           being those of the firmware that wrote it, superseded: hardware/calibration.md)
    5  B   cell count n (128)
    6  B   empty_pct
    7  B   stack_pct
    8  H   default unit (ADC counts)
    10 H   reserved (0)
    12 nH  baseline per cell (counts)
    .. nH  unit per cell (0 = default unit)
    .. H   Fletcher-16 checksum of everything before it
"""
from array import array
import struct

try:
    from micropython import const
except ImportError:
    def const(x):  # type: ignore[misc]  # same behaviour, looser signature than the stub
        return x

EMPTY = const(0)
WHITE = const(1)
BLACK = const(2)
STACK = const(4)  # or-ed onto WHITE/BLACK: two or more checkers
FAULT = const(8)  # reading outside what a working sensor can output
# or-ed onto WHITE/BLACK: the reading of a cell holding one checker dropped by more than
# ``drop_pct`` % of a unit, as when a checker of the other colour sits on top (hardware/sensing.md)
UNDER = const(16)
WHITE_STACK = const(5)
BLACK_STACK = const(6)

N = const(128)
# Nominal figures of the reference build (hardware/calibration.md): DRV5055A1 at 3.3 V rests at
# mid-scale; one checker 14 mm above it moves the output by ~0.68 V = ~13,600 counts.
MID = const(32768)
DEFAULT_UNIT = const(13600)
# A working sensor outputs 0.2..3.1 V; the common line is pulled to 0 V when no mux drives it.
FAULT_LO = const(1500)
FAULT_HI = const(64000)
CALIB_MAGIC = b"BGC1"
CALIB_VERSION = const(2)
CALIB_PATH = "calib.bin"

try:
    # machine code where MicroPython has an emitter (the Pico, the UNIX port) and plain Python
    # under CPython; a MicroPython build without an emitter cannot compile it (SyntaxError)
    from drivers import machine_code

    classify_frame = machine_code("classify_frame")
except (ImportError, SyntaxError):
    classify_frame = None

NAMES = {EMPTY: ".", WHITE: "w", BLACK: "b", WHITE_STACK: "W", BLACK_STACK: "B", FAULT: "!"}


def fletcher16(data, n):
    a = 0
    b = 0
    for i in range(n):
        a = (a + data[i]) % 255
        b = (b + a) % 255
    return (b << 8) | a


class CalibrationError(ValueError):
    pass


class Classifier:
    def __init__(self, n=N, stable_frames=3, empty_pct=47, stack_pct=110, unit=DEFAULT_UNIT, drop_pct=19,
                 under_frames=20):
        if stable_frames < 1 or stable_frames > 250:
            raise ValueError("stable_frames must be 1..250")
        self.n = n
        self.stable_frames = stable_frames
        self.empty_pct = empty_pct
        self.stack_pct = stack_pct
        self.drop_pct = drop_pct
        # a hand holding a checker 10 mm over a cell reads like a checker resting on it: only
        # a drop that lasts counts (20 frames: 0.2 s at the 10 ms loop)
        self.under_frames = under_frames
        self.default_unit = unit
        self.base16 = array("i", [MID * 16] * n)  # baseline x16: the slow refresh keeps fractions
        self.unit = array("H", [0] * n)  # 0: use default_unit
        self._t_empty = array("H", [0] * n)
        self._t_stack = array("H", [0] * n)
        self._t_drop = array("H", [0] * n)
        self.instant = bytearray(n)  # this frame's classification
        self.state = bytearray(n)  # debounced, what the game should believe
        self._count = bytearray(n)  # frames the instant state has been unchanged
        # a cell holding one checker: its colour (0: none) and the size of its reading; a drop
        # is measured against the cell's own level, since single checkers differ by 20 % between
        # cells (placement, sensor gain) and a covered one by only about as much
        self._one = bytearray(n)
        self._level = array("H", [0] * n)
        self.faults = 0  # cells in FAULT in the last frame
        self.frames = 0
        self.calib_source = "default"  # "file", "boot" or "default"
        self.calib_note = ""
        self._thresholds()

    def _thresholds(self):
        for c in range(self.n):
            u = self.unit[c] or self.default_unit
            self._t_empty[c] = min(65535, u * self.empty_pct // 100)
            self._t_stack[c] = min(65535, u * self.stack_pct // 100)
            self._t_drop[c] = min(65535, u * self.drop_pct // 100)

    def baseline(self, c):
        return self.base16[c] >> 4

    def update(self, raw):
        """Classify one frame of raw counts; returns how many stable cells changed. No allocation."""
        if classify_frame is None:
            return self.update_bytecode(raw)
        r = classify_frame(raw, self.base16, self._t_empty, self._t_stack, self._t_drop, self._level,
                           self.instant, self.state, self._count, self._one, self.n, self.stable_frames,
                           self.under_frames)
        self.faults = r >> 16
        self.frames += 1
        return r & 0xFFFF

    def update_bytecode(self, raw):
        """update() as bytecode: the reference for drivers.fastloops.classify_frame, and the
        path of a MicroPython without a native emitter."""
        base16 = self.base16
        te = self._t_empty
        ts = self._t_stack
        tdrop = self._t_drop
        one = self._one
        level = self._level
        inst = self.instant
        state = self.state
        count = self._count
        need = self.stable_frames
        changed = 0
        faults = 0
        for c in range(self.n):
            r = raw[c]
            if r < FAULT_LO or r > FAULT_HI:
                s = FAULT
                faults += 1
            else:
                d = r - (base16[c] >> 4)
                s = WHITE
                if d < 0:
                    d = -d
                    s = BLACK
                if d < te[c]:
                    s = EMPTY
                elif d >= ts[c]:
                    s |= STACK
                elif one[c] == s and d + tdrop[c] < level[c]:
                    s |= UNDER
            if s == inst[c]:
                k = count[c]
                n_ok = need if s < UNDER else self.under_frames
                if k < n_ok:
                    k += 1
                    count[c] = k
                if k >= n_ok and state[c] != s:
                    state[c] = s
                    changed += 1
            else:
                inst[c] = s
                count[c] = 1
                if need == 1 and s < UNDER and state[c] != s:
                    state[c] = s
                    changed += 1
            st = state[c]
            if st & 3 == 0 or st & STACK:
                one[c] = 0
            elif s == st and st < STACK:
                # settled on one checker: follow its level as drift moves it, slowly (0.64 s at
                # the 10 ms loop) and only from readings within an eighth of the drop threshold
                # of it: a hand coming down over the cell, however slowly, or held above it
                # moves the reading by more and is never learned as the checker's level
                if one[c] != s:
                    one[c] = s
                    level[c] = d
                else:
                    # only a reading within noise of the level is drift (drift_ok below)
                    e = d - level[c]
                    if -(tdrop[c] >> 3) < e < (tdrop[c] >> 3):
                        level[c] += e >> 6
        self.faults = faults
        self.frames += 1
        return changed

    def refresh_baseline(self, raw, known_empty, shift=6):
        """Track slow drift on cells the game knows are empty (a bytearray of 0/1 per cell).

        Each call moves those baselines 1/2**shift of the way to the reading; a cell that does
        not currently read empty is left alone, so a checker the game has not seen yet cannot
        be learned into the baseline.
        """
        base16 = self.base16
        inst = self.instant
        for c in range(self.n):
            if known_empty[c] and inst[c] == EMPTY:
                b = base16[c]
                base16[c] = b + (((raw[c] << 4) - b) >> shift)

    def calibrate_empty(self, scan, frames=32):
        """Baselines from ``frames`` scans of an empty board (``scan()`` returns a raw frame).

        Returns the cells whose reading was far from a resting sensor (a checker left on the
        board, a dead sensor): those keep their previous baseline and should be reported.
        """
        acc = array("i", [0] * self.n)
        for _ in range(frames):
            raw = scan()
            for c in range(self.n):
                acc[c] += raw[c]
        suspect = []
        for c in range(self.n):
            avg = acc[c] // frames
            u = self.unit[c] or self.default_unit
            if avg < FAULT_LO or avg > FAULT_HI or abs(avg - MID) * 100 > u * self.empty_pct:
                suspect.append(c)
            else:
                self.base16[c] = avg << 4
        self.calib_source = "boot"
        self.calib_note = "boot baseline, %d suspect cells" % len(suspect)
        for c in range(self.n):
            self.instant[c] = EMPTY
            self.state[c] = EMPTY
            self._count[c] = 0
        return suspect

    def set_unit(self, cell, counts):
        """Per-cell unit from a checker placed on ``cell`` (see hardware/calibration.md)."""
        if counts < 1000 or counts > 40000:
            raise ValueError("implausible unit %d for cell %d" % (counts, cell))
        self.unit[cell] = counts
        self._thresholds()

    def to_bytes(self):
        n = self.n
        buf = bytearray(12 + 4 * n + 2)
        struct.pack_into("<4sBBBBHH", buf, 0, CALIB_MAGIC, CALIB_VERSION, n, self.empty_pct,
                         self.stack_pct, self.default_unit, 0)
        for c in range(n):
            struct.pack_into("<H", buf, 12 + 2 * c, self.base16[c] >> 4)
            struct.pack_into("<H", buf, 12 + 2 * n + 2 * c, self.unit[c])
        struct.pack_into("<H", buf, 12 + 4 * n, fletcher16(buf, 12 + 4 * n))
        return buf

    def from_bytes(self, data):
        """Load calibration; raises CalibrationError (and changes nothing) if it is not valid."""
        n = self.n
        size = 12 + 4 * n + 2
        if len(data) != size:
            raise CalibrationError("calibration is %d bytes, expected %d" % (len(data), size))
        magic, ver, cells, e_pct, s_pct, unit, _ = struct.unpack_from("<4sBBBBHH", data, 0)
        if magic != CALIB_MAGIC:
            raise CalibrationError("not a calibration file (magic %r)" % (magic,))
        if ver not in (1, CALIB_VERSION) or cells != n:
            raise CalibrationError("calibration version %d for %d cells" % (ver, cells))
        (check,) = struct.unpack_from("<H", data, 12 + 4 * n)
        if check != fletcher16(data, 12 + 4 * n):
            raise CalibrationError("calibration checksum mismatch (torn or corrupt file)")
        if not (5 <= e_pct < s_pct <= 250) or not (1000 <= unit <= 40000):
            raise CalibrationError("calibration thresholds out of range")
        if ver == CALIB_VERSION:
            # version 1 held the firmware's own 40 % and 110 %: a hand 5 mm over an empty cell
            # reads 40 % of a unit, so the thresholds of this firmware stand instead
            self.empty_pct = e_pct
            self.stack_pct = s_pct
        self.default_unit = unit
        for c in range(n):
            (self.base16[c],) = struct.unpack_from("<H", data, 12 + 2 * c)
            self.base16[c] <<= 4
            (self.unit[c],) = struct.unpack_from("<H", data, 12 + 2 * n + 2 * c)
        self._thresholds()
        self.calib_source = "file"
        return True

    def save(self, path=CALIB_PATH):
        # Write a temporary file, then rename: a power cut leaves the old file or the new one.
        tmp = path + ".tmp"
        with open(tmp, "wb") as f:
            f.write(self.to_bytes())
        import os

        os.rename(tmp, path)

    def load(self, path=CALIB_PATH):
        """True if the file was loaded. False (with ``calib_note`` saying why) if it is missing
        or corrupt: the caller then calibrates from the empty board at boot."""
        try:
            with open(path, "rb") as f:
                data = f.read()
        except OSError:
            self.calib_note = "no calibration file %s" % path
            return False
        try:
            return self.from_bytes(data)
        except CalibrationError as e:
            self.calib_note = str(e)
            return False

    def settled(self):
        """True if every cell's instant reading is its stable state (nothing is being moved)."""
        return self.instant == self.state

    def count(self, code):
        k = 0
        for c in range(self.n):
            if self.state[c] == code:
                k += 1
        return k

    def occupied(self):
        """Cells whose stable state is not empty, as a new list (for tests and diagnostics)."""
        return [c for c in range(self.n) if self.state[c] != EMPTY]
