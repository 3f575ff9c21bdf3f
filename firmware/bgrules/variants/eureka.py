# Eureka (seed 002): a bear-off race from the home board, no hitting, cube optional. The seed's
# picture of the start was lost; the layout is the traditional one (three checkers on each of the
# 1, 2, 3 points and two on each of the 4, 5, 6 points): docs/variants.md.
from bgrules.rules import Rules

RULES = Rules("Eureka", (0, 3, 3, 3, 2, 2, 2) + (0,) * 19, key="eureka", block=1, hitting=False)
