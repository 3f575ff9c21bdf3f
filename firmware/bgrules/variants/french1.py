# French Backgammon 1 (seed 002): the checkers are entered (all before any moves, as from the
# bar: assumed); a double is played four times on top, four times underneath, then the player
# rolls again.
from bgrules.rules import Rules
from bgrules.variants.entering import EnterSearch

RULES = Rules("French Backgammon 1", (0,) * 26, key="french1", search=EnterSearch, waiting=15,
              doubles="underside_roll")
