"""A long, game-like run of the firmware's scanner and classifier on the virtual board, counting
wrong stable cells: the classifier error-rate figure (tests run it short, scripts/bench/bench_classifier.py
long).

Checkers start in the opening position and are moved one at a time the way hands move them:
lifted (held 40 mm above the board), carried, hovered 15 mm over the destination, put down.
Virtual time advances 10 ms per frame, so sensor drift runs; the baseline refresh is fed the cells
the simulation knows are empty, as the game controller will. A cell counts as settled once its
content has not changed for ``settle`` frames; any settled cell whose stable state disagrees with
the truth is an error (colour or emptiness: "cell error"; one-vs-stack only: "stack error").
"""
from .board import BLACK, WHITE

START_WHITE = {24: 2, 13: 5, 8: 3, 6: 5}
START_BLACK = {1: 2, 12: 5, 17: 3, 19: 5}


def run(frames=5000, seed=1, frame_ms=10, stable_frames=3, board_kwargs=None):
    from . import install, uninstall

    kw = dict(board_kwargs or {})
    kw.setdefault("seed", seed)
    board = install(**kw)
    try:
        return _run(board, frames, frame_ms, stable_frames)
    finally:
        uninstall()


def _run(board, frames, frame_ms, stable_frames):
    from drivers.classify import BLACK as C_BLACK, EMPTY, STACK, WHITE as C_WHITE, Classifier
    from drivers.hall import HallScanner

    w = [0] * 26
    b = [0] * 26
    for p in START_WHITE:
        w[p] = START_WHITE[p]
    for p in START_BLACK:
        b[p] = START_BLACK[p]
    scanner = HallScanner()
    cl = Classifier(stable_frames=stable_frames)
    board.clear()
    cl.calibrate_empty(scanner.scan, 16)
    board.set_points(w, b)
    rng = board.rng
    n = board.n
    changed_at = [0] * n
    known_empty = bytearray(n)
    settle = stable_frames + 2
    cell_errors = 0
    stack_errors = 0
    checked = 0
    worst = []
    plan = []  # pending hand actions: (frames to wait, action, cell)
    frame = 0
    while frame < frames:
        if not plan and rng.uniform() < 0.05:
            src = _pick_source(board, rng)
            dst = _pick_destination(board, rng, board.colour(src))
            if dst is not None and dst != src:
                plan = [(0, "lift", src), (int(rng.uniform(5, 20)), "hover", dst),
                        (int(rng.uniform(3, 10)), "drop", dst)]
        if plan:
            wait, action, cell = plan[0]
            if wait <= 0:
                plan.pop(0)
                if action == "lift":
                    board.lift(cell)
                    changed_at[cell] = frame
                elif action == "hover":
                    board.hover(cell, 15.0)
                else:
                    board.drop(cell)
                    changed_at[cell] = frame
            else:
                plan[0] = (wait - 1, action, cell)
        raw = scanner.scan()
        cl.update(raw)
        for c in range(n):
            known_empty[c] = 1 if not board.stacks[c] else 0
        cl.refresh_baseline(raw, known_empty)
        for c in range(n):
            if frame - changed_at[c] < settle:
                continue
            checked += 1
            k = board.count(c)
            truth = EMPTY if k == 0 else (C_WHITE if board.colour(c) == WHITE else C_BLACK)
            s = cl.state[c]
            if (s & 3) != truth or s & 8:
                cell_errors += 1
                if len(worst) < 10:
                    worst.append((frame, c, k, s, raw[c], cl.baseline(c)))
            elif k and bool(s & STACK) != (k >= 2):
                stack_errors += 1
        board.clock.advance_ms(10)
        frame += 1
    return {"frames": frames, "cells_checked": checked, "cell_errors": cell_errors,
            "stack_errors": stack_errors, "examples": worst}


def _pick_source(board, rng):
    occupied = [c for c in range(board.n) if board.stacks[c]]
    return occupied[int(rng.uniform(0, len(occupied)))]


def _pick_destination(board, rng, colour):
    for _ in range(20):
        p = int(rng.uniform(0, 24))
        cells = [p * 5 + k for k in range(5)]
        if any(board.stacks[c] and board.colour(c) != colour for c in cells):
            continue
        # Fill a point rim first; the 6th and later checker stacks on the least-loaded cell.
        return min(cells, key=lambda c: (board.count(c), c))
    return None
