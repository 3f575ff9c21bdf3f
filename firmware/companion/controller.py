# The companion: the state machine that follows a whole match at the board.
#
# It is pure (principle 2): it is fed classifier frames, button events, serial lines and the time,
# and it answers with effects in ``self.fx`` (LED colour codes, 8 OLED lines, serial event lines,
# the buzzer, a calibration request) that main.py applies to the hardware. It never sleeps and
# never touches a pin, so every game can be replayed and tested with a virtual clock.
#
# Nothing is lost (principle 5): every completed action is validated against bgrules.Match,
# appended to the match journal, and only then shown as done. If the flash write fails the match
# is restored to the state before the action and the players are told.
#
# Phases: setup, board, opening, roll, doubled, moving, ask, resign, gameover, matchover
# (docs/protocol.md). The button grammar is docs/player-guide.md.
#
# This file is the core: the state, the inputs and which phase they go to, the phase changes,
# the hints, the journaled action and the effects. Each phase's own steps live in a module
# (docs/architecture.md): mixins of Companion for the game, phase_roll (opening, rolls),
# phase_moving (the turn, DONE, which play), phase_cube (cube, resignations), phase_end (game and
# match end); functions imported on first use for what a game does not need, phase_setup (menu,
# new match) and commands (serial commands).

import json

from bgrules.match import Match, MatchError, PLAY, GAME_OVER, MATCH_OVER
from bgrules.position import OPP, waiting
from companion import display
# The button codes and press kinds are imported from here by main.py and the tests.
from companion.codes import ROLL_W, CUBE_W, ROLL_B, CUBE_B, SHORT, LONG  # noqa: F401
from companion.codes import KIND_WORDS, PHASE_OF, chouette as _cs, computer as _pc, parts as _pb
from companion.tracker import Tracker, led_of
from companion.phase_roll import RollPhase
from companion.phase_moving import MovingPhase
from companion.phase_cube import CubePhase
from companion.phase_end import EndPhase

# The turn's answers are prepared in idle loop steps (companion.prepared) only where the
# firmware's code sits in flash (the image: frozen modules) or runs on a host: the .mpy deploy
# holds its code in the heap, where the module and its table (up to ~38 KB) would take a match
# below the in-play floor (tests/test_heap_budget.py); there lifts ask the rules, as before issue 33.
PREPARES = not __file__.endswith(".mpy")

VERSION = "1.0"

# LED colour codes; COLOUR_NAMES are the keys of drivers.leds.COLOURS.
C_OFF = 0
C_LEGAL = 1
C_LIFTED = 2
C_ILLEGAL = 3
C_TURN = 4
C_HINT = 5
# (6-9, the computer's play: companion.phase_computer's GNU_COLOUR_NAMES, loaded with the `gnu`
# command, so a board that never plays the computer holds neither their names nor their colours)
COLOUR_NAMES = ("off", "legal", "lifted", "illegal", "turn", "hint")
N_LEDS = 28
LED_STATUS = (26, 27)  # white's, black's status LED

BUZZ_MS = 150
BLINK_MS = 300


def led_index(point):
    """Index in the WS2812 chain of LED point 1..24, 25 (white bar) or 0 (black bar)."""
    if point == 25:
        return 24
    if point == 0:
        return 25
    return point - 1


class Effects:
    """What the hardware should show; main.py applies it and clears the flags and ``out``."""

    def __init__(self):
        self.leds = bytearray(N_LEDS)  # colour code per LED of the chain
        self.leds_changed = True
        self.screen = [""] * 8
        self.screen_changed = True
        self.out = []  # serial event lines (no newline), oldest first
        self.buzz_until = 0
        self.buzz = False
        self.calibrate = False  # main.py: take an empty-board baseline, then call calibrated()


