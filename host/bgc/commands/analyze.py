"""bgc analyze: GNU Backgammon's analysis of journaled matches (every play, every cube action,
per player), as a table, JSON or an SGF GNU Backgammon opens with the analysis."""

import json
import os
import sys

from ..errors import UserError


def register(subparsers):
    p = subparsers.add_parser(
        "analyze",
        help="analyse matches with GNU Backgammon: the best play, equity lost, cube errors, luck",
        description="Analyse each journal with GNU Backgammon's engine (PyPI gnubg: pip install "
        "'bgcompanion[analysis]'): every play with the best one, the equity lost and GNU Backgammon's mark "
        "(doubtful, bad, very bad), every cube decision (the doubles not made included) with the right "
        "action and the error, and per player the errors, the error rate, the luck and GNU Backgammon's "
        "overall error rate and rating. Match play with match equities and the Crawford rule, money "
        "sessions as money. Standard backgammon and Nackgammon only. A damaged journal is analysed up "
        "to the damage; a match in progress up to its last play.",
    )
    p.add_argument("journals", nargs="*", metavar="JOURNAL",
                   help="journal files (m0001.jnl ...) or directories holding them")
    p.add_argument("--port", nargs="?", const="", metavar="PORT",
                   help="analyse the newest journal on a connected board (the match in progress, or the last one); "
                   "PORT: its serial port (default: the only Pico plugged in). The game goes on afterwards")
    p.add_argument("--ply", type=int, default=0, choices=(0, 1, 2, 3),
                   help="GNU Backgammon's look-ahead for plays and cube decisions (default 0; 2 is careful and slower)")
    add_nets_argument(p)
    p.add_argument("--json", action="store_true", help="print the analysis as JSON instead of tables")
    p.add_argument("--sgf", metavar="FILE",
                   help="write the analysed match as SGF (one journal): GNU Backgammon opens it with its analysis, "
                   "and every play and cube action carries a comment saying it in words")
    p.add_argument("--all", action="store_true", help="list every play, not only the errors")
    p.set_defaults(func=run)


def add_nets_argument(p):
    """--nets, for every command that runs GNU Backgammon's engine (analyze, and the computer and
    its teacher in play and sim)."""
    p.add_argument("--nets", default="auto", metavar="auto|engine|FILE",
                   help="the neural nets: auto (default) those of the GNU Backgammon installed on this computer, "
                   "so that the figures are the ones it shows for the same match, else the engine's own (newer: "
                   "docs/analysis.md says how they differ); engine: the engine's own; FILE: a gnubg.wd or "
                   "gnubg.weights")


def run(args):
    from ..logs import analysis, files, journals

    if args.port is not None:
        if args.journals:
            raise UserError("give journals or --port, not both\nhint: `bgc analyze --port` analyses the board's "
                            "newest journal; `bgc pull` copies them all")
        if analysis.engine_version() is None:
            raise UserError(analysis.ENGINE_MISSING)
        import tempfile

        with tempfile.TemporaryDirectory(prefix="bgc-analyze-board-") as tmp:
            args.journals = [_from_board(args.port, tmp)]
            return _run(args)
    if not args.journals:
        raise UserError("no journal given\nhint: bgc analyze JOURNAL... (the files `bgc pull` copied), or "
                        "--port for the match on a connected board")
    return _run(args)


def _from_board(port, folder):
    """A copy of the newest journal on the board, in ``folder``; the firmware restarts and resumes."""
    from ..logs.files import write_file
    from ..pico import device
    from .pull import JOURNAL_DIR, list_journals, read_file, restart_firmware

    with device.connect(port or None) as transport:
        files, _ = list_journals(transport)
        names = [f[0] for f in files or [] if f[0].endswith(".jnl")]
        if not names:
            restart_firmware(transport)
            raise UserError("the board holds no match journal yet\nhint: play a match on it first")
        data = read_file(transport, JOURNAL_DIR + "/" + names[-1], lambda done, total: None)
        restart_firmware(transport)
    path = os.path.join(folder, names[-1])
    write_file(path, data, hint="check the space in the temporary folder")
    print("analysing %s from the board" % names[-1], file=sys.stderr)
    return path


