"""Train the board's own backgammon player (issue 31): a small neural net fitted to GNU Backgammon's
0-ply evaluations, quantised into the module the firmware image freezes.

Usage:  nice .venv/bin/python scripts/train/train_board_net.py [--games 3000] [--epochs 40] [--hidden 64] [--seed 31]
        [--out firmware/boardplayer/net_weights.py]

What it does, all seeded (random.Random(seed), numpy's default_rng(seed)), one BLAS thread, so the
same arguments write the same bytes:
1. Data: ``--games`` self-play money games played by GNU Backgammon at 0-ply (PyPI gnubg), each play
   its best with probability 0.8, otherwise a uniformly random legal play (so that poor positions,
   which a person's play reaches, are in the data too). At every turn the position after the chosen
   play and after up to ``CANDIDATES`` other legal plays of the roll are kept: those are what the
   board's player compares when it chooses a play. Each kept position, seen by the side then on
   roll, gets GNU Backgammon's 0-ply cubeless evaluation (gnubg.evaluate: win, win gammon, win
   backgammon, lose gammon, lose backgammon).
2. Fit: inputs (firmware/boardplayer/net.py, ``encode``) -> ``--hidden`` sigmoid units -> 5 sigmoid
   outputs, cross-entropy against GNU Backgammon's probabilities, Adam, minibatches of 256.
3. Quantise: first layer int16 (scale 2**S1 on integer inputs), hidden activations through a 0..255
   sigmoid table, second layer int16 (scale 2**S2); the layout is net.py's. Prints the validation
   error of the float net and of the quantised net (as the firmware computes it).

GNU Backgammon's evaluations are the targets, so the weights are a work fitted to a GPL program's
output: docs/licences.md says what that means for the image.
"""

import argparse
import os
import random
import struct
import sys
import time

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")  # one thread: the same sums, the same weights
os.environ.setdefault("OMP_NUM_THREADS", "1")

import numpy as np  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "firmware"))

from boardplayer import net as fw_net  # noqa: E402  the firmware's encoding and layout

CANDIDATES = 3  # other legal plays kept per turn besides the one played
P_BEST = 0.8
# scale of each input kind in training (folded back into the integer weights when quantising)
N_IN = fw_net.N_INPUTS


def features(cells):
    """The firmware's integer inputs of ``cells`` (the mover on roll), as a vector."""
    x = np.zeros(N_IN, dtype=np.int16)
    for i, v in fw_net.encode(cells):
        x[i] = v
    return x


def input_scale():
    """Per-input divisor that brings the firmware's integer inputs to about 0..1 for training."""
    s = np.ones(N_IN, dtype=np.float32)
    for i in range(N_IN):
        s[i] = fw_net.input_range(i)
    return s


def board_of(cells):
    """GNU Backgammon's board of the firmware's ``cells`` (the mover on roll): (opponent, mover)."""
    return (tuple(cells[27:51]) + (cells[51],), tuple(cells[1:25]) + (cells[25],))


def swapped(cells):
    """The cells seen by the other side (standard game: the same numbering, halves exchanged)."""
    return bytes(cells[26:52]) + bytes(cells[0:26])


def equity5(p):
    return 2 * p[0] - 1 + p[1] - p[3] + p[2] - p[4]


