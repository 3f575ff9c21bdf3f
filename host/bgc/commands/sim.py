"""bgc sim: the real firmware on the virtual board.

    bgc sim --demo [--seed N] [--length N] [--fast | --delay MS]   two automated players
    bgc sim --chouette [--games N]                                   four automated players: a chouette evening
    bgc sim                                                          you play, from a prompt
    bgc sim --script FILE                                            a scenario; exit 1 at the first unmet expectation
    bgc sim --computer black [--level L] [--demo]                     against GNU Backgammon (you, or the automated hands)
    bgc sim --computer black --length 0 [--games N] [--beavers N] [--no-jacoby]   a money session against it
    bgc sim --computer black --engine board [--level L] [--demo]      against the board's own player
"""

import json
import os
import sys
import tempfile

from ..errors import UserError, shown
from ..rules.engine import add_variant_argument, read_variant

PROMPT_HELP = """\
commands (points are the board's numbers, white's numbering; b1..b24 are black's own):
  lift POINT|bar white|bar black    take the top checker into the hand
  place POINT|bar|off               put the held checker down (off = borne off)
  hover POINT [MM]                  hold the checker over a point
  move FROM TO                      lift, slide and place in one go
  press white|black roll|done|cube [long]
                                    (against the computer, your roll long: its best play for your
                                    roll in your turn to move; your last play taken back otherwise)
  dice D1 D2                        force the next roll
  wait MS                           let the firmware run (virtual time; real time on bgc vpico --board)
  send LINE                         a command on the serial line (e.g. send new length=3)
  practise POSITION_ID [MATCH_ID]   a new match from that position, as bgc setup (the red LEDs: points to fix)
  powercut                          cut the power and power up again
  expect ...                        any expectation of the script format (docs/sim.md)
  show                              the board, the LEDs and the OLED
  events [N]                        the last N serial events (default 10)
  help, quit"""


def register(sub):
    p = sub.add_parser("sim", help="run the real firmware on the virtual board (demo, interactive, scripted)",
                       description="Run the firmware (what bgc deploy ships) on the virtual board. --demo: two automated "
                                   "players play a short match; --script FILE: play a scenario and check its "
                                   "expectations; neither: play yourself from a prompt (docs/sim.md).")
    mode = p.add_mutually_exclusive_group()
    mode.add_argument("--demo", action="store_true", help="two automated players play a short match")
    mode.add_argument("--chouette", action="store_true",
                      help="four automated players play a chouette evening (docs/chouette.md)")
    mode.add_argument("--script", metavar="FILE", help="run a scenario script (docs/sim.md); exit 1 at the first unmet expectation")
    p.add_argument("--seed", type=int, default=1, help="seed of the board's noise, the dice and the players (default 1)")
    p.add_argument("--length", type=int, default=1, help="demo: match length in points (default 1); 0 against the computer: a money session of --games games")
    p.add_argument("--games", type=int, default=4,
                   help="chouette: games in the evening; a money session against the computer (--length 0): "
                        "games in the session (default 4)")
    speed = p.add_mutually_exclusive_group()
    speed.add_argument("--fast", action="store_true", help="demo: no pause between views")
    speed.add_argument("--delay", type=int, metavar="MS", default=None,
                       help="demo: real-time pause after each view (default 0 when not a terminal, else 150)")
    p.add_argument("--flash", metavar="DIR", default=None,
                   help="the Pico's flash as a directory (kept; default: a new temporary directory)")
    p.add_argument("--pixels", action="store_true", help="draw the OLED as pixels instead of reading its text")
    p.add_argument("--verbose", "-v", action="store_true", help="script: print each line as it runs")
    p.add_argument("--quiet", "-q", action="store_true", help="demo: only the result")
    p.add_argument("--computer", metavar="SIDE", default=None,
                   help="GNU Backgammon plays this side (white or black): you play the other at the prompt, "
                        "or the automated hands with --demo (docs/player-guide.md)")
    p.add_argument("--level", default=None,
                   help="the computer's level, as GNU Backgammon names it: beginner, casual, intermediate, advanced, "
                        "expert (default), world class, supremo, grandmaster; with --engine board: beginner, club, expert")
    p.add_argument("--engine", default="gnubg", choices=("gnubg", "board"),
                   help="who decides the computer's plays: gnubg (GNU Backgammon on this PC, default) or board "
                        "(the board's own player in the firmware, docs/board-player.md)")
    from .analyze import add_nets_argument

    add_nets_argument(p)
    add_money_arguments(p)
    p.add_argument("--teach", action="store_true",
                   help="with --computer: after each of your plays and cube decisions the OLED says GNU Backgammon's "
                        "mark and the better play when it lost more than the doubtful threshold (as bgc analyze)")
    add_variant_argument(p)
    add_web_arguments(p)
    p.set_defaults(func=run)


