# Russian Backgammon (seed 002): both enter into the same quarter (all before any moves:
# assumed) and move the same way; doubles as French 1 but the rest of the turn is lost once a
# part cannot be played whole; no cube.
from bgrules.rules import Rules, SAME_WAY
from bgrules.variants.entering import EnterSearch

RULES = Rules("Russian Backgammon", (0,) * 26, SAME_WAY, key="russian", search=EnterSearch, waiting=15,
              cube=False, doubles="underside_roll_strict")
