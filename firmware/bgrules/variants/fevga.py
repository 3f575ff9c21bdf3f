# Fevga ("run"), the third game of Tavli (docs/variants.md): a running game (bgrules/variants/
# running.py): all fifteen on the own 24 point, both the same way round from diagonally
# opposite corners, a single checker holds a point, nothing is hit; the standard dice, no cube;
# a game counts 1, or 2 when the loser has borne off none. Settings (bgrules.rules.ruleset,
# e.g. "fevga:first=12:row=ahead"):
# - ``first``: the first checker must pass the opponent's start (the mover's 12 point) before a
#   second leaves the head, 11 (Wikipedia "Fevga", brainking.com); 12: "in the opponent's
#   starting quarter" (bkgm.com, Condos' Tavli; itavli.i-smartsolutions.com).
# - ``row``: "quarter", never all six points of the own start quarter (19-24) at once
#   (brainking.com, Condos, itavli); "ahead": Long Nardy's rule, six in a row anywhere only with
#   an opponent checker already past them.
from bgrules.variants.running import running


def make(first=11, row="quarter"):
    if first not in (11, 12):
        raise ValueError("first is 11 (past the opponent's start) or 12 (into its quarter)")

    def why(at):
        if at == 24:
            return "First checker %s 12 first" % ("past" if first == 11 else "to")
        if row == "quarter":
            return "Not all of 19-24 at once"
        return "6 in a row at %d: none past it" % at

    return running("Fevga", "fevga", first_past=first, row=row, why=why)


RULES = make()
