# Long Russian Puff (seed 002): Long Puff (one quarter to enter, the same way round), entering
# at will from the second checker in, as in Russian Puff.
from bgrules.rules import Rules
from bgrules.entering import EnterSearch

RULES = Rules("Long Russian Puff", (0,) * 26, bytes([25] + list(range(1, 25)) + [0]), key="longrussianpuff")
RULES.search = EnterSearch
RULES.waiting = 15
RULES.enter_first = 2
RULES.smaller_first = True
RULES.doubles = "underside"
