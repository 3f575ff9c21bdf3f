"""Scenario scripts: physical actions on the virtual board and what a player should then see.

One action or expectation per line; docs/sim.md is the user's description. ``parse(text)`` gives
the steps (ScenarioSyntaxError names the line of a bad one); ``run(steps, sim)`` plays them on a
``bgc.board.sim.Sim`` and raises ExpectationFailed at the first unmet expectation.

    setup start                 dice 6 4                    press white roll
    lift 24                     hover 20 15                 place 18
    expect led 18 LEGAL         expect oled "6-4"           expect journal play 24/18 13/9
    expect event illegal reason="Point 7 is blocked"        powercut
"""

import json
import shlex

from . import sim as simmod

DEFAULT_TIMEOUT_MS = 2000
COLOURS = ("LEGAL", "LIFTED", "ILLEGAL", "TURN", "HINT", "WHITE", "OFF")
BUTTON = {("white", "roll"): "ROLL_W", ("white", "done"): "ROLL_W", ("white", "cube"): "CUBE_W",
          ("black", "roll"): "ROLL_B", ("black", "done"): "ROLL_B", ("black", "cube"): "CUBE_B"}
LONG_MS = 1000
SHORT_MS = 120


class ScenarioSyntaxError(ValueError):
    def __init__(self, line, message, source="script"):
        ValueError.__init__(self, "%s:%d: %s" % (source, line, message))
        self.line = line
        self.reason = message


class ExpectationFailed(AssertionError):
    def __init__(self, step, detail, source="script"):
        AssertionError.__init__(self, "%s:%d: expectation not met: %s\n  %s" % (source, step.line, step.text, detail))
        self.step = step
        self.detail = detail


class Step:
    def __init__(self, line, text, op, args):
        self.line = line
        self.text = text
        self.op = op
        self.args = args

    def __repr__(self):
        return "Step(%d, %r)" % (self.line, self.text)


# ------------------------------------------------------------------ parsing
class BlackPoint(int):
    """A point given in black's own numbering (``b5``). Its value is the standard game's board
    point (25 - 5); the runner puts it where the variant being played has it (``Rules.opposite``:
    in Long Puff, Straight and the other same-way games black's 5 is not the board's 20)."""

    def __new__(cls, own):
        p = int.__new__(cls, 25 - own)
        p.own = own
        return p


def _on_board(args, opposite):
    """``args`` with each BlackPoint put on the board of the variant (see BlackPoint)."""
    if isinstance(args, BlackPoint):
        return opposite[args.own]
    if isinstance(args, (tuple, list)):
        out = [_on_board(a, opposite) for a in args]
        return sorted(out) if isinstance(args, list) and all(isinstance(a, int) for a in out) else (
            out if isinstance(args, list) else tuple(out))
    return args


def _point(tok, line, allow=()):
    """A board point: 1..24 in white's numbering (the board's), b1..b24 in black's own
    numbering, or one of ``allow`` ('bar', 'off')."""
    t = tok.lower()
    if t in allow:
        return t
    black = t.startswith("b") and t[1:].isdigit()
    digits = t[1:] if black else t
    if not digits.isdigit() or not 1 <= int(digits) <= 24:
        raise ScenarioSyntaxError(line, "%r is not a point (1..24, b1..b24 in black's numbering%s)" % (
            tok, "".join(", " + a for a in allow)))
    p = int(digits)
    return BlackPoint(p) if black else p


def _int(tok, line, what, lo=0, hi=None):
    try:
        v = int(tok)
    except ValueError:
        raise ScenarioSyntaxError(line, "%s must be a whole number, not %r" % (what, tok))
    if v < lo or (hi is not None and v > hi):
        raise ScenarioSyntaxError(line, "%s must be %d..%s, not %d" % (what, lo, hi if hi is not None else "", v))
    return v


def _fields(tokens, line):
    out = []
    for t in tokens:
        if "=" not in t:
            raise ScenarioSyntaxError(line, "expected key=value, got %r" % t)
        k, v = t.split("=", 1)
        out.append((k, v))
    return out


def _colour(tok, line):
    c = tok.upper()
    if c not in COLOURS:
        raise ScenarioSyntaxError(line, "LED colour %r is not one of %s" % (tok, ", ".join(COLOURS)))
    return c


def _led_target(tok, line):
    t = tok.lower()
    if t in ("status-white", "status-black", "bar-white", "bar-black"):
        return t
    return _point(tok, line)


