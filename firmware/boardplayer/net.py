# The board's own position evaluator (docs/board-player.md): a small neural net, its weights frozen
# into the image as one bytes literal (boardplayer.net_weights, written by
# scripts/train/train_board_net.py), read where they lie: a frozen bytes object stays in flash.
#
# Inputs (201), from the side on roll's view of the board's cells (bgrules.position: 0 off, 1..24
# the points, 25 the bar; the opponent at 26+): for each side, mover first, per point 4 inputs
# (a checker there, two, three, the count past three), then the bar's count and the borne-off count
# (98 a side); then both pip counts, a contact flag, and how many of the opponent's blots the side on
# roll has a direct shot at (a checker 1-6 pips away) and an indirect one only (7-12): the
# exposure a play leaves, which a net this small does not find from the points alone. All are
# small integers, so the first layer
# is integer sums of int16 weights over the points that hold checkers (most inputs are zero).
# Hidden units: a sigmoid through a 256-entry table (0..255); outputs: int16 weights over them,
# then a float sigmoid each: win, win gammon, win backgammon, lose gammon, lose backgammon (GNU
# Backgammon's outputs, cumulative: a gammon counts in the win too).
#
# The kernel is compiled with the viper emitter when MicroPython has one (a source string compiled
# at import, like drivers.fastloops, so the .mpy serves any port), else it runs as bytecode; under
# CPython the casts are plain functions. scripts/bench/bench_board_player.py measures both.
#
# Layout of the weights (little-endian): header 16 bytes: b"BGN1", inputs (u16), hidden (u16),
# outputs (u16), S1 (u8), S2 (u8), 4 bytes zero; then the sigmoid table (256 x u8); then W1 int16
# [inputs][hidden] (scale 2**S1); B1 int32 [hidden] (scale 2**S1); W2 int16 [outputs][hidden]
# (scale 2**S2, on hidden 0..255); B2 int32 [outputs] (scale 255 * 2**S2).

import sys
import math
import struct

N_INPUTS = 201
N_OUTPUTS = 5
SIDE = 98  # inputs per side
PIPS = 196  # the mover's pip count; the opponent's at 197
CONTACT = 198
SHOTS = 199  # the opponent's blots the side on roll can hit with one die (1-6 away); 200: 7-12 away only
TABLE_STEP = 4  # the table's step is 2**-TABLE_STEP of the pre-activation, 256 entries: -8 .. 8
HEADER = 16
# The accumulators (int32 arrays) hold their sums plus BIAS, so they stay positive: a viper load of
# a 32-bit word is zero-extended on a 64-bit port, and a small int on the Pico (under 2**30)
BIAS = 0x20000000

if sys.implementation.name != "micropython":
    class micropython:  # CPython (the training script, the host's player): plain Python
        @staticmethod
        def viper(f):
            return f

    def ptr8(x):
        return x

    def ptr16(x):
        return memoryview(x).cast("H")

    def ptr32(x):
        return x
else:
    import micropython

    ptr8 = ptr16 = ptr32 = None  # viper's casts, known to its compiler; bytecode never reaches them


def encode(cells):
    """The net's inputs of the position ``cells`` (the side on roll the mover) as (index, value)
    pairs, the nonzero ones: the training script's reference of what the kernel sums."""
    out = []
    for s in (0, 1):
        b = 26 * s
        base = SIDE * s
        for p in range(1, 25):
            n = cells[b + p]
            if n:
                i = base + (p - 1) * 4
                out.append((i, 1))
                if n >= 2:
                    out.append((i + 1, 1))
                if n >= 3:
                    out.append((i + 2, 1))
                if n > 3:
                    out.append((i + 3, n - 3))
        if cells[b + 25]:
            out.append((base + 96, cells[b + 25]))
        if cells[b]:
            out.append((base + 97, cells[b]))
    back = [0, 0]
    for s in (0, 1):
        b = 26 * s
        pips = 0
        for p in range(1, 26):
            n = cells[b + p]
            if n:
                pips += p * n
                back[s] = p
        if pips:
            out.append((PIPS + s, pips))
    if back[0] + back[1] > 25:
        out.append((CONTACT, 1))
    direct = indirect = 0
    for p in range(1, 25):
        if cells[26 + p] == 1:
            t = 25 - p  # the blot's point in the side on roll's numbering
            near = far = False
            for d in range(1, 13):
                if t + d <= 25 and cells[t + d]:
                    if d <= 6:
                        near = True
                    else:
                        far = True
            if near:
                direct += 1
            elif far:
                indirect += 1
    if direct:
        out.append((SHOTS, direct))
    if indirect:
        out.append((SHOTS + 1, indirect))
    return out


