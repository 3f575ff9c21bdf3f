"""bgc club: every board of a club live on one page, from the MQTT broker the boards are relayed to
(bgc relay; docs/club.md).

    bgc club --broker mqtt[s]://viewer@HOST[:PORT] [--club CLUB] [--web-port N] [--web-host H]
"""

import sys
import time

from ..errors import UserError


def register(subparsers):
    p = subparsers.add_parser(
        "club", help="every board of a club live on one web page, from the MQTT broker",
        description="Serve a web page with every board of the club (a grid of small boards: names, score, whose "
                    "turn; offline boards greyed). A click on a board opens its live view. A page opened late shows "
                    "every board at once (the broker keeps each board's last state). Ctrl-C to stop.")
    from ..net.broker import add_broker_arguments

    add_broker_arguments(p)
    p.add_argument("--web-host", default="127.0.0.1", metavar="HOST",
                   help="address the page is served on (default 127.0.0.1; 0.0.0.0 for every device on the network)")
    p.add_argument("--web-port", type=int, default=8765, metavar="PORT", help="port of the page (default 8765)")
    p.set_defaults(func=run)


def run(args):
    from ..net.broker import broker_from_args
    from ..net.club import Club
    from ..web.club_server import serve_club

    broker = broker_from_args(args)
    if not 0 <= args.web_port <= 65535:
        raise UserError("--web-port must be 0..65535")
    club = Club(broker, args.club)
    club.start()
    try:
        if not club.wait_connected(10):
            if club.refused:
                raise UserError(club.refused)
            print("the broker %s does not answer yet: the page fills in when it does" % broker, flush=True)
        try:
            server = serve_club(club, args.web_host, args.web_port)
        except OSError as exc:
            raise UserError("cannot serve the club page on %s:%d: %s" % (args.web_host, args.web_port,
                                                                      exc.strerror or exc))
        shown = ", ".join("%s (%s)" % (url, who) if who else url for url, who in server.urls)
        print("club %s from %s: %s; Ctrl-C to stop" % (args.club, broker, shown), flush=True)
        try:
            while True:
                if club.refused:
                    raise UserError(club.refused)
                time.sleep(0.5)
        finally:
            server.stop()
    finally:
        club.close()
    return 0
