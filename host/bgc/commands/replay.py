"""bgc replay: replay a match journal through the rules engine and print the games move by move."""

import sys

from ..errors import UserError


def register(subparsers):
    p = subparsers.add_parser(
        "replay",
        help="replay a match journal move by move and report any illegal play",
        description="Replay a journal through the rules engine (the same one the board runs) and print "
        "every game move by move. Illegal plays the opponent condoned are marked; a play that is not "
        "legal and was not condoned, or a line that cannot be read, stops the replay and is reported "
        "with its line number. Exit status 0 when the whole journal replays, 1 otherwise.",
    )
    p.add_argument("journal", metavar="JOURNAL", help="a journal file (mNNNN.jnl)")
    p.add_argument("--boards", action="store_true", help="draw the board after every move")
    p.add_argument("--quiet", "-q", action="store_true", help="only the summary and the problems")
    p.set_defaults(func=run)


def run(args):
    from ..logs import chouette_log, export, files, journals

    files.check_input(args.journal, "the journal", "give a journal file (mNNNN.jnl), e.g. one `bgc pull` copied")
    if chouette_log.is_chouette_file(args.journal):
        return _chouette(args)
    try:
        log = journals.load(args.journal)
    except OSError as exc:
        raise UserError("cannot read %s: %s" % (args.journal, exc.strerror or exc))
    if log.settings is None:
        why = log.problem[1] if log.problem else "the file is empty"
        raise UserError("%s holds no match: %s\nhint: a journal starts with the match settings line; is this a "
                        "file from the board's /journal?" % (args.journal, why))
    if not args.quiet:
        for line in export.text_lines(log, boards=args.boards):
            print(line)
        print()
    moves = sum(len(g.moves) for g in log.games)
    condoned = log.condoned
    print("%s: %s" % (args.journal, log.summary()))
    print("%d plays checked; %d illegal play%s condoned by the opponent" % (moves, len(condoned),
                                                                         "" if len(condoned) == 1 else "s"))
    for number, act in condoned:
        print("  game %d, line %d: %s" % (number, act["line"], journals.action_text(log, act)))
    backs = [(g.number, acts) for g in log.games for acts in g.taken_back]
    if backs:
        # the journal keeps them; the games above are as finally played
        print("%d play%s taken back against the computer (the games above as finally played):"
              % (len(backs), "" if len(backs) == 1 else "s"))
        for number, acts in backs:
            print("  game %d, line %d: %s" % (number, acts[0]["line"], "; ".join(
                journals.action_text(log, a) for a in acts)))
    if log.problem:
        line, why = log.problem
        print("bgc: %s\nhint: everything before line %d is valid and `bgc export` exports it; %s"
              % (log.damage_text(), line, damage_hint(log)), file=sys.stderr)
        return 1
    print("no illegal play that was not condoned; the journal replays to its end")
    return 0


def damage_hint(log):
    """What a damaged journal's problem most likely means, for the hint line."""
    line, why = log.problem
    if log.later:
        return ("the lines after the damage continue from a state that is lost with the damaged line; the board "
                "keeps such a file whole as mNNNN.jnl.damaged and resumes before the damage")
    if "refused" in why or "record" in why:
        return ("a record that the rules refuse or whose fields are wrong, although its checksum is right, cannot "
                "come from the board's firmware: the file was edited or damaged")
    return "a torn last line comes from a power cut during a write and is normal"


def _chouette(args):
    """A chouette evening: seats, games, every member's cube answer, the ledger."""
    from ..logs import chouette_log

    log = chouette_log.load(args.journal)
    if args.quiet:
        lines = ["%s: %s" % (args.journal, log.summary())] + chouette_log.ledger_lines(log)
    else:
        lines = chouette_log.text_lines(log)
    for line in lines:
        print(line)
    if log.problem:
        print("bgc: the replay stops at %s\nhint: everything before line %d is valid; a torn last line comes from a "
              "power cut during a write and is normal" % (log.problem[1], log.problem[0]), file=sys.stderr)
        return 1
    return 0
