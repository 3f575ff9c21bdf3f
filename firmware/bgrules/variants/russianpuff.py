# Russian Puff (seed 002): Puff, but once the first two checkers are in, each die may enter a
# checker or move one on the board.
from bgrules.rules import Rules
from bgrules.entering import EnterSearch

RULES = Rules("Russian Puff", (0,) * 26, key="russianpuff")
RULES.search = EnterSearch
RULES.waiting = 15
RULES.enter_first = 2
RULES.smaller_first = True
RULES.doubles = "underside"
