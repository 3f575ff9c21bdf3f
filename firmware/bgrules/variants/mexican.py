# Mexican (seed 002): the smaller die first, else the roll is lost; at most five checkers on a
# point; after a double played whole the same player rolls again; 1-2 is not played: a double of
# the player's choice, then a new roll; exact bear-off; no gammons, no cube.
from bgrules.rules import STANDARD, Rules
from bgrules.variants.oldbritain import CappedSearch, CAP

RULES = Rules("Mexican", STANDARD.start, key="mexican", bear_off_higher=False, cube=False, gammons=False)
RULES.search = CappedSearch
RULES.cap = CAP
RULES.smaller_first = True
RULES.doubles = "roll_again"
RULES.acey_deucey = "skip"
