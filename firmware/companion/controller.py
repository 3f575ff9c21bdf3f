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

from bgrules.match import Match, MatchError, OPENING, ROLL, DOUBLED, PLAY, RESIGN, GAME_OVER, MATCH_OVER
from bgrules.position import Position, OPP, waiting
from bgrules.rules import VARIANTS
from companion import variant_dice as VD
from companion import journal as J
from companion import display, protocol, moves
from companion.tracker import Tracker, SAME, LIFTED, HIT, ILLEGAL, led_of, own_point

VERSION = "1.0"

# Button codes and press kinds: the numbers of drivers.buttons (not imported: it needs machine).
ROLL_W = 0
CUBE_W = 1
ROLL_B = 2
CUBE_B = 3
SHORT = 1
LONG = 2

# LED colour codes; COLOUR_NAMES are the keys of drivers.leds.COLOURS.
C_OFF = 0
C_LEGAL = 1
C_LIFTED = 2
C_ILLEGAL = 3
C_TURN = 4
C_HINT = 5
COLOUR_NAMES = ("off", "legal", "lifted", "illegal", "turn", "hint")
N_LEDS = 28
LED_STATUS = (26, 27)  # white's, black's status LED

BUZZ_MS = 150
BLINK_MS = 300

LENGTHS = (0, 1, 3, 5, 7, 9, 11, 13, 15, 17, 19, 21, 25)
KIND_WORDS = ("drop", "single", "gammon", "backgammon")
PHASE_OF = {OPENING: "opening", ROLL: "roll", DOUBLED: "doubled", PLAY: "moving", RESIGN: "resign",
            GAME_OVER: "gameover", MATCH_OVER: "matchover"}


def _cs():
    # The chouette's session (and rules) are imported on first use: about 17 KB of RAM on a Pico
    # that a two-player match does not need.
    from companion import chouette_session

    return chouette_session


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


