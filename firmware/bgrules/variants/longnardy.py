# Long Nardy (Russia, the Caucasus, Central Asia, Iran; docs/variants.md): a running game
# (bgrules/variants/running.py): all fifteen on the head (the own 24 point), both the same way
# round from diagonally opposite corners, a single checker holds a point, nothing is hit; the
# standard dice, no cube; a game counts 1, or 2 ("mars") when the loser has borne off none.
# - One checker off the head a turn; on a player's first roll 6-6, 4-4 or 3-3 two may leave
#   (Wikipedia "Long Nardy"; vogclub.com; bkgm.com "Narde"; the Georgian federation's rules).
#   Setting ``doubles`` (bgrules.rules.ruleset, "longnardy:doubles=64"): the doubles that do.
# - Six points in a row only when at least one opponent checker is already past them.
from bgrules.variants.running import running


def why(at):
    if at == 24:
        return "One checker off the head a turn"
    return "6 in a row at %d: none past it" % at


def make(doubles=643):
    dice = bytes(int(x) for x in str(doubles))
    for d in dice:
        if not 1 <= d <= 6:
            raise ValueError("doubles: the dice of the doubles, e.g. 643")
    return running("Long Nardy", "longnardy", head_doubles=dice, row="ahead", why=why)


RULES = make()
