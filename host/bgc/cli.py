"""The bgc command line: one sub-command per verb, each in its own module under bgc.commands.

A command module defines ``register(subparsers)`` which adds its parser and sets ``func`` to a
function taking the parsed arguments and returning the exit status.
"""

import argparse
import importlib
import pkgutil
import re
import sys

from . import __version__, commands
from .errors import SHOWN, UserError, shown


class Parser(argparse.ArgumentParser):
    """argparse, with its usage errors in bgc's own form (one ``bgc:`` line and a hint, exit 2)."""

    def error(self, message):
        verb = self.prog.split(" ", 1)[1] if " " in self.prog else ""
        message = re.sub(r"'([^']{%d,})'" % (SHOWN + 1), lambda m: shown(m.group(1)), message)
        raise _UsageError("%s\nhint: `%s --help` says what each argument takes"
                          % (_clip_line(message), "bgc " + verb if verb else "bgc"))


class _UsageError(Exception):
    pass


def _clip_line(text, limit=300):
    return text if len(text) <= limit else text[:limit] + "..."


def message_lines(message, verb=None):
    """The two lines printed for a UserError: ``bgc: what happened`` and ``hint: what to do``.

    A message spread over several lines is joined into one; an over-long one is cut (it may hold
    the user's input); a message without a hint gets the command's --help as its hint."""
    lines = [line.strip() for line in str(message).splitlines() if line.strip()]
    hints = [line for line in lines if line.startswith("hint:")]
    what = " ".join(line for line in lines if not line.startswith("hint:")) or "failed"
    if hints:
        hint = " ".join(h[len("hint:"):].strip() for h in hints)
    else:
        hint = "`bgc %s --help` says what each argument takes" % verb if verb else "`bgc --help` lists the commands"
    return ["bgc: " + _clip_line(what), "hint: " + _clip_line(hint, 600)]


def build_parser():
    parser = Parser(prog="bgc", description="Backgammon board companion: host tool")
    parser.add_argument("--version", action="version", version="bgc " + __version__)
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for info in sorted(pkgutil.iter_modules(commands.__path__), key=lambda m: m.name):
        module = importlib.import_module("bgc.commands." + info.name)
        module.register(sub)
    return parser


def main(argv=None):
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
    except _UsageError as exc:
        print("\n".join(message_lines(exc)), file=sys.stderr)
        return 2
    if not getattr(args, "func", None):
        parser.print_help()
        return 2
    try:
        return args.func(args) or 0
    except UserError as exc:
        print("\n".join(message_lines(exc, args.command)), file=sys.stderr)
        return 2
    except BrokenPipeError:  # the reader went away (`bgc replay ... | head`): not an error
        return 0
    except OSError as exc:
        # A file or device error no command foresaw: still one line the user can act on.
        where = " %s" % shown(exc.filename) if exc.filename else ""
        print("\n".join(message_lines("%s%s\nhint: check the path, its permissions and the free space, then run "
                                       "the command again" % (exc.strerror or exc, where), args.command)),
              file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":
    sys.exit(main())