def generate(gnubg, games, rng):
    """Self-play at GNU Backgammon's 0-ply cubeless choice (every legal play of the roll, listed by
    the firmware's rules engine, evaluated by gnubg.evaluate from the opponent's side)."""
    from bgrules.position import Position
    from bgrules.turn import Turn

    ci = gnubg.cubeinfo()
    ec = gnubg.evalcontext(0, 0, 1, 0, 0.0)
    seen = {}
    evals = {}

    def value(after):  # the opponent's view, the opponent on roll
        e = evals.get(after)
        if e is None:
            e = evals[after] = tuple(gnubg.evaluate(board_of(after), ci, ec)[:5])
        return e

    for g in range(games):
        cells = bytes(Position.start().cells)
        while True:
            d1, d2 = rng.randint(1, 6), rng.randint(1, 6)
            plays = Turn(Position(cells), d1, d2).plays()
            if not plays:
                cells = swapped(cells)
                continue
            afters = [bytes(pl.position.cells) for pl in plays]
            ends = [a for a in afters if a[0] == 15]
            if ends:
                break  # the game ends with this roll
            opp_views = [swapped(a) for a in afters]
            if rng.random() < P_BEST:
                chosen = min(range(len(afters)), key=lambda i: (equity5(value(opp_views[i])), opp_views[i]))
            else:
                chosen = rng.randrange(len(afters))
            keep = [chosen]
            others = [i for i in range(len(afters)) if i != chosen]
            rng.shuffle(others)
            keep += others[:CANDIDATES]
            for i in keep:
                seen[opp_views[i]] = True
            cells = opp_views[chosen]
        if (g + 1) % 200 == 0:
            print("  %d games, %d positions" % (g + 1, len(seen)), flush=True)
    keys = sorted(seen)  # sorted: the order does not depend on hashing
    x = np.stack([features(k) for k in keys])
    y = np.array([value(k) for k in keys], dtype=np.float32)
    return keys, x, y


def pack(w1, b1, w2, b2):
    """The weights in boardplayer/net.py's layout: int16 layers, int32 biases, the sigmoid table."""
    ni, nh = w1.shape
    no = w2.shape[1]
    s1 = 14
    while s1 > 4 and np.abs(w1).max() * (1 << s1) > 32000:
        s1 -= 1
    s2 = 14
    while s2 > 4 and np.abs(w2).max() * (1 << s2) > 32000:
        s2 -= 1
    step = fw_net.TABLE_STEP
    table = bytes(int(round(255 / (1 + np.exp(-((i - 128 + 0.5) / (1 << step)))))) for i in range(256))
    out = bytearray(b"BGN1" + struct.pack("<HHHBB", ni, nh, no, s1, s2) + bytes(4))
    out += table
    out += np.round(w1 * (1 << s1)).astype("<i2").tobytes()
    out += np.round(b1 * (1 << s1)).astype("<i4").tobytes()
    out += np.round(w2.T * (1 << s2)).astype("<i2").tobytes()
    out += np.round(b2 * 255 * (1 << s2)).astype("<i4").tobytes()
    print("quantised: S1 %d, S2 %d" % (s1, s2))
    return bytes(out)


def sig(z):
    return 1.0 / (1.0 + np.exp(-z))


def train(x, y, hidden, epochs, rng, scale, lr=0.003):
    n = len(x)
    w1 = rng.normal(0, 0.1, (N_IN, hidden)).astype(np.float32)
    b1 = np.zeros(hidden, np.float32)
    w2 = rng.normal(0, 0.1, (hidden, 5)).astype(np.float32)
    b2 = np.zeros(5, np.float32)
    params = [w1, b1, w2, b2]
    m = [np.zeros_like(p) for p in params]
    v = [np.zeros_like(p) for p in params]
    t = 0
    bs = 256
    for ep in range(epochs):
        order = rng.permutation(n)
        rate = lr * (0.5 ** (ep / max(1, epochs / 4)))
        for s in range(0, n, bs):
            idx = order[s:s + bs]
            xb, yb = x[idx] / scale, y[idx]
            h = sig(xb @ w1 + b1)
            o = sig(h @ w2 + b2)
            do = (o - yb) / len(idx)  # cross-entropy through the sigmoid
            gw2 = h.T @ do
            gb2 = do.sum(0)
            dh = (do @ w2.T) * h * (1 - h)
            gw1 = xb.T @ dh
            gb1 = dh.sum(0)
            t += 1
            for p, g_, mm, vv in zip(params, (gw1, gb1, gw2, gb2), m, v):
                mm *= 0.9
                mm += 0.1 * g_
                vv *= 0.999
                vv += 0.001 * g_ * g_
                p -= rate * (mm / (1 - 0.9 ** t)) / (np.sqrt(vv / (1 - 0.999 ** t)) + 1e-8)
        print("  epoch %d: rate %.5f" % (ep + 1, rate), flush=True)
    return w1, b1, w2, b2