def add_money_arguments(p):
    """--no-jacoby, --beavers: a money session's rules against the computer (bgc sim, bgc play)."""
    p.add_argument("--no-jacoby", dest="jacoby", action="store_false",
                   help="money session: without the Jacoby rule (on by default, as in GNU Backgammon)")
    p.add_argument("--beavers", type=int, default=0, metavar="N",
                   help="money session: 1 allows beavers, 2 also raccoons, 3 also otters (default 0: none)")


def add_web_arguments(p):
    """--web, --web-host, --web-port: the live view in a browser (bgc sim, bgc watch)."""
    p.add_argument("--web", action="store_true",
                   help="also serve a live view of the board on a local web page (docs/player-guide.md)")
    p.add_argument("--web-host", default="127.0.0.1", metavar="HOST",
                   help="address the page is served on (default 127.0.0.1: this computer only)")
    p.add_argument("--web-port", type=int, default=8765, metavar="PORT", help="port of the page (default 8765)")


def start_web(args, hub, out=None):
    """Serve ``hub`` as asked by --web-host/--web-port and say where; UserError when it cannot."""
    from ..web import serve

    if not 0 <= args.web_port <= 65535:
        raise UserError("--web-port must be 0..65535")
    try:
        server = serve(hub, args.web_host, args.web_port)
    except OSError as exc:
        raise UserError("cannot serve the web view on %s:%d: %s" % (args.web_host, args.web_port, exc.strerror or exc))
    shown = ", ".join("%s (%s)" % (url, who) if who else url for url, who in server.urls)
    (out or sys.stderr).write("live view: %s; Ctrl-C to stop\n" % shown)
    (out or sys.stderr).flush()
    return server


def web_for_sim(sim, args):
    """The live view of a Sim (--web): the hub follows the board and the serial events."""
    from ..web import Hub
    from ..web.virtual import Follower

    def journal():
        path = sim.journal_path()
        if not path:
            return None
        with open(path) as f:
            return f.read()

    hub = Hub("the virtual board", journal_text=journal)
    server = start_web(args, hub)
    Follower(sim, hub)
    return server


def serve_until_interrupted(server, sleep):
    """Keep the page up after the game (to look at it and save the match) until Ctrl-C."""
    sys.stderr.write("the match is over; the live view stays up until Ctrl-C\n")
    sys.stderr.flush()
    try:
        while True:
            sleep(3600)
    except KeyboardInterrupt:
        pass
    finally:
        server.stop()


def run(args):
    from ..board import sim as simmod

    money_vs_computer = args.length == 0 and args.computer is not None
    if (args.length < 1 and not money_vs_computer) or args.length > 64:
        raise UserError("--length must be 1..64, got %s\nhint: a match of 1 to 64 points (0, a money session, "
                        "against the computer: --computer)" % shown(args.length, 10))
    if args.delay is not None and not 0 <= args.delay <= 60000:
        raise UserError("--delay must be 0..60000 ms, got %s\nhint: --fast shows the views without pausing"
                        % shown(args.delay, 10))
    if args.script and args.web:
        raise UserError("--web shows the demo or your own play (--demo, or no --script)")
    from ..logs import files

    args.computer_side = None
    if args.level is not None and args.computer is None:
        raise UserError("--level is the computer's: give --computer white or --computer black too")
    if getattr(args, "teach", False) and args.computer is None:
        raise UserError("--teach is the computer's: give --computer white or --computer black too")
    if args.computer is not None:
        from ..board.computer import read_engine_level, read_side

        try:
            args.computer_side = read_side(args.computer)
            args.level = read_engine_level(args.engine, args.level)
        except ValueError as exc:
            raise UserError("%s\nhint: --computer white|black [--level expert] [--engine gnubg|board]" % exc)
        if args.script or args.chouette:
            raise UserError("--computer plays a match: with --demo, or at the prompt")
        if getattr(args, "teach", False) and args.engine == "board":
            raise UserError("--teach is GNU Backgammon's analysis on the PC: with --engine gnubg")
        if args.variant not in ("standard", "nackgammon"):
            raise UserError("GNU Backgammon plays the standard game and Nackgammon, not %s" % args.variant)
        from ..board.computer import new_match

        try:
            new_match(args.computer_side, args.level, args.length, args.jacoby, args.beavers)
        except ValueError as exc:
            raise UserError("%s\nhint: bgc sim --computer black --length 0 --beavers 1" % exc)
    elif args.beavers or not args.jacoby:
        raise UserError("--beavers and --no-jacoby are a money session's against the computer: give --computer and --length 0")
    if not 1 <= args.games <= 50:
        raise UserError("--games must be 1..50, got %s" % shown(args.games, 10))
    # (a --flash folder made here is gone again if the run fails before the board writes in it)
    with files.output_folder(args.flash or None, "--flash", "give a folder for the Pico's flash, or leave "
                             "--flash out for a temporary one"):
        return _run(args, simmod)


