# Russian Puff (seed 002): Puff, but once the first two checkers are in, each die may enter a
# checker or move one on the board.
from bgrules.rules import Rules
from bgrules.variants.entering import EnterSearch

RULES = Rules("Russian Puff", (0,) * 26, key="russianpuff", search=EnterSearch, waiting=15, enter_first=2,
              smaller_first=True, doubles="underside")
