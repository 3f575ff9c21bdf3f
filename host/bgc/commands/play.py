"""bgc play: a match against GNU Backgammon on the board over USB.

    bgc play [--port P] [--computer white|black] [--level L] [--length N] [--teach] [--engine gnubg|board]
    bgc play ... --length 0 [--games N] [--beavers N] [--no-jacoby]    a money session

The PC plays one side with GNU Backgammon's engine (bgc.logs.gnubg_player, the level as GNU
Backgammon names it); the board shows its plays on the LEDs and the OLED, the person moves its
checkers, and the board tells the PC what happens (docs/protocol.md, "A match against the
computer"). While it runs it tells the board it is there every second (`gnu here`): a board that
waits for the computer and hears nothing says "Computer offline" (companion.phase_computer).

A match already in progress on the board goes on (after the PC was away, say): the match is read
from the board's journal, copied as `bgc pull` copies it (the firmware is interrupted, then
restarted, and resumes the match from the same journal): the side GNU Backgammon plays is checked
against it, and its level (unless --level says another), the session's rules and the resignations
already declined are the journal's. With --engine board the board's own player decides instead
(docs/board-player.md): the PC only tells the board which side and level, and watches.
"""

import json
import os
import sys
import threading
import time

from ..errors import UserError

RETRY = 0.3


def register(subparsers):
    p = subparsers.add_parser(
        "play", help="play a match against GNU Backgammon on the board (USB)",
        description="A match against GNU Backgammon on the board plugged in over USB (a Pico with the "
                    "companion firmware, or `bgc vpico --board`): the PC decides the computer's plays and "
                    "cube actions, the board shows them and you move its checkers (docs/player-guide.md). "
                    "A match in progress on the board goes on where it stands, read from the board's journal.")
    add_play_arguments(p, required=True)
    p.add_argument("--length", type=int, default=1, help="a new match's length in points, 0 for money (default 1)")
    p.add_argument("--games", type=int, default=0, metavar="N",
                   help="a money session (--length 0) ends after N games (default 0: when you stop it with Ctrl-C)")
    from .sim import add_money_arguments

    add_money_arguments(p)
    p.add_argument("--teach", action="store_true",
                   help="after each of your plays and cube decisions the OLED says GNU Backgammon's mark and the "
                        "better play when it lost more than the doubtful threshold (the numbers of bgc analyze)")
    p.set_defaults(func=run)


def add_play_arguments(p, required=False):
    p.add_argument("--port", help="serial port of the board (default: the only Pico plugged in)")
    p.add_argument("--computer", metavar="SIDE", required=required,
                   help="the side GNU Backgammon plays: white or black (a match in progress: checked against its journal)")
    p.add_argument("--level", default=None,
                   help="the computer's level as GNU Backgammon names it: beginner, casual, intermediate, advanced, "
                        "expert (default), world class, supremo, grandmaster")
    p.add_argument("--wait", type=float, metavar="SECONDS",
                   help="give up when the board is away or silent this long (default: wait for ever)")
    p.add_argument("--engine", default="gnubg", choices=("gnubg", "board"),
                   help="who decides the computer's plays: gnubg (GNU Backgammon on this PC, default) or board "
                        "(the board's own player; levels beginner, club, expert)")
    from .analyze import add_nets_argument

    add_nets_argument(p)


def run(args):
    from ..board.computer import new_match

    if not 0 <= args.length <= 64:
        raise UserError("--length must be 0 (money) to 64, got %d" % args.length)
    if not 0 <= args.games <= 1000 or (args.games and args.length):
        raise UserError("--games is a money session's number of games (--length 0): 1 to 1000, or 0 for no end")
    if args.length and not args.jacoby:
        raise UserError("--no-jacoby is for a money session (--length 0): a match has no Jacoby rule")
    try:
        cmd = new_match(0, None, args.length, args.jacoby, args.beavers)
    except ValueError as exc:
        raise UserError("%s\nhint: bgc play --computer black --length 0 --beavers 1" % exc)
    del cmd["names"]  # the computer's seat and name are play()'s, once its side and level are known
    return play(args, dict(cmd, force=True), "new %s: set out the checkers to start" % (
        "%d-point match" % args.length if args.length else "money session%s%s" % (
            " of %d games" % args.games if args.games else "", ", Jacoby" if args.jacoby else "")))


