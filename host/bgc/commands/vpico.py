"""bgc vpico: run a virtual Pico (MicroPython on a pseudo-terminal) in the foreground."""

import os
import signal
import sys
import threading

from ..errors import UserError


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
    from ..pico.vpico import VirtualPico, VirtualPicoError

    if args.flash and os.path.exists(args.flash) and not os.path.isdir(args.flash):
        raise UserError("--flash %s is not a directory" % args.flash)
    if args.link and os.path.exists(args.link) and not os.path.islink(args.link):
        raise UserError("--link %s exists and is not a symlink; choose another path" % args.link)
    try:
        pico = VirtualPico(args.flash, link=args.link)
    except OSError as exc:
        raise UserError("cannot use %s as the flash directory: %s\nhint: give --flash a directory you can "
                        "write to (it is created if missing)" % (args.flash, exc.strerror or exc))
    try:
        pico.start()
    except VirtualPicoError as exc:
        raise UserError("the virtual Pico did not start: %s" % exc)
    done = threading.Event()

    def _stop(*_):
        done.set()

    signal.signal(signal.SIGTERM, _stop)
    print(pico.port, flush=True)
    where = "flash: %s" % pico.flash_dir + ("" if args.flash else " (temporary)")
    link = "; link: %s" % args.link if args.link else ""
    interpreter = "; MicroPython: %s, %d kB heap" % (" ".join(pico.micropython), pico.heap_kb)
    print("virtual Pico running (%s%s%s); Ctrl-C to stop" % (where, link, interpreter), file=sys.stderr, flush=True)
    try:
        while not done.wait(0.5):
            pass
    except KeyboardInterrupt:
        pass
    finally:
        pico.stop()
    return 0
