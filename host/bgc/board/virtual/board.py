"""The physical model behind the virtual rp2 modules.

Checkers carry an 8 x 3 mm N42 disc magnet, white ones south pole down (the sensor output rises),
black ones north pole down. Each of the 128 sensors sits ``gap_mm`` below the magnet centre of a
checker resting on its cell; the field of every magnet (on the board, stacked, or in a hand) is
summed as a point dipole, so a stack raises a cell's field, a checker of the other colour on top
lowers it (a crowded point, hardware/sensing.md), a neighbour leaks a little, and a hovering
checker shows faintly. Each sensor has its own resting-output offset, sensitivity,
noise and slow drift (hardware/calibration.md documents the figures).

The hand is never still: a held checker trembles with the physiological tremor of a healthy hand
(``tremor_mm`` peak at 8-12 Hz in each axis, docs/hardware-virtual-board.md gives the sources),
and it can come down at a given speed (``hover(..., speed_mm_s=)``) and be lowered onto the
stack and let go (``drop(..., speed_mm_s=)``), as a hand does. Heights of the hand are its
clearance: from the held checker's underside down to the top of what stands on the cell below it. Readings reach the ADC only
through the multiplexer address the firmware drives on the GPIOs: a wrong address reads the wrong
cell and a disabled bank reads the pulled-down common line (about 0 V).

Runs under CPython and MicroPython: no random/os imports, its own PRNG, integer noise.
"""
import json
import math
import sys
from array import array

from .clock import Clock
from .prng import Prng
from .sio import Sio
from .ssd1306 import Ssd1306

WHITE = 1
BLACK = -1
VDD = 3.3
ADC_FULL = 4096
LSB_V = VDD / ADC_FULL
MUX_SHIFT = 2  # the wiring of hardware/pinmap.md, as the board sees it
MUX_EN_PIN = 9
ADC_COMMON_GPIO = 26
I2C0_SDA = 16
I2C0_SCL = 17
LED_PIN = 15
OLED_ADDR = 0x3C
BUTTONS = {"ROLL_W": 10, "CUBE_W": 11, "ROLL_B": 12, "CUBE_B": 13}
NOISE_N = 4093  # prime: a cell's noise does not repeat in step with the 128-read frame
PHYSICS_PERIOD_MS = 50
TWO_PI = 2 * math.pi


def load_geometry(path=None):
    """hardware/geometry.json, from ``path`` or where it is: under CPython the one bgc ships
    (bgc.resource: installed or in the checkout), under MicroPython the copy staged in the test
    tree (/input, or the working folder)."""
    if path:
        candidates = [path]
    elif sys.implementation.name == "micropython":
        candidates = ["/input/geometry.json", "hardware/geometry.json", "geometry.json"]
    else:
        from ... import resource

        candidates = [resource("hardware", "geometry.json")]
    for p in candidates:
        try:
            with open(p) as f:
                return json.load(f)
        except OSError:
            pass
    raise OSError("geometry.json not found (tried %s)" % ", ".join(candidates))


