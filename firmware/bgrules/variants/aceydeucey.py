# Acey Deucey (seed 002): the checkers are entered at will (one or two a roll, or moves on the
# board, or both); 1-2 is played, then a double of the player's choice, then another roll; no
# cube; the winner scores a point for each of the loser's checkers not borne off.
from bgrules.rules import Rules
from bgrules.variants.entering import EnterSearch

RULES = Rules("Acey Deucey", (0,) * 26, key="aceydeucey", search=EnterSearch, waiting=15, enter_first=0,
              cube=False, gammons=False, checker_points=True, acey_deucey="play")
