"""The firmware on the virtual board, behind a virtual Pico's serial port: ``bgc vpico --board``.

``bgc sim`` imports the firmware into CPython and steps it on a virtual clock; here the firmware
is whatever is on the virtual Pico's flash (put there by ``bgc deploy``), run by its MicroPython
from main.py on the PC's clock, and every board verb (devices, deploy, watch, pull, chouette)
talks to it over the pty exactly as to a Pico on /dev/ttyACM0.

    sim = BoardSim(flash_dir="pico-flash", link="/tmp/bgc-pico")
    sim.start()                     # the virtual Pico boots; main.py runs on the board (bgc deploy
                                    # --port sim.pico.port puts the firmware on an empty flash)
    sim.press("ROLL_W")             # a hand on the board, in real time
    sim.run_ms(500)                 # players and views run every ``frame_ms`` of real time
    sim.close()

Who does what:

* the physical model (``bgc.board.virtual.board.Board``: checkers, magnets, sensors, LEDs, OLED,
  buttons) lives here, on the host, on a clock that follows the PC's; the automated players
  (``bgc.players``), the prompt (``bgc sim``'s commands) and the web view act on it as they do
  on ``bgc sim``'s board, through the same ``Sim`` methods (``BoardSim`` is a ``Sim`` whose
  ``step`` waits for real time instead of running the firmware);
* the firmware runs in the virtual Pico's interpreter, where ``bgc/board/virtual/vboard_guest.py`` puts a link
  to that model behind ``machine.Pin/ADC/I2C/PWM/mem32``, ``neopixel`` and ``os.urandom``: one
  host call per frame of 128 sensor reads, one per LED write or OLED transfer;
* the serial line is the pty: what the firmware prints goes to the port (for ``bgc watch``) and
  is heard here too (for the players and the prompt), and a line the players or the prompt send
  arrives on the port as if a PC had written it.

A soft reset (``bgc deploy``, ``bgc pull``, Ctrl-D at the REPL) restarts the interpreter and so
the firmware, from the flash; the board keeps its checkers and LEDs, as a Pico's soft reset does.
``powercut`` cuts the power as ``bgc sim``'s does. See docs/virtual-pico.md.
"""

import collections
import json
import os
import shutil
import tempfile
import threading
import time

from .. import resource
from . import sim as simmod
from .virtual import clock as vclock
from .virtual.board import ADC_COMMON_GPIO, MUX_SHIFT, Board

# The guest package /.vboard/vb: the link, with the virtual rp2 port's own modules beside it (run by
# the guest MicroPython, never imported here).
GUEST_FILES = {
    "__init__.py": resource("board", "virtual", "vboard_guest.py"),
    "machine.py": resource("board", "virtual", "machine.py"),
    "neopixel.py": resource("board", "virtual", "neopixel.py"),
    "sio.py": resource("board", "virtual", "sio.py"),
}
GUEST_MOUNT = "/.vboard"
SETUP = (
    "import sys\n"
    "sys.path.insert(0, %r)\n"
    "try:\n"
    "    import vb\n"
    "    vb.install()\n"
    "finally:\n"
    "    sys.path.remove(%r)\n" % (GUEST_MOUNT, GUEST_MOUNT)
)
MUX_FIELD = 127 << MUX_SHIFT
# The least time between two frames of sensor reads: a Pico's loop step (its 128 reads and their
# classification take ~2 ms on the emulated Pico, docs/performance.md). The PC's MicroPython loops
# several times faster; without it the firmware read each 10 ms frame of the board ~7 times and
# the virtual Pico and its host took a core and a half between them.
SCAN_GAP_S = 0.0025


class RealClock(vclock.Clock):
    """The board's clock, moved to the PC's time by ``sync()`` (the firmware has its own real
    ``time`` in the guest; this one paces the physics, the button bounces and the players)."""

    def __init__(self):
        vclock.Clock.__init__(self)
        self._t0 = time.monotonic()
        self._us = 0

    def sync(self):
        us = int((time.monotonic() - self._t0) * 1e6)
        if us > self._us:
            self.advance_us(us - self._us)
            self._us = us


class HostBoard(Board):
    """The physical model, shared by the host's players (main thread) and the firmware's host
    calls (the virtual Pico's board thread): every change to it and every read of it for the
    firmware holds ``lock``."""

    def __init__(self, lock, **kwargs):
        self.lock = lock
        Board.__init__(self, clock=RealClock(), **kwargs)


def _locked_board(name):
    method = getattr(Board, name)

    def locked(self, *args, **kwargs):
        with self.lock:
            self.clock.sync()
            return method(self, *args, **kwargs)

    locked.__name__ = name
    locked.__doc__ = method.__doc__
    return locked


for _name in ("button", "place", "remove", "lift", "hover", "drop", "clear", "set_points", "set_position"):
    setattr(HostBoard, _name, _locked_board(_name))