class Board(Sio):
    """Defaults are the reference build (hardware/); every figure can be overridden."""

    def __init__(self, geometry=None, seed=1, noise_lsb=6.0, offset_lsb=62, gain_spread=0.04,
                 drift_lsb_per_s=1.0, drift_max_lsb=40, place_mm=3.0, gap_mm=14.0,
                 checker_mm=8.0, sensitivity_v_per_mt=0.060, magnet_tmm3=15.6, clock=None,
                 tremor_mm=(0.05, 0.3), tremor_hz=(8.0, 12.0)):
        if geometry is None or isinstance(geometry, str):
            geometry = load_geometry(geometry)
        self.geometry = geometry
        self.clock = clock or Clock()
        self.rng = Prng(seed)
        self.noise_lsb = noise_lsb
        self.drift_rate = drift_lsb_per_s
        self.drift_max = drift_max_lsb
        self.place_mm = place_mm
        self.gap_mm = gap_mm
        self.checker_mm = checker_mm
        self.sens = sensitivity_v_per_mt
        self.k_mt = magnet_tmm3 * 1000.0  # dipole strength in mT*mm^3
        cells = geometry["cells"]
        self.n = len(cells)
        self.cx = [0.0] * self.n
        self.cy = [0.0] * self.n
        self.slot_of_cell = bytearray(self.n)
        self.cell_of_slot = bytearray(self.n)
        for c in cells:
            i = c["cell"]
            self.cx[i] = float(c["x"])
            self.cy[i] = float(c["y"])
            slot = c["mux"] * 16 + c["channel"]
            self.slot_of_cell[i] = slot
            self.cell_of_slot[slot] = i
        rng = self.rng
        # Per-sensor spread, indexed by cell (the sensor physically under that cell).
        self.vq = [VDD / 2 + rng.uniform(-offset_lsb, offset_lsb) * LSB_V for _ in range(self.n)]
        self.gain = [1.0 + rng.uniform(-gain_spread, gain_spread) for _ in range(self.n)]
        self.drift = [0.0] * self.n
        sigma100 = int(noise_lsb * 100)
        self._noise = array("h", [rng.gauss_int(sigma100) for _ in range(NOISE_N)])
        self._ni = 0
        self._codes = array("h", [0] * self.n)  # noiseless 12-bit code per mux slot
        self._stale = True
        self._physics_ms = self.clock.ms
        self.clock.listeners.append(self._on_time)
        # Checkers: per cell a list of [colour, dx, dy], bottom first.
        self.stacks = [[] for _ in range(self.n)]
        # [colour, x, y, height_mm] or None; height_mm: the held checker's underside above the
        # board surface (its magnet is at gap_mm + height_mm), where it sits at rest
        self.hand = None
        # The hand's own motion: a peak tremor amplitude (mm) drawn per hold from ``tremor_mm``
        # (a pair: the range; 0: a hand of stone), frequencies from ``tremor_hz``; the hand's
        # own PRNG, so that the checkers' placement draws stay the same with or without it.
        if not isinstance(tremor_mm, (tuple, list)):
            tremor_mm = (tremor_mm, tremor_mm)
        self.tremor_range = tremor_mm
        self.tremor_hz = tremor_hz
        self.hand_rng = Prng(seed * 7919 + 17)
        self.tremor = None  # per axis x, y, z: (amplitude, freq, phase, freq2, phase2)
        self._new_tremor()
        self._motion = None  # [x, y, height_mm, speed_mm_s, release_cell or -1]: where the hand goes
        self._motion_ms = -1.0  # virtual time the motion was last carried on to
        self._static_v = [0.0] * self.n  # each sensor's volts without the hand
        # each sensor's field from the checkers on the board, worked out again only when they
        # change (update() runs every PHYSICS_PERIOD_MS for the drift; the checkers rarely move)
        self._checker_field = [0.0] * self.n
        self._checkers_moved = True
        self._hand_ms = -1  # the virtual time of the hand's last contribution to the codes
        # GPIO state (SIO) and instrumentation.
        Sio.__init__(self)
        self._inputs = {}  # gpio -> level driven from outside (buttons)
        self._schedule = []  # (ms, sub_us, gpio, level) bounce/press events, sorted
        self.adc_reads = 0
        self.leds = [(0, 0, 0)] * 28
        self.led_writes = 0
        self.pwm = {}
        self.oled = Ssd1306()
        self.i2c0_devices = {OLED_ADDR: self.oled}
        self.urandom_bytes = 0
        self.setup_error = ""

    # ---------------------------------------------------------------- checkers and hands
    def _offset(self):
        if not self.place_mm:
            return 0.0, 0.0
        r = self.place_mm * math.sqrt(self.rng.uniform())
        a = self.rng.uniform(0.0, 2 * math.pi)
        return r * math.cos(a), r * math.sin(a)

    def place(self, cell, colour, count=1):
        for _ in range(count):
            dx, dy = self._offset()
            self.stacks[cell].append([colour, dx, dy])
        self._stale = True
        self._checkers_moved = True

    def remove(self, cell):
        """Take the top checker off ``cell``; returns its colour (ValueError if there is none)."""
        if not self.stacks[cell]:
            raise ValueError("no checker on cell %d" % cell)
        self._stale = True
        self._checkers_moved = True
        return self.stacks[cell].pop()[0]

    def clear(self):
        self.stacks = [[] for _ in range(self.n)]
        self.hand = None
        self._motion = None
        self._stale = True
        self._checkers_moved = True

    def count(self, cell):
        return len(self.stacks[cell])

    def colour(self, cell):
        s = self.stacks[cell]
        return s[-1][0] if s else 0

    def stack_top_mm(self, cell):
        """Height of the top of what stands on ``cell`` above the board surface (0: nothing)."""
        return len(self.stacks[cell]) * self.checker_mm

    def _new_tremor(self):
        """Draw the tremor of a new hold: a peak amplitude and, per axis, two close frequencies
        of the 8-12 Hz band whose beating gives the waxing and waning of a real tremor."""
        r = self.hand_rng
        lo, hi = self.tremor_range
        amp = r.uniform(lo, hi)
        f_lo, f_hi = self.tremor_hz
        axes = []
        for _ in range(3):
            f = r.uniform(f_lo, f_hi)
            f2 = f + r.uniform(-1.0, 1.0)
            axes.append((amp / 2, f, r.uniform(0.0, TWO_PI), f2, r.uniform(0.0, TWO_PI)))
        self.tremor = axes

    def tremor_at(self, seconds):
        """The hand's tremor displacement (dx, dy, dz) in mm at ``seconds`` of virtual time."""
        out = []
        for a, f, ph, f2, ph2 in self.tremor:
            out.append(a * (math.sin(TWO_PI * f * seconds + ph) + math.sin(TWO_PI * f2 * seconds + ph2)))
        return out

    def lift(self, cell, height_mm=40.0):
        """A hand takes the top checker from ``cell`` and holds it ``height_mm`` above what is
        left there."""
        if self.hand is not None:
            raise ValueError("the hand already holds a checker")
        colour = self.remove(cell)
        self.hand = [colour, self.cx[cell], self.cy[cell], self.stack_top_mm(cell) + height_mm]
        self._motion = None
        self._new_tremor()
        return colour

    def hover(self, cell, height_mm=20.0, colour=None, speed_mm_s=None, dx_mm=0.0, dy_mm=0.0):
        """Move the hand (taking a fresh checker of ``colour`` if it holds none) over ``cell``,
        the held checker's underside ``height_mm`` above the top of what stands there, ``dx_mm``,
        ``dy_mm`` off the cell's centre. At once, or with ``speed_mm_s`` moving there in a
        straight line at that speed as virtual time passes (``hand_moving()`` says while)."""
        if self.hand is None:
            if colour is None:
                raise ValueError("the hand holds no checker")
            self.hand = [colour, 0.0, 0.0, height_mm]
            self._new_tremor()
        x = self.cx[cell] + dx_mm
        y = self.cy[cell] + dy_mm
        h = self.stack_top_mm(cell) + height_mm
        if speed_mm_s:
            self._motion = [x, y, h, float(speed_mm_s), -1]
            self._motion_ms = self.clock.ms + self.clock.sub_us / 1000.0
        else:
            self._motion = None
            self.hand[1] = x
            self.hand[2] = y
            self.hand[3] = h
        self._stale = True

    def drop(self, cell, speed_mm_s=None):
        """Put the held checker on ``cell``: at once, or lowered at ``speed_mm_s`` from where the
        hand is onto the top of the stack there and let go when it gets there."""
        if self.hand is None:
            raise ValueError("the hand holds no checker")
        if speed_mm_s:
            self._motion = [self.cx[cell], self.cy[cell], self.stack_top_mm(cell), float(speed_mm_s), cell]
            self._motion_ms = self.clock.ms + self.clock.sub_us / 1000.0
            return
        colour = self.hand[0]
        self.hand = None
        self._motion = None
        self.place(cell, colour)

    def hand_moving(self):
        return self._motion is not None

    def _move_hand(self, dt):
        """Carry the hand ``dt`` seconds along its motion; let the checker go where it lands."""
        m = self._motion
        hand = self.hand
        if hand is None:
            self._motion = None
            return
        dx = m[0] - hand[1]
        dy = m[1] - hand[2]
        dz = m[2] - hand[3]
        dist = math.sqrt(dx * dx + dy * dy + dz * dz)
        step = m[3] * dt
        if step >= dist:
            hand[1] = m[0]
            hand[2] = m[1]
            hand[3] = m[2]
            cell = m[4]
            self._motion = None
            if cell >= 0:
                self.hand = None
                self.place(cell, hand[0])
        else:
            k = step / dist
            hand[1] += dx * k
            hand[2] += dy * k
            hand[3] += dz * k
        self._stale = True

    def set_position(self, points):
        """Place a whole position: {cell: (colour, count)}; counts above 5 per point stack on the
        point's cells from the rim (the 6th goes on cell 0 again, and so on)."""
        self.clear()
        for cell in points:
            colour, count = points[cell]
            self.place(cell, colour, count)

    def set_points(self, white, black):
        """Checkers by point as players count them: ``white[p]``/``black[p]`` for p in 1..24 in
        white's numbering, index 25 = on the bar. Fills each point's 5 cells rim first, then
        stacks."""
        self.clear()
        for colour, counts in ((WHITE, white), (BLACK, black)):
            for p in range(1, 26):
                n = counts[p] if p < len(counts) else 0
                if not n:
                    continue
                if p == 25:
                    base = 120 if colour == WHITE else 124
                    for i in range(n):
                        self.place(base + i % 4, colour)
                    continue
                for i in range(n):
                    self.place((p - 1) * 5 + i % 5, colour)

    # ---------------------------------------------------------------- physics
    def _on_time(self, clock):
        if self._motion is not None:
            ms = clock.ms + clock.sub_us / 1000.0
            last = self._motion_ms
            if last >= 0 and ms > last:
                self._move_hand((ms - last) / 1000.0)
            self._motion_ms = ms
        else:
            self._motion_ms = -1.0
        if clock.ms - self._physics_ms >= PHYSICS_PERIOD_MS:
            self._stale = True

    def magnets(self, hand=True):
        """Every magnet as (polarity, x, y, z above the sensor plane) in mm; the hand's where
        its tremor has it now (``hand=False``: the checkers on the board only)."""
        mags = []
        for c in range(self.n):
            st = self.stacks[c]
            for level in range(len(st)):
                colour, dx, dy = st[level]
                mags.append((colour, self.cx[c] + dx, self.cy[c] + dy, self.gap_mm + level * self.checker_mm))
        if hand and self.hand is not None:
            mags.append(self._hand_magnet())
        return mags

    def _hand_magnet(self):
        colour, hx, hy, h = self.hand
        if self.tremor_range[1] > 0:
            tx, ty, tz = self.tremor_at(self.clock.seconds())
            hx += tx
            hy += ty
            h += tz
        return (colour, hx, hy, self.gap_mm + h)

    def field_mt(self, cell, mags=None):
        """Field (mT, + = south pole towards the sensor) at the sensor under ``cell``."""
        if mags is None:
            mags = self.magnets()
        x0 = self.cx[cell]
        y0 = self.cy[cell]
        k = self.k_mt
        total = 0.0
        for colour, x, y, z in mags:
            dx = x - x0
            dy = y - y0
            if dx > 120 or dx < -120 or dy > 120 or dy < -120:
                continue  # under 0.05 % of a checker's field at that distance
            r2 = dx * dx + dy * dy + z * z
            total += colour * k * (3 * z * z - r2) / (r2 * r2 * math.sqrt(r2))
        return total

    def update(self):
        """Recompute every sensor's noiseless code (checkers moved, or drift is due)."""
        now = self.clock.ms
        dt = (now - self._physics_ms) / 1000.0
        if dt > 0 and self.drift_rate:
            lim = self.drift_max
            drift = self.drift
            for c, g in enumerate(self.rng.gausses(self.drift_rate * math.sqrt(dt), self.n)):
                d = drift[c] + g
                drift[c] = lim if d > lim else (-lim if d < -lim else d)
        self._physics_ms = now
        field = self._checker_field
        if self._checkers_moved:
            mags = self.magnets(hand=False)
            for c in range(self.n):
                field[c] = self.field_mt(c, mags)
            self._checkers_moved = False
        sv = self._static_v
        for c in range(self.n):
            sv[c] = self.vq[c] + self.gain[c] * self.sens * field[c] + self.drift[c] * LSB_V
        self._stale = False
        self._hand_codes()

    def _hand_codes(self):
        """The codes: each sensor's volts without the hand plus the held checker's field where
        its tremor has it at this instant (redone every millisecond of virtual time while a
        hand is held: cheap, one magnet)."""
        hand = [self._hand_magnet()] if self.hand is not None else None
        self._hand_ms = self.clock.ms if hand is not None else -1
        sv = self._static_v
        gain = self.gain
        sens = self.sens
        for c in range(self.n):
            v = sv[c]
            if hand is not None:
                v += gain[c] * sens * self.field_mt(c, hand)
            # DRV5055 output saturates about 0.2 V from either rail.
            v = 0.2 if v < 0.2 else (VDD - 0.2 if v > VDD - 0.2 else v)
            code = int(v / LSB_V + 0.5)
            self._codes[self.slot_of_cell[c]] = code if code < ADC_FULL else ADC_FULL - 1

    def expected_counts(self, cell):
        """Noiseless read_u16 value of ``cell`` now (for tests and calibration tools)."""
        if self._stale:
            self.update()
        elif self._hand_ms >= 0 and self._hand_ms != self.clock.ms:
            self._hand_codes()
        code = self._codes[self.slot_of_cell[cell]]
        return (code << 4) | (code >> 8)

    # ---------------------------------------------------------------- GPIO / SIO
    def external_level(self, gpio):
        self._run_schedule()
        return self._inputs.get(gpio)

    def mux_address(self):
        """(enabled, slot) as the 74HC138 and the 4067s see the pins right now."""
        lv = self.out & self.oe
        enabled = (self.oe >> MUX_EN_PIN) & 1 and not (lv >> MUX_EN_PIN) & 1
        return bool(enabled), (lv >> MUX_SHIFT) & 127

    def adc_read(self, gpio):
        # Kept allocation-free (integers only) so the scanner can be run under heap_lock.
        self.adc_reads += 1
        if self._stale:
            self.update()
        elif self._hand_ms >= 0 and self._hand_ms != self.clock.ms:
            self._hand_codes()  # the held checker trembles
        ni = self._ni
        noise = self._noise[ni]
        ni += 1
        self._ni = ni if ni < NOISE_N else 0
        code = 0
        if gpio == ADC_COMMON_GPIO:
            oe = self.oe
            lv = self.out & oe
            if (oe >> MUX_EN_PIN) & 1 and not (lv >> MUX_EN_PIN) & 1:
                code = self._codes[(lv >> MUX_SHIFT) & 127]
        elif gpio == 30:
            code = 876  # on-chip temperature sensor, ~0.706 V = 27 C
        code += noise
        if code < 0:
            code = 0
        elif code >= ADC_FULL:
            code = ADC_FULL - 1
        return (code << 4) | (code >> 8)

    def scan_frame(self, raw, steps, cells, n, channel):
        """Sio.scan_frame with adc_read's conversion inlined: the same readings, noise draws and
        counters, in a third of the time (a frame's 128 calls were most of a simulated match).
        The clock stands still within a frame, so the codes are brought up to date once."""
        if 26 + channel != ADC_COMMON_GPIO:
            return Sio.scan_frame(self, raw, steps, cells, n, channel)
        if self._stale:
            self.update()
        elif self._hand_ms >= 0 and self._hand_ms != self.clock.ms:
            self._hand_codes()
        codes = self._codes
        noise = self._noise
        ni = self._ni
        out = self.out
        oe = self.oe
        on = (oe >> MUX_EN_PIN) & 1
        for i in range(n):
            m = steps[i]
            if m > 0:
                out |= m & 0x3FFFFFFF
            else:
                out &= ~(-m & 0x3FFFFFFF)
            code = noise[ni]
            ni += 1
            if ni >= NOISE_N:
                ni = 0
            lv = out & oe
            if on and not (lv >> MUX_EN_PIN) & 1:
                code += codes[(lv >> MUX_SHIFT) & 127]
            if code < 0:
                code = 0
            elif code >= ADC_FULL:
                code = ADC_FULL - 1
            raw[cells[i]] = (code << 4) | (code >> 8)
        self.out = out
        self._ni = ni
        self.adc_reads += n
        self.mem_writes += n

    # ---------------------------------------------------------------- buttons
    def _run_schedule(self):
        s = self._schedule
        ms = self.clock.ms
        sub = self.clock.sub_us
        while s and (s[0][0] < ms or (s[0][0] == ms and s[0][1] <= sub)):
            _, _, g, level = s.pop(0)
            self._inputs[g] = level

    def _at(self, delay_us, gpio, level):
        t_us = self.clock.sub_us + delay_us
        self._schedule.append((self.clock.ms + t_us // 1000, t_us % 1000, gpio, level))
        self._schedule.sort()

    def button(self, name, down, bounce_ms=0, bounce_period_us=300):
        """Press (down=True) or release a button now; with ``bounce_ms`` the contact chatters
        (alternating levels every ``bounce_period_us``) before it settles."""
        gpio = BUTTONS[name]
        final = 0 if down else 1
        t = 0
        if bounce_ms:
            level = final
            while t < bounce_ms * 1000:
                self._at(t, gpio, level)
                level ^= 1
                t += bounce_period_us
        self._at(t, gpio, final)
        self._run_schedule()

    # ---------------------------------------------------------------- LEDs, I2C, entropy
    def neopixel_write(self, gpio, data, bpp):
        if gpio != LED_PIN or not (self.oe >> gpio) & 1:
            return  # nothing is wired there: the chain keeps its old colours
        n = min(len(self.leds), len(data) // bpp)
        leds = list(self.leds)
        for i in range(n):
            g, r, b = data[i * bpp], data[i * bpp + 1], data[i * bpp + 2]
            leds[i] = (r, g, b)
        self.leds = leds
        self.led_writes += 1

    def i2c_device(self, sda, scl, addr):
        if sda == I2C0_SDA and scl == I2C0_SCL:
            return self.i2c0_devices.get(addr)
        return None

    def i2c_scan(self, sda, scl):
        if sda == I2C0_SDA and scl == I2C0_SCL:
            return sorted(self.i2c0_devices)
        return []

    def urandom(self, n):
        self.urandom_bytes += n
        return bytes(self.rng.bits(8) for _ in range(n))
