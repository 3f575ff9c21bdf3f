"""bgc remote: a match between two boards far apart, through an MQTT broker (docs/club.md).

    bgc remote --port P --broker mqtt[s]://USER@HOST[:PORT] --board NAME --opponent OTHER [--length N]

Each board plays its own side with its own dice; the opponent's rolls, plays and cube actions come
through the broker and are shown on this board's LEDs and OLED as the computer's are (bgc play), for
the person here to move the opponent's checkers. The board also goes on the broker as bgc relay puts
it (the club's page shows it).
"""

import os
import sys
import time

from ..errors import UserError


def register(subparsers):
    p = subparsers.add_parser(
        "remote", help="play a match against another board through an MQTT broker",
        description="A match between this board (on USB) and another board far away, through an MQTT broker: "
                    "the opponent's rolls, plays and cube actions are shown on this board's LEDs and OLED, and you "
                    "move its checkers, as against GNU Backgammon (bgc play). The board whose name sorts first "
                    "plays White, starts the match and rolls the opening. A lost broker or an unplugged board is "
                    "waited for; nothing is lost. Ctrl-C to stop.")
    p.add_argument("--port", help="serial port of the board (default: the only Pico plugged in)")
    p.add_argument("--board", required=True, metavar="NAME", help="this board's name on the broker")
    p.add_argument("--opponent", required=True, metavar="OTHER", help="the other board's name on the broker")
    from ..net.broker import add_broker_arguments

    add_broker_arguments(p)
    p.add_argument("--length", type=int, default=1, help="the match's length in points, 0 for money (default 1; "
                   "the White board's counts)")
    p.add_argument("--wait", type=float, metavar="SECONDS",
                   help="give up when the board is away or silent this long (default: wait for ever)")
    p.set_defaults(func=run)


def run(args):
    import serial

    from ..net.broker import broker_from_args, check_name, topic
    from ..net.relay import Relay
    from ..net.remote import RemoteMatch
    from ..pico import device
    from ..pico.events import describe, read_arrived, read_events
    from .watch import _open, wait_replugged

    check_name(args.board, "--board")
    check_name(args.opponent, "--opponent")
    if args.board == args.opponent:
        raise UserError("--opponent is this board itself (%s)\nhint: name the other board" % args.board)
    if not 0 <= args.length <= 64:
        raise UserError("--length must be 0 (money) to 64, got %d" % args.length)
    broker = broker_from_args(args)
    port = args.port or device.choose_port(None)
    if not os.path.exists(port):
        raise device.explain_open_error(port, OSError(2, "No such file or directory"))
    args.web = True
    ser = _open(port, web=True)
    relay = Relay(broker, args.club, args.board, "board %s (%s)" % (args.board, args.club))

    def say(text):
        print(text, flush=True)

    match = RemoteMatch(args.club, args.board, args.opponent, args.length,
                        lambda t, payload: relay.client.publish(t, payload, qos=1, retain=True), say)
    relay.listen(topic(args.club, args.opponent, "moves"), match.on_moves)
    relay.listen(topic(args.club, args.board, "moves"), lambda payload: match.on_moves(payload, own=True))
    relay.start()

    def send(line):
        try:
            ser.write((line + "\n").encode())
        except (OSError, serial.SerialException):
            pass  # the board is away: the line is sent again when it is back

    try:
        if not relay.wait_connected(10):
            say("the broker %s does not answer yet: the match waits for it" % broker)
        else:
            time.sleep(0.5)  # our own retained moves, if any, arrive first (a restart mid-match)
        say("%s (%s) against %s on %s" % (args.board, "White" if match.leader else "Black", args.opponent, broker))
        from ..board.computer import HEARTBEAT_S

        buf = b""
        heard = 0.0
        status_asked = time.monotonic()
        silent_since = time.monotonic()
        while True:
            relay.check()
            if time.monotonic() - heard >= HEARTBEAT_S:
                # the board says "Computer offline" when this program is gone (as for bgc play),
                # not while the opponent far away thinks
                send("gnu here")
                heard = time.monotonic()
            if match.status is None and time.monotonic() - status_asked > 2:
                send('{"cmd": "status"}')  # the board was still starting when it was asked
                status_asked = time.monotonic()
            try:
                chunk = read_arrived(ser)
            except (OSError, serial.SerialException, TypeError):
                chunk = None
            if chunk is None or (not chunk and not os.path.exists(port)):
                relay.set_connected(False)
                back = wait_replugged(args, ser, say)
                if back is None:
                    return 1
                port, ser = back
                buf = b""
                relay.set_connected(True)
                match.sent = None
                say("board back on %s: the match goes on" % port)
                silent_since = time.monotonic()
                continue
            if not chunk:
                match.tick(send)
                if args.wait and time.monotonic() - silent_since > args.wait:
                    print("bgc: no event from the board for %g s" % args.wait, file=sys.stderr)
                    return 1
                continue
            silent_since = time.monotonic()
            found, buf = read_events(buf + chunk)
            relay.feed([ev for _t, ev in found])
            for _t, ev in found:
                kind = ev["ev"]
                if kind == "error":
                    say(describe(ev, match.status))
                elif kind in ("game_end", "match_end"):
                    say(describe(ev, match.status))
                match.on_event(ev, send)
                if kind == "match_end":
                    time.sleep(1.0)  # the last moves reach the broker before we go
                    return 0
    finally:
        relay.close()
        try:
            ser.close()
        except Exception:
            pass
