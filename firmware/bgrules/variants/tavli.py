# Tavli (Greece, Cyprus; docs/variants.md): a match of Portes, Plakoto and Fevga played in turn
# (game 1 Portes, 2 Plakoto, 3 Fevga, 4 Portes ...) to the match length, each game by its own
# ruleset (bgrules.match_series.game_rules); the first game's opening roll says who starts, after that
# the last game's winner starts (Rules.opening "reroll" of the three); no cube.
from bgrules.rules import Rules

RULES = Rules("Tavli", key="tavli", cube=False, opening="reroll", backgammons=False)
RULES.cycle = ("portes", "plakoto", "fevga")
