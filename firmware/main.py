"""The companion firmware's wiring: drivers from the pin map, the pure controller, the loop.

Nothing here decides anything about the game (that is companion/controller.py); this file only
moves frames, button events and serial lines into the controller and its effects out to the
LEDs, the OLED, the serial line and the buzzer.
"""
import gc
import os
import sys
import time

from companion.controller import COLOUR_NAMES, PREPARES, Companion
from companion.store import Store
from drivers import pinmap
from drivers.buttons import Buttons, button_of, kind_of
from drivers.classify import EMPTY, Classifier
from drivers.dice import Dice
from drivers.hall import HallScanner
from drivers.leds import COLOURS, Leds
from drivers.oled import Oled

# Collections (~20 ms each on a Pico, docs/performance.md) are made where nobody waits: right
# after a frame, a button or a serial line has been answered and the LEDs written (the players'
# next move is hundreds of ms away), once this much has been allocated since the last one; or in
# a quiet loop (no cell unsettled) once more has been allocated (the turn's preparation) or the
# heap runs low. So the collector's own automatic collection, which would strike in the middle of
# whatever allocates when the heap is full, never comes; and the garbage a DONE (which allocates
# ~8 KB itself) finds waiting stays small.
GC_AFTER_ANSWER = 4 * 1024  # bytes allocated since the last collection
GC_LOW_FREE = 48 * 1024  # free bytes under which a quiet loop collects
# bytes allocated since the last collection over which a quiet loop collects: the turn's
# preparation allocates in the steps where the players look at the board, and without this its
# garbage would pile up to GC_LOW_FREE (~170 KB of it on a Pico), so that a DONE would find the
# heap far lower than where the answers left it (issue 33: the in-play floor)
GC_QUIET_GARBAGE = 12 * 1024
# quiet loop steps between two looks at the heap: gc.mem_alloc() walks the whole allocation
# table (~16 ms a call on the emulated Pico, more than the rest of an idle step), and the steps
# between allocate a few KB (the turn's preparation), far from GC_QUIET_GARBAGE
GC_LOW_EVERY = 8
# SSD1306 pages (text rows) sent in one loop step: each ~3.3 ms on the bus at 400 kHz, so a
# screen whose rows all changed takes four steps instead of one 34 ms step (drivers/oled.py)
OLED_PAGES = 2
# While the board's own player thinks (boardplayer: a few plays valued per loop step), its garbage
# (floats: 600-800 bytes an evaluation, and the copies of the plays it compares) is collected
# after this many evaluations: the free heap in play then dips at most ~48 KB below where a
# collection leaves it (156,816 B least free on the image, docs/board-player.md), for a collection
# (~8 ms on the image) every ten or so slices. Counted in evaluations, not asked of the collector: gc.mem_alloc() and
# gc.mem_free() walk the whole heap's table (7.8 ms on a Pico, more than a slice's evaluations).
GC_THINKING_EVALUATIONS = 40
DRIFT_EVERY = 16  # frames between baseline drift updates (cells the game knows are empty)
# Modules only a power-up or a new match needs (the boot call, the journal read back, the menu):
# dropped at the next collection, so they do not sit in the heap through the games (imported
# again when asked for)
# (bgrules.match_read and matchid_read: undoing an action whose journal write failed;
# companion.flash_room: the flash's upkeep at a power-up, a new match or a full flash;
# bgrules.turn_why: the words of a refused play; bgrules.match_setup: a set position, at its new
# match and when its journal is read back)
ONCE_ONLY = ("companion.booting", "companion.recovery", "companion.phase_setup", "bgrules.match_read",
             "bgrules.matchid_read", "companion.flash_room", "bgrules.turn_why", "bgrules.match_setup")
