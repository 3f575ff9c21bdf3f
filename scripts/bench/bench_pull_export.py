"""Figures for docs/performance-host.md: `bgc pull` of 100 matches from the virtual Pico, and
`bgc export` of 1,000 games (.mat and .sgf), time and peak memory.

    .venv/bin/python scripts/bench/bench_pull_export.py [--matches 100] [--games 1000]
"""

import argparse
import os
import resource
import shutil
import sys
import tempfile
import time
import tracemalloc

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "firmware"))

from bgc import cli  # noqa: E402
from bgc.logs import export, journals  # noqa: E402
from bgc.pico.vpico import VirtualPico  # noqa: E402

PULL_MAIN = "import time\nwhile True:\n    time.sleep_ms(50)\n"


def make_matches(n, seed0=1000):
    out = []
    for i in range(n):
        out.append(journals.encode_records(journals.synthetic_records(seed0 + i, length=5, p_condone=0.01)))
    return out


def bench_pull(n):
    tmp = tempfile.mkdtemp(prefix="bench-pull-")
    try:
        flash = os.path.join(tmp, "flash")
        os.makedirs(os.path.join(flash, "journal"))
        with open(os.path.join(flash, "main.py"), "w") as f:
            f.write(PULL_MAIN)
        texts = make_matches(n)
        for i, t in enumerate(texts):
            with open(os.path.join(flash, "journal", "m%04d.jnl" % (i + 1)), "w") as f:
                f.write(t)
        size = sum(len(t) for t in texts)
        games = sum(len(journals.replay_text(t).games) for t in texts)
        with VirtualPico(flash) as pico:
            tracemalloc.start()
            t0 = time.perf_counter()
            devnull = open(os.devnull, "w")
            old = sys.stdout, sys.stderr
            sys.stdout = sys.stderr = devnull
            try:
                status = cli.main(["pull", "--port", pico.port, "--out", os.path.join(tmp, "out"), "--no-restart"])
            finally:
                sys.stdout, sys.stderr = old
            dt = time.perf_counter() - t0
            peak = tracemalloc.get_traced_memory()[1]
            tracemalloc.stop()
        assert status == 0, status
        return {"matches": n, "games": games, "bytes": size, "seconds": dt, "peak_mb": peak / 1e6}
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def bench_export(games_wanted):
    tmp = tempfile.mkdtemp(prefix="bench-export-")
    try:
        paths, games, i = [], 0, 0
        while games < games_wanted:
            t = journals.encode_records(journals.synthetic_records(5000 + i, length=7, p_condone=0.01))
            p = os.path.join(tmp, "m%04d.jnl" % (i + 1))
            with open(p, "w") as f:
                f.write(t)
            paths.append(p)
            games += len(journals.replay_text(t).games)
            i += 1
        figures = {"matches": len(paths), "games": games}
        for fmt in ("mat", "sgf"):
            tracemalloc.start()
            t0 = time.perf_counter()
            devnull = open(os.devnull, "w")
            old = sys.stdout, sys.stderr
            sys.stdout = sys.stderr = devnull
            try:
                status = cli.main(["export", *paths, "--format", fmt, "-o", os.path.join(tmp, fmt)])
            finally:
                sys.stdout, sys.stderr = old
            figures[fmt + "_seconds"] = time.perf_counter() - t0
            figures[fmt + "_peak_mb"] = tracemalloc.get_traced_memory()[1] / 1e6
            tracemalloc.stop()
            assert status == 0
        if export.find_gnubg():
            out = [os.path.join(tmp, "mat", os.path.basename(p)[:-4] + ".mat") for p in paths]
            t0 = time.perf_counter()
            export.gnubg_read(out)
            figures["gnubg_check_seconds"] = time.perf_counter() - t0
        return figures
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--matches", type=int, default=100)
    ap.add_argument("--games", type=int, default=1000)
    a = ap.parse_args()
    p = bench_pull(a.matches)
    print("pull: %(matches)d matches (%(games)d games, %(bytes)d bytes) from the virtual Pico in %(seconds).1f s, "
          "peak Python memory %(peak_mb).1f MB" % p)
    e = bench_export(a.games)
    print("export: %(matches)d matches, %(games)d games: .mat %(mat_seconds).1f s (peak %(mat_peak_mb).1f MB), "
          ".sgf %(sgf_seconds).1f s (peak %(sgf_peak_mb).1f MB)" % e)
    if "gnubg_check_seconds" in e:
        print("GNU Backgammon reading all the .mat files back: %.1f s" % e["gnubg_check_seconds"])
    print("max RSS of this process: %.0f MB" % (resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024))


if __name__ == "__main__":
    main()
