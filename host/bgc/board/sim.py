"""Run the real firmware on the virtual board: the harness behind ``bgc sim``, the scenario scripts
and the reliability runs.

    sim = Sim(seed=1)              # virtual board installed, flash directory made, firmware booted
    sim.setup_start()              # the players set the checkers out
    sim.press("ROLL_W")            # a short press (held 120 ms of virtual time)
    sim.run_ms(500)                # the firmware's loop runs every ``frame_ms`` of virtual time
    sim.powercut()                 # the Pico loses power; the board stays as it physically is
    sim.close()

The firmware is imported from ``firmware/`` exactly as the Pico runs it: ``main.build(journal_dir,
serial, dice, buzzer)`` returns the App whose ``step(now_ms)`` is one loop iteration. The harness
gives it an in-memory serial line (``MemorySerial``: records every event, feeds host commands) and
dice that can be forced (``SimDice``). A power cut drops the App and every firmware module
(``main``, ``companion``, ``drivers``), resets the Pico's pins, the LED chain and the OLED, and
builds again from the same flash directory; the checkers and the hand stay where they are.
``arm_powercut(after_bytes)`` cuts the power in the middle of the firmware's next flash writes,
so a torn journal line is exercised too.
"""

import atexit
import builtins
import json
import os
import shutil
import sys
import tempfile

from .. import FIRMWARE_DIR
from . import virtual
from .virtual import clock as vclock
from .virtual.board import BUTTONS, OLED_ADDR
from .virtual.ssd1306 import Ssd1306
from .virtual.view import (BLACK_BAR_CELLS, LED_BAR_BLACK, LED_BAR_WHITE, LED_COLOURS, LED_STATUS_BLACK,
                           LED_STATUS_WHITE, LED_WORDS, WHITE_BAR_CELLS, bar_count, board_counts, led_name,
                           lit_points, oled_rows, oled_text, point_cells, point_content, point_led)

# The firmware's packages: everything a power cut wipes from RAM (bgrules is pure and keeps no
# state between calls, and the host's players share it, so it stays imported).
FIRMWARE_MODULES = ("main", "companion", "drivers")
BUTTON_NAMES = tuple(BUTTONS)  # ROLL_W, CUBE_W, ROLL_B, CUBE_B
WHITE = virtual.WHITE
BLACK = virtual.BLACK
# Rulesets whose checkers stand in towers: Doublets' towers of two on one cell, which the sensors see
# as one occupied cell and the rules count as one checker (docs/variants.md). On these boards a
# point's count is its occupied cells, and a point counted 1 is a tower of two checkers.
TOWERS = ("doublets",)


class SimError(Exception):
    """The simulation cannot go on (firmware missing or raising, impossible hand action)."""


class PowerCut(BaseException):
    """Raised inside the firmware's flash write when an armed power cut strikes (BaseException,
    so no ``except Exception`` in the firmware can swallow the loss of power)."""


def real_time():
    """CPython's own time module (``virtual.install`` puts the virtual clock in its place)."""
    mod = sys.modules.get("time")
    if mod is vclock or mod is None:
        import importlib

        return vclock._real or importlib.import_module("time")
    return mod


# ------------------------------------------------------------------ the board and a Position
def physical_position(board, mover_colour, opposite=None, towers=False):
    """The bgrules Position the checkers on the board make, seen by ``mover_colour`` (a checker in
    the hand is not on the board: it is missing, as the sensors see it; so are checkers waiting
    beside the board). ``opposite``: the ruleset's board mapping (bgrules Rules.opposite).
    ``towers`` (a ruleset in TOWERS): a point counts its occupied cells, a tower one checker."""
    from bgrules import Position, STANDARD

    opposite = opposite or STANDARD.opposite
    w, b = _tower_counts(board) if towers else board_counts(board)
    white24 = [w[p] for p in range(1, 25)]
    black24 = [b[opposite[q]] for q in range(1, 25)]  # black's own numbering
    if mover_colour == WHITE:
        return Position.from_points(white24, black24, w[25], b[25], check=False)
    return Position.from_points(black24, white24, b[25], w[25], check=False)