def _run(args, simmod):
    if args.script:
        return run_script(args, simmod)
    if args.demo:
        return run_demo(args, simmod)
    if args.chouette:
        return run_chouette(args, simmod)
    return run_interactive(args, simmod)


def _make_sim(simmod, args, setup="start", boot=True):
    try:
        # (a temporary flash made here, not by the Sim: the journal it names at the end is kept)
        flash = args.flash or tempfile.mkdtemp(prefix="bgc-sim-flash-")
        return simmod.Sim(flash_dir=flash, seed=args.seed, setup=setup, boot=boot,
                          rules=read_variant(args.variant))
    except simmod.SimError as exc:
        raise UserError(str(exc))


def _sim_and_web(simmod, args):
    """The Sim and, with --web, its live view; the Sim closed again when the view cannot start."""
    sim = _make_sim(simmod, args)
    try:
        return sim, (web_for_sim(sim, args) if args.web else None)
    except BaseException:
        sim.close()
        raise


def view_text(sim, pixels=False):
    return sim.view(pixels)


# ------------------------------------------------------------------ --script
def run_script(args, simmod):
    from ..logs import files
    from ..board import scenario

    files.check_input(args.script, "the script", "give a scenario file (docs/sim.md)")
    try:
        with open(args.script, encoding="utf-8") as f:
            text = f.read()
    except OSError as exc:
        raise UserError("cannot read the script %s: %s\nhint: give a scenario file (docs/sim.md)"
                        % (args.script, exc.strerror or exc)) from None
    except UnicodeDecodeError as exc:
        raise UserError("the script %s is not UTF-8 text (byte %d)\nhint: a scenario is a text file of steps "
                        "(docs/sim.md); save it as UTF-8" % (args.script, exc.start)) from None
    name = os.path.basename(args.script)
    try:
        steps = scenario.parse(text, name)
    except scenario.ScenarioSyntaxError as exc:
        raise UserError(str(exc))
    sim = _make_sim(simmod, args, boot=False)  # powered up by the first step that needs time
    try:
        scenario.Runner(sim, sys.stdout, name, args.verbose).run(steps)
    except scenario.ExpectationFailed as exc:
        print(str(exc), file=sys.stderr)
        return 1
    finally:
        sim.close()
    print("%s: %d steps, every expectation met (journal: %s)" % (name, len(steps), sim.journal_path() or "none"))
    return 0