class Companion:
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
                         "chouette": 0, "cubes": "common", "roster": []}
        self.entry = None  # own dice: the values keyed in (a DiceEntry once own dice are used)
        self.cursor = 0
        self._leds = bytearray(N_LEDS)
        self.view_out = False  # a host asked for "view" events (what the OLED and LEDs show)
        self.view_due = False  # send one now, changed or not

    # --- output helpers ---------------------------------------------------------------------

    def emit(self, ev, fields=None):
        self.fx.out.append(protocol.event(ev, fields or {}))

    def error(self, text, line=None):
        f = {"error": text}
        if line is not None:
            f["line"] = line[:60]
        self.emit("error", f)

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
        return {"match": m.match_id(), "pos": m.position_id(), "names": list(m.names), "score": list(m.score),
                "length": m.length, "cube": m.cube, "owner": m.cube_owner, "crawford": m.crawford_game,
                "on_roll": m.on_roll, "to_act": m.to_act, "dice": [d[0], d[1]] if d[0] else [],
                "phase": self.phase, "pips": [pw, pb], "msg": self.msg, "game": m.game,
                "journal": self.store.path(self.name) if self.name else None}

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
        and the match resumes after the last record that fits (journal.recover, salvage)."""
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
        self.phase = "setup"
        self.cursor = 0
        self.pick = None
        self.hint = ""

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
        if phase in ("opening", "roll", "doubled", "resign"):
            # Nothing may move now: hold the position and show any checker out of place.
            self.tracker.begin(m.position, m.on_roll == 0, None, m.rules)
            self._hold_frame(False)
        self.hint = self._hint()

    def _start_turn(self):
        m = self.match
        self.phase = "moving"
        self.refused = None
        self.ask = None
        turn = m.turn
        self.tracker.begin(turn.start, m.on_roll == 0, turn)
        if turn.dice_to_play == 0:
            self.say("No legal move")
        self._moving_frame()
        self.hint = self._hint()

    def _hint(self):
        # What each button does now, one button per line (display.split breaks at "\n").
        m = self.match
        ph = self.phase
        if self.chouette is not None and _cs().hint(self) is not None:
            return _cs().hint(self)
        if ph == "opening":
            return "ROLL: first roll"
        if ph == "roll":
            if m.closed_out():
                return "ROLL: pass turn\n(bar is shut)"
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
        elif ph in ("board", "opening", "roll", "doubled", "resign"):
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

    def _moving_frame(self):
        t = self.tracker
        v = t.update(self.frame)
        if v == SAME:
            return
        self.refused = None
        m = self.match
        p = m.on_roll
        if v == ILLEGAL:
            point = t.red[0] if t.red else None
            own = None
            if point is not None:
                own = own_point(p == 0, point, m.rules.opposite)
            self.say(t.reason)
            self.emit("illegal", {"p": p, "at": "place", "point": own, "board_point": point, "reason": t.reason})
            self.illegal_out = True
            self._buzz()
        else:
            if self.illegal_out:
                self.emit("ok", {"p": p})
                self.illegal_out = False
            if v == HIT:
                self.say(t.reason)
            elif v == LIFTED and t.bear_off:
                self.say("May bear off")
            elif m.turn.dice_to_play == 0:
                self.say("No legal move")
            else:
                self.say("")
        self.hint = self._hint()

    def _buzz(self):
        if self.buzzer:
            self.fx.buzz_until = self.now + BUZZ_MS
            self.fx.buzz = True

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
            return self._menu(roll, kind)
        if self.chouette is not None and _cs().button(self, player, roll, kind, LONG):
            return
        m = self.match
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

    # --- the new-match menu -----------------------------------------------------------------

    def _menu_items(self):
        s = self.settings
        items = [("Length", "money" if not s["length"] else str(s["length"])), ("Game", s["rules"])]
        if s["length"]:
            items.append(("Crawford", "on" if s["crawford"] else "off"))
            items.append(("Holland", "on" if s["holland"] else "off"))
        else:
            items.append(("Auto double", str(s["auto"])))
            items.append(("Beavers", ("off", "beaver", "raccoon", "otter")[s["beavers"]]))
            items.append(("Jacoby", "on" if s["jacoby"] else "off"))
        items.append(("Own dice", "on" if s["own_dice"] else "off"))
        if not s["length"]:
            items.append(("Chouette", str(s["chouette"]) if s["chouette"] else "off"))
            if s["chouette"]:
                items.append(("Cubes", s["cubes"]))
        items.append(("Start", ""))
        return items

    def _menu(self, roll, kind):
        items = self._menu_items()
        if self.cursor >= len(items):
            self.cursor = 0
        label = items[self.cursor][0]
        if roll and (kind == LONG or label == "Start"):
            if self.settings["chouette"] and not self.settings["length"]:
                return _cs().start(self, _cs().roster(self.settings), self.settings["cubes"], force=True)
            return self.new_match(dict(self.settings), True)
        if not roll:
            self.cursor = (self.cursor + (1 if kind == SHORT else -1)) % len(items)
            self.say("")
            return
        s = self.settings
        if label == "Length":
            i = LENGTHS.index(s["length"]) if s["length"] in LENGTHS else 0
            s["length"] = LENGTHS[(i + 1) % len(LENGTHS)]
        elif label == "Crawford":
            s["crawford"] = not s["crawford"]
            if not s["crawford"]:
                s["holland"] = False
        elif label == "Holland":
            s["holland"] = not s["holland"]
            if s["holland"]:
                s["crawford"] = True
        elif label == "Auto double":
            s["auto"] = (s["auto"] + 1) % 4
        elif label == "Beavers":
            s["beavers"] = (s["beavers"] + 1) % 4
        elif label == "Jacoby":
            s["jacoby"] = not s["jacoby"]
        elif label == "Game":  # the variant (docs/variants.md)
            s["rules"] = VARIANTS[(VARIANTS.index(s["rules"]) + 1) % len(VARIANTS)]
        elif label == "Own dice":
            s["own_dice"] = not s["own_dice"]
        elif label == "Chouette":
            s["chouette"] = 0 if s["chouette"] >= _cs().MENU_MAX else max(3, s["chouette"] + 1)
        elif label == "Cubes":
            s["cubes"] = "several" if s["cubes"] == "common" else "common"

    def new_match(self, settings, force=False):
        """Start a new match (menu or the ``new`` command). Returns the error text or None."""
        if self.match is not None and not force and self.match.phase != MATCH_OVER and self.phase != "setup":
            return "a match is in progress: new force=1"
        s = self.settings.copy()
        for k in settings:
            if k in s:
                s[k] = settings[k]
        length = s["length"]
        rec = J.settings_record(length, s["crawford"] if length else False, s["holland"] if length else False,
                                s["auto"] if not length else 0, s["beavers"] if not length else 0,
                                s["jacoby"] if not length else False, s["names"], settings.get("variant") or settings.get("rules", "standard"))
        if s["own_dice"]:
            rec["dice"] = "own"  # the players roll their own dice and key them in
        try:
            match = J.new_match(rec)
        except (MatchError, J.JournalError) as exc:
            self.say(str(exc))
            return str(exc)
        name = self.store.next_name()
        for gone in self.store.cleanup(current=name):
            self.emit("note", {"text": "flash low: removed exported log %s" % gone})
        j = J.Journal(self.store.path(name))
        try:
            j.append(rec)
        except OSError as exc:
            self.say("Flash write failed")
            return "journal write failed: %s" % exc
        self.settings = s
        self._own_dice(s["own_dice"])
        self.match = match
        self.chouette = None
        self.journal = j
        self.name = name
        self.pick = None
        self.emit("new", {"journal": self.store.path(name), "settings": rec})
        free = self.store.free()
        self.say("Flash low: pull logs" if 0 <= free < 16 * 1024 else "New match")
        self._board("start")
        self.status()
        return None

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
            self.journal.append(record)
        except OSError as exc:
            self.match = Match.loads(snap)
            if self.chouette is not None:
                self.chouette.match = self.match
            self.say("Flash write failed")
            self.error("journal write failed: %s" % exc)
            return False
        return True

    def _opening(self, entered=None):
        m = self.match
        if not self.board_ok:
            self.say("Fix the board first")
            return
        # Own dice are keyed in, except where the variant fixes the dice in advance (Open roll).
        if entered is None and self.entry and self.entry.own and not m.rules.open_roll:
            return self._dice_entry().begin(self, -1)
        if entered:
            d0, d1 = entered
            nxt = None
        else:
            d0, d1, nxt = VD.opening(m, self.dice)
        result = []
        rec = VD.record({"a": "open", "dice": [d0, d1]}, nxt)
        if entered:
            rec["entered"] = True
        if not self._act(rec, lambda: result.append(m.opening_roll(d0, d1, nxt))):
            return
        m = self.match
        started = result[0]
        ev = {"p": m.on_roll if started else -1, "opening": True, "dice": [d0, d1], "tie": not started, "cube": m.cube}
        if entered:
            ev["entered"] = True
        self.emit("roll", ev)
        if not started:
            self.say("Tie %d-%d: again%s" % (d0, d1, " x%d" % m.cube if m.cube > 1 else ""))
            self.status()
            return
        self.say(VD.say_next(m) or "%s starts %d-%d" % (m.names[m.on_roll], m.dice[0], m.dice[1]))
        self._start_turn()
        self.status()

    def _roll(self, player, entered=None):
        m = self.match
        if not self.board_ok:
            self.say("Fix the board first")
            return
        if m.closed_out():
            if self._act({"a": "pass", "p": player}, lambda: m.pass_turn(player)):
                self.emit("pass", {"p": player})
                self.say("Closed out: pass")
                self._enter("roll")
                self.status()
            return
        # Own dice are keyed in, except where the variant fixes the dice (Fixed roll, Open roll).
        if entered is None and self.entry and self.entry.own and not m.rules.open_roll and not m.preset_dice():
            return self._dice_entry().begin(self, player)
        if entered:
            d1, d2 = entered
            nxt = None
        else:
            d1, d2, nxt = VD.roll(m, self.dice)
        rec = VD.record({"a": "roll", "p": player, "dice": [d1, d2]}, nxt)
        if entered:
            rec["entered"] = True
        if not self._act(rec, lambda: m.roll(d1, d2, player, nxt)):
            return
        ev = VD.record({"p": player, "dice": [d1, d2]}, nxt)
        if entered:
            ev["entered"] = True
        self.emit("roll", ev)
        self.say(VD.say_next(m))
        self._start_turn()
        self.status()

    def _cube(self, action, player):
        m = self.match
        if action == "double" and not self.board_ok:
            self.say("Fix the board first")
            return
        if not self._act({"a": action, "p": player}, lambda: getattr(m, action)(player)):
            return
        m = self.match
        if action == "double":
            value = m.cube * 2
            self.say("%s doubles to %d" % (m.names[player], value))
        elif action == "beaver":
            value = m.cube * 2
            self.say("%s: %s!" % (m.names[player], ("beaver", "raccoon", "otter")[m.offer - 1]))
        elif action == "take":
            value = m.cube
            self.say("%s takes %d" % (m.names[player], value))
        else:
            value = m.result[1]
            self.say("%s drops" % m.names[player])
        self.emit("cube", {"p": player, "action": action, "cube": value})
        if action == "drop":
            self._game_end()
        else:
            self._enter(PHASE_OF[m.phase])
        self.status()

    def _pick(self, roll, kind):
        player, k = self.pick
        if not roll:
            if kind == LONG:
                self.pick = None
                self.say("")
                self.hint = self._hint()
                return
            self.pick[1] = k % 3 + 1
            self.say("Resign %s?" % KIND_WORDS[self.pick[1]])
            return
        self.pick = None
        m = self.match
        if not self._act({"a": "resign", "p": player, "kind": k}, lambda: m.resign(k, player)):
            self.hint = self._hint()
            return
        self.emit("resign", {"p": player, "action": "offer", "kind": k})
        self.say("%s resigns %s" % (self.match.names[player], KIND_WORDS[k]))
        self.phase = "resign"
        self.hint = self._hint()
        self.status()

    def _resign_answer(self, action, player):
        m = self.match
        kind = m.resign_offer
        if not self._act({"a": action, "p": player}, lambda: getattr(m, action)(player)):
            return
        self.emit("resign", {"p": player, "action": action, "kind": kind})
        m = self.match
        if action == "accept":
            self._game_end()
        else:
            self.say("Resign rejected")
            if m.phase == PLAY and self.tracker.turn is m.turn:
                # back to the turn in progress, as the tracker left it
                self.phase = "moving"
                self._moving_frame()
                self.hint = self._hint()
            else:
                self._enter(PHASE_OF[m.phase])
        self.status()

    def _done(self):
        m = self.match
        t = self.tracker
        found, reason = t.final()
        if len(found) == 1:
            return self._play(found[0], False)
        if found:
            return self._ask_start(found)
        p = m.on_roll
        self.refused = (reason, bytes(t.work))
        point = t.red[0] if t.red else None
        self.say(reason)
        self.emit("illegal", {"p": p, "at": "done", "point": None if point is None else own_point(p == 0, point, m.rules.opposite),
                              "board_point": point, "reason": reason})
        self.illegal_out = True
        self._buzz()
        self.hint = self._hint()

    def _condone(self, player, roll):
        m = self.match
        reason, cells = self.refused
        final = Position(cells)
        r = m.rules
        why = final.problem(m.names, r.opposite, r.checkers, r.waiting)
        if why:
            self.say(why)
            return
        if not self._play(cells, True):
            return
        # the same press goes on as the opponent's roll or double
        if self.phase == "roll":
            if roll:
                self._roll(player)
            else:
                self._cube("double", player)

    def _play(self, cells, condone):
        m = self.match
        turn = m.turn
        p = m.on_roll
        final = Position(cells)
        move = moves.notation(turn, final.cells) if final != turn.start else ""
        rec = {"a": "play", "p": p, "move": move, "pos": final.id()}
        if m.rules.waiting:  # the Position ID counts checkers waiting off the board as off
            rec["w"] = [waiting(final.cells), waiting(final.cells, OPP)]
        if condone:
            rec["condoned"] = True
        if not self._act(rec, lambda: m.play(final, condone, p)):
            return False
        self.refused = None
        self.ask = None
        if self.illegal_out:
            self.emit("ok", {"p": p})
            self.illegal_out = False
        self.emit("play", {"p": p, "move": move, "pos": rec["pos"], "condoned": condone})
        m = self.match
        self.say(("Accepted: " if condone else "") + (move or "No move"))
        if m.phase in (GAME_OVER, MATCH_OVER):
            self._game_end()
        else:
            self._enter("roll")
        self.status()
        return True

    def _game_end(self):
        if self.chouette is not None:
            return _cs().game_end(self)
        m = self.match
        winner, points, kind, how = m.result
        crawford_next = bool(m.length and m.crawford_rule and not m.post_crawford and not m.crawford_game
                             and m.length - 1 in m.score and m.phase != MATCH_OVER)
        rec = {"a": "end", "winner": winner, "points": points, "kind": kind, "how": how, "score": list(m.score)}
        try:
            self.journal.append(rec)  # informational: the result follows from the actions
        except OSError as exc:
            self.error("journal write failed: %s" % exc)
        self.emit("game_end", {"winner": winner, "points": points, "kind": KIND_WORDS[kind] if how != "drop" else "drop",
                               "how": how, "score": list(m.score), "crawford_next": crawford_next})
        self.say("%s wins %d" % (m.names[winner], points))
        if m.phase == MATCH_OVER:
            self.emit("match_end", {"winner": m.winner, "score": list(m.score), "names": list(m.names)})
            self.say("%s wins match" % m.names[m.winner])
        self.phase = PHASE_OF[m.phase]
        self.hint = self._hint()

    def _next_game(self):
        m = self.match
        if not self._act({"a": "next"}, m.next_game):
            return
        self.say("Game %d%s" % (self.match.game, " Crawford" if self.match.crawford_game else ""))
        self._board("start")
        self.status()

    # --- which of two plays? ----------------------------------------------------------------

    def _ask_start(self, found):
        self.ask = [bytes(f) for f in found]
        t = self.tracker
        places = []
        for i in range(1, 26):
            first = self.ask[0][i]
            for c in self.ask:
                if c[i] != first:
                    places.append(i)
                    break
        self.ask_places = places
        self.ask_lo = bytes(t.lo)
        self.ask_sel = 0
        self.ask_chosen = -1
        self.phase = "ask"
        mw = self.match.on_roll == 0
        self.emit("ask", {"p": self.match.on_roll, "points": [led_of(mw, i, self.match.rules.opposite) for i in places]})
        self._ask_say()
        self.hint = self._hint()
        self.status()  # the phase is now "ask": a host watching the board must know

    def _ask_say(self):
        m = self.match
        c = self.ask[self.ask_sel]
        move = moves.notation(m.turn, c)
        self.say("Which play?\n" + move)

    def _ask_frame(self):
        t = self.tracker
        t.read(self.frame)
        lo = t.lo
        for i in range(52):
            if lo[i] != self.ask_lo[i] and i not in self.ask_places:
                # other checkers moved: back to the turn, judged afresh
                self.ask = None
                self.phase = "moving"
                self.tracker.prev[0] = 255  # force a fresh verdict
                self._moving_frame()
                self.status()
                return
        if self.ask_chosen >= 0:
            i = self.ask_places[0] if len(self.ask_places) == 1 else self._chosen_place
            if lo[i] == self.ask_lo[i]:
                return self._play_candidate(self.ask_chosen)
            return
        for i in self.ask_places:
            cap = 4 if i == 25 else 5
            if lo[i] >= self.ask_lo[i]:
                continue
            keep = []
            for k in range(len(self.ask)):
                n = self.ask[k][i]
                if min(n, cap) > lo[i] and min(n - 1, cap) == lo[i]:
                    keep.append(k)
            if len(keep) == 1:
                self.ask_chosen = keep[0]
                self._chosen_place = i
                self.say("Now put it back")

    def _play_candidate(self, k):
        cells = self.ask[k]
        self.ask = None
        self.phase = "moving"
        self._play(bytearray(cells), False)

    # --- serial commands --------------------------------------------------------------------

    def on_line(self, line, now):
        self.now = now
        try:
            cmd, args = protocol.parse(line)
        except protocol.ProtocolError as exc:
            self.error(str(exc), line)
            return
        try:
            self._command(cmd, args, line)
        finally:
            self.render()

    def _command(self, cmd, args, line):
        if cmd == "status":
            self.status()
        elif cmd == "new":
            force = args.pop("force", False)
            err = self.new_match(args, force)
            if err:
                self.error(err, line)
        elif cmd == "options":
            cur = None
            if self.match is not None:
                m = self.match
                cur = {"length": m.length, "crawford": m.crawford_rule, "holland": m.holland, "auto": m.auto_doubles,
                       "beavers": m.beavers, "jacoby": m.jacoby, "names": list(m.names)}
            self.emit("options", {"current": cur, "choices": {
                "length": "0 (money) or 1-64", "crawford": [True, False], "holland": [True, False],
                "auto": "0-15 (money)", "beavers": "0-3 (money)", "jacoby": [True, False],
                "names": "two names, 1-20 characters", "rules": list(VARIANTS)}})
        elif cmd == "logs":
            self.emit("logs", {"files": self.store.listing(self.name), "free": self.store.free()})
        elif cmd == "delete":
            try:
                self.store.delete(args["name"], self.name)
            except (ValueError, OSError) as exc:
                self.error(str(exc), line)
                return
            self.emit("deleted", {"name": args["name"]})
        elif cmd in protocol.CHOUETTE_COMMANDS:
            _cs().command(self, cmd, args, line)
        elif cmd == "calibrate":
            if self.phase not in ("setup", "gameover", "matchover"):
                self.error("calibrate needs an empty board: finish or leave the game first", line)
                return
            self.fx.calibrate = True
        elif cmd == "dice":
            err = self._dice_entry().command(self, args["dice"])
            if err:
                self.error(err, line)
        elif cmd == "view":
            self.view_out = self.view_due = args["on"]

    def calibrated(self, suspect, note):
        """main.py took the empty-board baseline."""
        self.emit("calibrated", {"suspect": list(suspect), "note": note})
        self.say("Calibrated" if not suspect else "%d cells suspect" % len(suspect))
        self.render()

    # --- effects ----------------------------------------------------------------------------

    def render(self):
        leds = self._leds
        for i in range(N_LEDS):
            leds[i] = C_OFF
        ph = self.phase
        m = self.match
        t = self.tracker
        if m is not None and ph not in ("setup",):
            who = m.to_act
            leds[LED_STATUS[who]] = C_HINT if (ph in ("doubled", "resign") or (ph == "moving" and t.complete)) else C_TURN
        if ph in ("board", "opening", "roll", "doubled", "resign") and not self.board_ok:
            for p in t.red:
                leds[led_index(p)] = C_ILLEGAL
        elif ph == "moving":
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
            screen = display.board("Set up: start" if self.board_reason == "start" else "Resume: check", self.msg,
                                   self.hint, self.note_line)
        else:
            screen = display.game(m, self.msg, self.hint)
        if screen != fx.screen:
            fx.screen = screen
            fx.screen_changed = changed = True
        if self.view_out and (changed or self.view_due):
            self.view_due = False
            self.emit("view", {"screen": screen, "leds": "".join([str(c) for c in leds])})