def computer_in(names):
    """(side, level, engine) of the computer in a match's player names ("gnubg (expert)", "board
    (club)": computer_name), or None when neither is the computer."""
    from ..board.computer import read_engine_level

    for side, name in enumerate(names):
        for engine in ("gnubg", "board"):
            if name.startswith(engine + " (") and name.endswith(")"):
                try:
                    return side, read_engine_level(engine, name[len(engine) + 2:-1]), engine
                except ValueError:
                    pass
    return None


def read_board_journal(port, path):
    """The MatchLog of the journal ``path`` on the board at ``port``, copied as `bgc pull` copies
    it (mpremote's raw REPL: the firmware stops, and is restarted afterwards, resuming the match
    from that journal)."""
    from ..logs import journals
    from ..pico import device
    from .pull import JOURNAL_DIR, read_file, restart_firmware

    name = path.rsplit("/", 1)[-1]
    with device.connect(port) as transport:
        try:
            data = read_file(transport, JOURNAL_DIR + "/" + name, lambda *a: None)
        finally:
            restart_firmware(transport)
    return journals.replay_data(data, name)


def _declined(log, person):
    """The largest resignation of the computer's the person declined in the last game."""
    most = 0
    offered = 0
    for a in (log.games[-1].actions if log.games else ()):
        if a["a"] == "resign":
            offered = a["kind"]
        elif a["a"] == "reject" and a["p"] == person:
            most = max(most, offered)
    return most


def play(args, new_cmd, new_text, setup=False):
    """Play against GNU Backgammon on the board at --port; ``new_cmd`` (a `new` command, without
    the names) starts the match when none is in progress on the board. ``setup``: the match is
    bgc setup's, started even over a match in progress when its ``force`` says so."""
    import serial

    from ..board.computer import computer_name, read_engine_level, read_side
    from ..logs.analysis import AnalysisError
    from ..pico import device
    from ..pico.events import describe, read_arrived, read_events
    from .watch import _open, _wait_back

    engine = getattr(args, "engine", "gnubg")
    try:
        side = read_side(args.computer) if args.computer else None
        level = read_engine_level(engine, args.level) if args.level else None
    except ValueError as exc:
        raise UserError("%s\nhint: bgc play --computer white|black [--level expert] [--engine gnubg|board]" % exc)
    if getattr(args, "teach", False) and engine == "board":
        raise UserError("--teach is GNU Backgammon's analysis on the PC: with --engine gnubg")
    port = args.port or device.choose_port(None)
    if not os.path.exists(port):
        raise device.explain_open_error(port, OSError(2, "No such file or directory"))
    args.web = False  # (watch._wait_back reopens the port as `bgc watch` does: no view events)
    link = {"ser": _open(port)}
    lock = threading.Lock()
    stop = threading.Event()

    def send(line):
        with lock:
            try:
                link["ser"].write((line + "\n").encode())
            except (OSError, serial.SerialException, AttributeError):
                pass  # the board is away: the line is sent again when it is back (Computer.resend)

    def heartbeat():
        # every HEARTBEAT_S, even while the engine thinks: the board's "Computer offline" watch
        from ..board.computer import HEARTBEAT_S

        while not stop.wait(HEARTBEAT_S):
            send("gnu here")

    def reopen(deadline):
        try:
            link["ser"].close()
        except Exception:
            pass
        link["ser"] = None
        back = _wait_back(args, args.port, deadline)
        if back is None:
            return False
        with lock:
            link["ser"] = back[1]
        return back[0]

    comp = None
    started = False
    status = None
    buf = b""
    silent_since = asked = time.monotonic()
    beat = None
    try:
        while True:
            if status is None and time.monotonic() - asked > 2:
                # the board was still starting when it was asked (its firmware boots after the port opens)
                send('{"cmd": "status"}')
                asked = time.monotonic()
            try:
                chunk = read_arrived(link["ser"])
            except (OSError, serial.SerialException, TypeError, AttributeError):
                chunk = None
            if chunk is None or (not chunk and not os.path.exists(port)):
                print("board unplugged: waiting for it to come back (Ctrl-C to stop)", flush=True)
                back = reopen(time.monotonic() + args.wait if args.wait else None)
                if not back:
                    print("bgc: the board did not come back within %g s" % args.wait, file=sys.stderr)
                    return 1
                port = back
                buf = b""
                if comp is not None:
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
                        if beat is None:
                            beat = threading.Thread(target=heartbeat, daemon=True)
                            beat.start()
                        busy = ev.get("match") and ev.get("phase") not in ("setup", "matchover")
                        if busy and setup and not new_cmd.get("force"):
                            raise UserError("a match is in progress on the board (%s)\nhint: bgc play goes on with it; "
                                            "bgc setup --force starts the position anyway (that match stays in its "
                                            "journal)" % " vs ".join(ev.get("names") or []))
                        if busy and not setup:
                            comp, side, level = _resume(ev, port, side, level, link, reopen, args)
                            status, buf, asked = None, b"", time.monotonic() - 3  # ask the restarted board
                            break
                        else:
                            if side is None:
                                raise UserError("no match in progress on the board: which side does GNU Backgammon "
                                                "play?\nhint: bgc play --computer white|black")
                            level = level or read_engine_level(engine, None)
                            comp = _computer(side, level, new_cmd, getattr(args, "teach", False), engine,
                                             getattr(args, "nets", "auto"))
                            name = computer_name(level, engine)
                            names = ["You", name] if side else [name, "You"]
                            print("%s (%s) plays %s on the board on %s" % (
                                "The board's own player" if engine == "board" else "GNU Backgammon", level, ("white", "black")[side], port), flush=True)
                            send(json.dumps(dict(new_cmd, names=new_cmd.get("names") or names)))
                            print(new_text, flush=True)
                            continue
                elif kind not in ("view", "board"):
                    print(describe(ev, status), flush=True)
                if kind == "error" and ev.get("line", "").startswith('{"cmd": "new"'):
                    print("bgc: the board refused the match: %s" % ev.get("error"), file=sys.stderr)
                    return 2
                if comp is None:
                    continue
                told = len(comp.notes)
                try:
                    comp.on_event(ev, send)
                except AnalysisError as exc:
                    print("bgc: %s" % exc, file=sys.stderr)
                    return 1
                for words in comp.notes[told:]:
                    print("teacher: %s" % words, flush=True)
                if kind == "advice" and comp.hints:
                    print("advice: %s" % (comp.hints[-1][1].text or "no play"), flush=True)
                if kind == "match_end":
                    return 0
                if kind == "game_end" and getattr(args, "games", 0) and status and not status.get("length") \
                        and (status.get("game") or 0) >= args.games:
                    print("the money session's %d games are played: %s" % (args.games, " - ".join(
                        "%s %d" % (n, p) for n, p in zip(status.get("names") or ("White", "Black"), ev["score"]))), flush=True)
                    return 0
    finally:
        stop.set()
        if comp is not None:
            comp.close()
        try:
            link["ser"].close()
        except Exception:
            pass


