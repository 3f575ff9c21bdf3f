# Hypergammon: the standard rules with three checkers a side, one each on the opponent's 1, 2 and
# 3 points (GNU Backgammon's "hypergammon3"). The twelve others count as borne off from the start.
from bgrules.rules import Rules

RULES = Rules("Hypergammon", (0,) * 22 + (1, 1, 1, 0), key="hypergammon", checkers=3)