def _run(args):
    from ..logs import analysis, files, journals

    for j in args.journals:
        if not os.path.exists(j):
            raise UserError("no such journal: %s\nhint: `bgc pull` copies the journals off the board into ./journals"
                            % j)
        if not os.path.isdir(j):
            files.check_input(j, "the journal", "give a .jnl file or a folder of them")
    paths = journals.journal_files(args.journals)
    if not paths:
        raise UserError("no journal files (*.jnl) in %s\nhint: `bgc pull` copies the journals off the board"
                        % ", ".join(args.journals))
    if args.sgf and len(paths) != 1:
        raise UserError("--sgf writes one match; %d journals were given\nhint: analyse one journal at a time "
                        "with --sgf" % len(paths))
    if analysis.engine_version() is None:
        raise UserError(analysis.ENGINE_MISSING)
    try:
        analysis.choose_nets(args.nets)
    except analysis.AnalysisError as exc:
        raise UserError(str(exc)) from None
    logs = []
    for path in paths:
        try:
            logs.append((path, journals.load(path)))
        except OSError as exc:
            raise UserError("cannot read %s: %s" % (path, exc.strerror or exc)) from None
    results, status = [], 0
    for path, log, result in _analyse_all(logs, args.ply, args.nets):
        if isinstance(result, Exception):
            what, _, hint = str(result).partition("\nhint: ")
            print("bgc: %s: %s" % (path, what), file=sys.stderr)
            if hint:
                print("hint: " + hint, file=sys.stderr)
            status = 2
            continue
        results.append(result)
        for note in result["notes"]:
            print("bgc: %s: %s" % (path, note), file=sys.stderr)
        if log.problem:
            status = max(status, 1)
    if not results:
        return 2
    if args.sgf:
        r = results[0]
        files.write_file(args.sgf, analysis.commented_sgf(r["sgf"], r["games"], r["names"]),
                         hint="choose another file with --sgf")
    if args.json:
        out = [{k: v for k, v in r.items() if k != "sgf"} for r in results]
        json.dump(out[0] if len(out) == 1 else out, sys.stdout, indent=1)
        sys.stdout.write("\n")
    else:
        for r in results:
            show(r, every=args.all)
    if args.sgf:
        print("analysed match -> %s" % args.sgf, file=sys.stderr)
    return status


def _analyse_all(logs, ply, nets="auto"):
    """Yield (path, log, result or the exception that stopped it), with a progress bar on a
    terminal (in plays; it advances as the engine finishes each game)."""
    from ..logs import analysis

    def one(path, log, progress=None):
        if log.settings is None:
            why = log.problem[1] if log.problem else "the file is empty"
            return analysis.NoAnalysis("nothing to analyse: %s\nhint: is it a match journal from the board "
                                       "(/journal/mNNNN.jnl)?" % why)
        try:
            return analysis.analyse(log, ply, nets=nets, progress=progress)
        except (analysis.NoAnalysis, analysis.AnalysisError) as exc:
            return exc

    if not sys.stderr.isatty():
        for path, log in logs:
            yield path, log, one(path, log)
        return
    from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn

    total = sum(len(g.moves) for _, log in logs for g in log.games) or 1
    with Progress(TextColumn("{task.description}"), BarColumn(), TextColumn("{task.completed}/{task.total} plays"),
                  TimeElapsedColumn(), transient=True) as progress:
        task = progress.add_task("GNU Backgammon, %d-ply" % ply, total=total)
        done = []
        for path, log in logs:
            progress.update(task, description="%s, %d-ply" % (os.path.basename(path), ply))
            plays = [len(g.moves) for g in log.games]
            advanced = []

            def game_done(index, plays=plays, advanced=advanced):
                step = plays[index] if index < len(plays) else 0
                advanced.append(step)
                progress.advance(task, step)

            done.append((path, log, one(path, log, game_done)))
            progress.advance(task, sum(plays) - sum(advanced))
    yield from done


def _eq(x):
    return "%+.3f" % x


