"""bgc export: match journals to Jellyfish .mat, backgammon SGF, JSON or text, one file per match."""

import os
import sys

from ..errors import UserError, shown


def register(subparsers):
    from ..logs.export import FORMATS

    p = subparsers.add_parser(
        "export",
        help="export match journals for GNU Backgammon (.mat, .sgf), as JSON or as text; a chouette's ledger as CSV",
        description="Write one file per journal: the Jellyfish .mat match format as GNU Backgammon writes "
        "it, GNU Backgammon's backgammon SGF, the match as JSON, or the game move by move as text. A "
        "damaged journal is exported up to the line where it stops, and that line is reported. A chouette "
        "journal exports as csv (the ledger: points per player per game and running totals), json or text.",
    )
    p.add_argument("journals", nargs="+", metavar="JOURNAL",
                   help="journal files (m0001.jnl ...) or directories holding them (e.g. what `bgc pull` wrote)")
    p.add_argument("--format", "-f", choices=FORMATS, default="mat", help="output format (default: mat)")
    p.add_argument("-o", "--output", metavar="OUT",
                   help="output file (one journal), or directory (created if missing); '-' writes to stdout. "
                   "Default: beside each journal, with the format's extension")
    p.add_argument("--check", action="store_true",
                   help="import each .mat/.sgf written into GNU Backgammon and compare every position and "
                   "score with the journal (needs gnubg)")
    p.add_argument("--date", metavar="YYYY.MM.DD", help="event date for the .mat header")
    p.set_defaults(func=run)


def _targets(paths, fmt, output, many=False):
    """(the file each journal is written to, the output folder -o names or None)."""
    from ..logs.export import EXTENSIONS

    ext = EXTENSIONS[fmt]
    if output == "-":
        if len(paths) != 1:
            raise UserError("-o - writes one journal to stdout; %d were given" % len(paths))
        return ["-"], None
    out_dir = None
    if output:
        if many or len(paths) > 1 or os.path.isdir(output) or output.endswith(os.sep):
            out_dir = output
        else:
            return [output], None
    targets = []
    for p in paths:
        stem = os.path.splitext(os.path.basename(p))[0]
        targets.append(os.path.join(out_dir if out_dir else os.path.dirname(p), stem + ext))
    return targets, out_dir


def _check_arguments(args):
    """Refuse bad options before anything is read or written."""
    from ..logs import files
    from ..logs.export import GNUBG_MISSING, find_gnubg
    from ..logs.export_mat import event_date

    if args.date is not None:
        try:
            args.date = event_date(args.date)
        except ValueError as exc:
            raise UserError("--date %s: %s\nhint: write the match date as YYYY.MM.DD, e.g. 2025.06.30"
                            % (shown(args.date, 20), exc)) from None
    if args.check and args.format not in ("mat", "sgf"):
        raise UserError("--check compares .mat and .sgf exports with GNU Backgammon; this is --format %s\n"
                        "hint: drop --check, or export with --format mat or sgf" % args.format)
    for j in args.journals:
        if not os.path.exists(j):
            raise UserError("no such journal: %s\nhint: `bgc pull` copies the journals off the board into "
                            "./journals; give a .jnl file or that directory" % j)
        if not os.path.isdir(j):
            files.check_input(j, "the journal", "give a .jnl file or a folder of them")


def run(args):
    from ..logs import chouette_log, export, files, journals

    _check_arguments(args)
    paths = journals.journal_files(args.journals)
    if not paths:
        raise UserError("no journal files (*.jnl) in %s\nhint: `bgc pull` copies the journals off the board"
                        % ", ".join(args.journals))
    chouettes = [p for p in paths if chouette_log.is_chouette_file(p)]
    if chouettes and args.format in ("mat", "sgf"):
        raise UserError("%s is a chouette journal: GNU Backgammon's .%s holds a match between two players, not a box "
                        "against a team\nhint: bgc export -f csv %s (the ledger) or -f json (everything)"
                        % (chouettes[0], args.format, chouettes[0]))
    if args.format == "csv" and len(chouettes) != len(paths):
        other = [p for p in paths if p not in chouettes][0]
        raise UserError("%s is a match, not a chouette: csv is the chouette ledger\nhint: a match exports as mat, sgf, "
                        "json or text" % other)
    many = any(os.path.isdir(j) for j in args.journals)
    targets, out_dir = _targets(paths, args.format, args.output, many)
    # (an output folder made here is gone again if nothing could be exported into it)
    with files.output_folder(out_dir, "-o", "give -o a folder you may write in"):
        return _export(args, paths, chouettes, targets)