class PortSerial(simmod.MemorySerial):
    """The firmware's serial line as the host side hears it: ``feed`` gets the program's output
    (board thread), ``pump`` turns the whole lines into ``lines``/``events``/listeners (main
    thread, every frame), ``send`` writes a line onto the port as a PC would."""

    def __init__(self, pico=None):
        simmod.MemorySerial.__init__(self)
        self.pico = pico
        self._partial = b""
        self._inbox = collections.deque()

    def feed(self, data):
        data = self._partial + data
        *whole, self._partial = data.split(b"\n")
        for raw in whole:
            self._inbox.append(raw.decode("utf-8", "replace").rstrip("\r"))

    def pump(self):
        while self._inbox:
            self.write_line(self._inbox.popleft())

    def send(self, text):
        if not isinstance(text, str):
            text = json.dumps(text)
        self.pico.send_input(text.encode("utf-8") + b"\n")

    def read_line(self):  # the firmware reads the port itself
        return None


class Entropy:
    """``os.urandom`` of the firmware (its dice): forced dice first (``force``: the prompt's
    ``dice A B``; drivers.dice turns byte d-1 into the face d), then the board's seeded bytes."""

    def __init__(self, board):
        self.board = board
        self.forced = bytearray()

    def force(self, a, b):
        for d in (a, b):
            if not 1 <= d <= 6:
                raise ValueError("a die shows 1..6, not %r" % (d,))
        self.forced += bytes([a - 1, b - 1])

    def take(self, n):
        out = bytes(self.forced[:n])
        del self.forced[:n]
        return out + self.board.urandom(n - len(out))


