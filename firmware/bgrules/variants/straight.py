# Straight (seed 002): the standard start, but both players move the same way: white as usual,
# black from its standard checkers round the same way, bearing off past white's 24 too. In its
# own numbering black then starts 2 on 1, 5 on 12, 3 on 17, 5 on 19.
from bgrules.rules import STANDARD, Rules

RULES = Rules("Straight", STANDARD.start, bytes([25] + list(range(1, 25)) + [0]), key="straight")
RULES.start_black = (0, 2) + (0,) * 10 + (5,) + (0,) * 4 + (3, 0, 5) + (0,) * 6