def _export(args, paths, chouettes, targets):
    from ..logs import export, files, journals

    status = 0
    written = []
    for path, target in zip(paths, targets):
        if path in chouettes:
            status = max(status, _chouette(path, target, args.format))
            continue
        try:
            log = journals.load(path)
        except OSError as exc:
            raise UserError("cannot read %s: %s\nhint: give a journal file (mNNNN.jnl) that you may read"
                            % (path, exc.strerror or exc)) from None
        if log.settings is None:
            why = log.problem[1] if log.problem else "the file is empty"
            print("bgc: %s: nothing to export: %s\nhint: is it a match journal from the board (/journal/mNNNN.jnl)?"
                  % (path, why), file=sys.stderr)
            status = 2  # a bad input, as for a single file (bgc.cli.UserError); the others are still exported
            continue
        try:
            text, warnings = export.export_text(log, args.format, args.date)
        except export.NotInFormat as exc:
            print("bgc: %s: %s" % (path, exc), file=sys.stderr)
            status = 2
            continue
        if target == "-":
            sys.stdout.write(text)
        else:
            files.write_file(target, text, hint="choose another output with -o")
            print("%s -> %s: %s" % (path, target, log.summary()), file=sys.stderr if target == "-" else sys.stdout)
            if args.check:
                written.append((target, log))  # kept only to compare with GNU Backgammon
        for w in warnings:
            if w.startswith("the journal stops"):
                continue  # said below, with the hint
            print("bgc: warning: %s: %s" % (os.path.basename(path), w), file=sys.stderr)
        if log.problem:
            status = max(status, 1)
            from .replay import damage_hint

            print("bgc: %s is damaged: %s; exported the %d record%s before it\nhint: %s; `bgc replay %s` shows "
                  "the whole journal" % (path, log.damage_text(), log.records, "" if log.records == 1 else "s",
                                         damage_hint(log), path), file=sys.stderr)
    if args.check:
        if written and not _check(written):
            status = 1
    return status


def _chouette(path, target, fmt):
    from ..logs import chouette_log, files

    try:
        log = chouette_log.load(path)
    except OSError as exc:
        print("bgc: cannot read %s: %s" % (path, exc.strerror or exc), file=sys.stderr)
        return 1
    text, warnings = chouette_log.export_text(log, fmt)
    if target == "-":
        sys.stdout.write(text)
    else:
        files.write_file(target, text, hint="choose another output with -o")  # whole or not at all
        print("%s -> %s: %s" % (path, target, log.summary()))
    if log.problem:
        print("bgc: %s is damaged: it stops at %s; exported the %d record%s before it" % (
            path, log.problem[1], log.records, "" if log.records == 1 else "s"), file=sys.stderr)
        return 1
    return 0


def _check(written):
    from ..logs import export

    try:
        data = export.gnubg_read([t for t, _ in written])
    except export.GnubgError as exc:
        raise UserError(str(exc))
    ok = True
    for (target, log), d in zip(written, data):
        checked, diffs = export.compare(log, d["match"], d["walks"])
        warns = export.gnubg_warnings(d["output"])
        if diffs or warns:
            ok = False
            print("GNU Backgammon disagrees on %s:" % target)
            for line in (warns + diffs)[:20]:
                print("  " + line)
        else:
            print("GNU Backgammon agrees on %s: %d games, %d moves, %d positions, %d cube actions, scores"
                  % (target, checked["games"], checked["moves"], checked["positions"], checked["cube"]))
    return ok
