# Turkish Gioul (seed 002): every checker starts on the first point of the opponent's home board
# (all fifteen on the 24 point: an assumption, the picture is lost); no hitting, a single checker
# closes a point; rising doubles that pass to the opponent (bgrules.turn_parts); no cube; a win
# counts 2 when the loser has borne off nothing, else 1 (no backgammon).
from bgrules.rules import Rules

RULES = Rules("Turkish Gioul", (0,) * 24 + (15, 0), key="gioul", block=1, hitting=False, cube=False,
              backgammons=False)
RULES.doubles = "rising"
