# No hitting ("Schlagfrei", seed 002): the standard game, but a player who hits loses at once,
# a single game (the value is an assumption: docs/variants.md).
from bgrules.rules import STANDARD, Rules

RULES = Rules("No hitting", STANDARD.start, key="nohitting", hit_loses=True)
