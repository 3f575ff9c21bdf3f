"""bgc chouette: run a chouette evening on the board from the PC: the players' names, joining and
leaving, the cube form, the box's partner, a team member's own double, the ledger (the serial
commands of docs/protocol.md; the rules are docs/chouette.md)."""

import json
import os
import sys
import time

from bgrules.chouette import signed

from ..errors import UserError
from ..pico.events import read_arrived, read_events

REPLY = {"chouette": ("new",), "join": ("join",), "leave": ("leave",), "cubes": ("cubes",),
         "partner": ("partner",), "cdouble": ("cube",), "boxdouble": ("cube",),
         "ledger": ("ledger",)}


def register(subparsers):
    p = subparsers.add_parser(
        "chouette",
        help="a chouette on the board: names, join/leave, cube form, partner, ledger",
        description="Start a chouette evening on the board with the players' names (the seats are then "
        "rolled on the board, one die per player), and between games let players join or leave, change "
        "the cube form or give the box a partner; `bgc chouette ledger` prints the ledger the board keeps.",
    )
    p.add_argument("--port", help="serial port of the Pico (default: the only Pico plugged in)")
    sub = p.add_subparsers(dest="action", metavar="ACTION", required=True)
    s = sub.add_parser("start", help="a new evening: 3 to 12 names, in any order (the dice set the line)")
    s.add_argument("names", nargs="+", metavar="NAME")
    s.add_argument("--cubes", choices=("common", "several"), default="common",
                   help="one common cube (the captain turns it) or one cube per team member")
    s.add_argument("--lone", type=int, default=5, metavar="N",
                   help="with N players or more a lone taker of the box's double must drop too (0: never; seed: 5)")
    s.add_argument("--partner", type=int, default=8, metavar="N",
                   help="the box may take a partner with N players or more (0: never; seed: 8)")
    s.add_argument("--jacoby", action="store_true", help="Jacoby rule, cube by cube")
    s.add_argument("--force", action="store_true", help="abandon the game in progress")
    for name, what in (("join", "a player sits at the end of the line, or comes back"),
                       ("leave", "a player leaves (between games; during one, a member who has dropped)")):
        x = sub.add_parser(name, help=what)
        x.add_argument("name", metavar="NAME")
    d = sub.add_parser("double", help="several cubes: a team member doubles the box with their own cube, or "
                       "(--box) the box doubles the members named",
                       description="Several cubes: `double NAME` is team member NAME doubling the box with their "
                       "own cube (on the team's turn, before the captain rolls); `double --box NAME...` is the box "
                       "offering a double to those members only (on the box's turn, before rolling; no NAME: every "
                       "member whose cube the box may turn). With one common cube only the captain doubles for the "
                       "team, and the box doubles the whole team.")
    d.add_argument("--box", action="store_true", help="the box doubles the members named")
    d.add_argument("names", nargs="*", metavar="NAME")
    c = sub.add_parser("cubes", help="the cube form from the next game")
    c.add_argument("cubes", choices=("common", "several"))
    pa = sub.add_parser("partner", help="the box's partner (8 players or more; between games or before a game's "
                        "opening roll, so from the first game): the answers in the order offered")
    # (no choices=: argparse refuses an empty list against them, and nobody is a valid answer)
    pa.add_argument("accepts", nargs="*", metavar="yes|no",
                    help="each team member's answer, the captain first then backwards along the line; "
                    "nobody: the board draws one by lot with its dice, every member but the captain with the same chance")
    sub.add_parser("ledger", help="print the ledger the board keeps")
    p.set_defaults(func=run)


def check_names(names):
    """The names as the board will take them; UserError with the reason otherwise."""
    if not 3 <= len(names) <= 12:
        raise UserError("a chouette needs 3 to 12 players, %d given" % len(names))
    for n in names:
        if not n or len(n) > 20 or any(ch in n for ch in ",|\n ="):
            raise UserError("bad name %r: 1 to 20 characters, no comma, space, = or |" % n)
    if len(set(names)) != len(names):
        raise UserError("two players with the same name: %s" % ", ".join(sorted(n for n in names if names.count(n) > 1)))
    return names


