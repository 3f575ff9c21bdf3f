# Long Russian Puff (seed 002): Long Puff (one quarter to enter, the same way round), entering
# at will from the second checker in, as in Russian Puff.
from bgrules.rules import Rules, SAME_WAY
from bgrules.variants.entering import EnterSearch

RULES = Rules("Long Russian Puff", (0,) * 26, SAME_WAY, key="longrussianpuff", search=EnterSearch, waiting=15,
              enter_first=2, smaller_first=True, doubles="underside")
