# Reverse ("Verkehrt", seed 002): the standard game, but the player who bears off the last
# checker first loses; counted as a single game (an assumption: docs/variants.md).
from bgrules.rules import STANDARD, Rules

RULES = Rules("Reverse", STANDARD.start, key="reverse", gammons=False, last_out_wins=True)
