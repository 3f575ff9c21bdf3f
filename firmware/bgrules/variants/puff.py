# Puff (seed 002): no start layout; every checker is entered into the start quarter (the
# opponent's home board, as from the bar) before any checker moves; the smaller die first (if
# it cannot be played, the larger is lost too); a double is played on top, then underneath.
from bgrules.rules import Rules
from bgrules.variants.entering import EnterSearch

RULES = Rules("Puff", (0,) * 26, key="puff", search=EnterSearch, waiting=15, smaller_first=True,
              doubles="underside")
