"""bgc watch: the live game from the board's serial events (docs/protocol.md).

The firmware prints one JSON object per line with key "ev"; ``status`` carries the whole picture
(match, pos, names, score, length, cube, owner, crawford, on_roll, dice, phase, pips, msg), the
other events (roll, play, cube, illegal, resign, game_end, match_end, error, boot) are shown as the
last message. On connecting, bgc asks for a status (``{"cmd": "status"}``). When the board is
unplugged, watch says so and waits for it to come back, then carries on.
"""

import os
import sys
import time

from bgrules.chouette import signed

from ..errors import UserError, shown
from ..pico.events import describe, read_arrived, read_events

RETRY = 0.3


def register(subparsers):
    p = subparsers.add_parser(
        "watch",
        help="show the live game from the board: board, dice, cube, score, last message",
        description="Follow the game on the board over USB: the board, dice, cube, score and the last "
        "message, redrawn at every event. Survives unplugging the board: it waits and reconnects. "
        "Ctrl-C to stop.",
    )
    p.add_argument("--port", help="serial port of the Pico (default: the only Pico plugged in)")
    p.add_argument("--count", type=int, metavar="N", help="stop after N events")
    p.add_argument("--once", action="store_true", help="show the current state once and stop")
    p.add_argument("--wait", type=float, metavar="SECONDS",
                   help="give up when the board is away (or silent) this long (default: wait for ever)")
    p.add_argument("--raw", action="store_true", help="print the events as they come (JSON lines)")
    from .sim import add_web_arguments

    add_web_arguments(p)
    p.set_defaults(func=run)


class Screen:
    """What is known about the game, from the events."""

    def __init__(self):
        self.status = None
        self.last = ""

    def feed(self, ev):
        kind = ev.get("ev")
        if kind == "status":
            self.status = ev
            if ev.get("msg"):
                self.last = ev["msg"]
        else:
            self.last = describe(ev, self.status)

    def lines(self):
        from ..rules.engine import board_lines
        from bgrules import Position, PositionError

        s = self.status
        out = []
        if s is None:
            out.append("(waiting for the board's status)")
        else:
            names = s.get("names") or ["White", "Black"]
            score = s.get("score") or [0, 0]
            length = s.get("length", 0)
            head = "%s %d - %d %s" % (names[0], score[0], score[1], names[1])
            head += "   money session" if not length else "   match to %d" % length
            if s.get("crawford"):
                head += " (Crawford game)"
            out.append(head)
            on_roll = s.get("on_roll", 0) or 0
            cube = s.get("cube", 1)
            owner = s.get("owner", -1)
            try:
                pos = Position.from_id(s.get("pos", ""))
                out += board_lines(pos, on_roll, names, cube, owner)
            except (PositionError, TypeError, ValueError, AttributeError):
                out.append("(no board: position %r)" % s.get("pos"))
            dice = s.get("dice") or [0, 0]
            parts = ["%s on roll" % names[on_roll] if on_roll in (0, 1) else ""]
            if dice and dice[0]:
                parts.append("dice %d-%d" % (dice[0], dice[1]))
            parts.append("cube %d%s" % (cube, "" if owner in (-1, None) else " (%s)" % names[owner]))
            if s.get("pips"):
                parts.append("pips %d-%d" % tuple(s["pips"]))
            if s.get("phase"):
                parts.append(s["phase"])
            out.append("   ".join(p for p in parts if p))
            ch = s.get("chouette")
            if ch:
                team = [n for n in ch.get("line", [])[1:] if n != ch.get("captain")]
                out.append("chouette game %s: box %s, captain %s, team %s%s" % (
                    s.get("game"), ch.get("box"), ch.get("captain"), ", ".join(team) or "-",
                    "; %s to answer" % ch["asking"] if ch.get("asking") else ""))
                out.append("ledger: " + ", ".join("%s %s" % (n, signed(p)) for n, p in ch.get("totals", [])))
        out.append("last: %s" % (self.last or "-"))
        return out