# ------------------------------------------------------------------ --chouette
def run_chouette(args, simmod):
    from bgrules.chouette import cube_words, signed

    from ..logs import chouette_log
    from ..board import players as P
    from ..board.chouette_players import ChouettePlayers, EVENING, EVENING_NAMES

    if not 1 <= args.games <= 50:
        raise UserError("--games must be 1..50")
    out = sys.stdout
    sim = _make_sim(simmod, args)

    def say(text):
        if not args.quiet:
            out.write("   %s\n" % text)

    seen = {}

    def on_event(ev):
        kind = ev.get("ev")
        if kind == "seat":
            say("%s rolls %d for the seats" % (ev["name"], ev["die"]))
        elif kind == "chouette" and ev["line"] != seen.get("line"):
            seen["line"] = ev["line"]
            say("the line: %s (box %s, captain %s; %s)" % (", ".join(ev["line"]), ev["box"], ev["captain"],
                                                            cube_words(ev["cubes"])))
        elif kind == "ledger" and "points" in ev:
            out.write("game %d: %s\n" % (ev["game"], ", ".join("%s %s" % (n, signed(p)) for n, p in ev["points"])))

    sim.serial.listeners.append(on_event)
    players = ChouettePlayers(sim, games=args.games, plan=EVENING, seed=args.seed, on_note=say)
    sim.serial.send("chouette names=" + ",".join(EVENING_NAMES))
    try:
        limit = 3600 * 1000 * args.games
        while not players.finished and sim.board.clock.ms < limit:
            sim.step()
        journal = sim.journal_path()
        if not players.finished:
            print("bgc sim: the evening did not finish (stuck at phase %r)" % (sim.status() or {}).get("phase"),
                  file=sys.stderr)
            return 1
        log = chouette_log.load(journal)
        out.write("\n" + "\n".join(chouette_log.ledger_lines(log)) + "\n")
        out.write("Journal: %s (bgc replay / bgc export -f csv)\n" % journal)
    finally:
        sim.close()
    return 0


# ------------------------------------------------------------------ --demo
class DemoView:
    """What the demo shows. On a terminal: one board, redrawn in place (rich), in colour, with the
    latest lines of the story under it. Elsewhere (a log, a pipe): the story, one line per turn,
    and the board once at the start and once at the end, as plain text."""

    STORY_LINES = 6

    def __init__(self, sim, out, pixels=False, delay=0, sleep=None, quiet=False):
        self.sim = sim
        self.out = out
        self.pixels = pixels
        self.delay = delay
        self.sleep = sleep
        self.quiet = quiet
        self.tty = out.isatty()
        self.story = []
        self.title = ""
        self.boards = 0
        self.live = None
        if self.tty and not quiet:
            from rich.console import Console
            from rich.live import Live

            console = Console(file=out, highlight=False)
            self.live = Live(console=console, auto_refresh=False, redirect_stdout=False,
                             redirect_stderr=False, vertical_overflow="visible")
            self.live.start()

    def _renderable(self):
        from rich.console import Group
        from rich.text import Text

        from ..board.virtual.render import rich_text

        head = Text("%s  (t=%.1f s)" % (self.title, self.sim.board.clock.ms / 1000.0), style="bold")
        story = Text("\n".join(self.story[-self.STORY_LINES:]))
        return Group(head, rich_text(self.sim.view_lines(self.pixels)), Text(""), story)

    def board(self, title):
        """A moment worth a look at the board."""
        self.title = title
        self.boards += 1
        if self.quiet:
            return
        if self.live is not None:
            self.live.update(self._renderable(), refresh=True)
            if self.delay:
                self.sleep(self.delay / 1000.0)
        elif self.boards == 1:
            self._plain_board(title)

    def _plain_board(self, title):
        self.out.write("\n== %s  (t=%.1f s)\n%s\n\n" % (title, self.sim.board.clock.ms / 1000.0, self.sim.view(self.pixels)))
        self.out.flush()

    def say(self, text):
        """A line of the story."""
        self.story.append(text)
        if self.quiet:
            return
        if self.live is not None:
            self.live.update(self._renderable(), refresh=True)
        else:
            self.out.write("   %s\n" % text)

    def close(self, finished):
        if self.live is not None:
            self.live.update(self._renderable(), refresh=True)
            self.live.stop()
            self.live = None
        elif finished and not self.quiet:
            self._plain_board("the end")


