# Snake ("Schlange", seed 002): the standard rules from an unusual start. The seed's picture was
# lost; the start is the documented one (docs/variants.md): Black as usual, White two checkers
# each on Black's 1, 2 and 3 points (White's 24, 23, 22) and the other nine on the bar.
from bgrules.position import BAR
from bgrules.rules import Rules


def start_position():
    # Player 0 (White) is the mover of the first view; Match swaps it if Black opens.
    pos = Rules.start_position(RULES)
    c = pos.cells
    c[:26] = bytes(26)
    c[22] = c[23] = c[24] = 2
    c[BAR] = 9
    return pos


RULES = Rules("Snake", key="snake")
RULES.start_position = start_position  # a function, not a subclass: less RAM