def _side(tok, line):
    t = tok.lower()
    if t not in ("white", "black"):
        raise ScenarioSyntaxError(line, "expected white or black, got %r" % tok)
    return simmod.WHITE if t == "white" else simmod.BLACK


def parse_line(text, line):
    """One Step (or None for a blank/comment line)."""
    stripped = text.strip()
    if not stripped or stripped.startswith("#"):
        return None
    try:
        tok = shlex.split(stripped, comments=True)
    except ValueError as exc:
        raise ScenarioSyntaxError(line, "cannot read the line: %s" % exc)
    if not tok:
        return None
    op = tok[0].lower()
    a = tok[1:]

    def need(n, usage):
        if len(a) < n[0] or len(a) > n[1]:
            raise ScenarioSyntaxError(line, "usage: %s" % usage)

    if op == "setup":
        need((1, 2), "setup start | setup empty | setup POSITION_ID [white|black]")
        what = a[0]
        if what in ("start", "empty"):
            if len(a) > 1:
                raise ScenarioSyntaxError(line, "usage: setup start | setup empty")
            return Step(line, stripped, op, (what, None))
        from bgrules import Position, PositionError

        try:
            pos = Position.from_id(what)
        except PositionError as exc:
            raise ScenarioSyntaxError(line, "setup: %s" % exc)
        side = _side(a[1], line) if len(a) > 1 else simmod.WHITE
        return Step(line, stripped, op, (pos, side))
    if op == "resume":
        need((2, 4), "resume POSITION_ID white|black [length N]")
        from bgrules import Position, PositionError

        try:
            pos = Position.from_id(a[0])
        except PositionError as exc:
            raise ScenarioSyntaxError(line, "resume: %s" % exc)
        side = _side(a[1], line)
        length = 1
        if len(a) > 2:
            if len(a) != 4 or a[2].lower() != "length":
                raise ScenarioSyntaxError(line, "usage: resume POSITION_ID white|black [length N]")
            length = _int(a[3], line, "the match length", 0, 64)
        return Step(line, stripped, op, (pos, 0 if side == simmod.WHITE else 1, length))
    if op == "dice":
        need((2, 2), "dice D1 D2")
        return Step(line, stripped, op, (_int(a[0], line, "a die", 1, 6), _int(a[1], line, "a die", 1, 6)))
    if op == "press":
        need((2, 3), "press white|black roll|done|cube [long]")
        key = (a[0].lower(), a[1].lower())
        if key not in BUTTON:
            raise ScenarioSyntaxError(line, "no button %r (white/black roll, done or cube)" % " ".join(a[:2]))
        hold = SHORT_MS
        if len(a) == 3:
            if a[2].lower() != "long":
                raise ScenarioSyntaxError(line, "press ... long, not %r" % a[2])
            hold = LONG_MS
        return Step(line, stripped, op, (BUTTON[key], hold))
    if op == "lift":
        need((1, 2), "lift POINT|bar [white|black]")
        p = _point(a[0], line, ("bar",))
        side = _side(a[1], line) if len(a) > 1 else None
        if p == "bar" and side is None:
            raise ScenarioSyntaxError(line, "lift bar needs the colour: lift bar white|black")
        return Step(line, stripped, op, (p, side))
    if op == "add":
        need((2, 2), "add POINT|bar white|black")
        return Step(line, stripped, op, (_point(a[0], line, ("bar",)), _side(a[1], line)))
    if op == "place":
        need((1, 1), "place POINT|bar|off")
        return Step(line, stripped, op, (_point(a[0], line, ("bar", "off")),))
    if op == "hover":
        need((1, 2), "hover POINT [HEIGHT_MM]")
        return Step(line, stripped, op, (_point(a[0], line), _int(a[1], line, "the height in mm", 1, 200) if len(a) > 1 else 20))
    if op == "slide":
        need((2, 2), "slide FROM TO")
        return Step(line, stripped, op, (_point(a[0], line), _point(a[1], line)))
    if op == "move":
        need((2, 2), "move FROM|bar TO|bar|off")
        return Step(line, stripped, op, (_point(a[0], line, ("bar",)), _point(a[1], line, ("bar", "off"))))
    if op == "wait":
        need((1, 1), "wait MS")
        return Step(line, stripped, op, (_int(a[0], line, "the time in ms", 0),))
    if op == "powercut":
        if not a:
            return Step(line, stripped, op, (None,))
        if len(a) == 2 and a[0].lower() == "write":
            return Step(line, stripped, op, (_int(a[1], line, "the byte count", 0),))
        raise ScenarioSyntaxError(line, "usage: powercut | powercut write BYTES")
    if op == "send":
        if not a:
            raise ScenarioSyntaxError(line, "usage: send JSON")
        body = text.strip()[len(tok[0]):].strip()
        if body.startswith("{"):
            try:
                json.loads(body)
            except ValueError:
                raise ScenarioSyntaxError(line, "send: not a JSON line: %s" % body)
        if len(body.encode()) > 255:
            raise ScenarioSyntaxError(line, "send: the firmware refuses lines over 255 bytes")
        return Step(line, stripped, op, (body,))
    if op == "timeout":
        need((1, 1), "timeout MS")
        return Step(line, stripped, op, (_int(a[0], line, "the timeout in ms", 0),))
    if op == "show":
        need((0, 0), "show")
        return Step(line, stripped, op, ())
    if op == "expect":
        return _parse_expect(stripped, line, a)
    raise ScenarioSyntaxError(line, "unknown action %r (setup, resume, dice, press, lift, place, add, hover, slide, move, "
                                    "wait, powercut, send, timeout, show, expect)" % tok[0])