def set_position(board, pos, mover_colour, opposite=None, towers=False):
    """Set the checkers out as ``pos`` (a bgrules Position seen by ``mover_colour``; checkers
    waiting to be entered stay beside the board). ``opposite``: as in physical_position;
    ``towers``: a point counted 1 is a tower, its second checker on top of the first."""
    from bgrules import STANDARD

    from ..rules.engine import colour_counts

    w, b = colour_counts(pos, mover_colour == WHITE, opposite or STANDARD.opposite)
    board.set_points(w, b)
    if towers:
        for colour, counts in ((WHITE, w), (BLACK, b)):
            for p in range(1, 25):
                if counts[p] == 1:
                    board.place(point_cells(p)[0], colour)  # set_points put the first on the rim cell


def _tower_counts(board):
    """(white, black) as board_counts, a point counting its occupied cells (a tower as one)."""
    w = [0] * 26
    b = [0] * 26
    for p in range(1, 25):
        for c in point_cells(p):
            if board.count(c):
                (w if board.colour(c) == WHITE else b)[p] += 1
    w[25] = bar_count(board, WHITE)
    b[25] = bar_count(board, BLACK)
    return w, b


# ------------------------------------------------------------------ serial and dice
class MemorySerial:
    """The USB serial line as the firmware sees it: ``read_line()`` hands out the host's queued
    commands, ``write_line(text)`` records what the firmware says. JSON lines with an ``ev`` key
    are kept, decoded, in ``events``; every line in ``lines``."""

    def __init__(self):
        self.incoming = []
        self.lines = []
        self.events = []
        self.listeners = []

    def send(self, text):
        self.incoming.append(text if isinstance(text, str) else json.dumps(text))

    def read_line(self):
        if self.incoming:
            return self.incoming.pop(0)
        return None

    def write_line(self, text):
        text = text.rstrip("\r\n")
        self.lines.append(text)
        try:
            ev = json.loads(text)
        except ValueError:
            return
        if isinstance(ev, dict) and "ev" in ev:
            self.events.append(ev)
            for f in self.listeners:
                f(ev)

    def last(self, kind):
        for ev in reversed(self.events):
            if ev.get("ev") == kind:
                return ev
        return None


class SimDice:
    """Dice for the firmware: forced values first (``force(a, b)``), then a seeded generator.
    ``first_roll`` never gives equal dice unless they were forced."""

    def __init__(self, seed=1):
        import random

        self.rng = random.Random(seed)
        self.forced = []
        self.rolled = []

    def force(self, a, b):
        for d in (a, b):
            if not 1 <= d <= 6:
                raise ValueError("a die shows 1..6, not %r" % (d,))
        self.forced.append((a, b))

    def roll(self):
        if self.forced:
            r = self.forced.pop(0)
        else:
            r = (self.rng.randint(1, 6), self.rng.randint(1, 6))
        self.rolled.append(r)
        return r

    def first_roll(self):
        if self.forced:
            r = self.forced.pop(0)
        else:
            while True:
                r = (self.rng.randint(1, 6), self.rng.randint(1, 6))
                if r[0] != r[1]:
                    break
        self.rolled.append(r)
        return r


# ------------------------------------------------------------------ flash writes and power cuts
class _CuttingFile:
    """A file the firmware writes on flash; the armed power cut strikes inside ``write``."""

    def __init__(self, f, sim):
        self._f = f
        self._sim = sim

    def write(self, data):
        budget = self._sim._cut_budget
        if budget is not None:
            if len(data) > budget:
                self._f.write(data[:budget])
                self._f.flush()
                self._sim._cut_budget = 0
                raise PowerCut()
            self._sim._cut_budget = budget - len(data)
        return self._f.write(data)

    def __getattr__(self, name):
        return getattr(self._f, name)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self._f.close()
        return False

    def __iter__(self):
        return iter(self._f)