def run_demo(args, simmod):
    from ..board import players as P
    from ..pico.events import describe

    out = sys.stdout
    delay = 0 if args.fast else args.delay
    if delay is None:
        delay = 150 if (out.isatty() or args.web) else 0
    sim, server = _sim_and_web(simmod, args)
    if server is not None and not out.isatty():
        # The page is the view: the players move at a pace a watcher can follow.
        sleep = simmod.real_time().sleep
        sim.on_frame.append(lambda s: sleep(0.002))
    view = DemoView(sim, out, args.pixels, delay, simmod.real_time().sleep, args.quiet)
    state = {"lifted": False, "lift_views": 0, "finished": False}
    show = view.board
    say = view.say

    names = ["White", "Black"]
    rolled = {}
    pending = []

    def on_event(ev):
        pending.append(ev)

    sim.serial.listeners.append(on_event)
    computer = _computer_at(sim, args)
    money = args.length == 0
    players = P.Players(sim, seed=args.seed, handling=P.Handling(illegal=0.25), on_note=say,
                        computer=args.computer_side, games=args.games if money else None)
    sim.serial.send(_new_match_line(args, sim))
    told = 0
    try:
        limit = 3600 * 1000 * (args.games if money else args.length)  # an hour a point (a game): something is stuck
        while not players.finished and sim.board.clock.ms < limit:
            sim.step()
            if computer is not None and len(computer.notes) > told:
                for words in computer.notes[told:]:
                    say("teacher (GNU Backgammon's mark, on the OLED): %s" % words)
                told = len(computer.notes)
            if sim.board.hand is not None:
                if not state["lifted"] and _lit(sim):
                    state["lifted"] = True
                    if state["lift_views"] < 3 or state["lift_views"] % 10 == 0:
                        show("a checker is lifted: green LEDs show where it may go, blue where it came from")
                    state["lift_views"] += 1
            else:
                state["lifted"] = False
            while pending:
                ev = pending.pop(0)
                kind = ev.get("ev")
                if kind == "new":
                    names = ev["settings"]["names"]
                    rules = ev["settings"]
                    if rules["length"]:
                        say("new %d-point match, journal %s" % (rules["length"], ev["journal"]))
                    else:
                        say("new money session of %d games%s%s, journal %s" % (
                            args.games, ", Jacoby" if rules.get("jacoby") else "",
                            ", beavers" if rules.get("beavers") else "", ev["journal"]))
                elif kind == "roll":
                    d = ev["dice"]
                    if ev.get("opening"):
                        if ev.get("tie"):
                            say("opening roll %d-%d: a tie, roll again" % (d[0], d[1]))
                        else:
                            say("opening roll: White %d, Black %d; %s starts" % (d[0], d[1], names[ev["p"]]))
                            rolled[ev["p"]] = "%d-%d" % (max(d), min(d))
                            sim.run_ms(30)
                            show("%s to play %d-%d" % (names[ev["p"]], max(d), min(d)))
                    else:
                        rolled[ev["p"]] = "%d-%d" % (max(d), min(d))
                        sim.run_ms(30)
                        show("%s rolls %s" % (names[ev["p"]], rolled[ev["p"]]))
                elif kind == "illegal":
                    sim.run_ms(30)
                    say("%s: illegal (%s), red LED on %s" % (names[ev["p"]], ev["reason"], _where_led(ev.get("board_point"))))
                    show("%s: illegal (%s)" % (names[ev["p"]], ev["reason"]))
                elif kind == "ok":
                    say("corrected: the board is legal again")
                elif kind == "play":
                    say("%s %s: %s" % (names[ev["p"]], rolled.pop(ev["p"], "rolled"), ev["move"] or "no move (none is possible)"))
                    sim.run_ms(30)
                    show("after %s's play" % names[ev["p"]])
                elif kind == "cube":
                    say(describe(ev, {"names": names}))  # the same words as bgc watch: "Black takes (cube 2)"
                elif kind == "resign":
                    say("%s: resignation %s" % (names[ev["p"]], ev["action"]))
                elif kind == "ask":
                    say("the sensors cannot tell two plays apart: the player confirms which")
                elif kind == "game_end":
                    say("game over: %s wins %d point%s (%s); score %d-%d" % (
                        names[ev["winner"]], ev["points"], "" if ev["points"] == 1 else "s", ev["kind"],
                        ev["score"][0], ev["score"][1]))
                elif kind == "gnu":
                    sim.run_ms(30)
                    show("%s (GNU Backgammon, %s) plays %s: the LEDs show its checkers" % (
                        names[ev["p"]], args.level, ev["move"]))
                elif kind == "error":
                    say("firmware error: %s" % ev.get("error"))
        end = sim.serial.last("match_end")
        journal = sim.journal_path()
        st = players.stats
        if money and players.finished:
            # a money session has no end of its own: it ends after the games asked for
            view.close(True)
            score = (sim.serial.last("game_end") or {}).get("score", [0, 0])
            out.write("\nSession over: %s %d, %s %d after %d games (money, %.0f s of play on the board)\n" % (
                names[0], score[0], names[1], score[1], st["games"], sim.board.clock.ms / 1000.0))
            out.write("%d turns, %d checkers moved by hand, %d false illegal flags\nJournal: %s\n" % (
                st["turns"], st["checker_moves"], st["false_illegal"], journal))
            out.flush()
            return 0
        state["finished"] = end is not None
        view.close(state["finished"])
        if end is None:
            print("bgc sim: the match did not finish (stuck at phase %r after %.0f s of play)" % (
                (sim.status() or {}).get("phase"), sim.board.clock.ms / 1000.0), file=sys.stderr)
            return 1
        out.write("\nMatch over: %s wins %d-%d (%d-point match, %d game%s, %.0f s of play on the board)\n" % (
            end["names"][end["winner"]], end["score"][end["winner"]], end["score"][1 - end["winner"]],
            args.length, st["games"], "" if st["games"] == 1 else "s", sim.board.clock.ms / 1000.0))
        out.write("%d turns, %d checkers moved by hand, %d wrong placements flagged and corrected, "
                  "%d false illegal flags\n" % (st["turns"], st["checker_moves"],
                                                 sum(1 for w in players.wrong_placements if w["flagged"]),
                                                 st["false_illegal"]))
        out.write("Journal: %s\n" % journal)
        out.flush()
        if server is not None:
            serve_until_interrupted(server, simmod.real_time().sleep)
            server = None
        return 0
    finally:
        if computer is not None:
            computer.close()
        view.close(False)
        if server is not None:
            server.stop()
        sim.close()


