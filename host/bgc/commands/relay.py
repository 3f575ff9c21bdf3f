"""bgc relay: a board on USB relayed to an MQTT broker, for the club's page (bgc club) and its
viewers (docs/club.md; the topics: docs/protocol.md, "Boards on an MQTT broker").

    bgc relay --port P --broker mqtt[s]://USER@HOST[:PORT] --board NAME [--club CLUB]
"""

import os
import sys
import time

from ..errors import UserError


def register(subparsers):
    p = subparsers.add_parser(
        "relay", help="put a board on USB on an MQTT broker (for the club page, bgc club)",
        description="Relay the board on USB (a Pico with the companion firmware, or `bgc vpico --board`) to an "
                    "MQTT broker: its state (retained, so a late viewer sees it at once), every event, numbered, "
                    "and whether it is online. A lost broker is reconnected and nothing is lost; an unplugged "
                    "board is waited for. Ctrl-C to stop.")
    p.add_argument("--port", help="serial port of the board (default: the only Pico plugged in)")
    p.add_argument("--board", required=True, metavar="NAME", help="the board's name on the broker (its topics)")
    from ..net.broker import add_broker_arguments

    add_broker_arguments(p)
    p.add_argument("--wait", type=float, metavar="SECONDS",
                   help="give up when the board is away or silent this long (default: wait for ever)")
    p.set_defaults(func=run)


def run(args):
    import serial

    from ..net.broker import broker_from_args, check_name
    from ..net.relay import Relay
    from ..pico import device
    from ..pico.events import read_arrived, read_events
    from .watch import _open, wait_replugged

    check_name(args.board, "--board")
    broker = broker_from_args(args)
    if args.wait is not None and not 0 < args.wait < 1e9:
        raise UserError("--wait must be a number of seconds above 0")
    port = args.port or device.choose_port(None)
    if not os.path.exists(port):
        raise device.explain_open_error(port, OSError(2, "No such file or directory"))
    args.web = True  # the board sends its LEDs and OLED too: the club page draws them
    ser = _open(port, web=True)
    relay = Relay(broker, args.club, args.board, "board %s (%s)" % (args.board, args.club))
    relay.start()
    try:
        if relay.wait_connected(10):
            print("board %s on %s as bgc/%s/%s" % (port, broker, args.club, args.board), flush=True)
        else:
            print("the broker %s does not answer yet: the board's events are kept until it does" % broker,
                  flush=True)
        buf = b""
        silent_since = time.monotonic()
        while True:
            relay.check()
            try:
                chunk = read_arrived(ser)
            except (OSError, serial.SerialException, TypeError):
                chunk = None
            if chunk is None or (not chunk and not os.path.exists(port)):
                relay.set_connected(False)
                back = wait_replugged(args, ser)
                if back is None:
                    return 1
                port, ser = back
                buf = b""
                relay.set_connected(True)
                print("board back on %s" % port, flush=True)
                silent_since = time.monotonic()
                continue
            if not chunk:
                if args.wait and time.monotonic() - silent_since > args.wait:
                    print("bgc: no event from the board for %g s" % args.wait, file=sys.stderr)
                    return 1
                continue
            silent_since = time.monotonic()
            found, buf = read_events(buf + chunk)
            relay.feed([ev for _text, ev in found])
    finally:
        relay.close()
        try:
            ser.close()
        except Exception:
            pass