# A chouette's modules, dropped too while no chouette is on: a chouette plays the standard game,
# so they and a variant's modules are never needed at once (scripts/bench/heap_modules.py)
CHOUETTE = ("companion.chouette_session", "companion.protocol_chouette", "bgrules.chouette")
# A match against the PC's GNU Backgammon (the `gnu` command): its modules (companion.phase_computer,
# computer_turn, protocol_computer, computer_help: named "computer" so no module list costs the boot its names),
# dropped while no side is the computer's
COMPUTER = "computer"
# The board's own player (boardplayer: its net over the frozen weights, the match equity table,
# the rules engine's listing of plays), dropped while it plays no side
BOARD_PLAYER = "boardplayer"
# A variant's code: bgrules.variants.KEY (and the helpers it imports), the turn parts, the dice of
# the fixed-dice variants, a match of games in turn (Tavli), a ruleset's settings, the search's
# codes the variants share; dropped when no variant match is in play, so an evening of variants
# does not keep every one it played (issue 22). The standard game and Nackgammon need none.
VARIANT_CODE = "bgrules.variants."
VARIANT_SHARED = ("bgrules.variants", "bgrules.turn_parts", "companion.parts_board", "companion.variant_dice",
                  "bgrules.match_series", "bgrules.rules_settings", "companion.games_in_turn", "bgrules.turn_codes")


class OpeningDice:
    """The dice driver, but the opening roll shows ties: each player rolls one die and equal
    dice are rolled again by the players (so automatic doubles can happen and are journaled)."""

    def __init__(self, dice):
        self._dice = dice

    def roll(self):
        return self._dice.roll()

    def first_roll(self):
        return self._dice.die(), self._dice.die()


class Buzzer:
    def __init__(self, pin=pinmap.PIEZO):
        from machine import PWM, Pin

        self._pwm = PWM(Pin(pin))
        self._pwm.freq(2000)
        self._pwm.duty_u16(0)
        self.on = False

    def set(self, on):
        if on != self.on:
            self._pwm.duty_u16(32768 if on else 0)
            self.on = on


