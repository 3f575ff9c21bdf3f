# Double against free choice (seed 002): one player chooses any roll but a double instead of
# rolling, the other rolls twice a turn (bgrules.turn_parts); otherwise the standard game.
from bgrules.rules import STANDARD, Rules

RULES = Rules("Double against free choice", STANDARD.start, key="freechoice")
RULES.free_choice = True