def _computer(side, level, settings, teach=False, engine="gnubg", nets="auto"):
    from ..board.computer import make_computer
    from ..logs.analysis import AnalysisError

    try:
        return make_computer(side, level, engine, jacoby=bool(settings.get("jacoby")),
                             beavers=int(settings.get("beavers") or 0), teach=teach, nets=nets)
    except AnalysisError as exc:
        raise UserError(str(exc))


def _resume(ev, port, side, level, link, reopen, args):
    """A match in progress on the board: read it from the board's journal, then go on with it."""
    print("a match is in progress on the board: reading it from the board's journal", flush=True)
    ser, link["ser"] = link["ser"], None  # (the heartbeat's lines wait: the port is the copy's now)
    try:
        ser.close()
    except Exception:
        pass
    log = read_board_journal(port, ev.get("journal") or "")
    found = computer_in(log.names)
    if found is None:
        raise UserError("the match on the board (%s vs %s) is not against the computer\nhint: finish it on the "
                        "board, or start a new one there, then run bgc play again" % log.names)
    if side is not None and side != found[0]:
        raise UserError("in the match on the board GNU Backgammon plays %s, not %s\nhint: bgc play --computer %s"
                        % (("white", "black")[found[0]], ("white", "black")[side], ("white", "black")[found[0]]))
    side = found[0]
    if level is not None and level != found[1]:
        print("note: the match was started at %s; GNU Backgammon goes on at %s" % (found[1], level), flush=True)
    level = level or found[1]
    print("%s: %s" % (log.source, log.summary()), flush=True)
    if getattr(args, "teach", False):
        # the teacher rebuilds the match from the board's events since its start (logs.teacher)
        print("note: --teach starts with a new match; this one goes on without the teacher", flush=True)
    comp = _computer(side, level, log.settings or {}, engine=found[2], nets=getattr(args, "nets", "auto"))
    comp.opponent.declined = _declined(log, 1 - side)
    if not reopen(time.monotonic() + (args.wait or 30)):
        raise UserError("the board did not come back after its journal was read\nhint: replug it and run bgc play again")
    print("GNU Backgammon (%s) plays %s: the match goes on" % (level, ("white", "black")[side]), flush=True)
    return comp, side, level