def _computer_at(sim, args):
    """GNU Backgammon on the virtual board when --computer is given (bgc.board.computer)."""
    if getattr(args, "computer_side", None) is None:
        return None
    from ..board.computer import at_sim
    from ..logs.analysis import AnalysisError

    try:
        return at_sim(sim, args.computer_side, args.level, teach=getattr(args, "teach", False),
                      engine=getattr(args, "engine", "gnubg"), nets=getattr(args, "nets", "auto"))
    except AnalysisError as exc:
        raise UserError(str(exc))


def _new_match_line(args, sim):
    if getattr(args, "computer_side", None) is None:
        return "new length=%d variant=%s" % (args.length, sim.series.key)
    from ..board.computer import new_match

    return json.dumps(new_match(args.computer_side, args.level, args.length, args.jacoby, args.beavers, sim.series.key,
                                getattr(args, "engine", "gnubg")))


def _practise(sim, words, out):
    """`practise POSITION_ID [MATCH_ID]` at the prompt: bgc setup's match on the virtual board, the
    names the board's (the computer's, in a match against it). False (and why) for bad input."""
    from .setup import setup_command

    if not 1 <= len(words) <= 2:
        out.write("? usage: practise POSITION_ID [MATCH_ID]\n")
        return False
    st = sim.serial.last("status") or {}
    names = tuple(st.get("names") or ("White", "Black"))
    try:
        cmd, _ = setup_command(words[0], words[1] if len(words) > 1 else None, None, names)
    except UserError as exc:
        out.write("? %s\n" % str(exc).replace("\n", "\n  "))
        return False
    sim.serial.send(json.dumps(dict(cmd, force=True)))
    sim.run_ms(100)
    return True


def _where_led(point):
    """An LED's place in words: point 1..24, 25 White's bar, 0 Black's bar (bgc.board.sim.lit_points)."""
    if point == 25:
        return "White's bar"
    if point == 0:
        return "Black's bar"
    return "point %s" % point


def _lit(sim):
    from ..board import sim as simmod

    return bool(simmod.lit_points(sim.board, "LEGAL"))


