# Acey Deucey (seed 002): the checkers are entered at will (one or two a roll, or moves on the
# board, or both); 1-2 is played, then a double of the player's choice, then another roll; no
# cube; the winner scores a point for each of the loser's checkers not borne off.
from bgrules.rules import Rules
from bgrules.entering import EnterSearch

RULES = Rules("Acey Deucey", (0,) * 26, key="aceydeucey", cube=False, gammons=False)
RULES.search = EnterSearch
RULES.waiting = 15
RULES.enter_first = 0
RULES.checker_points = True
RULES.acey_deucey = "play"
