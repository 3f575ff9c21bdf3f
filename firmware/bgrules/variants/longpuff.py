# Long Puff (seed 002): Puff with both players entering into the same quarter and bearing off
# from the same quarter: both move the same way round the board.
from bgrules.rules import Rules, SAME_WAY
from bgrules.variants.entering import EnterSearch

RULES = Rules("Long Puff", (0,) * 26, SAME_WAY, key="longpuff", search=EnterSearch, waiting=15,
              smaller_first=True, doubles="underside")