# ------------------------------------------------------------------ interactive
def run_interactive(args, simmod):
    sim, server = _sim_and_web(simmod, args)
    out = sys.stdout
    computer = _computer_at(sim, args)
    sim.run_ms(100)
    out.write("The firmware runs on the virtual board (flash: %s). Type help for the commands.\n" % sim.flash_dir)
    if computer is not None:
        sim.serial.send(_new_match_line(args, sim))
        sim.run_ms(100)
        out.write("GNU Backgammon (%s) plays %s: press %s roll for the opening roll; when it is its turn the "
                  "LEDs show its play, move its checkers as lit (`move FROM TO`)\n" % (
                      args.level, args.computer, "black" if args.computer_side == 0 else "white"))
    else:
        out.write("Start a match with:  send new length=3%s\n" % ("" if args.variant == "standard" else " variant=" + args.variant))
    try:
        prompt(sim, sys.stdin.readline, out, args.pixels, interactive=sys.stdin.isatty())
    finally:
        journal = sim.journal_path()
        if computer is not None:
            computer.close()
        if server is not None:
            server.stop()
        sim.close()
    if journal:
        out.write("Journal: %s\n" % journal)
    return 0


def prompt(sim, readline, out, pixels=False, interactive=False, name="sim"):
    """The prompt of PROMPT_HELP on ``sim`` (a bgc.sim.Sim, or bgc.vboard's BoardSim): one command
    per line from ``readline()`` ("" at the end of the input), answers on ``out``. Returns True
    when the user typed quit, False at the end of the input."""
    from ..board import scenario, sim as simmod

    runner = scenario.Runner(sim, out, "stdin")
    seen = [len(sim.serial.events)]

    def new_events():
        evs = sim.serial.events[seen[0]:]
        seen[0] = len(sim.serial.events)
        for ev in evs:
            if ev.get("ev") != "status":
                out.write("  < %s\n" % json.dumps(ev))

    new_events()
    number = 0
    while True:
        if interactive:
            out.write("%s> " % name)
        out.flush()
        line = readline()
        if not line:
            return False
        number += 1
        text = line.strip()
        if not text or text.startswith("#"):
            continue
        word = text.split()[0].lower()
        if word in ("quit", "exit", "q"):
            return True
        if word == "help":
            out.write(PROMPT_HELP + "\n")
            continue
        if word == "show":
            out.write(view_text(sim, pixels) + "\n")
            continue
        if word == "events":
            parts = text.split()
            n = int(parts[1]) if len(parts) > 1 and parts[1].isdigit() else 10
            for ev in sim.serial.events[-n:]:
                out.write("  < %s\n" % json.dumps(ev))
            continue
        if word == "send":
            sim.serial.send(text[4:].strip())
            sim.run_ms(100)
            new_events()
            continue
        if word in ("practise", "practice"):
            if not _practise(sim, text.split()[1:], out):
                continue
            new_events()
            red = simmod.lit_points(sim.board, "ILLEGAL")
            if red:
                out.write("  red LEDs (checkers missing or extra): %s\n" % ", ".join(map(_where_led, red)))
            out.write("  OLED: %s\n" % " / ".join(r for r in sim.oled_rows() if r))
            continue
        try:
            st = scenario.parse_line(text, number)
            if st is None:
                continue
            runner.run([st])
            if st.op in ("lift", "place", "move", "press", "hover", "slide", "wait", "powercut", "setup"):
                sim.run_ms(100)
        except scenario.ScenarioSyntaxError as exc:
            out.write("? %s\n" % exc.reason)
            continue
        except scenario.ExpectationFailed as exc:
            out.write("expectation not met: %s\n" % exc.detail)
            continue
        new_events()
        if st.op in ("lift", "place", "move"):
            lit = simmod.lit_points(sim.board, "LEGAL")
            red = simmod.lit_points(sim.board, "ILLEGAL")
            if lit:
                out.write("  green LEDs (may go): %s\n" % ", ".join(map(_where_led, lit)))
            if red:
                out.write("  red LEDs (illegal): %s\n" % ", ".join(map(_where_led, red)))
        gnu = [(word, simmod.lit_points(sim.board, colour)) for word, colour in (
            ("to move", "GNU_FROM"), ("to", "GNU_TO"), ("hit", "GNU_HIT"))]
        if any(points for _, points in gnu):
            # the computer's play to make, or the best play the person asked for (hold ROLL)
            out.write("  %s on the LEDs: %s\n" % ("GNU's play" if (sim.status() or {}).get("gnu") else "GNU's hint", "; ".join(
                "%s %s" % (word, ", ".join(map(_where_led, points))) for word, points in gnu if points)))
        rows = [r for r in sim.oled_rows() if r]
        out.write("  OLED: %s\n" % " / ".join(rows))