def show(r, every=False, console=None):
    """The analysis as rich tables: the plays (errors only unless ``every``), the cube
    decisions that matter, the players."""
    from rich.console import Console
    from rich.table import Table

    console = console or Console()
    names = r["names"]
    kind = "money session" if r["money"] else "%d-point match" % r["length"]
    console.print("[bold]%s[/]: %s, %s vs %s, analysed by %s at %d-ply" % (
        r["journal"], kind, names[0], names[1], r["engine"], r["ply"]))
    if r.get("nets"):
        console.print("nets: %s" % r["nets"]["text"], highlight=False)
    th = r["thresholds"]
    console.print("marks: doubtful > %.3f, bad > %.3f, very bad > %.3f (equity lost, EMG)" % (
        th.get("doubtful", 0), th.get("bad", 0), th.get("very bad", 0)))
    plays = Table(title="Plays" if every else "Plays that lost equity (> 0.001)", show_lines=False)
    for col in ("game", "#", "player", "roll", "played", "best", "lost", "mark", "luck"):
        plays.add_column(col, justify="right" if col in ("game", "#", "lost", "luck") else "left")
    cubes = Table(title="Cube decisions (doubles, answers, and missed or close ones)")
    for col in ("game", "#", "player", "action", "right", "no double", "double/take", "error", "mark"):
        cubes.add_column(col, justify="right" if col in ("game", "#", "no double", "double/take", "error") else "left")
    for g in r["games"]:
        for i, rec in enumerate(g["records"], 1):
            who = names[rec["player"]]
            if rec["kind"] == "move" and (every or rec.get("loss", 0.0) > 0.001):
                plays.add_row(str(g["number"]), str(i), who, "%d%d" % tuple(rec["dice"]), rec["played"],
                              rec.get("best", ""), "%.3f" % rec["loss"] if "loss" in rec else "",
                              rec.get("mark") or "", _eq(rec["luck"]) if "luck" in rec else "")
            c = rec.get("cube")
            if c and "right" in c and (c["action"] != "no double" or c["error"] > 0.0005 or every):
                cubes.add_row(str(g["number"]), str(i), who, c["action"], c["right"], _eq(c["no_double"]),
                              _eq(c["double_take"]), "%.3f" % c["error"], c.get("mark") or "")
    console.print(plays)
    if cubes.row_count:
        console.print(cubes)
    players = Table(title="Players (EMG: equity normalised to a cube of 1)")
    players.add_column("")
    for n in names:
        players.add_column(n, justify="right")
    tot = r["players"]
    stats = r.get("gnubg_statistics", {})
    rows = [
        ("plays (unforced)", ["%d (%d)" % (t["plays"], t["unforced"]) for t in tot]),
        ("doubtful / bad / very bad", ["%d / %d / %d" % (t["marks"]["doubtful"], t["marks"]["bad"],
                                                          t["marks"]["very bad"]) for t in tot]),
        ("equity lost in plays", ["%.3f" % t["play_error"] for t in tot]),
        ("error rate in plays, mEMG", ["%.1f" % t["play_error_rate"] for t in tot]),
        ("cube decisions / errors", ["%d / %d" % (t["cube_decisions"], t["cube_errors"]) for t in tot]),
        ("missed doubles", [str(t["missed_doubles"]) for t in tot]),
        ("wrong doubles / takes / passes", ["%d / %d / %d" % (t["wrong_doubles"], t["wrong_takes"],
                                                               t["wrong_passes"]) for t in tot]),
        ("equity lost in cube decisions", ["%.3f" % t["cube_error"] for t in tot]),
        ("luck (EMG)", [_eq(t["luck"]) for t in tot]),
    ]
    overall = stats.get("overall", {})
    unit = overall.get("unit", "MWC").lower().replace("mwc", "MWC")
    for key, label in (("error_rate", "overall error rate, mEMG (%s)" % unit), ("snowie_error_rate", "Snowie error rate"),
                       ("rating", "GNU Backgammon's rating")):
        if key in overall:
            rows.append((label, overall[key]))
    luck = stats.get("luck", {})
    if "luck_rating" in luck:
        rows.append(("luck rating", luck["luck_rating"]))
    for label, vals in rows:
        players.add_row(label, *vals)
    console.print(players)
