"""bgc play: a match against GNU Backgammon on the board over USB.

    bgc play [--port P] --computer white|black [--level L] [--length N] [--engine gnubg|board]

The PC plays one side with GNU Backgammon's engine (bgc.logs.gnubg_player, the level as GNU
Backgammon names it); the board shows its plays on the LEDs and the OLED, the person moves its
checkers, and the board tells the PC what happens (docs/protocol.md, "A match against the
computer"). A match already in progress on the board goes on (after the PC was away, say): the
board holds it in its journal. With --engine board the board's own player decides instead
(docs/board-player.md): the PC only tells the board which side and level, and watches.
"""

import json
import os
import sys
import time

from ..errors import UserError

RETRY = 0.3


def register(subparsers):
    p = subparsers.add_parser(
        "play", help="play a match against GNU Backgammon on the board (USB)",
        description="A match against GNU Backgammon on the board plugged in over USB (a Pico with the "
                    "companion firmware, or `bgc vpico --board`): the PC decides the computer's plays and "
                    "cube actions, the board shows them and you move its checkers (docs/player-guide.md). "
                    "A match in progress on the board goes on where it stands.")
    p.add_argument("--port", help="serial port of the board (default: the only Pico plugged in)")
    p.add_argument("--computer", required=True, metavar="SIDE", help="the side GNU Backgammon plays: white or black")
    p.add_argument("--level", default=None,
                   help="the computer's level as GNU Backgammon names it: beginner, casual, intermediate, advanced, "
                        "expert (default), world class, supremo, grandmaster")
    p.add_argument("--engine", default="gnubg", choices=("gnubg", "board"),
                   help="who decides the computer's plays: gnubg (GNU Backgammon on this PC, default) or board "
                        "(the board's own player; levels beginner, club, expert)")
    p.add_argument("--length", type=int, default=1, help="a new match's length in points, 0 for money (default 1)")
    p.add_argument("--wait", type=float, metavar="SECONDS",
                   help="give up when the board is away or silent this long (default: wait for ever)")
    p.set_defaults(func=run)


def run(args):
    import serial

    from ..board.computer import computer_name, make_computer, read_engine_level, read_side
    from ..logs.analysis import AnalysisError
    from ..pico import device
    from ..pico.events import describe, read_events
    from .watch import _open, _wait_back

    try:
        side = read_side(args.computer)
        level = read_engine_level(args.engine, args.level)
    except ValueError as exc:
        raise UserError("%s\nhint: bgc play --computer white|black [--level expert] [--engine gnubg|board]" % exc)
    if not 0 <= args.length <= 64:
        raise UserError("--length must be 0 (money) to 64, got %d" % args.length)
    port = args.port or device.choose_port(None)
    if not os.path.exists(port):
        raise device.explain_open_error(port, OSError(2, "No such file or directory"))
    ser = _open(port)
    try:
        comp = make_computer(side, level, args.engine)
    except AnalysisError as exc:
        ser.close()
        raise UserError(str(exc))
    names = ["You", computer_name(level, args.engine)] if side else [computer_name(level, args.engine), "You"]
    print("%s (%s) plays %s on the board on %s" % ("The board's own player" if args.engine == "board" else "GNU Backgammon",
                                                   level, args.computer.lower(), port), flush=True)

    def send(line):
        try:
            ser.write((line + "\n").encode())
        except (OSError, serial.SerialException):
            pass  # the board is away: the line is sent again when it is back (Computer.resend)

    started = False
    status = None
    buf = b""
    silent_since = asked = time.monotonic()
    try:
        while True:
            if status is None and time.monotonic() - asked > 2:
                # the board was still starting when it was asked (its firmware boots after the port opens)
                send('{"cmd": "status"}')
                asked = time.monotonic()
            try:
                chunk = ser.read(4096)
            except (OSError, serial.SerialException, TypeError):
                chunk = None
            if chunk is None or (not chunk and not os.path.exists(port)):
                try:
                    ser.close()
                except Exception:
                    pass
                print("board unplugged: waiting for it to come back (Ctrl-C to stop)", flush=True)
                back = _wait_back(args, args.port, time.monotonic() + args.wait if args.wait else None)
                if back is None:
                    print("bgc: the board did not come back within %g s" % args.wait, file=sys.stderr)
                    return 1
                port, ser = back
                buf = b""
                comp.opponent.resend()
                print("board back on %s: the match goes on" % port, flush=True)
                silent_since = time.monotonic()
                continue
            if not chunk:
                if args.wait and time.monotonic() - silent_since > args.wait:
                    print("bgc: no event from the board for %g s\nhint: is the companion firmware running?"
                          % args.wait, file=sys.stderr)
                    return 1
                continue
            silent_since = time.monotonic()
            found, buf = read_events(buf + chunk)
            for _, ev in found:
                kind = ev["ev"]
                if kind == "status":
                    status = ev
                    if not started:
                        started = True
                        if ev.get("match") and ev.get("phase") not in ("setup", "matchover"):
                            print("a match is in progress on the board: it goes on", flush=True)
                        else:
                            send(json.dumps({"cmd": "new", "length": args.length, "names": names, "force": True}))
                            print("new %s: set out the checkers to start" % (
                                "%d-point match" % args.length if args.length else "money session"), flush=True)
                            continue
                elif kind not in ("view", "board"):
                    print(describe(ev, status), flush=True)
                try:
                    comp.on_event(ev, send)
                except AnalysisError as exc:
                    print("bgc: %s" % exc, file=sys.stderr)
                    return 1
                if kind == "match_end":
                    return 0
    finally:
        comp.close()
        try:
            ser.close()
        except Exception:
            pass
