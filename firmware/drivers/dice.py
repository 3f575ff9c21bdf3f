"""Electronic dice from hardware entropy, without modulo bias.

On the rp2 port ``os.urandom`` draws on the ring oscillator's random bit. A byte is uniform on
0..255; 256 is not a multiple of 6, so bytes 252..255 are rejected and drawn again (252 = 6 * 42
leaves each face exactly 42 byte values).
"""


class Dice:
    def __init__(self, entropy=None):
        """``entropy(n)`` returns n random bytes; default ``os.urandom``."""
        if entropy is None:
            import os

            entropy = os.urandom
        self._entropy = entropy
        self.rejected = 0

    def die(self):
        for _ in range(64):
            b = self._entropy(1)[0]
            if b < 252:
                return b % 6 + 1
            self.rejected += 1
        # 64 rejections in a row has probability 2**-256 from a working source.
        raise OSError("entropy source is stuck (64 bytes >= 252 in a row)")

    def roll(self):
        return self.die(), self.die()

    def first_roll(self):
        """Opening roll: one die each, rerolled while equal. Returns (white's, black's)."""
        while True:
            a, b = self.roll()
            if a != b:
                return a, b
