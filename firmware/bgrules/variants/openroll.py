# Open roll ("Offener Wurf", seed 002): before a player moves, the opponent rolls the dice of
# their own next turn, so the player sees them while moving.
from bgrules.rules import STANDARD, Rules

RULES = Rules("Open roll", STANDARD.start, key="openroll", open_roll=True)
