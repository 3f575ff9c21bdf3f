"""Figures for docs/virtual-pico.md: the firmware's frame rate on `bgc vpico --board` and what the
board costs the PC, idle and with the demo's players playing.

    .venv/bin/python scripts/bench/bench_vboard.py [--seconds 10]

A frame is one scan of the 128 sensors (one vb_scan host call). CPU is the share of one core the
host process (the board's model, the players) and the guest interpreter (the firmware) use.
"""

import argparse
import os
import resource
import shutil
import sys
import tempfile
import time

from bgc.board import players as P
from bgc.board.vboard import BoardSim
from bgc.commands.vpico import _deploy


def guest_cpu(sim):
    with open("/proc/%d/stat" % sim.pico._proc.pid) as f:
        fields = f.read().split()
    return (int(fields[13]) + int(fields[14])) / os.sysconf("SC_CLK_TCK")


def host_cpu():
    r = resource.getrusage(resource.RUSAGE_SELF)
    return r.ru_utime + r.ru_stime


def measure(sim, seconds, label):
    n0, h0, g0, t0 = sim.scans, host_cpu(), guest_cpu(sim), time.monotonic()
    sim.run_ms(int(seconds * 1000))
    wall = time.monotonic() - t0
    print("%-8s %6.0f frames/s   host %3.0f %%   guest %3.0f %% of a core" % (
        label, (sim.scans - n0) / wall, 100 * (host_cpu() - h0) / wall, 100 * (guest_cpu(sim) - g0) / wall))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--seconds", type=float, default=10.0)
    args = ap.parse_args()
    flash = tempfile.mkdtemp(prefix="bench-vboard-")
    sim = BoardSim(flash).start()
    try:
        _deploy(sim, None, open(os.devnull, "w"))
        sim.run_until(lambda s: s.status() is not None, 30000)
        print("%s, %d cores, load %.1f" % (" ".join(sim.pico.micropython), os.cpu_count(), os.getloadavg()[0]))
        sim.run_ms(1000)
        measure(sim, args.seconds, "idle")
        players = P.Players(sim, seed=1)
        sim.serial.send("new length=1")
        sim.run_ms(1000)
        measure(sim, args.seconds, "playing")
        print("plays made: %d" % players.stats["turns"])
    finally:
        sim.close()
        shutil.rmtree(flash, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
