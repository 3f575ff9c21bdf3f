"""bgc bench --port: the emulated Pico's benchmark (scripts/bench/bench_pico.py) run on a connected board,
a real Pico or ``bgc vpico``, printed as the same table (docs/performance.md).

The steps are the same guest programs (bgc.board.bench_guest): the heap after boot and after
importing the firmware, the hall scan and the classifier, one journal append, and a whole 1-point
match through main.App with the players' plan read from a file. On the board they go in /bench
(the plan, the benchmark's journal, the virtual board's frame builder), which is removed at the
end: the board's own journal and settings are not touched. The firmware measured is the one the
board has (the image, or the .mpy files of ``bgc deploy``).
"""

import tempfile
import time

from ..errors import UserError

BENCH_DIR = "/bench"


def register_options(p):
    p.add_argument("--port", metavar="PORT", help="run the Pico benchmark on the board on PORT (a real Pico "
                   "or bgc vpico) and print the same table as scripts/bench/bench_pico.py's emulated runs")
    p.add_argument("--variant", default="standard", metavar="KEY", help="with --port: the match's ruleset")
    p.add_argument("--max-turns", type=int, default=0, metavar="N", help="with --port: stop the match after N turns")
    p.add_argument("--idle-roll", type=int, default=1000, metavar="MS",
                   help="with --port: ms the players look at the board after the roll before the first lift (1000)")
    p.add_argument("--idle-step", type=int, default=300, metavar="MS",
                   help="with --port: ms between a placement and the next lift (300)")


def run(args):
    import sys

    from .. import FIRMWARE_DIR

    if FIRMWARE_DIR not in sys.path:
        sys.path.insert(0, FIRMWARE_DIR)  # the match's plays are chosen with the firmware on CPython
    from .virtual import frames
    from . import bench_guest as G
    from ..pico import device
    from bgrules.rules import VARIANTS

    if args.variant not in VARIANTS:
        raise UserError("unknown variant %r\nhint: one of %s" % (args.variant, ", ".join(sorted(VARIANTS))))
    if args.max_turns < 0 or args.idle_roll < 0 or args.idle_step < 0:
        raise UserError("--max-turns is a count, --idle-roll and --idle-step are ms: 0 or more")
    with tempfile.TemporaryDirectory() as tmp:
        plays = G.choose_plays(tmp, args.variant, args.max_turns)
    if args.max_turns:
        plays = plays[: args.max_turns]
    plan = "".join(",".join("%d %d %d" % tuple(s) for s in steps) + "\n" for steps in plays).encode()
    with open(frames.__file__, "rb") as f:
        frame_code = f.read()
    steps = [("boot", G.BOOT),
             ("imports", "import sys\nsys.path.insert(0, %r)\n" % BENCH_DIR + G.IMPORT),
             ("scan", "SCAN_FRAMES = 50\n" + G.SCAN),
             ("journal", G.JOURNAL.replace("/bench.jnl", BENCH_DIR + "/bench.jnl")),
             ("match", "import bench_match\n")]
    match_code = G.match_step(BENCH_DIR + "/journal", BENCH_DIR + "/plan.txt", args.variant, args.idle_roll,
                              args.idle_step, progress=True).encode()
    out = []
    with device.connect(args.port, soft_reset=True) as transport:
        print("board on %s: %s" % (transport.device_name, device.device_info(transport)["version_str"]))
        transport.exec("import os\ntry:\n os.mkdir(%r)\nexcept OSError:\n pass" % BENCH_DIR)
        failure = None
        try:
            transport.fs_writefile(BENCH_DIR + "/frames.py", frame_code)
            transport.fs_writefile(BENCH_DIR + "/plan.txt", plan)
            # The match's 24 kB program goes as a file the board imports (compiled as it is read),
            # not pasted: a pasted program is held whole in the heap the firmware is measured in
            transport.fs_writefile(BENCH_DIR + "/bench_match.py", match_code)
            for name, code in steps:
                t = time.monotonic()
                try:
                    # (a turn holds the players' waits: long ones given, the limit grows with them)
                    text, err = _follow(transport, code, QUIET_S + (args.idle_roll + 8 * args.idle_step) / 1000)
                except _Silent as exc:
                    failure = "the board's %s step stopped: %s" % (name, exc)
                    break
                text = text.decode("utf-8", "replace")
                if err:
                    failure = "the board's %s step failed:\n%s" % (name, (text + err.decode("utf-8", "replace"))[-2000:])
                    break
                out.append(text)
                print("  %s: %.1f s" % (name, time.monotonic() - t))
        finally:
            left = _remove_tree(transport, BENCH_DIR, args.port)
        if failure or left:
            # The step's own failure first: a board that no longer answers after it must not hide it.
            raise UserError("\n".join(m for m in (failure, left) if m))
    text = "".join(out)
    print("Board: firmware as installed on it (frozen image or .mpy files); times from time.ticks_us() on the board")
    heap_import = G.print_basics(text)
    G.print_match(G.results(text, "MATCH")[0], heap_import, args.variant)
    return 0


class _Silent(Exception):
    """The board said nothing a step promises within QUIET_S."""


# A board that says nothing for this long in a step (no output; in the match, no "TURN n" line) has
# stopped: crashed, reset, or its firmware's loop is stuck. A turn takes a few seconds on a Pico
QUIET_S = 120
_clock = time.monotonic


def _follow(transport, code, quiet_s):
    """Run ``code`` on the board: its output and error output, as mpremote's exec_raw, but a step
    that goes quiet for ``quiet_s`` (or whose output goes on without a "TURN n" line, as a board
    that reset and runs its main.py) raises _Silent instead of waiting for ever."""
    out = bytearray()
    alive = [_clock()]

    def consume(byte):
        out.extend(byte)
        if byte == b"\n" and out.startswith(b"TURN ", out.rfind(b"\n", 0, len(out) - 1) + 1):
            alive[0] = _clock()
        elif _clock() - alive[0] > quiet_s:
            raise _Silent("no turn played in %d s; its last output: %r" % (quiet_s, bytes(out[-600:])))

    transport.exec_raw_no_follow(code)
    data = transport.read_until(1, b"\x04", timeout=quiet_s, data_consumer=consume)
    if not data.endswith(b"\x04"):
        raise _Silent("nothing from it in %d s; its last output: %r" % (quiet_s, bytes(out[-600:])))
    err = transport.read_until(1, b"\x04", timeout=quiet_s)
    if not err.endswith(b"\x04"):
        raise _Silent("no end of its error output in %d s" % quiet_s)
    return bytes(out[:-1]), err[:-1]


def _remove_tree(transport, path, port):
    """Remove the benchmark's folder from the board; what went wrong, if it could not."""
    from mpremote.transport import TransportError

    try:
        transport.exec(
            "import os\n"
            "def _rm(p):\n"
            " try:\n"
            "  for n in os.listdir(p):\n"
            "   _rm(p + '/' + n)\n"
            "  os.rmdir(p)\n"
            " except OSError:\n"
            "  try:\n"
            "   os.remove(p)\n"
            "  except OSError:\n"
            "   pass\n"
            "_rm(%r)\n"
            "del _rm\n" % path)
    except (TransportError, OSError) as exc:
        return ("could not remove %s from the board: %s\nhint: reset the board, then "
                "`mpremote connect %s rm -r :%s`" % (path, exc, port, path))
    return None


__all__ = ["register_options", "run", "BENCH_DIR"]
