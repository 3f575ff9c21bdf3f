"""bgc vpico: run a virtual Pico (MicroPython on a pseudo-terminal) in the foreground."""

import os
import signal
import sys
import threading

from ..cli import UserError


def register(subparsers):
    p = subparsers.add_parser(
        "vpico",
        help="run a virtual Pico on a pseudo-terminal",
        description="Run a virtual Raspberry Pi Pico with MicroPython on a pseudo-terminal, in the "
        "foreground, until Ctrl-C. Point mpremote or bgc at the port it prints "
        "(e.g. bgc deploy --port PORT).",
    )
    p.add_argument("--flash", metavar="DIR", help="host directory holding the Pico's flash filesystem "
                   "(kept between runs; default: a temporary directory, deleted on exit)")
    p.add_argument("--link", metavar="PATH", help="also make PATH a symlink to the port, a name that "
                   "stays the same between runs")
    p.set_defaults(func=run)


def run(args):
    from ..vpico import VirtualPico, VirtualPicoError

    from .. import files

    if args.flash:
        files.make_folder(args.flash, "--flash", "give a folder for the Pico's flash, or leave --flash out for "
                          "a temporary one")
    if args.link:
        if os.path.lexists(args.link) and not os.path.islink(args.link):
            raise UserError("--link %s exists and is not a symlink\nhint: choose another path, e.g. /tmp/pico"
                            % args.link)
        folder = os.path.dirname(os.path.abspath(args.link))
        if not os.path.isdir(folder) or not os.access(folder, os.W_OK | os.X_OK):
            raise UserError("--link %s: cannot make a link in %s (%s)\nhint: choose a path in a folder you may "
                            "write to, e.g. /tmp/pico" % (args.link, folder, "no such folder" if not
                                                         os.path.isdir(folder) else "no permission"))
    pico = VirtualPico(args.flash, link=args.link)
    try:
        pico.start()
    except VirtualPicoError as exc:
        raise UserError("the virtual Pico did not start: %s" % exc)
    except OSError as exc:
        pico.stop()
        raise UserError("the virtual Pico did not start: %s\nhint: check --flash and --link" % exc) from None
    done = threading.Event()

    def _stop(*_):
        done.set()

    signal.signal(signal.SIGTERM, _stop)
    print(pico.port, flush=True)
    where = "flash: %s" % pico.flash_dir + ("" if args.flash else " (temporary)")
    link = "; link: %s" % args.link if args.link else ""
    print("virtual Pico running (%s%s); Ctrl-C to stop" % (where, link), file=sys.stderr, flush=True)
    try:
        while not done.wait(0.5):
            pass
    except KeyboardInterrupt:
        pass
    finally:
        pico.stop()
    # wasmtime's runtime threads can panic noisily during interpreter shutdown; everything is
    # already closed and flushed, so leave without running the interpreter's teardown.
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(0)