class App:
    def __init__(self, companion, scanner, classifier, buttons, leds, oled, serial, buzzer):
        if PREPARES:  # the code in flash (the image): its machine code (companion.prepared)
            from companion.prepared import install_image

            install_image(companion)
        self.companion = companion
        self.scanner = scanner
        self.classifier = classifier
        self.buttons = buttons
        self.leds = leds
        self.oled = oled
        self.serial = serial
        self.buzzer = buzzer
        self.loops = 0
        self._empty = bytearray(pinmap.N_CELLS)  # 1 = the cell reads empty (drift tracking)
        # LED colours by code, shared with the companion: companion.phase_computer adds the computer's
        self._palette = companion._palette = [COLOURS[name] for name in COLOUR_NAMES]
        self.booted = False
        self.link_note = ""  # why a Pico W with /mqtt.json is not on the broker (drivers.mqtt_link.problem)
        self.answered = False  # an input was answered and the LEDs written: a collection now delays nobody
        self.collections = 0
        self.prepared_units = 0  # loop steps that prepared a turn's answers (companion.prepared)
        self.tail_full = False  # the journal's tail found no room to move into its file (companion.tail)
        self._evaluations_at_gc = 0  # the board's own player's evaluations at the last collection
        # None under CPython (the simulator): its collector is not the one to schedule
        self._alloc_after_gc = gc.mem_alloc() if hasattr(gc, "mem_alloc") else None
        if self._alloc_after_gc is not None:
            self._heap = gc.mem_free() + self._alloc_after_gc  # (its size: one look finds both)
            companion.collect = self.collect  # mid-answer, where the controller has shed one-off imports

    def boot(self, now_ms):
        cl = self.classifier
        note = ""
        if not cl.load():
            note = cl.calib_note
        # enough frames for the debounced state to settle before the first judgement
        for _ in range(cl.stable_frames + 1):
            cl.update(self.scanner.scan())
        self.companion.boot(cl.state, now_ms)
        if note:
            self.companion.emit("note", {"text": "calibration: %s (send calibrate with the board empty)" % note})
        if self.link_note:
            self.companion.emit("note", {"text": self.link_note})
        self.booted = True
        self.apply()

    def step(self, now_ms):
        """One loop iteration: serial, sensors, buttons, timers, then the effects."""
        if not self.booted:
            self.boot(now_ms)
            return
        c = self.companion
        quiet = True  # nothing answered in this step: it may prepare the turn's answers
        if self.serial is not None:
            line = self.serial.read_line()
            if line is not None:
                c.on_line(line, now_ms)
                self.answered = True
                quiet = False
        raw = self.scanner.scan()
        cl = self.classifier
        if cl.update(raw):
            c.on_frame(cl.state, now_ms)
            self.answered = True
            quiet = False
        self.loops += 1
        drift = self.loops % DRIFT_EVERY == 0
        if drift:
            # Drift is followed only on cells the game knows are empty and that read empty.
            state = cl.state
            empty = self._empty
            c.tracker.empty_cells(empty)
            for i in range(pinmap.N_CELLS):
                if state[i] != EMPTY:
                    empty[i] = 0
            cl.refresh_baseline(raw, empty)
        ev = self.buttons.poll(now_ms)
        while ev:
            c.on_button(button_of(ev), kind_of(ev), now_ms)
            self.answered = True
            quiet = False
            ev = self.buttons.poll(now_ms)
        c.tick(now_ms)
        if c.fx.calibrate:
            c.fx.calibrate = False
            suspect = cl.calibrate_empty(self.scanner.scan, 32)
            try:
                cl.save()
            except OSError as exc:
                c.error("calibration not saved: %s" % exc)
            c.calibrated(suspect, cl.calib_note)
        # a step that sends the screen's pages (2 of them: up to 8.6 ms on the emulated Pico's
        # bus) or follows the drift prepares nothing: its own work and a unit's (up to ~9 ms)
        # would add up, and a lift coming meanwhile waits for the whole step
        busy = drift or self.oled.dirty or c.fx.screen_changed
        self.apply()
        if quiet and cl.settled():
            # Nobody waits: the journal's tail moved into its file (companion.tail: the
            # flash erases the answers did not wait for), else one unit of the turn's answers
            # prepared (companion.prepared), after the LEDs and the screen, so a lift later is
            # answered by a lookup. Only while no cell is changing (a hand over the board means
            # a frame to answer soon). The move (1-3 erases, 90-200 ms) waits for the screen's
            # last rows and for a phase other than a turn being moved: after DONE, before the
            # next roll, not between the roll and the first lift, whose steps prepare.
            j = c.journal
            if (j is not None and not self.tail_full and c.phase != "moving" and not self.oled.dirty
                    and (j.end is None or j.end >= 0 and j.tail is not None)):
                from companion import tail

                try:
                    if tail.flush(j, True):
                        return
                except OSError:
                    # a full flash: the lines stay in the tail (none is lost); the next line's
                    # write moves them first, where a full flash is answered (Companion.
                    # write_record: an exported log removed and told, or "Flash write failed")
                    j.end = None
                    self.tail_full = True
                    return
            if not busy:
                self.prepared_units += c.prepare()
        elif not quiet:
            self.tail_full = False  # an answer came: its line (if any) took the tail's flush

    def apply(self):
        fx = self.companion.fx
        if fx.leds_changed:
            fx.leds_changed = False
            leds = self.leds
            pal = self._palette
            for i in range(pinmap.N_LEDS):
                leds.set(i, pal[fx.leds[i]])
            leds.show()
            self.answered = True
        if fx.screen_changed:
            fx.screen_changed = False
            # (after the LEDs: the rows that changed, OLED_PAGES now and the rest in the next steps)
            self.oled.lines(fx.screen, -1, OLED_PAGES)
        elif self.oled.dirty:
            self.oled.flush(OLED_PAGES)
        if fx.out:
            out = fx.out
            fx.out = []
            if self.serial is not None:
                for line in out:
                    self.serial.write_line(line)
        if self.buzzer is not None:
            self.buzzer.set(fx.buzz)

    def collect_if_due(self):
        """Collect garbage now if this is a moment nobody waits for (see GC_AFTER_ANSWER);
        True if it did. Called by run() after every step."""
        if self._alloc_after_gc is None:
            return False
        if self.answered:
            self.answered = False
            due = self._since_collection() >= GC_AFTER_ANSWER
        else:
            pl = self.companion.gnu_player
            if pl is not None and pl.thinking():
                since = pl.evaluations - self._evaluations_at_gc
                due = since >= GC_THINKING_EVALUATIONS or since < 0  # (< 0: another player since)
            elif self.loops % GC_LOW_EVERY == 0 and self.classifier.settled():
                since = self._since_collection()
                due = since >= GC_QUIET_GARBAGE or self._heap - self._alloc_after_gc - since < GC_LOW_FREE
            else:
                due = False
        if due:
            self.collect()
        return due

    def _since_collection(self):
        # Bytes allocated since the last collection (one look at the heap).
        alloc = gc.mem_alloc()
        mark = self._alloc_after_gc
        if mark is None or alloc < mark:
            # collected by someone else since (the collector itself, a caller): counting from
            # the old mark would put off this schedule's collections by what that one freed
            mark = self._alloc_after_gc = alloc
        return alloc - mark

    def collect(self, starting=None):
        """Drop the modules nobody needs now and collect. ``starting``: the Match a new match is
        about to play (built before this collection: its variant's code stays)."""
        c = self.companion
        unload(ONCE_ONLY)
        if c.chouette is None:
            unload(CHOUETTE)
        else:
            # (a chouette prepares no answers: Companion.prepare; its journal has no tail:
            # companion.tail)
            unload(("companion.prepared", "companion.prepared_next", "companion.tail"))
        if c.gnu_side is None:
            unload([n for n in sys.modules if COMPUTER in n])
        if c.gnu_player is None:
            unload([n for n in sys.modules if n.startswith(BOARD_PLAYER)])
        m = starting or c.match
        if m is None or m.rules.key in ("standard", "nackgammon"):
            unload([n for n in sys.modules if n.startswith(VARIANT_CODE)])
            unload(VARIANT_SHARED)
        gc.collect()
        self._alloc_after_gc = gc.mem_alloc()
        self.collections += 1
        pl = c.gnu_player
        if pl is not None:
            self._evaluations_at_gc = pl.evaluations

    def run(self):
        """Loop until Ctrl-C (KeyboardInterrupt), which hands the board to mpremote. The journal
        is consistent at any instant: lines are written whole and closed; the ones in its tails
        (companion.journal) are moved into its file here, for mpremote and ``bgc pull``."""
        try:
            while True:
                self.step(time.ticks_ms())
                self.collect_if_due()
        except KeyboardInterrupt:
            if self.buzzer is not None:
                self.buzzer.set(False)
            j = self.companion.journal
            if j is not None and j.end != -1:
                from companion import tail

                try:
                    tail.flush(j, False)
                except OSError:
                    pass  # the tails stay: moved at the next power-up