class BoardSim(simmod.Sim):
    """The virtual board with the firmware on a virtual Pico (see the module docstring).

    ``flash_dir``/``link``/``heap_kb``/``micropython``: the virtual Pico's (bgc.pico.vpico). ``setup``:
    'start' sets the checkers out for the standard game (or ``rules``' start), 'empty' leaves the
    board bare. Call ``start()`` to boot it, ``close()`` to stop it."""

    def __init__(self, flash_dir=None, link=None, seed=1, frame_ms=10, setup="start", rules=None,
                 heap_kb=None, micropython=None):
        # Deliberately not Sim.__init__: nothing is installed into CPython (the firmware runs in
        # the guest) and the board's clock is the PC's.
        from bgrules import STANDARD

        from ..pico.vpico import VirtualPico

        self.rules = rules or STANDARD
        self.series = self.rules  # the match's ruleset (Sim.follow: Tavli's games each their own)
        self.seed = seed
        self.frame_ms = frame_ms
        self.lock = threading.RLock()
        self.board = HostBoard(self.lock, seed=seed)
        self.dice = Entropy(self.board)
        self.serial = PortSerial()
        self.on_frame = []
        self.frames = 0
        self.scans = 0  # frames of sensor reads the firmware made (one vb_scan each)
        self.boots = 0
        self.powercuts = 0
        self.app = None
        self.main = None
        self.closed = False
        self._cut_budget = None
        self._real_open = open
        self._next_frame = None
        self._scan_due = 0.0
        self._i2c_pending = {}  # (sda, scl, addr): the first pieces of a write still coming
        self._guest_dir = tempfile.mkdtemp(prefix="bgc-vboard-")
        vb = os.path.join(self._guest_dir, "vb")
        os.makedirs(vb)
        for name, src in GUEST_FILES.items():
            shutil.copy(src, os.path.join(vb, name))
        self.pico = VirtualPico(
            flash_dir, link=link, setup_code=SETUP, mounts={GUEST_MOUNT: self._guest_dir}, heap_kb=heap_kb,
            micropython=micropython, on_output=self.serial.feed,
            host_functions={
                "vb_scan": self._vb_scan, "vb_adc": self._vb_adc, "vb_leds": self._vb_leds,
                "vb_i2c_scan": self._vb_i2c_scan, "vb_i2c_write": self._vb_i2c_write,
                "vb_i2c_read": self._vb_i2c_read, "vb_urandom": self._vb_urandom,
            })
        self.serial.pico = self.pico
        self.flash_dir = self.pico.flash_dir
        self.journal_dir = os.path.join(self.flash_dir, "journal")
        if setup == "start":
            self.setup_start()
        elif setup not in (None, "empty"):
            raise ValueError("setup is 'start', 'empty' or None")

    # --- life
    def start(self, timeout=30):
        """Boot the virtual Pico (main.py, if the flash holds one, starts on the board)."""
        self.pico.start(timeout)
        self.boots += 1
        return self

    def has_firmware(self):
        return os.path.isfile(os.path.join(self.flash_dir, "main.py"))

    def close(self):
        if self.closed:
            return
        self.closed = True
        self.pico.stop()
        shutil.rmtree(self._guest_dir, ignore_errors=True)

    def boot(self):  # Sim's boot imports the firmware into CPython; here the Pico boots itself
        return None

    def powercut(self, off_ms=500):
        """Cut the power now, wait ``off_ms``, power up again: the firmware boots from the flash."""
        with self.lock:
            simmod.power_lost(self.board)
            self._i2c_pending.clear()
            self.powercuts += 1
            self.pico.power_cycle()
        time.sleep(off_ms / 1000.0)

    def resume_at(self, pos, on_roll, length=1, names=("White", "Black")):
        """Sim's: the match goes onto the flash, then the Pico is power-cycled to read it."""
        os.makedirs(self.journal_dir, exist_ok=True)
        with self.lock:
            path = simmod.Sim.resume_at(self, pos, on_roll, length, names)
        self.powercut(100)
        return path

    def arm_powercut(self, after_bytes=0):
        raise simmod.SimError("a power cut in the middle of a flash write needs bgc sim (the flash "
                              "is written by the virtual Pico here)")

    # --- time
    def step(self):
        """One frame of real time: wait for it, then the players and views act on the board and
        the firmware's serial lines heard since the last frame are handed out."""
        now = time.monotonic()
        if self._next_frame is None or self._next_frame < now - 0.1:
            self._next_frame = now
        wait = self._next_frame - now
        if wait > 0:
            time.sleep(wait)
        self._next_frame += self.frame_ms / 1000.0
        with self.lock:
            self.board.clock.sync()
            self.serial.pump()
            for f in self.on_frame:
                f(self)
        self.frames += 1
        return True

    # --- hands on the board: Sim's, holding the board while they change it
    def _hold(name):
        method = getattr(simmod.Sim, name)

        def held(self, *args, **kwargs):
            with self.lock:
                self.board.clock.sync()
                return method(self, *args, **kwargs)

        held.__name__ = name
        held.__doc__ = method.__doc__
        return held

    lift = _hold("lift")
    take_waiting = _hold("take_waiting")
    hover = _hold("hover")
    place = _hold("place")
    stack = _hold("stack")
    lift_tower = _hold("lift_tower")
    setup_start = _hold("setup_start")
    setup_position = _hold("setup_position")
    del _hold

    # --- host calls from the guest (vboard_guest.py), in the virtual Pico's board thread
    def _pins(self, out, oe, pull_up, pull_down):
        b = self.board
        b.out, b.oe, b.pull_up, b.pull_down = out, oe, pull_up, pull_down
        b.clock.sync()

    def _vb_scan(self, out, oe, pull_up, pull_down):
        """Every sensor as the ADC reads it at each multiplexer address, and the input pads."""
        wait = self._scan_due - time.monotonic()
        if wait > 0:
            time.sleep(wait)
        self._scan_due = time.monotonic() + SCAN_GAP_S
        with self.lock:
            self.scans += 1
            b = self.board
            self._pins(out, oe, pull_up, pull_down)
            base = out & ~MUX_FIELD
            codes = []
            for slot in range(128):
                b.out = base | (slot << MUX_SHIFT)
                codes.append("%04x" % b.adc_read(ADC_COMMON_GPIO))
            b.out = out
            inputs = [None if (oe >> g) & 1 else b.external_level(g) for g in range(30)]
            return ["".join(codes), inputs]

    def _vb_adc(self, gpio, out, oe, pull_up, pull_down):
        with self.lock:
            self._pins(out, oe, pull_up, pull_down)
            return self.board.adc_read(gpio)

    def _vb_leds(self, gpio, data, bpp, oe):
        with self.lock:
            self.board.oe = oe
            self.board.neopixel_write(gpio, bytes.fromhex(data), bpp)

    def _device(self, sda, scl, addr):
        dev = self.board.i2c_device(sda, scl, addr)
        if dev is None:
            raise OSError(5, "no I2C device at 0x%02x" % addr)
        return dev

    def _vb_i2c_scan(self, sda, scl):
        with self.lock:
            self._i2c_pending.clear()  # the first call on a bus after a boot: no write is half done
            return self.board.i2c_scan(sda, scl)

    def _vb_i2c_write(self, sda, scl, addr, data, more=False):
        # A transaction comes in pieces (vboard_guest.I2C_CALL_BYTES): the device gets it whole.
        key = (sda, scl, addr)
        with self.lock:
            pending = self._i2c_pending.pop(key, b"") + bytes.fromhex(data)
            if more:
                self._i2c_pending[key] = pending
            else:
                self._device(sda, scl, addr).i2c_write(pending)

    def _vb_i2c_read(self, sda, scl, addr, n):
        with self.lock:
            return self._device(sda, scl, addr).i2c_read(n).hex()

    def _vb_urandom(self, n):
        with self.lock:
            return self.dice.take(n).hex()