def equity(p):
    return 2 * p[:, 0] - 1 + p[:, 1] - p[:, 3] + p[:, 2] - p[:, 4]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--games", type=int, default=3000)
    ap.add_argument("--epochs", type=int, default=40)
    ap.add_argument("--hidden", type=int, default=64)
    ap.add_argument("--seed", type=int, default=31)
    ap.add_argument("--data", metavar="NPZ",
                    help="keep the self-play data here, or read it from here if it exists (the same --games and "
                         "--seed make the same data: a second fit need not play again)")
    ap.add_argument("--out", default=os.path.join(ROOT, "firmware", "boardplayer", "net_weights.py"))
    a = ap.parse_args()
    import gnubg

    t0 = time.time()
    rng = random.Random(a.seed)
    nrng = np.random.default_rng(a.seed)
    if a.data and os.path.exists(a.data):
        d = np.load(a.data)
        if int(d["games"]) != a.games or int(d["seed"]) != a.seed:
            sys.exit("%s holds %d games of seed %d, not %d of seed %d" % (a.data, d["games"], d["seed"], a.games, a.seed))
        boards, y = [bytes(b) for b in d["cells"]], d["y"]
        x = np.stack([features(b) for b in boards])  # the inputs as net.py encodes them now
        print("data: %d positions read from %s" % (len(x), a.data), flush=True)
    else:
        print("self-play: %d games (seed %d)" % (a.games, a.seed), flush=True)
        boards, x, y = generate(gnubg, a.games, rng)
        print("data: %d positions in %.0f s" % (len(x), time.time() - t0), flush=True)
        if a.data:
            np.savez(a.data, cells=np.frombuffer(b"".join(boards), np.uint8).reshape(-1, 52), y=y,
                     games=a.games, seed=a.seed)
    t1 = time.time()
    scale = input_scale()
    order = nrng.permutation(len(x))
    nval = len(x) // 20
    val, tr = order[:nval], order[nval:]
    w1, b1, w2, b2 = train(x[tr], y[tr], a.hidden, a.epochs, nrng, scale)
    t2 = time.time()
    pv = sig(sig((x[val] / scale) @ w1 + b1) @ w2 + b2)
    print("fit: %.0f s; validation (%d positions): float net win error %.4f, equity error %.4f" % (
        t2 - t1, nval, np.abs(pv[:, 0] - y[val, 0]).mean(), np.abs(equity(pv) - equity(y[val])).mean()))
    blob = pack(w1 / scale[:, None], b1, w2, b2)
    net = fw_net.Net(blob)
    q = np.array([net.probabilities(boards[i]) for i in val[:5000]])
    print("quantised net (as the firmware computes it), %d positions: win error %.4f, equity error %.4f" % (
        len(q), np.abs(q[:, 0] - y[val[:5000], 0]).mean(), np.abs(equity(q) - equity(y[val[:5000]])).mean()))
    with open(a.out, "w") as f:
        f.write("# Generated by scripts/train/train_board_net.py --games %d --epochs %d --hidden %d --seed %d\n"
                % (a.games, a.epochs, a.hidden, a.seed))
        f.write("# (%d positions, GNU Backgammon %s 0-ply evaluations; docs/board-player.md). Do not edit.\n"
                % (len(x), getattr(gnubg, "version", "?")))
        f.write("# The weights' layout: boardplayer/net.py. A bytes literal: frozen, it stays in flash.\n")
        f.write("WEIGHTS = %r\n" % bytes(blob))
    print("wrote %s: %d bytes of weights; %.0f s in all" % (a.out, len(blob), time.time() - t0))


if __name__ == "__main__":
    main()