def _parse_expect(text, line, a):
    if not a:
        raise ScenarioSyntaxError(line, "usage: expect led|lit|oled|journal|event|status ...")
    negate = False
    if a[0].lower() == "no":
        negate = True
        a = a[1:]
        if not a:
            raise ScenarioSyntaxError(line, "usage: expect no oled|event|journal ...")
    what = a[0].lower()
    rest = a[1:]
    if what == "led":
        if negate or len(rest) != 2:
            raise ScenarioSyntaxError(line, "usage: expect led POINT|status-white|status-black|bar-white|bar-black COLOUR")
        return Step(line, text, "expect_led", (_led_target(rest[0], line), _colour(rest[1], line)))
    if what == "lit":
        if negate or not rest:
            raise ScenarioSyntaxError(line, "usage: expect lit COLOUR [POINT ...]  (exactly those points show it)")
        pts = sorted(_point(t, line) for t in rest[1:]) if rest[1:] != ["none"] else []
        return Step(line, text, "expect_lit", (_colour(rest[0], line), pts))
    if what == "oled":
        if len(rest) != 1:
            raise ScenarioSyntaxError(line, 'usage: expect [no] oled "TEXT"')
        return Step(line, text, "expect_oled", (rest[0], negate))
    if what == "journal":
        if not rest:
            raise ScenarioSyntaxError(line, "usage: expect [no] journal ACTION [TEXT] [key=value ...]")
        action = rest[0]
        words = [t for t in rest[1:] if "=" not in t]
        fields = _fields([t for t in rest[1:] if "=" in t], line)
        return Step(line, text, "expect_journal", (action, " ".join(words) if words else None, fields, negate))
    if what == "event":
        if not rest:
            raise ScenarioSyntaxError(line, "usage: expect [no] event EV [key=value ...]")
        return Step(line, text, "expect_event", (rest[0], _fields(rest[1:], line), negate))
    if what == "status":
        if negate or not rest:
            raise ScenarioSyntaxError(line, "usage: expect status key=value ...")
        return Step(line, text, "expect_status", (_fields(rest, line),))
    raise ScenarioSyntaxError(line, "expect what? %r (led, lit, oled, journal, event, status)" % a[0])


def parse(text, source="script"):
    steps = []
    for i, raw in enumerate(text.split("\n")):
        try:
            st = parse_line(raw, i + 1)
        except ScenarioSyntaxError as exc:
            raise ScenarioSyntaxError(exc.line, exc.reason, source)
        if st is not None:
            steps.append(st)
    return steps


# ------------------------------------------------------------------ matching
def _value_matches(actual, want):
    if isinstance(actual, str):
        return actual == want
    try:
        return json.loads(want) == actual
    except ValueError:
        return str(actual) == want


def _fields_match(record, fields):
    for k, v in fields:
        if k not in record or not _value_matches(record[k], v):
            return False
    return True


def _main_text(record):
    """What the words after a journal action are compared with."""
    a = record.get("a")
    if a == "play":
        return record.get("move", "")
    if a in ("roll", "open"):
        d = record.get("dice") or []
        return " ".join(str(x) for x in d)
    if a == "resign":
        return str(record.get("kind"))
    if a == "note":
        return record.get("text", "")
    return None


def _describe_led(board, target):
    return simmod.LED_WORDS.get(_led_of(board, target), _led_of(board, target))


