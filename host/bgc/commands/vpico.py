"""bgc vpico: run a virtual Pico (MicroPython on a pseudo-terminal) in the foreground; with
--board, the firmware on its flash runs on the virtual board behind it (docs/virtual-pico.md)."""

import os
import signal
import sys
import threading

from ..errors import UserError, shown


def register(subparsers):
    p = subparsers.add_parser(
        "vpico",
        help="run a virtual Pico on a pseudo-terminal (--board: with the virtual board attached)",
        description="Run a virtual Raspberry Pi Pico with MicroPython on a pseudo-terminal, in the "
        "foreground, until Ctrl-C. Point mpremote or bgc at the port it prints "
        "(e.g. bgc deploy --port PORT). With --board the firmware on its flash runs on the virtual "
        "board (sensors, LEDs, OLED, buttons), so every board verb (devices, deploy, watch, pull, "
        "chouette) can be tried without hardware; the board is played from a prompt (bgc sim's "
        "commands) or by automated players (--demo, --chouette).",
    )
    p.add_argument("--flash", metavar="DIR", help="host directory holding the Pico's flash filesystem "
                   "(kept between runs; default: a temporary directory, deleted on exit)")
    p.add_argument("--link", metavar="PATH", help="also make PATH a symlink to the port, a name that "
                   "stays the same between runs")
    p.add_argument("--board", action="store_true",
                   help="attach the virtual board and run the firmware on it (a flash without firmware "
                   "gets it first, as `bgc deploy --offline` would put it there)")
    mode = p.add_mutually_exclusive_group()
    mode.add_argument("--demo", action="store_true", help="board: two automated players play a match")
    mode.add_argument("--chouette", action="store_true",
                      help="board: automated players play a chouette evening (docs/chouette.md)")
    p.add_argument("--computer", metavar="SIDE", default=None,
                   help="demo: that side (white or black) is GNU Backgammon's, played by `bgc play` on the port: "
                        "the automated players play the other side and move the computer's checkers as lit")
    p.add_argument("--seed", type=int, default=1, help="board: seed of the sensors' noise, the dice and the "
                   "players (default 1)")
    p.add_argument("--length", type=int, default=1, help="demo: match length in points (default 1)")
    p.add_argument("--pace", type=float, default=1.0, metavar="N",
                   help="demo, chouette: the automated hands decide N times as fast as a person (default 1; "
                   "how long the sensors see each hand, checker and press stays a person's)")
    p.add_argument("--games", type=int, default=4, help="chouette: games in the evening (default 4)")
    p.add_argument("--firmware", metavar="DIR", default=None,
                   help="board: the firmware tree to deploy onto a flash that has none (default: the one "
                   "bgc deploy ships)")
    from ..rules.engine import add_variant_argument
    from .sim import add_web_arguments

    add_variant_argument(p)
    add_web_arguments(p)
    p.set_defaults(func=run)


def _check_paths(args):
    if args.flash and os.path.exists(args.flash) and not os.path.isdir(args.flash):
        raise UserError("--flash %s is not a directory" % args.flash)
    if args.link and os.path.lexists(args.link):
        if not os.path.islink(args.link):
            raise UserError("--link %s exists and is not a symlink; choose another path" % args.link)
        if os.path.exists(args.link):
            # A live pty behind it: another virtual Pico is running there (a stopped one removes its
            # link; one that was killed leaves a link to a pty that is gone, which is replaced, unless
            # the pty's number went to a new terminal since).
            raise UserError("--link %s is in use: it points at %s, which is open (another virtual Pico?)\nhint: "
                            "stop that virtual Pico (Ctrl-C in its terminal), or remove the link if none runs, or "
                            "choose another --link" % (args.link, os.path.realpath(args.link)))


def _serve(stop):
    """Wait for Ctrl-C or SIGTERM."""
    def _stop(*_):
        stop.set()

    signal.signal(signal.SIGTERM, _stop)
    try:
        while not stop.wait(0.5):
            pass
    except KeyboardInterrupt:
        pass


def run(args):
    from ..logs import files

    _check_paths(args)
    if args.computer is not None:
        from ..board.computer import read_side

        try:
            read_side(args.computer)
        except ValueError as exc:
            raise UserError(str(exc))
        if not (args.board and args.demo):
            raise UserError("--computer is for the automated players: bgc vpico --board --demo --computer black")
    if args.pace != 1 and not (args.demo or args.chouette):
        raise UserError("--pace is the automated players' speed: bgc vpico --board --demo --pace 3")
    if not args.board and (args.demo or args.chouette or args.web):
        raise UserError("--demo, --chouette and --web play on the virtual board: add --board")
    # (a --flash folder made for this run is gone again if it stops before anything is written in it)
    with files.left_clean(args.flash or None):
        return run_board(args) if args.board else _run_pico(args)


