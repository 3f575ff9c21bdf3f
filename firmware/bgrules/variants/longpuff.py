# Long Puff (seed 002): Puff with both players entering into the same quarter and bearing off
# from the same quarter: both move the same way round the board.
from bgrules.rules import Rules
from bgrules.entering import EnterSearch

RULES = Rules("Long Puff", (0,) * 26, bytes([25] + list(range(1, 25)) + [0]), key="longpuff")
RULES.search = EnterSearch
RULES.waiting = 15
RULES.smaller_first = True
RULES.doubles = "underside"
