"""bgc setup: a position to practise on the board.

    bgc setup POSITION_ID [MATCH_ID] [--port P] [--computer white|black [--level L]]

GNU Backgammon's Position ID (the player on roll's view) and Match ID (score, cube, who is on
roll, any dice) start a new match on the board at that position: the board lights the points whose
checkers are missing or extra until it shows the position, then play goes on from it, between two
people or, with --computer, against GNU Backgammon (as `bgc play`). Without a Match ID: a money
session (or a --length match) at 0-0, the cube in the middle, White on roll to roll. The match is
journaled with its starting position (the journal's setup record, docs/formats.md), so `bgc
replay`, `bgc export -f sgf` and the rest start there. The IDs are checked here with the firmware's
own code (bgrules.match_setup) before the board is touched.
"""

import json
import sys
import time

from ..errors import UserError, shown


def register(subparsers):
    from .play import add_play_arguments

    p = subparsers.add_parser(
        "setup", help="start a match on the board from a GNU Backgammon Position ID (and Match ID)",
        description="Start a match on the board plugged in over USB from a position: GNU Backgammon's Position ID "
                    "and, optionally, its Match ID (score, cube, who is on roll, the dice). The board lights the "
                    "points to fix until it shows the position; then two people play on, or GNU Backgammon with "
                    "--computer (docs/player-guide.md, \"A position to practise\").")
    p.add_argument("position_id", metavar="POSITION_ID", help="14-character Position ID, the player on roll's view")
    p.add_argument("match_id", metavar="MATCH_ID", nargs="?", help="12-character Match ID (default: money, 0-0, "
                                                                   "cube centred, White to roll)")
    add_play_arguments(p)
    p.add_argument("--length", type=int, default=None,
                   help="without a Match ID: the match's length in points, 0 for money (default 0)")
    p.add_argument("--names", help="without --computer: the two players' names, White's first (default White,Black)")
    p.add_argument("--force", action="store_true",
                   help="start it even when a match is in progress on the board (that match stays in its journal)")
    p.set_defaults(func=run)


def default_match_id(length=0):
    """The Match ID of a game under way at 0-0, the cube in the middle, White (player 0) to roll."""
    from bgrules.matchid import MatchKey

    return MatchKey(length=length, on_roll=0, to_act=0).id()


def setup_command(position_id, match_id=None, length=None, names=("White", "Black")):
    """(the board's `new` command, the match as the board will start it) for a set position;
    UserError saying what is wrong with the IDs. The board runs the same check (bgrules.match_setup),
    so what passes here is what the board takes."""
    from bgrules.matchid import MatchIdError
    from bgrules.matchid_read import decode
    from companion import journal, recovery

    from ..rules.engine import read_position

    read_position(position_id)  # a clear error for a Position ID that does not decode
    if match_id is None:
        match_id = default_match_id(length or 0)
    try:
        mk = decode(match_id)
    except MatchIdError as exc:
        raise UserError("bad Match ID %s: %s\nhint: a Match ID is 12 characters as GNU Backgammon shows them "
                        "(`show matchid`), e.g. cAmzACAAGAAE" % (shown(match_id, 20), str(exc).split(": ", 1)[0])) from None
    if length is not None and length != mk.length:
        raise UserError("--length %d, but the Match ID %s is for %s\nhint: the Match ID gives the length: leave "
                        "--length out" % (length, match_id, "a %d-point match" % mk.length if mk.length else "money"))
    settings = journal.settings_record(mk.length, True, False, 0, 0, mk.jacoby and not mk.length, names)
    setup = {"a": "setup", "pos": position_id, "mid": match_id}
    try:
        match = recovery.new_match(settings)
        recovery.apply(match, setup)
    except journal.JournalError as exc:
        why = str(exc).replace("setup refused: ", "")
        raise UserError("the board cannot start from %s %s: %s\nhint: `bgc match %s %s` shows what the IDs say"
                        % (position_id, match_id, why, match_id, position_id)) from None
    cmd = {"cmd": "new", "length": mk.length, "names": list(names), "pos": position_id, "mid": match_id}
    if not mk.length:
        cmd["jacoby"] = mk.jacoby
    return cmd, match


def describe(match):
    """The set position in words: the score, the cube, who is on roll."""
    from bgrules.matchid_read import decode

    from .match import describe as words

    return words(decode(match.match_id()), list(match.names))


def run(args):
    names = ("White", "Black")
    if args.names:
        names = tuple(n.strip() for n in args.names.split(","))
        if len(names) != 2 or not all(names) or any(len(n) > 20 for n in names):
            raise UserError("--names takes two names of 1 to 20 characters, separated by a comma\nhint: --names Anna,Bruno")
        if args.computer:
            raise UserError("--names is for two people; against the computer the names are You and gnubg (LEVEL)")
    if args.computer:
        from ..board.computer import computer_name, read_side
        from ..logs.gnubg_player import DEFAULT_LEVEL, read_level

        try:
            side = read_side(args.computer)
            level = read_level(args.level or DEFAULT_LEVEL)
        except ValueError as exc:
            raise UserError("%s\nhint: bgc setup POSITION_ID [MATCH_ID] --computer white|black [--level expert]" % exc)
        names = ("You", computer_name(level)) if side else (computer_name(level), "You")
    cmd, match = setup_command(args.position_id.strip(), args.match_id.strip() if args.match_id else None,
                               args.length, names)
    text = "\n".join(describe(match) + ["set the checkers as the board lights them: red points are missing or "
                                        "have extra checkers"])
    if args.computer:
        from .play import play

        return play(args, dict(cmd, force=args.force), text, setup=True)
    return _send(args, dict(cmd, force=args.force), text)


def _send(args, cmd, text):
    """Two people play on: the board gets the match, and the PC is not needed after it."""
    import os

    import serial

    from ..pico import device
    from ..pico.events import read_arrived, read_events
    from .watch import _open

    port = args.port or device.choose_port(None)
    if not os.path.exists(port):
        raise device.explain_open_error(port, OSError(2, "No such file or directory"))
    ser = _open(port)
    deadline = time.monotonic() + (args.wait or 15)
    buf = b""
    sent = False
    asked = time.monotonic()
    try:
        while time.monotonic() < deadline:
            if not sent and time.monotonic() - asked > 2:
                ser.write(b'{"cmd": "status"}\n')  # the board was still starting
                asked = time.monotonic()
            try:
                chunk = read_arrived(ser)
            except (OSError, serial.SerialException):
                raise UserError("the board went away on %s\nhint: plug it in again and run bgc setup again" % port)
            found, buf = read_events(buf + chunk)
            for _, ev in found:
                kind = ev["ev"]
                if kind == "status" and not sent:
                    if ev.get("match") and ev.get("phase") not in ("setup", "matchover") and not cmd["force"]:
                        raise UserError("a match is in progress on the board (%s)\nhint: finish it, or bgc setup "
                                        "--force (that match stays in its journal)" % " vs ".join(ev.get("names") or []))
                    ser.write((json.dumps(cmd) + "\n").encode())
                    sent = True
                elif kind == "error" and sent:
                    raise UserError("the board refused the position: %s" % ev.get("error"))
                elif kind == "new" and sent:
                    print(text)
                    print("the board starts the match from the position (journal %s)" % ev.get("journal"))
                    return 0
        raise UserError("no answer from the board on %s within %g s\nhint: is the companion firmware running?"
                        % (port, args.wait or 15))
    finally:
        ser.close()
