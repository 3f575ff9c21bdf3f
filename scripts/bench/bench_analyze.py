"""Figures for docs/performance.md: `bgc analyze` (PyPI gnubg engine) against the gnubg program
(Debian's GNU Backgammon 1.07) analysing the same matches on the same machine, at 0-ply and
2-ply: the time of each (process start and match import included, as a user waits for them) as
a ratio, and how far the two agree (analysis.compare: the best play, the equity lost within
0.005, the right cube action, the whole cube decision), as shipped (`bgc analyze` uses the nets of
the installed GNU Backgammon, here the program's: analysis.choose_nets) and with the PyPI engine's
own nets (`bgc analyze --nets engine`).

    .venv/bin/python scripts/bench/bench_analyze.py [--ply 0 2] [JOURNAL ...]

Default journals: tests/fixtures/journal_7point.jnl (a 7-point match on the virtual board).
"""

import argparse
import os
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from bgc.logs import analysis, journals  # noqa: E402
from bgc.logs.export_mat import mat_text  # noqa: E402


def run(path, ply, nets="auto"):
    log = journals.load(path)
    commands = analysis.settings_commands(ply, jacoby=log.money and bool(log.settings.get("jacoby")))
    t = time.perf_counter()
    ours = analysis.analyse(log, ply, nets=nets)
    t_ours = time.perf_counter() - t
    t = time.perf_counter()
    ref = analysis.reference_analysis(mat_text(log)[0], commands)
    t_ref = time.perf_counter() - t
    counts, diffs = analysis.compare(ours, ref)
    return ours["nets"], t_ours, t_ref, counts, diffs


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("journals", nargs="*", default=[os.path.join(ROOT, "tests", "fixtures", "journal_7point.jnl")])
    ap.add_argument("--ply", type=int, nargs="+", default=[0, 2])
    ap.add_argument("--diffs", action="store_true", help="list every difference")
    args = ap.parse_args()
    print("engine: GNU Backgammon %s (PyPI gnubg); reference: %s" % (analysis.engine_version(),
                                                                    analysis.find_program_version()))
    for path in args.journals:
        log = journals.load(path)
        print("%s: %s, %d plays" % (os.path.relpath(path), log.summary(), sum(len(g.moves) for g in log.games)))
        for ply in args.ply:
            for label, which in (("as shipped", "auto"), ("--nets engine", "engine")):
                nets, t_ours, t_ref, c, diffs = run(path, ply, which)
                timing = "  ours %.2f s, gnubg %.2f s, ratio %.2f" % (t_ours, t_ref, t_ours / t_ref)
                print("  %d-ply, %s, nets %s:%s" % (ply, label, nets["text"], timing))
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
