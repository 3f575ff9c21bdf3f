"""Frame scan cost of firmware/drivers/hall.py under MicroPython (wasm) on the virtual board, and
the estimated frame time on a Pico from the per-call costs in ../shared/pico-costs.md.

    .venv/bin/python scripts/bench_scan.py [frames]
"""
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "host"))

from bgc import upy  # noqa: E402

CODE = r"""
import time as real_time
import gc, micropython
import virtual
board = virtual.install(seed=1)
from drivers.hall import HallScanner
from drivers.classify import Classifier
sc = HallScanner()
cl = Classifier()
cl.calibrate_empty(sc.scan, 4)
board.set_points([0, 0, 0, 0, 0, 0, 5, 0, 3, 0, 0, 0, 0, 5, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2, 0],
                 [0, 2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 5, 0, 0, 0, 0, 3, 0, 5, 0, 0, 0, 0, 0, 0])
sc.scan(); board.update()
F = FRAMES
w0, p0, a0 = board.mem_writes, board.pin_writes, board.adc_reads
gc.collect()
m0 = gc.mem_alloc()
micropython.heap_lock()
locked_ok = True
try:
    for _ in range(F):
        cl.update(sc.scan())
except MemoryError:
    locked_ok = False
micropython.heap_unlock()
m1 = gc.mem_alloc()
w1, p1, a1 = board.mem_writes, board.pin_writes, board.adc_reads
t0 = real_time.ticks_us()
for _ in range(F):
    sc.scan()
t1 = real_time.ticks_us()
for _ in range(F):
    cl.update(sc.raw)
t2 = real_time.ticks_us()
print("RESULT", F, w1 - w0, p1 - p0, a1 - a0, m1 - m0,
      locked_ok, real_time.ticks_diff(t1, t0), real_time.ticks_diff(t2, t1))
"""

# pico-costs.md, MicroPython 1.27 on an emulated RP2040 at 125 MHz (lower bounds for a real Pico).
LOOP_US = 3.4  # empty loop iteration
ADC_US = 9.5  # read_u16 including the loop
REG_US = 4.0  # one mem32 write
PIN_US = 6.0  # one Pin.value() call
OP_US = 1.1  # one extra subscript/compare: a third of an empty iteration (~3 bytecodes)


def main(argv):
    frames = int(argv[1]) if len(argv) > 1 else 200
    src = [os.path.join(ROOT, "firmware"), os.path.join(ROOT, "host", "bgc", "virtual"),
           os.path.join(ROOT, "hardware", "geometry.json")]
    out = upy.run(CODE.replace("FRAMES", str(frames)), sources=src)
    line = [x for x in out.splitlines() if x.startswith("RESULT")][0].split()
    f, writes, pins, reads, alloc, ok, scan_us, cls_us = line[1:]
    f = int(f)
    per = lambda v: int(v) / f  # noqa: E731
    # hall.scan per cell: steps[i], m > 0, mem32 write, cells[i], read_u16, store.
    cell_us = ADC_US + REG_US + 4 * OP_US
    pico_ms = (128 * cell_us + 2 * PIN_US) / 1000
    print("frames measured:              %d" % f)
    print("SIO register writes / frame:  %.0f" % per(writes))
    print("Pin.value() writes / frame:   %.0f" % per(pins))
    print("ADC reads / frame:            %.0f" % per(reads))
    print("heap allocated / frame:       %.0f bytes (heap_lock held: %s)" % (per(alloc), ok))
    print("wasm time / frame, scan:      %.3f ms (virtual ADC and mux model included)" % (per(scan_us) / 1000))
    print("wasm time / frame, classify:  %.3f ms" % (per(cls_us) / 1000))
    print("Pico estimate / frame, scan:  %.2f ms (%.1f us per cell; target <= 3 ms)" % (pico_ms, cell_us))
    print("  = 128 x (ADC %.1f + register write %.1f + 4 ops x %.1f) + 2 Pin.value x %.1f us"
          % (ADC_US, REG_US, OP_US, PIN_US))
    print("Pico estimate, scan rate:     %.0f frames/s (scan only)" % (1000 / pico_ms))
    wasm_pico = 40.0  # pico-costs.md rule of thumb for plain arithmetic loops
    print("Pico estimate / frame, classify: ~%.1f ms (wasm x %.0f)" % (per(cls_us) / 1000 * wasm_pico, wasm_pico))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