def _open(port, web=False):
    import serial

    from ..pico import device

    try:
        s = serial.Serial(port, 115200, timeout=0.2, exclusive=True)
    except (OSError, serial.SerialException) as exc:
        raise device.explain_open_error(port, exc)
    try:
        s.write(b'{"cmd": "status"}\n')
        if web:  # the page draws the OLED and the LEDs: ask the board to send them
            s.write(b'{"cmd": "view", "on": true}\n')
    except (OSError, serial.SerialException):
        pass
    return s


def _wait_back(args, port, deadline):
    """Reopen the board once it is back; None when --wait ran out."""
    from ..pico import device

    while deadline is None or time.monotonic() < deadline:
        try:
            target = port or device.choose_port(None)
            if os.path.exists(target):
                return target, _open(target, args.web)
        except UserError:
            pass
        time.sleep(RETRY)
    return None


def wait_replugged(args, ser, say=None):
    """The board at --port is unplugged: close ``ser``, say so, and reopen the board once it is
    back. (port, serial), or None when --wait ran out (said on stderr)."""
    try:
        ser.close()
    except Exception:
        pass
    (say or _say)("board unplugged: waiting for it to come back (Ctrl-C to stop)")
    back = _wait_back(args, args.port, time.monotonic() + args.wait if args.wait else None)
    if back is None:
        print("bgc: the board did not come back within %g s" % args.wait, file=sys.stderr)
    return back


def _say(text):
    print(text, flush=True)


def run(args):
    import serial

    from ..pico import device

    if args.count is not None and args.count < 1:
        raise UserError("--count must be 1 or more, got %s\nhint: leave --count out to watch until Ctrl-C"
                        % shown(args.count, 10))
    if args.wait is not None and not 0 < args.wait < 1e9:
        raise UserError("--wait must be a number of seconds above 0, got %g\nhint: leave --wait out to wait "
                        "for ever" % args.wait)
    port = args.port or device.choose_port(None)
    if not os.path.exists(port):
        raise device.explain_open_error(port, OSError(2, "No such file or directory"))
    ser = _open(port, args.web)
    hub = server = None
    if args.web:
        from ..web import Hub
        from .sim import start_web

        hub = Hub("the board on %s" % port)
        server = start_web(args, hub)
    screen = Screen()
    tty = sys.stdout.isatty()
    events = 0
    buf = b""
    silent_since = time.monotonic()
    try:
        while True:
            try:
                chunk = read_arrived(ser)
            except (OSError, serial.SerialException, TypeError):
                chunk = None
            if chunk is None or (not chunk and not os.path.exists(port)):
                if hub is not None:
                    hub.set_connected(False)
                back = wait_replugged(args, ser)
                if back is None:
                    return 1
                port, ser = back
                buf = b""
                print("board back on %s" % port, flush=True)
                if hub is not None:
                    hub.set_connected(True)
                silent_since = time.monotonic()
                continue
            if not chunk:
                if args.wait and time.monotonic() - silent_since > args.wait:
                    print("bgc: no event from the board for %g s\nhint: is the companion firmware running? "
                          "`bgc deploy` installs it; the board restarts it on reset" % args.wait, file=sys.stderr)
                    return 1
                continue
            silent_since = time.monotonic()
            found, buf = read_events(buf + chunk)
            for text, ev in found:
                events += 1
                if hub is not None:
                    hub.feed(ev)
                if ev.get("ev") == "view":
                    continue  # for the web page only
                screen.feed(ev)
                if args.raw:
                    print(text, flush=True)
                else:
                    if tty:
                        sys.stdout.write("\x1b[H\x1b[2J")
                    print("\n".join(screen.lines()) + ("" if tty else "\n"), flush=True)
                if args.once and screen.status is not None:
                    return 0
                if args.count and events >= args.count:
                    return 0
    finally:
        if server is not None:
            server.stop()
        try:
            ser.close()
        except Exception:
            pass
