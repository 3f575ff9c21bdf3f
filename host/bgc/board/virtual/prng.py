"""A small deterministic PRNG (xorshift32) so the virtual board's spread, noise and drift come out
the same from a seed under CPython and MicroPython (MicroPython's random differs from CPython's
and has no gauss)."""

M32 = 0xFFFFFFFF

try:
    import numpy as _np
except ImportError:  # MicroPython (or a host without numpy): the loop of gausses
    _np = None


class Prng:
    def __init__(self, seed=1):
        self.x = (seed * 2654435761 + 0x9E3779B9) & M32 or 1
        for _ in range(8):
            self.next()

    def next(self):
        x = self.x
        x ^= (x << 13) & M32
        x ^= x >> 17
        x ^= (x << 5) & M32
        self.x = x
        return x

    def bits(self, n):
        return self.next() >> (32 - n)

    def uniform(self, a=0.0, b=1.0):
        return a + (b - a) * (self.next() / 4294967296.0)

    def gauss_int(self, sigma_x100):
        """A near-Gaussian integer with standard deviation sigma_x100/100, integer maths only.

        Sum of 12 uniform 12-bit draws (Irwin-Hall): standard deviation 4096, tails to 6 sigma.
        """
        s = 0
        for _ in range(12):
            s += self.next() >> 20
        g = s - 24570
        return (g * sigma_x100 + (204800 if g >= 0 else -204800)) // 409600

    def gauss(self, sigma=1.0):
        s = 0
        for _ in range(12):
            s += self.next() >> 20
        return (s - 24570) * sigma / 4096.0

    def gausses(self, sigma, n):
        """``n`` draws of gauss(sigma), the same numbers as ``n`` calls, the generator inlined
        (the virtual board's drift draws one per sensor every 50 ms of virtual time: with the
        loop, a fifth of a simulated match on CPython; with numpy, the jump table below)."""
        if _np is not None and n >= 16:
            states = _np.bitwise_xor.reduce(_jumps(12 * n)[:, [b for b in range(32) if self.x >> b & 1]], axis=1)
            self.x = int(states[-1])
            s = (states >> 20).astype(_np.int64).reshape(n, 12).sum(axis=1) - 24570
            return (s * sigma / 4096.0).tolist()
        x = self.x
        out = [0.0] * n
        for i in range(n):
            s = 0
            for _ in range(12):
                x ^= (x << 13) & M32
                x ^= x >> 17
                x ^= (x << 5) & M32
                s += x >> 20
            out[i] = (s - 24570) * sigma / 4096.0
        self.x = x
        return out


# xorshift32 is linear over GF(2): its k-th next state is the XOR, over the set bits of the state
# now, of the k-th next states of those single bits. One table a count of draws (12 x 32 words
# a draw), made once: a drift's 1,536 states in one XOR of at most 32 columns.
_JUMPS = {}


def _jumps(count):
    table = _JUMPS.get(count)
    if table is None:
        table = _np.zeros((count, 32), dtype=_np.uint32)
        for b in range(32):
            x = 1 << b
            for k in range(count):
                x ^= (x << 13) & M32
                x ^= x >> 17
                x ^= (x << 5) & M32
                table[k, b] = x
        _JUMPS[count] = table
    return table