def input_range(i):
    """A typical largest value of input ``i`` (the training script scales inputs by it)."""
    if i >= SHOTS:
        return 2.0
    if i >= PIPS:
        return 100.0 if i < CONTACT else 1.0
    k = i % SIDE
    if k == 96:
        return 2.0
    if k == 97:
        return 15.0
    return 2.0 if k % 4 == 3 else 1.0


_SOURCE = '''
@micropython.viper
def _hidden(cells, me: int, w, acc, nh: int, s1: int):
    """The first layer of the position ``cells`` seen by the side at ``me`` (0 or 26): adds each
    input's weight row (int16 at ``w`` + 16 bytes) to ``acc`` (int32, holding B1 + BIAS), then turns each
    unit into its table value 0..255 (the table at ``w`` + 16), written back into ``acc``."""
    c = ptr8(cells)
    wt = ptr16(w)
    a = ptr32(acc)
    tb = ptr8(w)
    opp = 26 - me
    back0 = 0
    back1 = 0
    pip0 = 0
    pip1 = 0
    for s in range(2):
        b = me
        if s:
            b = opp
        base = 8 + 128 + 98 * s * nh  # in int16s: header 8, table 128
        pips = 0
        back = 0
        for p in range(1, 26):
            n = c[b + p]
            if n == 0:
                continue
            pips += p * n
            back = p
            if p == 25:
                row = base + 96 * nh
                for j in range(nh):
                    v = wt[row + j]
                    if v & 0x8000:
                        v -= 0x10000
                    a[j] += v * n
                continue
            row = base + (p - 1) * 4 * nh
            k = 3
            if n < 3:
                k = n
            for j in range(nh):
                v = wt[row + j]
                if v & 0x8000:
                    v -= 0x10000
                t = v
                if k > 1:
                    v = wt[row + nh + j]
                    if v & 0x8000:
                        v -= 0x10000
                    t += v
                    if k > 2:
                        v = wt[row + 2 * nh + j]
                        if v & 0x8000:
                            v -= 0x10000
                        t += v
                        if n > 3:
                            v = wt[row + 3 * nh + j]
                            if v & 0x8000:
                                v -= 0x10000
                            t += v * (n - 3)
                a[j] += t
        n = c[b]
        if n:
            row = base + 97 * nh
            for j in range(nh):
                v = wt[row + j]
                if v & 0x8000:
                    v -= 0x10000
                a[j] += v * n
        if s:
            pip1 = pips
            back1 = back
        else:
            pip0 = pips
            back0 = back
    row = 8 + 128 + 196 * nh
    contact = 0
    if back0 + back1 > 25:
        contact = 1
    direct = 0
    indirect = 0
    for p in range(1, 25):
        if c[opp + p] == 1:
            t = 25 - p
            near = 0
            far = 0
            for d in range(1, 13):
                if t + d <= 25:
                    if c[me + t + d]:
                        if d <= 6:
                            near = 1
                        else:
                            far = 1
            if near:
                direct += 1
            elif far:
                indirect += 1
    for j in range(nh):
        v0 = wt[row + j]
        if v0 & 0x8000:
            v0 -= 0x10000
        v1 = wt[row + nh + j]
        if v1 & 0x8000:
            v1 -= 0x10000
        t = v0 * pip0 + v1 * pip1
        if contact:
            v = wt[row + 2 * nh + j]
            if v & 0x8000:
                v -= 0x10000
            t += v
        if direct:
            v = wt[row + 3 * nh + j]
            if v & 0x8000:
                v -= 0x10000
            t += v * direct
        if indirect:
            v = wt[row + 4 * nh + j]
            if v & 0x8000:
                v -= 0x10000
            t += v * indirect
        x = ((a[j] - 0x20000000 + t) >> s1) + 128
        if x < 0:
            x = 0
        elif x > 255:
            x = 255
        a[j] = tb[16 + x]


@micropython.viper
def _outputs(acc, w, out, nh: int, no: int, at: int):
    """The second layer: ``out`` (int32 [no], holding B2) += W2 (int16 at ``w`` + 2 * ``at``)
    times the hidden units in ``acc`` (0..255)."""
    a = ptr32(acc)
    wt = ptr16(w)
    o = ptr32(out)
    for k in range(no):
        row = at + k * nh
        t = 0
        for j in range(nh):
            v = wt[row + j]
            if v & 0x8000:
                v -= 0x10000
            t += v * a[j]
        o[k] += t
'''