def unload(names):
    """Drop the modules ``names`` (imported again from flash when next asked for)."""
    for full in names:
        if full in sys.modules:
            del sys.modules[full]
            parent, _, name = full.rpartition(".")
            package = sys.modules.get(parent)
            if package is not None and hasattr(package, name):
                delattr(package, name)


def build(journal_dir="/journal", serial=None, dice=None, buzzer=True, fs=None):
    """The App with every driver built from the pin map. ``serial``: an object with
    ``read_line()`` (non-blocking, str or None) and ``write_line(text)``, default the USB serial;
    ``dice``: ``roll()`` and ``first_roll()`` (ties allowed), default the hardware dice."""
    link_note = ""
    if serial is None:
        from drivers.usb_serial import UsbSerial

        serial = UsbSerial()
        try:
            os.stat("/mqtt.json")  # a Pico W with broker settings: the events go there too
        except OSError:
            pass
        else:
            from drivers import mqtt_link

            serial = mqtt_link.wrap(serial)
            link_note = mqtt_link.problem
    if dice is None:
        dice = OpeningDice(Dice())
    piezo = None
    if buzzer:
        try:
            piezo = Buzzer()
        except (OSError, ValueError):
            piezo = None  # no PWM on that pin: play without sound
    companion = Companion(Store(journal_dir, fs), dice, buzzer=piezo is not None)
    app = App(companion, HallScanner(), Classifier(), Buttons(), Leds(), Oled(), serial, piezo)
    app.link_note = link_note
    return app


def run():
    build().run()


if __name__ == "__main__":
    run()