# ------------------------------------------------------------------ the harness
class Sim:
    """The firmware running on the virtual board; see the module docstring."""

    def __init__(self, flash_dir=None, seed=1, frame_ms=10, board_kwargs=None, buzzer=True,
                 setup="start", boot=True, firmware_main="main", rules=None):
        from bgrules import STANDARD

        self.rules = rules or STANDARD  # the variant's start for setup_start and the players
        self.series = self.rules  # the match's ruleset: Tavli's games each have their own (follow)
        self.seed = seed
        self.firmware_main = firmware_main  # the module with build(); tests may swap in their own
        self.frame_ms = frame_ms
        self.buzzer = buzzer
        self._own_flash = flash_dir is None
        self.flash_dir = flash_dir or tempfile.mkdtemp(prefix="bgc-sim-flash-")
        if self._own_flash:  # a flash nobody named is gone when the process ends (remove_flash: sooner)
            atexit.register(shutil.rmtree, self.flash_dir, True)
        os.makedirs(self.flash_dir, exist_ok=True)
        self.journal_dir = os.path.join(self.flash_dir, "journal")
        if not os.path.lexists(self.journal_dir):
            os.makedirs(self.journal_dir)
        # else the flash is given to the firmware as it is: a file in the folder's place is the
        # firmware's to keep aside (companion.store.Store.ensure)
        kw = dict(board_kwargs or {})
        kw.setdefault("seed", seed)
        self.board = virtual.install(**kw)
        self.serial = MemorySerial()
        self.dice = SimDice(seed)
        self.app = None
        self.main = None
        self.boots = 0
        self.powercuts = 0
        self.frames = 0
        self._cut_budget = None
        self._real_open = builtins.open
        self._cwd = None
        self.on_frame = []  # callables(sim) run before every firmware step (players, views)
        self.closed = False
        if setup == "start":
            self.setup_start()
        elif setup not in (None, "empty"):
            raise ValueError("setup is 'start', 'empty' or None")
        if boot:
            self.boot()

    @property
    def towers(self):
        """True when the ruleset's checkers stand in towers (TOWERS); follows ``rules``."""
        return self.rules.key in TOWERS

    def follow(self, st):
        """In a match of games in turn (Tavli) each game has its own ruleset (its start, its
        track): the one of the status event ``st``'s game, or at a game's end the next one's, so
        that the checkers are set out for it."""
        if not self.series.cycle:
            return
        from bgrules.match_series import game_rules

        game = st.get("game") or 1
        self.rules = game_rules(self.series, game + 1 if st.get("phase") == "gameover" else game)

    # --- board set-up
    def setup_start(self):
        """The game's own start from its ruleset, on its own track (the running games' heads in
        diagonally opposite corners)."""
        set_position(self.board, self.rules.start_position(), WHITE, self.rules.opposite, self.towers)

    def setup_position(self, pos, mover_colour=WHITE):
        set_position(self.board, pos, mover_colour, self.rules.opposite, self.towers)

    def position(self, mover_colour=WHITE):
        """The Position the checkers on the board make as the board counts them (physical_position)."""
        return physical_position(self.board, mover_colour, self.rules.opposite, self.towers)

    def resume_at(self, pos, on_roll, length=1, names=("White", "Black")):
        """Put a match in progress on the flash, as if the Pico had been switched off in it:
        ``on_roll`` (0 white, 1 black) is to roll at ``pos`` (a bgrules Position seen by that
        player). The journal holds the settings, an opening roll won by the other player and
        that player's play to ``pos``, accepted by ``on_roll`` (condoned: the position need not
        follow from the opening roll). The checkers are set out to match. Call before the
        firmware boots (``Sim(boot=False)``) or power-cycle it with ``powercut()``."""
        jm = _journal_module()
        opener = 1 - on_roll
        rec = jm.settings_record(length=length, names=names)
        records = [rec, {"a": "open", "dice": [2, 1] if opener == 0 else [1, 2]},
                   {"a": "play", "p": opener, "move": "", "pos": pos.swapped().id(), "condoned": True}]
        from companion import recovery  # the journal's reader (firmware/ is on sys.path now)

        match = recovery.replay(records)  # refuses a position that cannot exist
        if match.phase != "roll":
            raise SimError("the game is over in that position")
        os.makedirs(self.journal_dir, exist_ok=True)
        existing = [n for n in os.listdir(self.journal_dir) if n.endswith(".jnl")]
        number = 1 + max([int(n[1:5]) for n in existing if n[1:5].isdigit()] or [0])
        path = os.path.join(self.journal_dir, "m%04d.jnl" % number)
        with self._real_open(path, "w") as f:
            for r in records:
                f.write(jm.encode(r))
        self.setup_position(pos, WHITE if on_roll == 0 else BLACK)
        return path

    # --- the firmware
    def _purge_firmware(self):
        roots = FIRMWARE_MODULES + (self.firmware_main,)
        for name in list(sys.modules):
            root = name.split(".")[0]
            # companion.journal holds no state, and host code (bgc.logs.journals) keeps the module it
            # imported: a fresh one would hand that code a companion.recovery raising another
            # JournalError class than the one it catches.
            if root in roots and name != "companion.journal":
                del sys.modules[name]

    def boot(self):
        """Import the firmware afresh and build the App from the flash directory."""
        self._purge_firmware()
        if FIRMWARE_DIR not in sys.path:
            sys.path.insert(0, FIRMWARE_DIR)
        self._enter_flash()
        try:
            import importlib

            try:
                main = importlib.import_module(self.firmware_main)  # firmware/main.py
            except ImportError as exc:
                raise SimError("cannot import the firmware's main.py from %s: %s" % (FIRMWARE_DIR, exc))
            if not hasattr(main, "build"):
                raise SimError("firmware/main.py has no build(journal_dir, serial, dice, buzzer)")
            self.main = main
            try:
                self.app = main.build(journal_dir=self.journal_dir, serial=self.serial, dice=self.dice,
                                      buzzer=self.buzzer)
            except PowerCut:
                self.app = None
                self._after_cut()
                return self.boot()
        finally:
            self._leave_flash()
        self.boots += 1
        return self.app

    def _enter_flash(self):
        # The firmware's relative paths (calibration file) are on its flash: run in that directory.
        self._cwd = os.getcwd()
        os.chdir(self.flash_dir)
        if self._cut_budget is not None:
            builtins.open = self._cutting_open

    def _leave_flash(self):
        builtins.open = self._real_open
        if self._cwd is not None:
            os.chdir(self._cwd)
            self._cwd = None

    def _cutting_open(self, path, mode="r", *args, **kwargs):
        f = self._real_open(path, mode, *args, **kwargs)
        if any(m in mode for m in "wax+"):
            return _CuttingFile(f, self)
        return f

    def now(self):
        return self.board.clock.ticks_ms()

    def step(self):
        """One frame: the players act, the firmware's loop runs once, virtual time moves on.
        Returns False when an armed power cut struck during it (the firmware has rebooted)."""
        for f in self.on_frame:
            f(self)
        if self.app is None:
            self.boot()
        self._enter_flash()
        try:
            self.app.step(self.now())
        except PowerCut:
            self._leave_flash()
            self._after_cut()
            self.board.clock.advance_ms(self.frame_ms)
            self.frames += 1
            return False
        finally:
            self._leave_flash()
        self.board.clock.advance_ms(self.frame_ms)
        self.frames += 1
        return True

    def run_ms(self, ms):
        end = self.board.clock.ms + ms
        while self.board.clock.ms < end:
            self.step()

    def run_until(self, predicate, timeout_ms=5000):
        """Step until ``predicate(sim)`` is true; False when ``timeout_ms`` passes first."""
        end = self.board.clock.ms + timeout_ms
        while True:
            if predicate(self):
                return True
            if self.board.clock.ms >= end:
                return False
            self.step()

    # --- power
    def arm_powercut(self, after_bytes=0):
        """The power fails once the firmware has written ``after_bytes`` more bytes to flash
        (0: at the very start of its next write)."""
        self._cut_budget = after_bytes

    def powercut(self, off_ms=500):
        """Cut the power now (between two loop iterations), wait ``off_ms``, power up again."""
        self._after_cut(off_ms)

    def _after_cut(self, off_ms=500):
        self._cut_budget = None
        self.app = None
        self.main = None
        self.powercuts += 1
        self._purge_firmware()
        power_lost(self.board)
        self.board.clock.advance_ms(off_ms)
        self.boot()

    # --- hands on the board
    def press(self, button, hold_ms=120, bounce_ms=3):
        """Press and release ``button`` (ROLL_W, CUBE_W, ROLL_B, CUBE_B), running the firmware
        meanwhile; ``hold_ms`` >= 800 is a long press."""
        if button not in BUTTONS:
            raise SimError("no button %r (buttons: %s)" % (button, ", ".join(BUTTON_NAMES)))
        if self.app is None:
            # switched on first: a button already held as the board powers up is not a press
            # (drivers.buttons counts it once it has been seen released)
            self.step()
        self.board.button(button, True, bounce_ms=bounce_ms)
        self.run_ms(hold_ms)
        self.board.button(button, False, bounce_ms=bounce_ms)
        self.run_ms(60)

    def top_cell(self, point, colour=None):
        """The cell a hand takes a checker from: the highest stack on the point (rim last)."""
        cells = point_cells(point) if 1 <= point <= 24 else list(
            WHITE_BAR_CELLS if point == 25 else BLACK_BAR_CELLS)
        best = None
        for c in cells:
            n = self.board.count(c)
            if n and (colour is None or self.board.colour(c) == colour):
                if best is None or n >= self.board.count(best):
                    best = c
        return best

    def free_cell(self, point, colour=None):
        """The cell a hand puts a checker on: the least loaded, rim first."""
        if point == 25 or point == 0:
            cells = list(WHITE_BAR_CELLS if (colour == WHITE if colour else point == 25) else BLACK_BAR_CELLS)
        else:
            cells = point_cells(point)
        return min(cells, key=lambda c: (self.board.count(c), c))

    def lift(self, point, colour=None, height_mm=40.0):
        """Take the top checker of a point (1..24; 25 white's bar, 0 black's bar) into the hand."""
        if self.board.hand is not None:
            raise SimError("the hand already holds a checker: place it first")
        cell = self.top_cell(point, colour)
        if cell is None:
            raise SimError("no %schecker on %s to lift" % (
                "" if colour is None else ("white " if colour == WHITE else "black "), _where(point)))
        self.board.lift(cell, height_mm)
        return cell

    def take_waiting(self, colour, height_mm=40.0):
        """Take a checker waiting beside the board (Puff, Acey Deucey: never on a sensor) into
        the hand."""
        if self.board.hand is not None:
            raise SimError("the hand already holds a checker: place it first")
        self.board.hand = [colour, 0.0, 0.0, height_mm]
        self.board._stale = True

    def hover(self, point, height_mm=20.0):
        if self.board.hand is None:
            raise SimError("the hand holds no checker to hover with")
        cell = self.free_cell(point, self.board.hand[0])
        self.board.hover(cell, height_mm)

    def place(self, point):
        """Put the held checker down on a point (1..24), on its own bar (``'bar'``) or off the
        board (``'off'``, borne off: it goes to the tray, where no sensor sees it)."""
        hand = self.board.hand
        if hand is None:
            raise SimError("the hand holds no checker to place")
        if point == "off":
            self.board.hand = None
            self.board._stale = True  # the checker left the sensors' reach
            return None
        if point == "bar":
            cell = self.free_cell(25 if hand[0] == WHITE else 0, hand[0])
        else:
            cell = self.free_cell(point, hand[0])
        self.board.drop(cell)
        return cell

    def stack(self, point):
        """Put the held checker on top of the point's highest stack of its colour (Doublets:
        a tower made again)."""
        hand = self.board.hand
        if hand is None:
            raise SimError("the hand holds no checker to stack")
        cell = self.top_cell(point, hand[0])
        if cell is None:
            raise SimError("no checker on %s to stack on" % _where(point))
        self.board.drop(cell)
        return cell

    def lift_tower(self, point, colour):
        """Lift the top stack of ``colour`` on a point whole (Doublets: a tower borne off) into the
        tray, out of the sensors' reach."""
        if self.board.hand is not None:
            raise SimError("the hand already holds a checker: place it first")
        cell = self.top_cell(point, colour)
        if cell is None:
            raise SimError("no %s tower on %s to lift" % ("white" if colour == WHITE else "black", _where(point)))
        while self.board.count(cell):
            self.board.remove(cell)
        return cell

    # --- reading the journal and the view
    def journal_files(self):
        try:
            names = sorted(n for n in os.listdir(self.journal_dir) if n.endswith(".jnl"))
        except OSError:
            return []
        return [os.path.join(self.journal_dir, n) for n in names]

    def journal_path(self):
        files = self.journal_files()
        return files[-1] if files else None

    def journal_records(self, path=None):
        """(records, problem) of the current (or given) journal file; companion.journal.parse."""
        path = path or self.journal_path()
        if not path:
            return [], None
        with self._real_open(path) as f:
            return _journal_module().parse(f.read())

    def oled_rows(self):
        return oled_rows(self.board)

    def view_lines(self, pixels=False):
        """The terminal view as lines of (text, style) segments (bgc.board.virtual.render): the board's
        grid (point numbers, LEDs and checkers in one column per point, the bar, the status LEDs,
        the hand, the legend) with the OLED beside it, its text as read back from the pixels; with
        ``pixels`` the OLED's pixels below instead."""
        from .virtual.render import board_lines, oled_text

        lines = board_lines(self.board)
        if pixels:
            edge = [("+" + "-" * 128 + "+", "dim")]
            return lines + [edge] + [[("|", "dim"), (row, "cyan"), ("|", "dim")] for row in oled_text(self.board)] + [edge]
        grid = len(lines) - 3  # the legend lines stay below
        box = [[("OLED", "dim")], [("+" + "-" * 16 + "+", "dim")]]
        box += [[("|", "dim"), ("%-16s" % r, "bold cyan"), ("|", "dim")] for r in self.oled_rows()]
        box += [[("+" + "-" * 16 + "+", "dim")]]
        width = max(len("".join(t for t, _ in segs)) for segs in lines[:grid])
        out = []
        for i in range(max(grid, len(box))):
            row = list(lines[i]) if i < grid else []
            if i < len(box):
                used = len("".join(t for t, _ in row))
                row = row + [(" " * (width - used), None)] + box[i]
            out.append(row)
        return out + lines[grid:]

    def view(self, pixels=False):
        """The terminal view (view_lines) as plain text."""
        from .virtual.render import plain

        return plain(self.view_lines(pixels))

    def status(self):
        return self.serial.last("status")

    def close(self):
        if self.closed:
            return
        self.closed = True
        builtins.open = self._real_open
        self.app = None
        self._purge_firmware()
        virtual.uninstall()

    def remove_flash(self):
        shutil.rmtree(self.flash_dir, ignore_errors=True)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()
        return False


def power_lost(board):
    """What a power cut does to the board's electronics: the Pico resets (every pad back to input
    without pulls); the LED chain and the OLED lose power (the chain goes dark, the panel comes
    back off with its RAM undefined). The checkers and the hand stay where they are."""
    board.out = 0
    board.oe = 0
    board.pull_up = 0
    board.pull_down = 0
    board.leds = [(0, 0, 0)] * len(board.leds)
    board.oled = Ssd1306()
    board.i2c0_devices[OLED_ADDR] = board.oled


def _journal_module():
    if FIRMWARE_DIR not in sys.path:
        sys.path.insert(0, FIRMWARE_DIR)
    import importlib

    return importlib.import_module("companion.journal")


def _where(point):
    if point == 25:
        return "white's bar"
    if point == 0:
        return "black's bar"
    return "point %d" % point