def command_of(args):
    a = args.action
    if a == "start":
        return {"cmd": "chouette", "names": check_names(args.names), "cubes": args.cubes, "lone": args.lone,
                "partner": args.partner, "jacoby": args.jacoby, "force": args.force}
    if a in ("join", "leave"):
        check_names(["x", "y", args.name])
        return {"cmd": a, "name": args.name}
    if a == "double":
        if args.box:
            if args.names:
                check_names(["x", "y"] + list(args.names))
            return {"cmd": "boxdouble", "names": list(args.names)}
        if len(args.names) != 1:
            raise UserError("a member's double names one member, %d given\nhint: `bgc chouette double NAME`; the "
                            "box's double to several members is `bgc chouette double --box NAME...`" % len(args.names))
        return {"cmd": "cdouble", "name": args.names[0]}
    if a == "cubes":
        return {"cmd": "cubes", "cubes": args.cubes}
    if a == "partner":
        wrong = [x for x in args.accepts if x not in ("yes", "no")]
        if wrong:
            raise UserError("partner: each answer is yes or no, not %r\nhint: e.g. `bgc chouette partner no yes`, "
                            "or no answer for a partner drawn by lot" % wrong[0])
        return {"cmd": "partner", "accepts": [x == "yes" for x in args.accepts]}
    return {"cmd": "ledger"}


def talk(ser, command, timeout=3.0):
    """Send one command line; the board's answer event (or its error event)."""
    ser.write((json.dumps(command) + "\n").encode())
    want = REPLY[command["cmd"]]
    deadline = time.monotonic() + timeout
    buf = b""
    while time.monotonic() < deadline:
        chunk = read_arrived(ser)
        if not chunk:
            continue
        found, buf = read_events(buf + chunk)
        for _, ev in found:
            if ev["ev"] in want or ev["ev"] == "error":
                return ev
    return None


def describe(ev):
    kind = ev["ev"]
    if kind == "new":
        settings = ev.get("settings") or {}
        return ["chouette started (%s): %s" % (ev.get("journal"), ", ".join(settings.get("names", []))),
                "now roll for the seats on the board: one die per player, ROLL on either side"]
    if kind == "ledger":
        lines = ["ledger after game %d" % ev.get("game", 0)]
        for g in ev.get("games", []):
            lines.append("  game %d (box %s, captain %s): %s" % (g[0], g[1], g[2],
                                                                 ", ".join("%s %s" % (n, signed(p)) for n, p in g[3])))
        lines.append("  totals: " + ", ".join("%s %s" % (n, signed(p)) for n, p in ev.get("totals", [])))
        return lines
    if kind == "cube" and ev.get("p") == 0:
        offered = ev.get("cubes") or [[n, 0] for n in ev.get("to", [])]
        return ["the box doubles %s; each answers at the board" % ", ".join(
            "%s to %d" % (n, v) if v else n for n, v in offered)]
    if kind == "cube":
        return ["%s doubles the box to %d" % (ev.get("name"), ev.get("cube", 0))]
    what = {"join": "%s joins" % ev.get("name"), "leave": "%s leaves" % ev.get("name"),
            "cubes": "%s cube%s from the next game" % (ev.get("cubes"), "" if ev.get("cubes") == "common" else "s"),
            "partner": "the box's partner: %s" % ev["partner"] if ev.get("partner") else "the box has no partner"}
    out = [what[kind]] if kind in what else []
    if ev.get("line"):
        out.append("the line: %s%s" % (", ".join(ev["line"]), "; the box's partner: %s" % ev["partner"]
                                       if ev.get("partner") and kind != "partner" else ""))
    else:
        out.append("the line is set once the seats are rolled")
    return out


def run(args):
    import serial

    from ..pico import device

    command = command_of(args)
    port = args.port or device.choose_port(None)
    if not os.path.exists(port):
        raise device.explain_open_error(port, OSError(2, "No such file or directory"))
    try:
        ser = serial.Serial(port, 115200, timeout=0.2, exclusive=True)
    except (OSError, serial.SerialException) as exc:
        raise device.explain_open_error(port, exc)
    try:
        ev = talk(ser, command)
    except (OSError, serial.SerialException):
        raise UserError("the board on %s went away before it answered %s\nhint: check the cable (a virtual "
                        "Pico: is `bgc vpico --board` still running?), then run the command again"
                        % (port, command["cmd"])) from None
    finally:
        ser.close()
    if ev is None:
        raise UserError("the board on %s did not answer %s\nhint: is the companion firmware running? `bgc watch` "
                        "shows its events; `bgc deploy` installs it" % (port, command["cmd"]))
    if ev["ev"] == "error":
        raise UserError("the board refused: %s" % ev.get("error"))
    for line in describe(ev):
        print(line)
    return 0
