# Straight (seed 002): the standard start, but both players move the same way: white as usual,
# black from its standard checkers round the same way, bearing off past white's 24 too. In its
# own numbering black then starts 2 on 1, 5 on 12, 3 on 17, 5 on 19.
from bgrules.rules import Rules, SAME_WAY

RULES = Rules("Straight", None, SAME_WAY, key="straight",
              start_black=(0, 2) + (0,) * 10 + (5,) + (0,) * 4 + (3, 0, 5) + (0,) * 6)