class Companion(MovingPhase, RollPhase, CubePhase, EndPhase):
    def __init__(self, store, dice, buzzer=True):
        self.store = store
        self.dice = dice
        self.buzzer = buzzer
        self.fx = Effects()
        self.tracker = Tracker()
        self.frame = bytearray(128)
        self.match = None
        self.chouette = None  # a chouette evening (bgrules.chouette) around the game on the board
        self.show_ledger = False
        self.member_pick = None  # several cubes: [members, index] while the team picks who doubles
        self.box_pick = None  # several cubes: [members, chosen, index] while the box picks whom it doubles
        self.journal = None
        self.name = None
        self.phase = "setup"
        self.msg = ""
        self.hint = ""
        self.now = 0
        self.board_ok = True  # the board shows what the phase needs (phases without a turn)
        self.board_reason = "start"
        self.refused = None  # (reason, cells) after DONE was refused, while the board stays
        self.illegal_out = False  # an "illegal" event awaits its "ok"
        self.pick = None  # [player, kind] while a player chooses a resignation
        self.locked = False  # Pin: neither player can move again; Fixed roll: a position came back 3x
        self.note_line = ""  # shown on the set-up screen after a torn journal line was dropped
        self._chosen_place = 0
        self.ask = None  # candidate positions (bytes) while asking which play was made
        self.ask_places = []
        self.ask_lo = None
        self.ask_sel = 0
        self.ask_chosen = -1
        self.blink = False
        self.next_blink = 0
        self.settings = {"length": 0, "crawford": True, "holland": False, "auto": 0, "beavers": 0,
                         "jacoby": False, "names": ["White", "Black"], "rules": "standard", "own_dice": False,
                         "chouette": 0, "cubes": "common", "roster": [],
                         "board": -1, "level": "expert"}  # board: the side its own player plays (menu)
        self.entry = None  # own dice: the values keyed in (a DiceEntry once own dice are used)
        self.cursor = 0
        self._leds = bytearray(N_LEDS)
        self.view_out = False  # a host asked for "view" events (what the OLED and LEDs show)
        self.view_due = False  # send one now, changed or not
        self.collect = None  # main.py's collection, for a long answer's one-off imports (phase_setup)
        # The computer (companion.phase_computer, loaded with the `gnu` command): the side the PC's
        # GNU Backgammon plays, or None; its play on the board (computer_turn) while it is made
        self.gnu_side = None
        self.gnu = None
        # the board's own player (boardplayer.player.Player) when it, not the PC, decides for gnu_side
        self.gnu_player = None

    # --- output helpers ---------------------------------------------------------------------

    def emit(self, ev, fields=None):
        """One event line out (docs/protocol.md): "ev" first, for people reading the stream."""
        rest = json.dumps(fields or {})
        self.fx.out.append('{"ev": "%s"}' % ev if rest == "{}" else '{"ev": "%s", %s' % (ev, rest[1:]))

    def error(self, text, line=None):
        f = {"error": text}
        if line is not None:
            f["line"] = line[:60]
        self.emit("error", f)

    def open_journal(self, rec, then=None):
        """A new match's journal opened with ``rec`` (and ``then``: companion.flash_room); an
        error text when the write failed."""
        from companion import flash_room

        return flash_room.open_journal(self, rec, then)

    def write_record(self, record, journal=None, name=None):
        """Journal ``record`` (in ``journal``, default the match's). When the flash is full,
        exported logs (the host has them) are removed, oldest first, one at a time until the
        write goes through: nothing is refused while the flash holds a log it may delete.
        OSError when none is left to remove."""
        journal = journal or self.journal
        while True:
            try:
                return journal.append(record)
            except OSError:
                from companion import flash_room

                gone = flash_room.remove_exported(self.store, name or self.name)
                if gone is None:
                    raise
                self.emit("note", {"text": "flash full: removed exported log %s" % gone})

    def say(self, msg):
        self.msg = msg

    def status_fields(self):
        m = self.match
        if m is None:
            return {"match": None, "pos": None, "names": self.settings["names"], "score": [0, 0], "length": 0,
                    "cube": 1, "owner": -1, "crawford": False, "on_roll": 0, "to_act": 0, "dice": [],
                    "phase": self.phase, "pips": [0, 0], "msg": self.msg, "game": 0, "journal": None}
        d = m.dice
        pw, pb = m.pips()
        f = {"match": m.match_id(), "pos": m.position_id(), "names": list(m.names), "score": list(m.score),
             "length": m.length, "cube": m.cube, "owner": m.cube_owner, "crawford": m.crawford_game,
             "on_roll": m.on_roll, "to_act": m.to_act, "dice": [d[0], d[1]] if d[0] else [],
             "phase": self.phase, "pips": [pw, pb], "msg": self.msg, "game": m.game,
             "journal": self.store.path(self.name) if self.name else None}
        if m.rules is not m.series:
            f["rules"] = m.rules.key  # the game now played in a match of games in turn (Tavli)
        if self.gnu_side is not None:
            _pc().status_fields(self, f)
        if m.position.pinned:
            f["pinned"] = m.position.pinned  # Pin: the mover's pinned points (bit p), not in "pos"
        if self.locked or m.repeated:
            f["locked"] = True  # Pin: neither can ever move again; Fixed roll: a loop (resign)
        return f

    def status(self):
        fields = self.status_fields()
        m = self.match
        if m is not None and m.rules.waiting:
            # checkers waiting off the board, as "pos" sees them: the ID counts them as off
            fields["wait"] = [waiting(m.position.cells), waiting(m.position.cells, OPP)]
        if self.chouette is not None:
            _cs().status_fields(self, fields)
        self.emit("status", fields)

    # --- boot and resume ----------------------------------------------------------------------

    def _dice_entry(self):
        # Own dice (companion.dice_entry) are loaded with the first match played with them, not
        # at boot: RAM a match with the board's dice does not need.
        from companion import dice_entry

        if self.entry is None:
            self.entry = dice_entry.DiceEntry()
        return dice_entry

    def _own_dice(self, own):
        if own or self.entry is not None:
            self._dice_entry()
            self.entry.own = own
            self.entry.end()

    def boot(self, frame, now):
        """First call after power-up: resume the last unfinished match from its journal, or
        open the new-match menu. Whatever the journal holds, the board starts: a torn last line
        is dropped; damage before that keeps the whole file beside the journal (m0001.jnl.damaged)
        and the match resumes after the last record that fits (recovery.recover, salvage)."""
        from companion import booting  # once per power-up: not kept beside the game's code

        booting.boot(self, frame, now, VERSION)

    def _resume(self):
        if not isinstance(self.match, Match) and _cs().resume(self):
            return
        m = self.match
        if m.phase == PLAY:
            # Mid-turn: the checkers already moved are a legal partial play; go on from there.
            self._start_turn()
            return
        if m.phase in (GAME_OVER, MATCH_OVER):
            self._enter(PHASE_OF[m.phase])
            return
        self._board("resume")

    # --- phases -----------------------------------------------------------------------------

    def _setup(self):
        if self.match is not None and self.match.phase == MATCH_OVER:
            self.let_go()
        self.phase = "setup"
        self.cursor = 0
        self.pick = None
        self.hint = ""

    def let_go(self):
        """A finished match (or a closed chouette's last game) is let go at the menu, and with it
        its variant's code: main.py drops the modules, and the tracker's turn is the last
        reference to them."""
        self.match = None
        t = self.tracker
        t.turn = None
        t.memo = []
        t.prepared = None

    def _menu_items(self):
        from companion import phase_setup

        return phase_setup.menu_items(self)

    def new_match(self, settings, force=False):
        """Start a new match (menu or the ``new`` command). Returns the error text or None."""
        from companion import phase_setup

        return phase_setup.new_match(self, settings, force)

    def _board(self, reason):
        """Wait until the board shows the position the match needs (start, or after a cut)."""
        m = self.match
        self.phase = "board"
        self.board_reason = reason
        self.tracker.begin(m.position, m.on_roll == 0, None, m.rules)
        self.board_ok = False
        self.hint = "Fix red points"
        self._hold_frame(True)

    def _after_board(self):
        m = self.match
        self._enter(PHASE_OF[m.phase])

    def _enter(self, phase):
        m = self.match
        self.phase = phase
        self.refused = None
        self.ask = None
        if phase == "moving":
            self._start_turn()
            return
        if phase == "choose":
            _pb().begin(self)
            return
        if phase in ("opening", "roll", "doubled", "resign"):
            # Nothing may move now: hold the position and show any checker out of place.
            self.tracker.begin(m.position, m.on_roll == 0, None, m.rules)
            self._hold_frame(False)
        self.hint = self._hint()

    def _hint(self):
        # What each button does now, one button per line (display.split breaks at "\n").
        m = self.match
        ph = self.phase
        if self.chouette is not None and _cs().hint(self) is not None:
            return _cs().hint(self)
        if self.gnu_side is not None:
            h = _pc().hint(self)  # the computer to act: the teacher's words, its play to make
            if h:
                return h
        if ph == "opening":
            return "ROLL: first roll"
        if ph == "choose":
            return _pb().HINT
        if ph == "roll":
            # (a variant's own words are in its modules, which a standard game never loads)
            if m.repeated:
                from companion import variant_dice

                return variant_dice.HINT
            if m.closed_out():
                return "ROLL: pass turn\n(bar is shut)"
            if m.part or m.rules.free_choice:
                h = _pb().hint(m)
                if h:
                    return h
            if self.entry and self.entry.own:
                return "ROLL: enter dice\nCUBE: double" if m.may_double() else "ROLL: enter dice"
            return "ROLL: roll dice\nCUBE: double" if m.may_double() else "ROLL: roll dice"
        if ph == "doubled":
            if m.length == 0 and m.offer + 1 <= m.beavers:
                return "ROLL: take\nhold ROLL:beaver\nhold CUBE: drop"
            return "ROLL: take\nhold CUBE: drop"
        if ph == "moving":
            if self.refused:
                return "%s ROLL:\naccept the play" % m.names[1 - m.on_roll][:10]
            if self.tracker.complete:
                return "ROLL: end turn"
            return "Move, then ROLL\nends the turn"
        if ph == "ask":
            return "ROLL: this play\nCUBE: other play"
        if ph == "resign":
            return "ROLL: accept\nCUBE: refuse"
        if ph == "gameover":
            return "ROLL: next game"
        if ph == "matchover":
            return "ROLL: new match"
        if ph == "board":
            return "Fix red points"
        return ""

    # --- inputs -----------------------------------------------------------------------------

    def on_frame(self, frame, now):
        """A classifier frame whose stable state changed (cl.state)."""
        self.now = now
        self.frame[:] = frame
        ph = self.phase
        if ph == "moving":
            self._moving_frame()
        elif ph == "ask":
            self._ask_frame()
        elif ph in ("board", "opening", "roll", "doubled", "resign", "choose"):
            self._hold_frame(ph == "board")
        self.render()

    def _hold_frame(self, advance):
        t = self.tracker
        t.update(self.frame)
        wrong = t.wrong_points()
        was = self.board_ok
        self.board_ok = not wrong
        m = self.match
        if wrong:
            self.say(t.missing_text(m.names) or "Board differs")
        if was != self.board_ok or advance:
            self.emit("board", {"ok": self.board_ok, "wrong": wrong, "msg": "" if self.board_ok else self.msg,
                                "reason": self.board_reason if self.phase == "board" else "hold"})
        if self.board_ok:
            if not was and self.msg and self.phase != "board":
                self.say("")
            if self.phase == "board":
                self.say(self.note_line or "Board ready")
                self.note_line = ""
                self._after_board()
                self.status()

    def _buzz(self):
        if self.buzzer:
            self.fx.buzz_until = self.now + BUZZ_MS
            self.fx.buzz = True

    def prepare(self):
        """One unit of the turn's preparation (companion.prepared: one rules question, cut off
        after a few ms on a Pico), for a loop step that answered nothing; False when there is
        none to do. The table is made by the turn's first idle step (the image's main.App
        imports the module at power-up, to compile its loops), so a board whose loop never
        idles, or a test without one, holds none of it. A chouette
        evening prepares nothing: its modules take the heap the table would need (the in-play
        floor, tests/test_heap_budget.py), and its lifts are answered by asking the rules. Nor
        while the board's own player thinks: its slices have the idle steps. Nor on the .mpy
        deploy (PREPARES)."""
        if not PREPARES or self.phase != "moving" or self.chouette is not None:
            return False
        pl = self.gnu_player
        if pl is not None and pl.thinking():
            return False
        from companion import prepared

        return prepared.step(self.tracker, self.match)

    def tick(self, now):
        """Time passes: the buzzer stops, asked-for points blink."""
        self.now = now
        fx = self.fx
        if fx.buzz and now - fx.buzz_until >= 0:
            fx.buzz = False
        if self.phase == "ask" and now - self.next_blink >= 0:
            self.blink = not self.blink
            self.next_blink = now + BLINK_MS
            self.render()
        if self.gnu_side is not None:
            _pc().tick(self, now)

    def on_button(self, button, kind, now):
        self.now = now
        player = 0 if button in (ROLL_W, CUBE_W) else 1
        roll = button in (ROLL_W, ROLL_B)
        try:
            self._button(player, roll, kind)
        finally:
            self.render()

    def _button(self, player, roll, kind):
        ph = self.phase
        if ph == "setup":
            from companion import phase_setup

            return phase_setup.menu(self, roll, kind)
        if self.chouette is not None and _cs().button(self, player, roll, kind, LONG):
            return
        m = self.match
        if self.gnu_side is not None and _pc().button(self, player, roll, kind, ph):
            return
        if self.pick is not None and self.pick[0] == player:
            return self._pick(roll, kind)
        if ph == "board":
            self.say(self.tracker.missing_text(m.names) or "Set up the board")
            return
        if ph == "gameover":
            if roll:
                return self._next_game()
            if kind == LONG:
                return self._setup()
            return
        if ph == "matchover":
            if roll:
                return self._setup()
            return
        if self.entry and self.entry.active and ph in ("opening", "roll"):
            return self._dice_entry().button(self, player, roll, kind)
        if not roll and kind == LONG and ph in ("opening", "roll", "moving"):
            self.pick = [player, 1]
            self.say("Resign %s?" % KIND_WORDS[1])
            self.hint = "ROLL: offer it\nCUBE: raise it\nhold CUBE: no"
            return
        if ph == "opening":
            if roll:
                return self._opening()
            self.say("Opening roll first")
            return
        if ph == "doubled":
            if player != m.to_act:
                self.say("%s to answer" % m.names[m.to_act])
                return
            if roll:
                return self._cube("beaver" if kind == LONG else "take", player)
            if kind == LONG:
                return self._cube("drop", player)
            self.say("Hold CUBE to drop")
            return
        if ph == "resign":
            if player != m.to_act:
                self.say("%s to answer" % m.names[m.to_act])
                return
            return self._resign_answer("accept" if roll else "reject", player)
        if ph == "choose":
            return _pb().button(self, player, roll, kind)
        if ph == "roll":
            if player != m.on_roll:
                self.say("%s's turn" % m.names[m.on_roll])
                return
            if roll:
                return self._roll(player)
            return self._cube("double", player)
        if ph == "moving":
            if player == m.on_roll:
                if roll:
                    return self._done()
                self.say(m.double_refusal(player) or "Double before rolling")
                return
            # The opponent accepts a refused play by rolling or doubling (seeds: irregularities).
            if self.refused is not None:
                return self._condone(player, roll)
            self.say("%s is moving" % m.names[m.on_roll])
            return
        if ph == "ask":
            if player != m.on_roll or self.ask is None:
                return
            if roll:
                return self._play_candidate(self.ask_sel)
            self.ask_sel = (self.ask_sel + 1) % len(self.ask)
            self._ask_say()
            self.status()  # a host (or a scripted player) sees which play is offered now
            return

    # --- actions: validate, journal, then show -------------------------------------------------

    def _act(self, record, fn):
        """Apply ``fn`` to the match; journal ``record``; if the flash write fails, put the match
        back as it was. True when the action is done (and may be shown as done)."""
        m = self.match
        snap = m.dumps()
        try:
            fn()
        except MatchError as exc:
            self.say(str(exc))
            return False
        try:
            self.write_record(record)
        except OSError as exc:
            self.match = Match.loads(snap)  # its reader goes at the next collection (main.ONCE_ONLY)
            if self.chouette is not None:
                self.chouette.match = self.match
            self.say("Flash write failed")
            self.error("journal write failed: %s" % exc)
            return False
        if self.gnu_side is not None:
            _pc().acted(self, record, snap)  # the person's play: kept to be taken back
        return True

    # --- serial commands (companion.commands, imported with the first line) ---------------------

    def on_line(self, line, now):
        from companion import commands

        commands.on_line(self, line, now)

    def calibrated(self, suspect, note):
        """main.py took the empty-board baseline."""
        from companion import commands

        commands.calibrated(self, suspect, note)

    # --- effects ----------------------------------------------------------------------------

    def render(self):
        leds = self._leds
        leds[:] = bytes(N_LEDS)  # (C_OFF) 32 B of garbage: no 28-step loop (0.4 ms), no constant (the heap floors)
        ph = self.phase
        m = self.match
        t = self.tracker
        if m is not None and ph not in ("setup",):
            who = m.to_act
            leds[LED_STATUS[who]] = C_HINT if (ph in ("doubled", "resign") or (ph == "moving" and t.complete)) else C_TURN
        if ph in ("board", "opening", "roll", "doubled", "resign", "choose") and not self.board_ok:
            for p in t.red:
                leds[led_index(p)] = C_ILLEGAL
        elif ph == "moving":
            if self.gnu_side is not None:
                _pc().leds(self, leds)
            for p in t.lit:
                leds[led_index(p)] = C_LEGAL
            if t.lifted >= 0:
                leds[led_index(t.lifted)] = C_LIFTED
            for p in t.hint:
                leds[led_index(p)] = C_HINT
            for p in t.red:
                leds[led_index(p)] = C_ILLEGAL
        elif ph == "ask" and self.blink:
            mw = m.on_roll == 0
            for i in self.ask_places:
                leds[led_index(led_of(mw, i, m.rules.opposite))] = C_HINT
        fx = self.fx
        changed = False
        if leds != fx.leds:
            fx.leds[:] = leds
            fx.leds_changed = changed = True
        if ph == "setup":
            screen = display.menu(self._menu_items(), self.cursor, self.msg)
        elif self.chouette is not None and ph != "board":
            screen = _cs().screen(self)
        elif ph == "board":
            r = self.board_reason
            screen = display.board("Set up: start" if r == "start" else "Set up: position" if r == "setup" else
                                   "Take back" if r == "back" else "Resume: check", self.msg,
                                   self.hint, self.note_line)
        else:
            screen = display.game(m, self.msg, self.hint)
        if screen != fx.screen:
            fx.screen = screen
            fx.screen_changed = changed = True
        if self.view_out and (changed or self.view_due):
            self.view_due = False
            self.emit("view", {"screen": screen, "leds": "".join([str(c) for c in leds])})
