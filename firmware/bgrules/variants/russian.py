# Russian Backgammon (seed 002): both enter into the same quarter (all before any moves:
# assumed) and move the same way; doubles as French 1 but the rest of the turn is lost once a
# part cannot be played whole; no cube.
from bgrules.rules import Rules
from bgrules.entering import EnterSearch

RULES = Rules("Russian Backgammon", (0,) * 26, bytes([25] + list(range(1, 25)) + [0]), key="russian", cube=False)
RULES.search = EnterSearch
RULES.waiting = 15
RULES.doubles = "underside_roll_strict"
