"""The bgc command line: one sub-command per verb, each in its own module under bgc.commands.

A command module defines ``register(subparsers)`` which adds its parser and sets ``func`` to a
function taking the parsed arguments and returning the exit status.
"""

import argparse
import importlib
import pkgutil
import sys

from . import __version__, commands


class UserError(Exception):
    """A failure the user can act on: printed as ``bgc: <message>`` with exit status 2."""


def build_parser():
    parser = argparse.ArgumentParser(prog="bgc", description="Backgammon board companion: host tool")
    parser.add_argument("--version", action="version", version="bgc " + __version__)
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for info in sorted(pkgutil.iter_modules(commands.__path__), key=lambda m: m.name):
        module = importlib.import_module("bgc.commands." + info.name)
        module.register(sub)
    return parser


def main(argv=None):
    parser = build_parser()
    args = parser.parse_args(argv)
    if not getattr(args, "func", None):
        parser.print_help()
        return 2
    try:
        return args.func(args) or 0
    except UserError as exc:
        print("bgc: %s" % exc, file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        return 0


if __name__ == "__main__":
    sys.exit(main())