def _run_pico(args):
    from ..pico.vpico import VirtualPico, VirtualPicoError

    try:
        pico = VirtualPico(args.flash, link=args.link)
    except OSError as exc:
        raise UserError("cannot use %s as the flash directory: %s\nhint: give --flash a directory you can "
                        "write to (it is created if missing)" % (args.flash, exc.strerror or exc))
    try:
        pico.start()
    except VirtualPicoError as exc:
        raise UserError("the virtual Pico did not start: %s" % exc)
    print(pico.port, flush=True)
    where = "flash: %s" % pico.flash_dir + ("" if args.flash else " (temporary)")
    link = "; link: %s" % args.link if args.link else ""
    interpreter = "; MicroPython: %s, %d kB heap" % (" ".join(pico.micropython), pico.heap_kb)
    print("virtual Pico running (%s%s%s); Ctrl-C to stop" % (where, link, interpreter), file=sys.stderr, flush=True)
    try:
        _serve(threading.Event())
    finally:
        pico.stop()
    return 0


# ------------------------------------------------------------------ --board
BOOT_TIMEOUT_MS = 30000  # main.py's first status after the Pico boots (imports from flash included)


def run_board(args):
    from ..rules.engine import read_variant
    from ..board.vboard import BoardSim
    from ..pico.vpico import VirtualPicoError

    if not 1 <= args.length <= 64:
        raise UserError("--length must be 1..64, got %s\nhint: a match of 1 to 64 points" % shown(args.length, 10))
    if not 1 <= args.pace <= 20:
        raise UserError("--pace must be 1..20, got %s\nhint: 1 is a person's speed, 3 a brisk demo" % shown(args.pace, 10))
    if not 1 <= args.games <= 50:
        raise UserError("--games must be 1..50, got %s" % shown(args.games, 10))
    rules = read_variant(args.variant)
    if args.flash:
        from ..logs import files

        files.make_folder(args.flash, "--flash", "give a folder for the Pico's flash, or leave --flash out "
                          "for a temporary one")
    try:
        sim = BoardSim(args.flash, link=args.link, seed=args.seed, rules=rules)
    except OSError as exc:
        raise UserError("cannot use %s as the flash directory: %s\nhint: give --flash a directory you can "
                        "write to" % (args.flash, exc.strerror or exc))
    server = None
    stop = threading.Event()
    signal.signal(signal.SIGTERM, lambda *_: stop.set())
    out = sys.stdout
    try:
        try:
            sim.start()
        except VirtualPicoError as exc:
            raise UserError("the virtual Pico did not start: %s" % exc)
        print(sim.pico.port, flush=True)
        where = "flash: %s" % sim.flash_dir + ("" if args.flash else " (temporary)")
        link = "; link: %s" % args.link if args.link else ""
        print("virtual Pico with the virtual board running (%s%s); Ctrl-C to stop" % (where, link),
              file=sys.stderr, flush=True)
        if not sim.has_firmware():
            _deploy(sim, args.firmware, out)
        if not sim.run_until(lambda s: s.status() is not None, BOOT_TIMEOUT_MS):
            why = ("the firmware on %s did not report its status within %d s" % (sim.flash_dir, BOOT_TIMEOUT_MS // 1000))
            hint = ("`mpremote connect %s repl` shows what main.py says; `bgc deploy --port %s` puts the firmware "
                    "back" % (args.link or sim.pico.port, args.link or sim.pico.port))
            if args.demo or args.chouette:
                raise UserError("%s\nhint: %s" % (why, hint))
            # The board stays up: the firmware can be put back onto it from another terminal.
            print("bgc: warning: %s; the board stays up\nhint: %s" % (why, hint), file=sys.stderr, flush=True)
        if args.web:
            from .sim import web_for_sim

            server = web_for_sim(sim, args)
        if args.demo:
            _play(sim, args, out, stop, chouette=False)
        elif args.chouette:
            _play(sim, args, out, stop, chouette=True)
        else:
            out.write("The firmware runs on the virtual board behind %s. Type help for the commands.\n"
                      % (args.link or sim.pico.port))
            from .sim import prompt

            quit_ = prompt(sim, _stepping_reader(sim, sys.stdin, stop), out, interactive=sys.stdin.isatty(),
                           name="board")
            if quit_:
                return 0
        while not stop.is_set():  # the board stays up for the verbs in the other terminal
            sim.step()
    except KeyboardInterrupt:
        pass
    finally:
        if server is not None:
            server.stop()
        sim.close()
    return 0


def _deploy(sim, firmware, out):
    """A flash without firmware gets it, as `bgc deploy --offline` puts it there (its progress bars
    are left out; what it concluded is shown)."""
    import argparse
    import contextlib
    import io

    from . import deploy

    out.write("the flash holds no firmware: deploying it (as bgc deploy --offline does)\n")
    out.flush()

    # bgc deploy's own command line, so its defaults (which firmware it ships) hold here too
    parser = argparse.ArgumentParser(prog="bgc")
    deploy.register(parser.add_subparsers())
    args = parser.parse_args(["deploy", "--port", sim.pico.port, "--offline"] +
                             (["--firmware", firmware] if firmware else []))
    said = io.StringIO()
    with contextlib.redirect_stdout(said), contextlib.redirect_stderr(io.StringIO()):
        args.func(args)
    for line in said.getvalue().splitlines():
        out.write("  %s\n" % line)
    out.flush()


def _stepping_reader(sim, stream, stop):
    """readline() for the prompt that keeps the board's frames going while nobody types (the
    players' views, the web page and the serial events follow the board meanwhile)."""
    import queue

    lines = queue.Queue()

    def reader():
        try:
            for line in iter(stream.readline, ""):
                lines.put(line)
        except (OSError, ValueError):
            pass
        lines.put("")

    threading.Thread(target=reader, name="board-prompt", daemon=True).start()

    def readline():
        while not stop.is_set():
            try:
                return lines.get_nowait()
            except queue.Empty:
                sim.step()
        return ""

    return readline


def _play(sim, args, out, stop, chouette):
    """The automated players play a match (--demo) or a chouette evening (--chouette), in real
    time, while the other terminal watches; then the board stays up."""
    from ..board import players as P

    def say(text):
        out.write("   %s\n" % text)
        out.flush()

    rolled = {}

    def on_event(ev):
        kind = ev.get("ev")
        names = (sim.status() or {}).get("names") or ["White", "Black"]
        if kind == "roll" and not ev.get("tie"):
            rolled[ev["p"]] = "%d-%d" % (max(ev["dice"]), min(ev["dice"]))
        elif kind == "play":
            out.write("%s %s: %s\n" % (names[ev["p"]], rolled.pop(ev["p"], ""), ev["move"] or "no move"))
        elif kind == "game_end":
            out.write("game over: %s wins %d point%s (%s)\n" % (
                names[ev["winner"]], ev["points"], "" if ev["points"] == 1 else "s", ev["kind"]))
        elif kind == "ledger" and "points" in ev:
            out.write("game %d: %s\n" % (ev["game"], ", ".join("%s %+g" % (n, p) for n, p in ev["points"])))
        elif kind == "match_end":
            out.write("match over: %s wins %s\n" % (ev["names"][ev["winner"]], "-".join(map(str, ev["score"]))))
        out.flush()

    sim.serial.listeners.append(on_event)
    if chouette:
        from ..board.chouette_players import EVENING, EVENING_NAMES, ChouettePlayers

        players = ChouettePlayers(sim, games=args.games, plan=EVENING, seed=args.seed, on_note=say,
                                  handling=P.Handling(pace=args.pace))
        sim.serial.send("chouette names=" + ",".join(EVENING_NAMES))
    else:
        side = None
        if args.computer is not None:
            from ..board.computer import read_side

            side = read_side(args.computer)
        players = P.Players(sim, seed=args.seed, handling=P.Handling(illegal=0.25, pace=args.pace), on_note=say,
                            computer=side)
        if side is None:  # against the computer, `bgc play` starts the match over the port
            sim.serial.send("new length=%d variant=%s" % (args.length, sim.rules.key))
        else:
            out.write("the automated players wait for `bgc play --port %s --computer %s`\n" % (
                args.link or sim.pico.port, args.computer.lower()))
            out.flush()
    while not players.finished and not stop.is_set():
        sim.step()
    if players.finished:
        out.write("the players are done; the board stays up (journal: %s); Ctrl-C to stop\n" % sim.journal_path())
        out.flush()