def _as_u16(x, _views={}):
    # MicroPython's bytecode kernel (measured against viper only): the weights as an array of
    # u16, copied into RAM once (its memoryview has no cast)
    v = _views.get(id(x))
    if v is None:
        import array

        v = _views[id(x)] = array.array("H", bytearray(x))
    return v


def _same(x):
    return x


def _compile(emitter):
    """The kernel's functions compiled by ``emitter``: "viper", "native" (machine code over the
    objects, as bytecode does) or "bytecode" (scripts/bench/bench_board_player.py compares them)."""
    src = _SOURCE
    if emitter != "viper":
        src = src.replace("@micropython.viper\n", "@micropython.native\n" if emitter == "native" else "")
    g = {"micropython": micropython, "ptr8": ptr8, "ptr16": ptr16, "ptr32": ptr32}
    if emitter != "viper" and sys.implementation.name == "micropython":
        g["ptr8"] = g["ptr32"] = _same
        g["ptr16"] = _as_u16
    exec(src, g)
    return g["_hidden"], g["_outputs"]


try:
    _hidden, _outputs = _compile("viper")
    EMITTER = "viper" if sys.implementation.name == "micropython" else "python"
except (SyntaxError, NameError):  # a MicroPython built without the native emitters
    _hidden, _outputs = _compile("bytecode")
    EMITTER = "bytecode"


class Net:
    """The net over its weights ``blob`` (bytes: boardplayer.net_weights.WEIGHTS).
    ``probabilities(cells, me)``: the five outputs for the side at ``me`` (0: the mover, 26: the
    opponent) as if it were on roll."""

    def __init__(self, blob, kernel=None):
        if blob[:4] != b"BGN1":
            raise ValueError("not the board player's weights (BGN1)")
        ni, nh, no, s1, s2 = struct.unpack_from("<HHHBB", blob, 4)
        if ni != N_INPUTS or no != N_OUTPUTS:
            raise ValueError("weights for %d inputs, %d outputs: the evaluator takes %d, %d"
                             % (ni, no, N_INPUTS, N_OUTPUTS))
        self.nh, self.s1, self.s2 = nh, s1, s2
        self.w = blob
        at = HEADER + 256 + 2 * ni * nh
        self.b1 = struct.unpack_from("<%di" % nh, blob, at)
        at += 4 * nh
        self.w2_at = at // 2  # in int16s
        at += 2 * no * nh
        self.b2 = struct.unpack_from("<%di" % no, blob, at)
        self.scale2 = 1.0 / (255 * (1 << s2))
        import array
        self.acc = array.array("i", self.b1)
        self.out = array.array("i", self.b2)
        self.hidden, self.outputs = kernel or (_hidden, _outputs)

    def raw(self, cells, me):
        """The output layer's integer sums for the side at ``me`` (into ``self.out``)."""
        acc = self.acc
        b1 = self.b1
        for j in range(self.nh):
            acc[j] = b1[j] + BIAS
        out = self.out
        b2 = self.b2
        for k in range(N_OUTPUTS):
            out[k] = b2[k] + BIAS
        self.hidden(cells, me, self.w, acc, self.nh, self.s1 - TABLE_STEP)
        self.outputs(acc, self.w, out, self.nh, N_OUTPUTS, self.w2_at)
        return out

    def probabilities(self, cells, me=0):
        out = self.raw(cells, me)
        sc = self.scale2
        p = [0.0] * N_OUTPUTS
        for k in range(N_OUTPUTS):
            z = (out[k] - BIAS) * sc
            if z < -30:
                z = -30
            p[k] = 1.0 / (1.0 + math.exp(-z))
        return sanitise(p)


def sanitise(p):
    """GNU Backgammon's consistency of the outputs: a backgammon is a gammon is a win, and a
    gammon cannot exceed the win (eval.c SanityCheck, in its simplest form)."""
    if p[1] > p[0]:
        p[1] = p[0]
    if p[3] > 1.0 - p[0]:
        p[3] = 1.0 - p[0]
    if p[2] > p[1]:
        p[2] = p[1]
    if p[4] > p[3]:
        p[4] = p[3]
    return p