def _led_of(board, target):
    if target == "status-white":
        return simmod.led_name(board.leds[simmod.LED_STATUS_WHITE])
    if target == "status-black":
        return simmod.led_name(board.leds[simmod.LED_STATUS_BLACK])
    if target == "bar-white":
        return simmod.point_led(board, 25)
    if target == "bar-black":
        return simmod.point_led(board, 0)
    return simmod.point_led(board, target)


# ------------------------------------------------------------------ running
class Runner:
    """Plays steps on a Sim; keeps the cursors of ``expect event`` and ``expect journal``."""

    def __init__(self, sim, out=None, source="script", verbose=False):
        self.sim = sim
        self.out = out
        self.source = source
        self.verbose = verbose
        self.timeout = DEFAULT_TIMEOUT_MS
        self.event_cursor = 0
        self.journal_cursor = 0

    def say(self, text):
        if self.out is not None:
            self.out.write(text + "\n")

    def run(self, steps):
        for st in steps:
            if self.verbose:
                self.say("%s:%d: %s" % (self.source, st.line, st.text))
            rules = getattr(self.sim, "rules", None)
            if rules is not None:
                st = Step(st.line, st.text, st.op, _on_board(st.args, rules.opposite))
            try:
                getattr(self, "do_" + st.op)(st)
            except simmod.SimError as exc:
                raise ExpectationFailed(st, "cannot do it: %s" % exc, self.source)
        return True

    def fail(self, st, detail):
        raise ExpectationFailed(st, detail, self.source)

    # --- actions
    def do_setup(self, st):
        what, side = st.args
        if what == "start":
            self.sim.setup_start()
        elif what == "empty":
            self.sim.board.clear()
        else:
            self.sim.setup_position(what, side)

    def do_resume(self, st):
        pos, on_roll, length = st.args
        try:
            self.sim.resume_at(pos, on_roll, length)
        except Exception as exc:  # JournalError / SimError: the position cannot be resumed
            self.fail(st, "cannot put that match on the flash: %s" % exc)
        if self.sim.app is not None:
            self.sim.powercut(off_ms=100)  # the firmware reads the flash at boot

    def do_dice(self, st):
        self.sim.dice.force(*st.args)

    def do_press(self, st):
        self.sim.press(st.args[0], hold_ms=st.args[1])

    def do_lift(self, st):
        point, side = st.args
        if point == "bar":
            point = 25 if side == simmod.WHITE else 0
        self.sim.lift(point, side)
        self.sim.run_ms(100)

    def do_add(self, st):
        point, colour = st.args
        if point == "bar":
            point = 25 if colour == simmod.WHITE else 0
        self.sim.board.place(self.sim.free_cell(point, colour), colour)
        self.sim.run_ms(100)

    def do_place(self, st):
        self.sim.place(st.args[0])
        self.sim.run_ms(100)

    def do_hover(self, st):
        self.sim.hover(st.args[0], float(st.args[1]))
        self.sim.run_ms(50)

    def do_slide(self, st):
        a, b = st.args
        step = 1 if b > a else -1
        for p in range(a, b + step, step):
            self.sim.hover(p, 30.0)
            self.sim.run_ms(30)

    def do_move(self, st):
        a, b = st.args
        board = self.sim.board
        if a == "bar":
            # whichever colour has a checker on the bar and is on roll; prefer the status
            st_ev = self.sim.status()
            colour = None
            if st_ev is not None and "on_roll" in st_ev:
                colour = simmod.WHITE if st_ev["on_roll"] == 0 else simmod.BLACK
            if colour is None or simmod.bar_count(board, colour) == 0:
                colour = simmod.WHITE if simmod.bar_count(board, simmod.WHITE) else simmod.BLACK
            src = 25 if colour == simmod.WHITE else 0
        else:
            src = a
        self.sim.lift(src)
        self.sim.run_ms(80)
        if a != "bar" and b not in ("bar", "off"):
            step = 1 if b > a else -1
            for p in range(a + step, b, step):
                self.sim.hover(p, 30.0)
                self.sim.run_ms(30)
        self.sim.place(b)
        self.sim.run_ms(150)

    def do_wait(self, st):
        self.sim.run_ms(st.args[0])

    def do_powercut(self, st):
        if st.args[0] is None:
            self.sim.powercut()
        else:
            self.sim.arm_powercut(st.args[0])

    def do_send(self, st):
        self.sim.serial.send(st.args[0])

    def do_timeout(self, st):
        self.timeout = st.args[0]

    def do_show(self, st):
        self.say(self.sim.view())

    # --- expectations: positive ones let the firmware run up to ``timeout`` ms for it
    def _wait_for(self, test):
        return self.sim.run_until(lambda s: test(), self.timeout)

    def do_expect_led(self, st):
        target, colour = st.args
        board = self.sim.board
        if not self._wait_for(lambda: _led_of(board, target) == colour):
            where = target if isinstance(target, str) else "point %d" % target
            self.fail(st, "the LED of %s shows %s, not %s (after %d ms)" % (
                where, _describe_led(board, target), simmod.LED_WORDS.get(colour, colour), self.timeout))

    def do_expect_lit(self, st):
        colour, points = st.args
        board = self.sim.board
        if not self._wait_for(lambda: sorted(simmod.lit_points(board, colour)) == points):
            got = sorted(simmod.lit_points(board, colour))
            self.fail(st, "%s LEDs on %s, expected %s" % (
                simmod.LED_WORDS.get(colour, colour), _pts(got), _pts(points)))

    def do_expect_oled(self, st):
        text, negate = st.args
        if negate:
            rows = self.sim.oled_rows()
            if _shows(rows, text):
                self.fail(st, "the OLED shows %r:\n%s" % (text, _screen(rows)))
            return
        if not self._wait_for(lambda: _shows(self.sim.oled_rows(), text)):
            self.fail(st, "the OLED does not show %r; it shows:\n%s" % (text, _screen(self.sim.oled_rows())))

    def _journal_search(self, action, words, fields):
        records, _ = self.sim.journal_records()
        for i in range(self.journal_cursor, len(records)):
            r = records[i]
            if r.get("a") != action:
                continue
            if words is not None and _main_text(r) != words:
                continue
            if _fields_match(r, fields):
                return i, records
        return None, records

    def do_expect_journal(self, st):
        action, words, fields, negate = st.args
        if negate:
            i, records = self._journal_search(action, words, fields)
            if i is not None:
                self.fail(st, "the journal has it: %s" % json.dumps(records[i]))
            return
        found = [None]

        def test():
            i, records = self._journal_search(action, words, fields)
            found[0] = (i, records)
            return i is not None

        if not self._wait_for(test):
            i, records = found[0]
            recent = records[self.journal_cursor:][-6:]
            self.fail(st, "no such journal record since the last one matched; the journal has:\n%s" % (
                "\n".join("    " + json.dumps(r) for r in recent) or "    (nothing new)"))
        self.journal_cursor = found[0][0] + 1

    def _event_search(self, name, fields):
        evs = self.sim.serial.events
        for i in range(self.event_cursor, len(evs)):
            e = evs[i]
            if e.get("ev") == name and _fields_match(e, fields):
                return i
        return None

    def do_expect_event(self, st):
        name, fields, negate = st.args
        if negate:
            i = self._event_search(name, fields)
            if i is not None:
                self.fail(st, "the firmware sent %s" % json.dumps(self.sim.serial.events[i]))
            return
        box = [None]

        def test():
            box[0] = self._event_search(name, fields)
            return box[0] is not None

        if not self._wait_for(test):
            evs = [e for e in self.sim.serial.events[self.event_cursor:] if e.get("ev") == name][-4:]
            others = self.sim.serial.events[self.event_cursor:][-6:]
            self.fail(st, "no %r event matching since the last one matched; %s" % (
                name, ("its %r events: %s" % (name, "; ".join(json.dumps(e) for e in evs))) if evs else
                ("events seen: %s" % ("; ".join(json.dumps(e) for e in others) or "none"))))
        self.event_cursor = box[0] + 1

    def do_expect_status(self, st):
        (fields,) = st.args

        def test():
            s = self.sim.status()
            return s is not None and _fields_match(s, fields)

        if not self._wait_for(test):
            self.fail(st, "the last status is %s" % json.dumps(self.sim.status()))


def _shows(rows, text):
    """``text`` is on one row, or runs on over the next rows (a message the OLED wraps)."""
    if any(text in r for r in rows):
        return True
    for i in range(len(rows)):
        joined = " ".join(r.strip() for r in rows[i:i + 3] if r.strip())
        if text in joined:
            return True
    return False


def _pts(points):
    return " ".join(str(p) for p in points) if points else "none"


def _screen(rows):
    return "\n".join("    |%-16s|" % r for r in rows)


def run_text(text, sim, source="script", out=None, verbose=False):
    steps = parse(text, source)
    return Runner(sim, out, source, verbose).run(steps)
