# Fixed roll ("Fester Wurf", seed 002): the opening roll is every roll of the game, for both.
from bgrules.rules import STANDARD, Rules

RULES = Rules("Fixed roll", STANDARD.start, key="fixedroll", fixed_roll=True)
