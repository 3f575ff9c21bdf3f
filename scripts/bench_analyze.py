"""Figures for docs/performance.md: `bgc analyze` (PyPI gnubg engine) against the gnubg program
(Debian's GNU Backgammon 1.07) analysing the same matches on the same machine, at 0-ply and
2-ply: the time of each (process start and match import included, as a user waits for them) as
a ratio, and how far the two agree (analysis.compare: the best play, the equity lost within
0.005, the right cube action, the whole cube decision), with our engine's own nets and with the
program's nets loaded into it.

    .venv/bin/python scripts/bench_analyze.py [--ply 0 2] [JOURNAL ...]

Default journals: tests/fixtures/journal_7point.jnl (a 7-point match on the virtual board).
"""

import argparse
import os
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

from bgc.logs import analysis, journals  # noqa: E402
from bgc.logs.export_mat import mat_text  # noqa: E402


def run(path, ply, nets_dir=None):
    log = journals.load(path)
    commands = analysis.settings_commands(ply, jacoby=log.money and bool(log.settings.get("jacoby")))
    old = os.environ.get("GNUBG_DATA_DIR")
    if nets_dir:
        os.environ["GNUBG_DATA_DIR"] = nets_dir
    try:
        t = time.perf_counter()
        ours = analysis.analyse(log, ply)
        t_ours = time.perf_counter() - t
    finally:
        if nets_dir:
            if old is None:
                del os.environ["GNUBG_DATA_DIR"]
            else:
                os.environ["GNUBG_DATA_DIR"] = old
    t = time.perf_counter()
    ref = analysis.reference_analysis(mat_text(log)[0], commands)
    t_ref = time.perf_counter() - t
    counts, diffs = analysis.compare(ours, ref)
    return t_ours, t_ref, counts, diffs


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("journals", nargs="*", default=[os.path.join(ROOT, "tests", "fixtures", "journal_7point.jnl")])
    ap.add_argument("--ply", type=int, nargs="+", default=[0, 2])
    ap.add_argument("--diffs", action="store_true", help="list every difference")
    args = ap.parse_args()
    print("engine: GNU Backgammon %s (PyPI gnubg); reference: %s" % (analysis.engine_version(),
                                                                    analysis.find_program_version()))
    with tempfile.TemporaryDirectory() as tmp:
        nets = analysis.data_dir_with_program_nets(os.path.join(tmp, "data"))
        for path in args.journals:
            log = journals.load(path)
            print("%s: %s, %d plays" % (os.path.relpath(path), log.summary(), sum(len(g.moves) for g in log.games)))
            for ply in args.ply:
                for label, d in (("our nets (1.01)", None), ("program's nets (1.00)", nets)):
                    if label.startswith("program") and d is None:
                        continue
                    t_ours, t_ref, c, diffs = run(path, ply, d)
                    timing = "  ours %.2f s, gnubg %.2f s, ratio %.2f" % (t_ours, t_ref, t_ours / t_ref) \
                        if d is None else ""
                    print("  %d-ply, %s:%s" % (ply, label, timing))
                    print("    best play %d/%d, equity lost within 0.005 %d/%d (largest difference %.4f), "
                          "right cube action %d/%d, whole cube decision (action, error within 0.005, mark) %d/%d, "
                          "differences in Crawford games %d of %d"
                          % (c["best_agrees"], c["plays"], c["loss_within"], c["plays"], c["max_loss_diff"],
                             c["cube_right_agrees"], c["cube"], c["cube_agrees"], c["cube"],
                             c["crawford_differences"], len(diffs)))
                    if args.diffs:
                        for x in diffs:
                            print("      " + x)


if __name__ == "__main__":
    sys.exit(main())
